import Foundation
import GRDB
import Testing
@testable import HubCore
import HyzerKit
import HyzerHarness

@Suite("Hub event store")
struct HubStoreTests {
    static let start = Date(timeIntervalSince1970: 1_795_000_000)

    static func hubWithRound(players: [String] = ["Jake", "Mike"], guests: [String] = []) throws -> (Hub, Round) {
        let hub = try Hub.inMemory(clock: { start })
        let round = try hub.startRound(course: "Willow Creek", players: players, guests: guests)
        return (hub, round)
    }

    /// A hub on files in a temporary home, and a second, raw connection to its database: what any
    /// other program could do to the file.
    static func hubOnDiskWithRound(in home: TemporaryHome) throws -> (Hub, Round, DatabaseQueue) {
        let hub = try Hub.open(paths: HyzerPaths(home: home.url), clock: { start })
        let round = try hub.startRound(course: "Willow Creek", players: ["Jake", "Mike"])
        return (hub, round, try DatabaseQueue(path: home.url.appendingPathComponent("hub/hyzer.sqlite").path))
    }

    static func event(_ round: Round, _ player: String, hole: Int, strokes: Int, device: String = "watch-1",
                      supersedes: UUID? = nil, id: UUID = UUID()) throws -> ScoreEvent {
        let player = round.players.first { $0.name == player }!
        return try ScoreEvent(id: id, roundID: round.id, playerID: player.id, hole: hole, strokes: strokes,
                              supersedesEventID: supersedes, reportedByPlayerID: player.id, deviceID: device,
                              source: .crown, createdAt: start)
    }

    @Test("The three shipped courses are there on first use")
    func seededCourses() throws {
        let hub = try Hub.inMemory()
        let courses = try hub.courses()
        #expect(courses.map(\.name) == ["Cedar Ridge", "Maple Hill", "Willow Creek"])
        #expect(courses.map(\.holeCount) == [18, 18, 9])
        #expect(courses.allSatisfy { $0.holes.allSatisfy { Hole.allowedPar.contains($0.par) } })
    }

    @Test("An appended event reads back identical, in arrival order")
    func roundTrip() throws {
        let (hub, round) = try Self.hubWithRound()
        let first = try Self.event(round, "Jake", hole: 1, strokes: 3)
        let second = try Self.event(round, "Mike", hole: 1, strokes: 4)
        #expect(try hub.append(first).outcome == .stored(.newScore))
        #expect(try hub.append(second).outcome == .stored(.newScore))
        let log = try hub.eventLog()
        #expect(log.events == [first, second])
        #expect(log.round?.id == round.id)
    }

    @Test("Appending an id already stored is a no-op that says already stored")
    func duplicateIsNoOp() throws {
        let (hub, round) = try Self.hubWithRound()
        let event = try Self.event(round, "Jake", hole: 1, strokes: 3)
        try hub.append(event)
        let sequenceBefore = try hub.snapshot().sequence
        #expect(try hub.append(event).outcome == .alreadyStored)
        #expect(try hub.eventLog().events == [event])
        #expect(try hub.snapshot().sequence == sequenceBefore)
    }

    @Test("A resend is acked as already stored even where the checks would now refuse it as a new score")
    func resendsAckedWhateverTheRoundSays() throws {
        let (hub, round) = try Self.hubWithRound()
        let first = try Self.event(round, "Jake", hole: 1, strokes: 3)
        let correction = try Self.event(round, "Jake", hole: 1, strokes: 2, supersedes: first.id)
        let again = try Self.event(round, "Jake", hole: 1, strokes: 4, supersedes: correction.id)
        for event in [first, correction, again] { try hub.append(event) }
        // The correction's target has been replaced since: as a new event it would fork the chain.
        #expect(try hub.append(correction).outcome == .alreadyStored)
        // The same ids in one batch: each is a resend, and the batch is all acks.
        #expect(try hub.append(batch: [first, correction, first]).map(\.outcome) == [.alreadyStored, .alreadyStored, .alreadyStored])
        // A new score and its resend in one batch: stored once.
        let mike = try Self.event(round, "Mike", hole: 1, strokes: 3)
        #expect(try hub.append(batch: [mike, mike]).map(\.outcome) == [.stored(.newScore), .alreadyStored])
        #expect(try hub.eventLog().events == [first, correction, again, mike])

        // After the round is finished, a resend is still an ack; a new score is refused.
        _ = try hub.finishRound(force: true)
        #expect(try hub.append(first).outcome == .alreadyStored)
        #expect(throws: HubError.self) { try hub.append(try Self.event(round, "Mike", hole: 2, strokes: 3)) }

        // In the next round, an event reusing an id the old round's log holds is refused, not acked.
        let next = try hub.startRound(course: "Willow Creek", players: ["Jake", "Mike"])
        let reused = try Self.event(next, "Mike", hole: 1, strokes: 3, id: first.id)
        let error = #expect(throws: HubError.self) { try hub.append(reused) }
        #expect("\(error.map { "\($0)" } ?? "")".contains(first.id.uuidString))
        #expect(try hub.eventLog().events.isEmpty)
    }

