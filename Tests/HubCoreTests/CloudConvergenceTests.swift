import Foundation
import Testing
@testable import HubCore
import HyzerKit
import HyzerHarness

/// The convergence property of docs/SYNC.md, over many random rounds: phones that hold the same
/// events show the same standings, positions, totals and discrepancy flags, whatever order the
/// events reached each of them in.
///
/// The phones are real hubs (in memory) using the same calls the sync engine makes. Between them
/// stands the one thing the cloud contributes to the outcome: its order. `CloudOrder` numbers each
/// round's events as they are first uploaded and ignores an id it already holds, as the PostgreSQL
/// cloud does (the cloud tests check that server for the same contract end to end).
@Suite("Cloud sync converges")
struct CloudConvergenceTests {
    static let names = ["Jake", "Sarah", "Mike"]

    /// The cloud's contract for order: first upload wins a number; a resend keeps its number.
    struct CloudOrder {
        var events: [CloudEvent] = []
        var numbers: [UUID: Int64] = [:]

        mutating func upload(_ batch: [ScoreEvent]) -> [CloudEvent] {
            batch.map { event in
                if let number = numbers[event.id] { return CloudEvent(event: event, cloudSeq: number) }
                let stored = CloudEvent(event: event, cloudSeq: Int64(events.count + 1))
                numbers[event.id] = stored.cloudSeq
                events.append(stored)
                return stored
            }
        }

        func events(after cursor: Int64, limit: Int) -> [CloudEvent] {
            Array(events.drop { $0.cloudSeq <= cursor }.prefix(limit))
        }
    }

    struct Group {
        var phones: [Hub]
        var cloud = CloudOrder()
        /// Downloads whose standings came back built in memory (checked against the log).
        var builtInMemory = 0
        let shared: CloudRound
        var roundID: UUID { shared.id }
    }

    static func makeGroup(phones count: Int, anyPlayerResolves: Bool) throws -> Group {
        var phones: [Hub] = []
        for index in 0..<count {
            let hub = try Hub.inMemory()
            // Each phone its own role: the organizer is the role that shared the round.
            try hub.setCloud(CloudConfiguration(url: "postgres://phone\(index)@cloud/hyzer", player: names[index % names.count]))
            phones.append(hub)
        }
        try phones[0].startRound(course: "Willow Creek", players: names, anyPlayerResolves: anyPlayerResolves)
        let shared = try #require(try phones[0].cloudWork().roundsToUpload.first)
        try phones[0].recordRoundUploaded(shared.id, organizer: "phone0")
        for phone in phones.dropFirst() { try phone.join(shared) }
        return Group(phones: phones, shared: shared)
    }

    /// Uploads up to `limit` waiting events of one phone; with `lossy`, the acknowledgement is
    /// lost (the cloud committed, the phone does not know, and sends them again later).
    static func upload(_ group: inout Group, phone: Int, limit: Int, lossy: Bool) throws {
        let waiting = try group.phones[phone].cloudWork(eventLimit: limit).eventsToUpload
        let acknowledged = group.cloud.upload(waiting)
        if !lossy { try group.phones[phone].recordUploaded(acknowledged) }
    }

    static func download(_ group: inout Group, phone: Int, limit: Int, replayFromStart: Bool = false) throws {
        let cursor = replayFromStart ? 0 : try group.phones[phone].cloudWork(eventLimit: 0).cursors[group.roundID] ?? 0
        let batch = group.cloud.events(after: cursor, limit: limit)
        guard !batch.isEmpty else { return }
        let hub = group.phones[phone]
        let applied = try hub.applyFromCloud(roundID: group.roundID, rows: batch.map(CloudRow.event), status: nil)
        // The standings built in memory as the download committed (what serve pushes) are the
        // log's, read whole.
        if let built = applied.snapshot, let round = try hub.roundInPlay() {
            group.builtInMemory += 1
            #expect(built.round == RoundSnapshot(round: round, events: try hub.eventLog().events))
            #expect(built.sequence == (try hub.currentSequence()))
        }
    }

    /// One phone does what a person on the course might: score anyone, correct, resolve.
    static func act(_ group: inout Group, phone: Int, random: inout SeededRandom) throws {
        let hub = group.phones[phone]
        let player = names.randomElement(using: &random)!
        let hole = Int.random(in: 1...3, using: &random)
        let strokes = Int.random(in: 2...5, using: &random)
        // A phone that sees a discrepancy settles it half the time (refused unless it may resolve).
        if let open = try hub.discrepancies().discrepancies.randomElement(using: &random), Bool.random(using: &random) {
            let name = try #require(try hub.currentOrLatestRound()?.player(open.playerID)?.name)
            let chosen = open.candidateStrokes.randomElement(using: &random) ?? strokes
            do { try hub.resolve(player: name, strokes: chosen, hole: open.hole) } catch HubError.notOrganizer {}
            return
        }
        if Int.random(in: 0..<10, using: &random) < 7 {
            do { try hub.score(player: player, strokes: strokes, hole: hole) } catch HubError.alreadyScored {
                try hub.correct(player: player, strokes: strokes, hole: hole)
            }
        } else {
            do { try hub.correct(player: player, strokes: strokes, hole: hole) } catch HubError.noScoreToCorrect {}
        }
    }