    @Test("The same id with another score is refused in a batch too, and the batch stores nothing")
    func idReusedInBatchRefused() throws {
        let (hub, round) = try Self.hubWithRound()
        let jake = try Self.event(round, "Jake", hole: 1, strokes: 3)
        try hub.append(jake)
        let mike = try Self.event(round, "Mike", hole: 1, strokes: 4)
        let clash = try Self.event(round, "Mike", hole: 2, strokes: 4, id: jake.id)
        #expect(throws: HubError.self) { try hub.append(batch: [mike, clash]) }
        #expect(try hub.eventLog().events == [jake])
        // The hub goes on as before: the same batch without the clash is stored.
        #expect(try hub.append(batch: [mike]).map(\.outcome) == [.stored(.newScore)])
    }

    @Test("New score events get time-ordered ids: version 7, later ones sorting after earlier ones as text")
    func timeOrderedIDs() throws {
        let (_, round) = try Self.hubWithRound()
        let player = round.players[0]
        let ids = try (0..<50).map { index in
            try ScoreEvent(roundID: round.id, playerID: player.id, hole: 1, strokes: 3, reportedByPlayerID: player.id, deviceID: "w",
                           source: .crown, createdAt: Self.start.addingTimeInterval(Double(index) * 0.002)).id
        }
        #expect(ids.allSatisfy { $0.uuidString.dropFirst(14).first == "7" })
        #expect(ids.allSatisfy { "89AB".contains($0.uuidString.dropFirst(19).first!) })
        #expect(ids.map(\.canonicalString) == ids.map(\.canonicalString).sorted())
        #expect(Set(ids).count == ids.count)
        // The first 48 bits are the time in milliseconds.
        let millis = ids[0].uuidString.replacingOccurrences(of: "-", with: "").prefix(12)
        #expect(UInt64(millis, radix: 16) == UInt64((Self.start.timeIntervalSince1970 * 1000).rounded(.down)))
    }