    /// The lines where two views differ, for a failure message.
    static func difference(_ a: String, _ b: String) -> String {
        let left = a.split(separator: "\n", omittingEmptySubsequences: false), right = b.split(separator: "\n", omittingEmptySubsequences: false)
        return zip(left, right).enumerated().filter { $0.element.0 != $0.element.1 }.prefix(6)
            .map { "line \($0.offset + 1): \($0.element.0)  ≠  \($0.element.1)" }.joined(separator: "\n")
    }

    static func cachedEqualsFull(_ hub: Hub) throws -> Bool {
        guard let round = try hub.roundInPlay() else { return true }
        return try hub.snapshot().round == RoundSnapshot(round: round, events: try hub.eventLog().events)
    }

    /// What a phone shows of the round: the snapshot's round section and the open discrepancies.
    static func view(of hub: Hub) throws -> String {
        let round = try hub.snapshot().round
        let open = try hub.discrepancies().discrepancies.map { "\($0.playerID)#\($0.hole):\($0.candidateStrokes)" }
        return String(decoding: try HyzerJSON.encoder(pretty: true).encode(round), as: UTF8.self) + "\n" + open.joined(separator: ",")
    }

    @Test("The upload queue is read from where it starts, never past a score that waits: a round shared after its scores queues them all, a score acknowledged after a later one still goes up")
    func uploadQueueStart() throws {
        let hub = try Hub.inMemory()
        try hub.startRound(course: "Willow Creek", players: Self.names)
        try hub.score(player: "Jake", strokes: 3, hole: 1)
        try hub.score(player: "Sarah", strokes: 4, hole: 1)
        #expect(try hub.cloudWork().eventsToUpload.isEmpty, "no cloud: nothing is shared, nothing waits")
        // The round in play becomes shared: its scores, below where the last read ended, wait now.
        try hub.setCloud(CloudConfiguration(url: "postgres://phone0@cloud/hyzer", player: "Jake"))
        let waiting = try hub.cloudWork().eventsToUpload
        #expect(waiting.count == 2)
        #expect(try hub.cloudSummary().eventsWaiting == 2)
        // The later score acknowledged first (the earlier one's refusal not recorded yet).
        try hub.recordUploaded([CloudEvent(event: waiting[1], cloudSeq: 1)])
        #expect(try hub.cloudWork().eventsToUpload.map(\.id) == [waiting[0].id])
        try hub.recordRefused(waiting[0].id, reason: "HZ020: refused")
        #expect(try hub.cloudWork().eventsToUpload.isEmpty)
        #expect(try hub.cloudSummary().eventsWaiting == 0)
        try hub.score(player: "Mike", strokes: 5, hole: 1)
        #expect(try hub.cloudWork().eventsToUpload.count == 1)
        #expect(try hub.cloudSummary().eventsWaiting == 1)
    }

    @Test("A download that completes the round ends it on the phone: no score enters it or any other round after, and the standings are read, not pushed as a round in play")
    func downloadCompletesRound() throws {
        var group = try Self.makeGroup(phones: 2, anyPlayerResolves: false)
        try group.phones[0].score(player: "Jake", strokes: 3, hole: 1)
        try Self.upload(&group, phone: 0, limit: 10, lossy: false)
        let phone = group.phones[1]
        let batch = group.cloud.events(after: 0, limit: 10).map(CloudRow.event)
        let applied = try phone.applyFromCloud(roundID: group.roundID, rows: batch, status: .completed)
        #expect(applied.changed && applied.snapshot == nil)
        #expect(try phone.roundInPlay() == nil)
        #expect(try phone.snapshot().finishedRound?.standings.first?.name == "Jake")
        let round = try #require(try phone.currentOrLatestRound())
        let late = try ScoreEvent(roundID: round.id, playerID: round.players[1].id, hole: 2, strokes: 4,
                                  reportedByPlayerID: round.players[1].id, deviceID: "watch-sarah", source: .crown, createdAt: Date())
        #expect(throws: HubError.score(.roundNotAcceptingScores(status: .completed))) { try phone.append(late) }
        let elsewhere = try ScoreEvent(roundID: UUID(), playerID: round.players[1].id, hole: 2, strokes: 4,
                                       reportedByPlayerID: round.players[1].id, deviceID: "watch-sarah", source: .crown, createdAt: Date())
        #expect(throws: HubError.noActiveRound) { try phone.append(elsewhere) }
    }