    @Test("Once SQLite has rolled a transaction back under the hub (a full disk, an I/O error), its later writes are refused and so is its commit: nothing of it is stored")
    func nothingWrittenAfterAnAbort() throws {
        let (hub, round) = try Self.hubWithRound()
        let first = try Self.event(round, "Jake", hole: 1, strokes: 3)
        let second = try Self.event(round, "Mike", hole: 1, strokes: 4)
        let sequence = try hub.snapshot().sequence
        #expect(throws: DatabaseError.self, "a write after the rollback") {
            try hub.database.write { store in
                try store.insert(first, receivedAt: Self.start)
                try store.db.execute(sql: "ROLLBACK")  // what SQLite does itself on SQLITE_FULL or SQLITE_IOERR
                try store.insert(second, receivedAt: Self.start)
            }
        }
        #expect(throws: DatabaseError.self, "a transaction that ends after the rollback") {
            try hub.database.write { store in
                try store.insert(first, receivedAt: Self.start)
                try store.db.execute(sql: "ROLLBACK")
            }
        }
        #expect(try hub.eventLog().events.isEmpty)
        #expect(try hub.snapshot().sequence == sequence)
        #expect(try hub.append(second).outcome == .stored(.newScore), "the hub writes again at once")
    }

    @Test("The events listing tells events of the same minute apart by their ids, and names the one a correction supersedes")
    func eventsListingIDs() throws {
        let (hub, round) = try Self.hubWithRound()
        let first = try hub.score(player: "Jake", strokes: 3, hole: 1).event
        let correction = try hub.correct(player: "Jake", strokes: 4, hole: 1).event
        let rows = HubText.events(try hub.eventLog().events, round: round).split(separator: "\n").dropFirst().map { $0.split(separator: " ").map(String.init) }
        #expect(rows.count == 2)
        let (firstID, correctionID) = (rows[0][rows[0].count - 1], rows[1][rows[1].count - 2])
        #expect(firstID != correctionID, "two events scored a moment apart show two ids")
        #expect(rows[1].last == firstID, "the correction's SUPERSEDES column is the first event's id")
        #expect(first.id.uuidString.hasSuffix(firstID) && correction.id.uuidString.hasSuffix(correctionID))
    }

    @Test("UPDATE on the score event table fails with SQLite's error")
    func updateRefused() throws {
        let home = try TemporaryHome()
        let (hub, round, raw) = try Self.hubOnDiskWithRound(in: home)
        try hub.append(try Self.event(round, "Jake", hole: 1, strokes: 3))
        let error = #expect(throws: DatabaseError.self) {
            try raw.write { db in try db.execute(sql: "UPDATE score_event SET strokes = 2") }
        }
        #expect(error?.resultCode == .SQLITE_CONSTRAINT)
        #expect(error?.message == "score_event is append-only: UPDATE is not allowed")
        #expect(try hub.eventLog().events.map(\.strokes) == [3])
    }

    @Test("DELETE on the score event table fails with SQLite's error")
    func deleteRefused() throws {
        let home = try TemporaryHome()
        let (hub, round, raw) = try Self.hubOnDiskWithRound(in: home)
        try hub.append(try Self.event(round, "Jake", hole: 1, strokes: 3))
        let error = #expect(throws: DatabaseError.self) {
            try raw.write { db in try db.execute(sql: "DELETE FROM score_event") }
        }
        #expect(error?.message == "score_event is append-only: DELETE is not allowed")
        #expect(try hub.eventLog().events.count == 1)
    }

    @Test("The schema itself refuses strokes outside 1...10 and a second event with the same id")
    func schemaConstraints() throws {
        let home = try TemporaryHome()
        let (hub, round, raw) = try Self.hubOnDiskWithRound(in: home)
        let event = try Self.event(round, "Jake", hole: 1, strokes: 3)
        try hub.append(event)
        let outOfRange = #expect(throws: DatabaseError.self) {
            try raw.write { db in
                try db.execute(sql: """
                    INSERT INTO score_event (id, roundID, playerID, hole, strokes, reportedByPlayerID, deviceID, source, createdAt, receivedAt)
                    VALUES ('x', ?, ?, 1, 11, 'p', 'd', 'tap', 'now', 'now')
                    """, arguments: [round.id.uuidString, round.players[0].id])
            }
        }
        #expect(outOfRange?.extendedResultCode == .SQLITE_CONSTRAINT_CHECK)
        #expect(outOfRange?.message?.contains("strokes") == true, "\(String(describing: outOfRange))")
        let duplicate = try #require(try raw.read { db in try Row.fetchOne(db, sql: "SELECT * FROM score_event") })
        let sameID = #expect(throws: DatabaseError.self) {
            try raw.write { db in
                try db.execute(sql: """
                    INSERT INTO score_event (id, roundID, playerID, hole, strokes, reportedByPlayerID, deviceID, source, createdAt, receivedAt)
                    VALUES (?, ?, ?, 2, 4, 'p', 'd', 'tap', 'now', 'now')
                    """, arguments: [duplicate["id"] as String, duplicate["roundID"] as String, duplicate["playerID"] as String])
            }
        }
        #expect(sameID?.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE)
        #expect(sameID?.message == "UNIQUE constraint failed: score_event.id")
        #expect(try hub.eventLog().events == [event])
    }

    @Test("Refused events name the reason and store nothing")
    func refusals() throws {
        let (hub, round) = try Self.hubWithRound()
        let stranger = try ScoreEvent(roundID: round.id, playerID: "guest:Nobody", hole: 1, strokes: 3,
                                      reportedByPlayerID: "x", deviceID: "w", source: .crown, createdAt: Self.start)
        #expect(throws: HubError.score(.unknownPlayer("guest:Nobody"))) { try hub.append(stranger) }
        #expect(throws: HubError.score(.holeOutOfRange(hole: 10, holeCount: 9))) {
            try hub.append(try Self.event(round, "Jake", hole: 10, strokes: 3))
        }
        let missing = UUID()
        #expect(throws: HubError.score(.unknownSupersededEvent(missing))) {
            try hub.append(try Self.event(round, "Jake", hole: 1, strokes: 3, supersedes: missing))
        }
        let mikes = try Self.event(round, "Mike", hole: 1, strokes: 3)
        try hub.append(mikes)
        #expect(throws: HubError.score(.supersedesDifferentScore(mikes.id))) {
            try hub.append(try Self.event(round, "Jake", hole: 1, strokes: 3, supersedes: mikes.id))
        }
        #expect(try hub.eventLog().events == [mikes])
    }

    @Test("The round becomes awaitingFinalization when every player has every hole, then finishes")
    func lifecycle() throws {
        let (hub, round) = try Self.hubWithRound(players: ["Jake"])
        for hole in 1...8 { try hub.score(player: "Jake", strokes: 3, hole: hole) }
        #expect(try hub.roundInPlay()?.status == .active)
        #expect(throws: HubError.round(.incomplete(missingScores: 1))) { try hub.finishRound() }
        try hub.score(player: "Jake", strokes: 3, hole: 9)
        #expect(try hub.roundInPlay()?.status == .awaitingFinalization)
        #expect(try hub.finishRound().round.status == .completed)
        #expect(try hub.roundInPlay() == nil)
        #expect(try hub.snapshot().round == nil)
        #expect(try hub.eventLog().round?.id == round.id)
    }

    @Test("A shotgun start: after the hole moved to is complete, the current hole goes on to the next incomplete one, wrapping round")
    func shotgunAdvance() throws {
        let (hub, _) = try Self.hubWithRound(players: ["Jake", "Mike"])
        _ = try hub.moveToHole(8)
        try hub.score(player: "Jake", strokes: 3)
        #expect(try hub.snapshot().round?.currentHole == 8, "Mike has not scored hole 8 yet")
        try hub.score(player: "Mike", strokes: 4)
        #expect(try hub.snapshot().round?.currentHole == 9)
        try hub.score(player: "Jake", strokes: 3)
        try hub.score(player: "Mike", strokes: 3)
        #expect(try hub.snapshot().round?.currentHole == 1, "after the last hole, round to the first")
        for hole in 1...7 {
            try hub.score(player: "Jake", strokes: 3)
            try hub.score(player: "Mike", strokes: 3)
            #expect(try hub.snapshot().round?.currentHole == (hole == 7 ? 9 : hole + 1))
        }
        #expect(try hub.roundInPlay()?.status == .awaitingFinalization)
    }

    @Test("A first name two players share is answered with both, not \"no player named\"; a hyphenated first name is the player")
    func sharedAndHyphenatedNames() throws {
        let hub = try Hub.inMemory()
        _ = try hub.startRound(course: "Willow Creek", players: ["Paul McBeth", "Paul Ulibarri", "Mary-Kate Olsen"])
        #expect(throws: HubError.ambiguousPlayer("Paul", candidates: ["Paul McBeth", "Paul Ulibarri"])) { try hub.score(player: "Paul", strokes: 3) }
        #expect(HubError.ambiguousPlayer("Paul", candidates: ["Paul McBeth", "Paul Ulibarri"]).description
            == "\"Paul\" could be \"Paul McBeth\" or \"Paul Ulibarri\"; give more of the name.")
        #expect(try hub.score(player: "Mary-Kate", strokes: 3).event.strokes == 3)
        #expect(try hub.score(player: "Ulibarri", strokes: 4).event.strokes == 4)
    }

    @Test("Only one round can be in play")
    func oneRoundAtATime() throws {
        let (hub, _) = try Self.hubWithRound()
        #expect(throws: HubError.roundAlreadyInPlay(course: "Willow Creek")) {
            try hub.startRound(course: "Maple Hill", players: ["Amy"])
        }
    }

    @Test("Registered players keep their identity across rounds; guests are guest:<name>")
    func playersAcrossRounds() throws {
        let hub = try Hub.inMemory()
        let first = try hub.startRound(course: "Willow Creek", players: ["Jake"], guests: ["Zed"])
        try hub.finishRound(force: true)
        let second = try hub.startRound(course: "Maple Hill", players: ["jake"])
        #expect(second.players == [first.players[0]])
        #expect(first.players[1].id == "guest:Zed")
    }

    @Test("A resolution settles the discrepancy; standings use the resolved strokes")
    func resolution() throws {
        let (hub, round) = try Self.hubWithRound()
        try hub.score(player: "Mike", strokes: 3, hole: 1)
        let watch = try hub.append(try Self.event(round, "Mike", hole: 1, strokes: 4))
        #expect(watch.outcome == .stored(.discrepancy))
        #expect(try hub.discrepancies().discrepancies.map(\.candidateStrokes) == [[3, 4]])
        #expect(try hub.snapshot().round?.standings.first { $0.name == "Mike" }?.discrepancy == true)
        #expect(throws: HubError.noDiscrepancy(player: "Jake", hole: 1)) { try hub.resolve(player: "Jake", strokes: 3, hole: 1) }

        let resolved = try hub.resolve(player: "Mike", strokes: 4, hole: 1)
        #expect(resolved.outcome == .stored(.resolution))
        #expect(try hub.discrepancies().discrepancies == [])
        let mike = try #require(try hub.snapshot().round?.standings.first { $0.name == "Mike" })
        #expect(mike.totalStrokes == 4)
        #expect(mike.discrepancy == false)
    }

    @Test("A round with a discrepancy open is finished only when forced, and then says which score the standings counted")
    func finishWithOpenDiscrepancy() throws {
        let (hub, round) = try Self.hubWithRound(players: ["Jake", "Mike"])
        for hole in 1...9 { try hub.score(player: "Jake", strokes: 3, hole: hole) }
        #expect(try hub.append(try Self.event(round, "Jake", hole: 4, strokes: 5)).outcome == .stored(.discrepancy))
        // Refused while Mike's holes are missing too: both are said.
        #expect(throws: HubError.openDiscrepancies([.init(player: "Jake", hole: 4)], missingScores: 9)) { try hub.finishRound() }
        #expect(HubError.openDiscrepancies([.init(player: "Jake", hole: 4)], missingScores: 9).description
            == "The round is not complete: 9 scores are still missing, and it has an open discrepancy: Jake, hole 4."
            + " Settle it first with: hyzer-hub resolve \"Jake\" STROKES --hole 4"
            + " (hyzer-hub discrepancies shows what each device says), or finish anyway with: hyzer-hub round finish --force"
            + " (the score the standings show now then counts).")
        for hole in 1...9 { try hub.score(player: "Mike", strokes: 4, hole: hole) }
        // Mike's hole 2 disputed by a link: the watch names the phone's score, which it cannot
        // withdraw (only the phone or a resolution can), so the phone's 4, first in the log, counts.
        let phones = try hub.eventLog().events.first { $0.hole == 2 && $0.playerID == round.players[1].id }!
        #expect(try hub.append(try Self.event(round, "Mike", hole: 2, strokes: 2, supersedes: phones.id)).outcome == .stored(.discrepancy))
        #expect(throws: HubError.openDiscrepancies([.init(player: "Jake", hole: 4), .init(player: "Mike", hole: 2)], missingScores: 0)) {
            try hub.finishRound()
        }
        #expect(try hub.roundInPlay()?.status == .awaitingFinalization)
        let standings = try #require(try hub.snapshot().round?.standings)

        let finished = try hub.finishRound(force: true)
        #expect(finished.round.status == .completed)
        #expect(HubText.roundFinished(finished.round, openDiscrepancies: finished.openDiscrepancies, counted: finished.counted)
            == "Finished the round on Willow Creek, with 2 discrepancies left open: Jake, hole 4 (3 counts); Mike, hole 2 (4 counts). A finished round still takes a resolution: hyzer-hub discrepancies lists them.")
        #expect(standings.first { $0.name == "Mike" }?.totalStrokes == 36, "the counted 4 is the standings' own")
        #expect(standings.first { $0.name == "Jake" }?.totalStrokes == 27)
    }

    @Test("A committed score survives a power cut: the store on disk syncs every commit (synchronous=FULL, not WAL's NORMAL)")
    func everyCommitSynced() throws {
        let home = try TemporaryHome()
        let (hub, _, _) = try Self.hubOnDiskWithRound(in: home)
        #expect(try hub.database.synchronousMode == 2)
    }

    @Test("An upload's acknowledgement (which the cloud gives again) commits without waiting for the disk; every commit after it syncs again")
    func acknowledgementNotSynced() throws {
        struct Failure: Error {}
        let home = try TemporaryHome()
        let (hub, _, _) = try Self.hubOnDiskWithRound(in: home)
        let during = try hub.database.write(synced: false) { store in try Int.fetchOne(store.db, sql: "PRAGMA synchronous") }
        #expect(during == 1)
        #expect(try hub.database.synchronousMode == 2)
        #expect(throws: Failure.self) { try hub.database.write(synced: false) { _ in throw Failure() } }
        #expect(try hub.database.synchronousMode == 2, "a failed unsynced write leaves the next score synced too")
    }

    @Test("The standings a watch's score is pushed with, built from memory, are the ones the store gives after it")
    func pushedSnapshotMatchesStore() throws {
        let home = try TemporaryHome()
        let (hub, round, _) = try Self.hubOnDiskWithRound(in: home)
        let first = try Self.event(round, "Jake", hole: 1, strokes: 3)
        for event in [first, try Self.event(round, "Mike", hole: 1, strokes: 5),
                      try Self.event(round, "Jake", hole: 1, strokes: 2, supersedes: first.id),
                      try Self.event(round, "Mike", hole: 1, strokes: 4, device: "watch-2")] {
            let (result, pushed) = try hub.appendForPush(event)
            #expect(result.outcome != .alreadyStored)
            let stored = try hub.snapshot()
            #expect(pushed?.sequence == stored.sequence)
            #expect(pushed?.hubID == stored.hubID)
            #expect(pushed?.round == stored.round)
        }
        let (again, none) = try hub.appendForPush(first)
        #expect(again.outcome == .alreadyStored)
        #expect(none == nil)
    }

    @Test("Every change grows the snapshot sequence by one")
    func sequenceGrows() throws {
        let hub = try Hub.inMemory()
        #expect(try hub.snapshot().sequence == 0)
        try hub.startRound(course: "Willow Creek", players: ["Jake"])
        #expect(try hub.snapshot().sequence == 1)
        try hub.score(player: "Jake", strokes: 3)
        #expect(try hub.snapshot().sequence == 2)
        try hub.moveToHole(4)
        #expect(try hub.snapshot().sequence == 3)
    }

    @Test("Standings kept in memory follow scores another process commits, row by row, and equal a full recompute")
    func ledgerFollowsOtherProcesses() async throws {
        try await offThePool {
            let home = try TemporaryHome()
            let paths = HyzerPaths(home: home.url)
            let reader = try Hub.open(paths: paths, clock: { Self.start })
            let round = try reader.startRound(course: "Willow Creek", players: ["Jake", "Mike"])
            let writer = try Hub.open(paths: paths, clock: { Self.start })  // another hyzer-hub process
            var random = try SeededRandom.fromEnvironment(for: "ledgerFollowsOtherProcesses")
            for step in 0..<200 {
                let player = ["Jake", "Mike"].randomElement(using: &random)!
                let hole = Int.random(in: 1...9, using: &random), strokes = Int.random(in: 2...5, using: &random)
                let hub = Bool.random(using: &random) ? writer : reader
                do { try hub.score(player: player, strokes: strokes, hole: hole, deviceID: Bool.random(using: &random) ? "watch-1" : "phone") } catch HubError.alreadyScored {
                    try hub.correct(player: player, strokes: strokes, hole: hole)
                } catch HubError.round {}
                if step % 7 == 0, let open = try hub.discrepancies().discrepancies.first {
                    try hub.resolve(player: open.playerID == round.players[0].id ? "Jake" : "Mike", strokes: strokes, hole: open.hole)
                }
                let full = RoundSnapshot(round: try #require(try reader.roundInPlay()), events: try reader.eventLog().events)
                #expect(try reader.snapshot().round == full, "step \(step): \(random.replay(filter: "ledgerFollowsOtherProcesses"))")
            }
        }
    }

    @Test("serve tells another process's commit from its own: only the other's is worth a push and a cloud pass")
    func changedElsewhereIsOthersCommits() throws {
        let home = try TemporaryHome()
        let paths = HyzerPaths(home: home.url)
        let serve = try Hub.open(paths: paths, forServe: true, clock: { Self.start })
        _ = try serve.startRound(course: "Willow Creek", players: ["Jake", "Mike"])
        #expect(serve.changedElsewhere(), "the first look cannot know: it says changed")
        #expect(!serve.changedElsewhere())
        try serve.score(player: "Jake", strokes: 3, hole: 1)  // a watch's score, committed by serve itself
        #expect(!serve.changedElsewhere(), "serve's own commit")
        let command = try Hub.open(paths: paths, clock: { Self.start })  // `hyzer-hub score` in another process
        try command.score(player: "Mike", strokes: 4, hole: 1)
        #expect(serve.changedElsewhere(), "another process's commit")
        #expect(!serve.changedElsewhere(), "told once")
        try serve.score(player: "Jake", strokes: 2, hole: 2)
        try command.score(player: "Mike", strokes: 2, hole: 2)
        #expect(serve.changedElsewhere(), "another's commit among serve's own")
    }

    @Test("A watch's score after another process moved the hole or finished the round meets the round as that process left it")
    func watchScoresSeeOtherProcessesRoundChanges() throws {
        let home = try TemporaryHome()
        let paths = HyzerPaths(home: home.url)
        let serve = try Hub.open(paths: paths, clock: { Self.start })
        let round = try serve.startRound(course: "Willow Creek", players: ["Jake", "Mike", "Sarah"])
        let cli = try Hub.open(paths: paths, clock: { Self.start })  // another hyzer-hub process
        func watchScore(_ player: Int, hole: Int) throws -> (result: AppendResult, snapshot: StandingsSnapshot?) {
            let id = round.players[player].id
            return try serve.appendForPush(try ScoreEvent(roundID: round.id, playerID: id, hole: hole, strokes: 3, reportedByPlayerID: id,
                                                          deviceID: "watch-1", source: .crown, createdAt: Self.start))
        }
        func fullRecompute() throws -> RoundSnapshot {
            RoundSnapshot(round: try #require(try cli.roundInPlay()), events: try cli.eventLog().events)
        }
        // Two scores from the watch: the serving hub now holds the round in memory.
        _ = try watchScore(0, hole: 1)
        _ = try watchScore(1, hole: 1)

        try cli.moveToHole(5)
        let afterMove = try watchScore(2, hole: 5)
        #expect(afterMove.snapshot?.round == (try fullRecompute()))
        #expect(afterMove.snapshot?.round?.currentHole == 5)

        try cli.finishRound(force: true)
        let before = try cli.eventLog().events.count
        #expect(throws: HubError.score(.roundNotAcceptingScores(status: .completed))) { try watchScore(0, hole: 2) }
        #expect(try cli.eventLog().events.count == before)
        // Another round started since: still "the round is over" (a watch away across both), not "another round".
        try cli.startRound(course: "Willow Creek", players: ["Jake", "Amy"])
        #expect(throws: HubError.score(.roundNotAcceptingScores(status: .completed))) { try watchScore(0, hole: 3) }
    }

    @Test("correct replaces this phone's own score even when another device scored the hole first; with none of its own, the score that counts")
    func correctSupersedesOwnScore() throws {
        let home = try TemporaryHome()
        let (hub, round, _) = try Self.hubOnDiskWithRound(in: home)
        let watch = try Self.event(round, "Jake", hole: 1, strokes: 4, device: "watch-1")
        try hub.append(watch)
        let mine = try hub.score(player: "Jake", strokes: 3, hole: 1)
        #expect(mine.outcome == .stored(.discrepancy))
        let corrected = try hub.correct(player: "Jake", strokes: 4, hole: 1)
        #expect(corrected.event.supersedesEventID == mine.event.id, "the phone's own 3, not the watch's 4")
        #expect(corrected.outcome == .stored(.correction))

        // Mike: only the watch scored; the phone's correction supersedes the watch's score (a dispute).
        let mike = try Self.event(round, "Mike", hole: 1, strokes: 5, device: "watch-1")
        try hub.append(mike)
        let over = try hub.correct(player: "Mike", strokes: 4, hole: 1)
        #expect(over.event.supersedesEventID == mike.id)
        #expect(over.outcome == .stored(.discrepancy))
    }
}