    @Test("Every phone ends with the same standings and flags, whatever order events arrived in")
    func randomizedConvergence() async throws {
        try await offThePool {
            var random = try SeededRandom.fromEnvironment(for: "randomizedConvergence")
            let replay = random.replay(filter: "randomizedConvergence")
            var discrepanciesSeen = 0, resolutionsSeen = 0, correctionsSeen = 0, builtInMemory = 0
            for trial in 0..<80 {
                var group = try Self.makeGroup(phones: Int.random(in: 2...4, using: &random), anyPlayerResolves: Bool.random(using: &random))
                for _ in 0..<Int.random(in: 10...50, using: &random) {
                    let phone = Int.random(in: 0..<group.phones.count, using: &random)
                    switch Int.random(in: 0..<10, using: &random) {
                    case 0..<5: try Self.act(&group, phone: phone, random: &random)
                    case 5..<7: try Self.upload(&group, phone: phone, limit: Int.random(in: 1...5, using: &random), lossy: Int.random(in: 0..<5, using: &random) == 0)
                    case 7..<9: try Self.download(&group, phone: phone, limit: Int.random(in: 1...6, using: &random))
                    default: try Self.download(&group, phone: phone, limit: 100, replayFromStart: true)  // a duplicate delivery
                    }
                    // The standings each phone keeps in memory (brought up to date row by row, or
                    // rebuilt when the cloud orders an event before one it holds) equal a full recompute.
                    #expect(try Self.cachedEqualsFull(group.phones[phone]), "phone \(phone) in trial \(trial): \(replay)")
                }
                // Healing: everything reaches the cloud, then every phone catches up, in a random order.
                for phone in group.phones.indices.shuffled(using: &random) { try Self.upload(&group, phone: phone, limit: 10_000, lossy: false) }
                for phone in group.phones.indices.shuffled(using: &random) { try Self.download(&group, phone: phone, limit: 10_000) }
                // A phone that was away for the whole round catches up in one batch.
                let latecomer = try Hub.inMemory()
                try latecomer.setCloud(CloudConfiguration(url: "postgres://hyzer@cloud/hyzer", player: "Mike"))
                try latecomer.join(group.shared)
                try latecomer.applyFromCloud(roundID: group.roundID, events: group.cloud.events, status: nil)

                let reference = try Self.view(of: latecomer)
                for (index, phone) in group.phones.enumerated() {
                    let view = try Self.view(of: phone)
                    #expect(view == reference, "trial \(trial), phone \(index): \(replay)\n\(Self.difference(view, reference))")
                    #expect(try phone.eventLog().events.map(\.id) == group.cloud.events.map(\.event.id), "trial \(trial), phone \(index) log order: \(replay)")
                    #expect(try phone.cloudSummary().eventsWaiting == 0)
                }
                #expect(Set(group.cloud.events.map(\.event.id)).count == group.cloud.events.count, "each event once in the cloud: \(replay)")
                let log = group.cloud.events.map(\.event)
                // And that state is the rule's (ScoreRule) over the cloud's order.
                #expect(try latecomer.discrepancies().discrepancies == ConflictDetector.openDiscrepancies(in: log), "trial \(trial): \(replay)")
                discrepanciesSeen += ConflictDetector.openDiscrepancies(in: log).count
                resolutionsSeen += log.filter { $0.source == .resolution }.count
                correctionsSeen += log.filter { $0.supersedesEventID != nil && $0.source != .resolution }.count
                builtInMemory += group.builtInMemory
            }
            print("randomizedConvergence: \(discrepanciesSeen) discrepancies open at the end, \(resolutionsSeen) resolutions, \(correctionsSeen) corrections, \(builtInMemory) downloads' standings built in memory")
            // The draws did exercise the hard cases. Resolutions are the rarest (a draw resolves
            // only an open discrepancy on a phone allowed to): 19 in one seed's 80 trials, about
            // 40 in most, so their floor is lower; a generator that never drew one still fails.
            #expect(discrepanciesSeen > 20 && resolutionsSeen > 5 && correctionsSeen > 20 && builtInMemory > 20,
                    "discrepancies \(discrepanciesSeen), resolutions \(resolutionsSeen), corrections \(correctionsSeen), built in memory \(builtInMemory): \(replay)")
        }
    }
}
