import Foundation
import HubCloud
import HubCore
import HyzerKit
import HyzerHarness
import Logging
import NIOConcurrencyHelpers
import Testing

/// The cloud's side of the contract in docs/SYNC.md, against the real PostgreSQL server: what it
/// refuses and why, that an upload is idempotent when its acknowledgement is lost, and that a row
/// written around its rules is skipped by every phone alike.
@Suite("The cloud's contract", .enabled(if: cloudTestServer != nil, "needs HYZER_TEST_POSTGRES_URL (tools/test starts a server)"))
struct CloudContractTests {
    static let logger = Logger(label: "hyzer.test.cloud")

    /// A phone on a temporary home with this cloud set.
    static func phone(_ url: String, player: String, autoJoin: Bool = false) throws -> (TemporaryHome, Hub) {
        let home = try TemporaryHome()
        let hub = try Hub.open(paths: HyzerPaths(home: home.url))
        try hub.setCloud(CloudConfiguration(url: url, player: player, autoJoin: autoJoin))
        return (home, hub)
    }

    /// A new cloud with a phone for each of `players`: the first organizes a round on Willow Creek
    /// with them all (not synced yet); the others join what names their owner (`--auto-join`).
    static func roundOnPhones(_ players: [String]) async throws -> (cloud: SeveralPhonesTests.TestCloud, homes: [TemporaryHome], phones: [Hub]) {
        let cloud = try await SeveralPhonesTests.makeCloud(phones: players.map { $0.lowercased() })
        var homes: [TemporaryHome] = [], phones: [Hub] = []
        for (index, player) in players.enumerated() {
            let (home, hub) = try phone(try cloud.url(player.lowercased()), player: player, autoJoin: index > 0)
            homes.append(home)
            phones.append(hub)
        }
        try phones[0].startRound(course: "Willow Creek", players: players)
        return (cloud, homes, phones)
    }

    private static func connect(_ url: String) async throws -> CloudConnection {
        try await CloudConnection.connect(to: try CloudAddress(parsing: url), logger: logger)
    }

    /// Runs `body` on a new connection as the phone at `url`, closed however `body` ends; a
    /// server error comes back with the server's words (postgres-nio hides them by default).
    static func withConnection<T>(_ url: String, _ body: (CloudConnection) async throws -> T) async throws -> T {
        let cloud = try await connect(url)
        do {
            let result = try await body(cloud)
            await cloud.close()
            return result
        } catch {
            await cloud.close()
            if error is CloudError { throw error }
            throw CloudError.describe(error, address: cloud.address)
        }
    }

    /// One pass of `hub` on a connection of its own.
    @discardableResult
    static func sync(_ hub: Hub) async throws -> PassResult {
        let configuration = try #require(try hub.cloudConfiguration())
        return try await withConnection(configuration.url) { cloud in
            try await CloudSync.syncOnce(hub: hub, cloud: cloud, player: configuration.player, autoJoin: configuration.autoJoin, logger: logger)
        }
    }

    @Test("A call waiting on a connection that closes under it ends at once, said as lost, and so does a call made after",
          .timeLimit(.minutes(1)))
    func callsEndWhenTheConnectionCloses() async throws {
        let cloud = try await SeveralPhonesTests.makeCloud(phones: ["jake"])
        let connection = try await Self.connect(try cloud.url("jake"))
        // A body that never returns by itself, as a query on a dead connection may not.
        async let waiting: Void = connection.whileConnected { try await Task.sleep(for: .seconds(3_600)) }
        #expect(try await connection.whileConnected { 1 } == 1)
        await connection.close()
        do {
            try await waiting
            Issue.record("the waiting call returned although its connection closed")
        } catch let error as CloudError {
            #expect(error.description.contains("lost"))
        }
        await #expect(throws: CloudError.self) { try await connection.whileConnected { 1 } }
    }

    @Test("A pass gives the connection up when the cloud says nothing for the silence allowed, not while its answers keep coming",
          .timeLimit(.minutes(1)))
    func silenceIsNoAnswerNotALongPass() async throws {
        let cloud = try await SeveralPhonesTests.makeCloud(phones: ["jake"])
        let connection = try await Self.connect(try cloud.url("jake"))
        defer { Task { await connection.close() } }
        // Longer than the silence allowed, with an answer every half second: a call may take
        // 3.5 s before it counts as silence (a test machine busy making other clouds' databases
        // has stalled a call for more than a second).
        let calls = try await connection.whileConnected(silence: .seconds(4)) {
            for _ in 0..<10 {
                _ = try await connection.round(id: UUID())
                try await Task.sleep(for: .milliseconds(500))
            }
            return 10
        }
        #expect(calls == 10)
        do {
            _ = try await connection.whileConnected(silence: .milliseconds(500)) { try await Task.sleep(for: .seconds(3_600)) }
            Issue.record("a body the cloud never answered outlived the silence allowed")
        } catch let error as CloudError {
            #expect(error.description == "The cloud stopped answering (nothing heard in 0.5 seconds).")
        }
        // The connection was given up: every call on it says why.
        do {
            _ = try await connection.whileConnected { 1 }
            Issue.record("a call on the connection given up ran")
        } catch let error as CloudError {
            #expect(error.description.contains("stopped answering"), "\(error)")
        }
    }

    @Test("A score the cloud refuses counts on no phone, its own included: past the quota, the phones still show one answer")
    func refusedScoreCountsNowhere() async throws {
        let (cloud, homes, phones) = try await Self.roundOnPhones(["Jake", "Sarah"])
        defer { withExtendedLifetime((cloud, homes)) {} }
        let (jake, sarah) = (phones[0], phones[1])
        try await Self.sync(jake)
        try await Self.sync(sarah)
        let round = try #require(try sarah.roundInPlay())
        let player = try #require(round.players.first { $0.name == "Sarah" })
        // One phone may upload 20 × 9 holes × 2 players = 360 scores to the round: a chain of
        // corrections on Sarah's hole 1 two longer (the 361st is over the quota, the 362nd corrects it).
        var previous: UUID?
        let chain = try (0..<362).map { index in
            let event = try ScoreEvent(roundID: round.id, playerID: player.id, hole: 1, strokes: 2 + index % 3, supersedesEventID: previous,
                                       reportedByPlayerID: player.id, deviceID: "phone", source: .tap, createdAt: Date())
            previous = event.id
            return event
        }
        _ = try sarah.append(batch: chain)
        #expect(try sarah.snapshot().round?.standings.first { $0.name == "Sarah" }?.totalStrokes == chain[361].strokes, "counted here until refused")
        #expect(try await Self.sync(sarah).uploaded == 360)
        #expect(try sarah.cloudSummary().refused.map(\.score) == ["Sarah · hole 1: \(chain[360].strokes)", "Sarah · hole 1: \(chain[361].strokes)"],
                "kept and listed, saying which score")
        try await Self.sync(jake)
        // (Each phone names the other's devices DEVICE@PHONE: the rest is the same.)
        func shown(_ hub: Hub) throws -> [String] {
            try (hub.snapshot().round?.standings ?? []).map { "\($0.name) \($0.position ?? 0) \($0.totalStrokes) \($0.currentHoleStrokes ?? 0) \($0.discrepancy)" }
        }
        let here = try shown(sarah), there = try shown(jake)
        #expect(here == there && !here.isEmpty, "\(here) / \(there)")
        #expect(try sarah.snapshot().round?.standings.first { $0.name == "Sarah" }?.totalStrokes == chain[359].strokes, "the last score the cloud took")
    }

    @Test("An upload whose acknowledgement was lost is sent again: the cloud keeps one copy with its first number")
    func lostAcknowledgement() async throws {
        let cloud = try await SeveralPhonesTests.makeCloud(phones: ["jake"])
        let (home, organizer) = try Self.phone(try cloud.url("jake"), player: "Jake")
        defer { withExtendedLifetime(home) {} }
        try organizer.startRound(course: "Willow Creek", players: ["Jake", "Sarah"])
        for (player, strokes) in [("Jake", 3), ("Sarah", 4)] { try organizer.score(player: player, strokes: strokes, hole: 1) }
        let work = try organizer.cloudWork()
        let round = try #require(work.roundsToUpload.first)
        let first = try await Self.withConnection(try cloud.url("jake")) { connection in
            try await connection.share(round)
            try organizer.recordRoundUploaded(round.id, organizer: connection.role)
            // The cloud commits; the phone dies before it records the acknowledgement.
            return try await connection.upload(work.eventsToUpload, roundID: round.id)
        }
        #expect(first.acknowledged.map(\.cloudSeq) == [1, 2])
        #expect(try organizer.cloudSummary().eventsWaiting == 2)
        // After the restart the same events go up again.
        let uploaded = try await Self.sync(organizer).uploaded
        #expect(uploaded == 2)
        #expect(try organizer.cloudSummary().eventsWaiting == 0)
        let stored = try await SeveralPhonesTests.psql(cloud.adminURL, "SELECT string_agg(round_seq::text, ',' ORDER BY round_seq) FROM hyzer.score_event")
        #expect(stored == "1,2", "each event once, with the number it got first")
    }

    /// `count` scores made on this phone, every player on every hole in turn, each scored and then
    /// corrected again and again (a chain per player and hole): what a phone offline for a long
    /// round uploads.
    static func correctedAgainAndAgain(_ round: Round, count: Int) throws -> [ScoreEvent] {
        let slots = round.players.count * round.holeCount
        var previous: [Int: UUID] = [:]
        return try (0..<count).map { index in
            let slot = index % slots, player = round.players[slot % round.players.count]
            let event = try ScoreEvent(roundID: round.id, playerID: player.id, hole: slot / round.players.count + 1, strokes: 2 + index % 4,
                                       supersedesEventID: previous[slot], reportedByPlayerID: player.id, deviceID: "phone",
                                       source: .tap, createdAt: Date())
            previous[slot] = event.id
            return event
        }
    }

    @Test("A catch-up longer than one call goes up whole, once and in this phone's order, though a call fails after the next scores were read")
    func catchUpAcrossCalls() async throws {
        let cloud = try await SeveralPhonesTests.makeCloud(phones: ["jake"])
        let (home, organizer) = try Self.phone(try cloud.url("jake"), player: "Jake")
        defer { withExtendedLifetime(home) {} }
        let round = try organizer.startRound(course: "Maple Hill", players: ["Jake", "Sarah", "Mike", "Ana", "Lee", "Kim"])
        // 2,100 scores (three calls of the upload), under the phone's quota of 20 × 18 × 6.
        let events = try Self.correctedAgainAndAgain(round, count: 2_100)
        _ = try organizer.append(batch: events)
        // The phone holds the round as shared; the cloud does not (restored from an older backup):
        // the first call fails, while the next call's scores are being read.
        let shared = try #require(try organizer.cloudWork().roundsToUpload.first)
        let role = try await Self.withConnection(try cloud.url("jake")) { $0.role }
        try organizer.recordRoundUploaded(round.id, organizer: role)
        await #expect(throws: CloudError.self) { try await Self.sync(organizer) }
        #expect(try organizer.cloudSummary().eventsWaiting == 2_100, "nothing is marked uploaded")
        _ = try await Self.withConnection(try cloud.url("jake")) { try await $0.share(shared) }
        #expect(try await Self.sync(organizer).uploaded == 2_100)
        #expect(try organizer.cloudSummary().eventsWaiting == 0)
        #expect(try organizer.cloudSummary().refused.isEmpty)
        let stored = try await SeveralPhonesTests.psql(cloud.adminURL, "SELECT string_agg(id::text, ',' ORDER BY round_seq) FROM hyzer.score_event")
        #expect(stored == events.map { $0.id.uuidString.lowercased() }.joined(separator: ","), "each score once, numbered in this phone's order")
    }

    /// Jake's phone and Sarah's in one round: Jake's first score is number 1 in the cloud, and
    /// Sarah's phone has joined and holds it.
    static func jakeScoredSarahJoined() async throws -> (homes: [TemporaryHome], jake: Hub, sarah: Hub) {
        let (_, homes, phones) = try await roundOnPhones(["Jake", "Sarah"])
        let (jake, sarah) = (phones[0], phones[1])
        try jake.score(player: "Jake", strokes: 3, hole: 1)
        #expect(try await sync(jake).uploaded == 1)
        try await sync(sarah)
        #expect(try sarah.roundInPlay() != nil, "Sarah's phone joined")
        return (homes, jake, sarah)
    }

    @Test("A pass that uploads still takes what another phone uploaded just before it; after catching up with its own upload it reads nothing back")
    func uploadThenDownload() async throws {
        let (homes, jake, sarah) = try await Self.jakeScoredSarahJoined()
        defer { withExtendedLifetime(homes) {} }
        // Sarah's score goes up (number 2); Jake's next one goes up after it (number 3), in a pass
        // that must still download number 2.
        try sarah.score(player: "Sarah", strokes: 2, hole: 1)
        #expect(try await Self.sync(sarah).uploaded == 1)
        try jake.score(player: "Jake", strokes: 4, hole: 2)
        let pass = try await Self.sync(jake)
        #expect(pass.uploaded == 1 && pass.downloaded == 1, "\(pass)")
        #expect(try jake.snapshot().round?.standings.first?.name == "Sarah", "Sarah's ace is on Jake's phone")
        // Nobody else scored: the next upload continues the cursor, and nothing is read back.
        try jake.score(player: "Jake", strokes: 3, hole: 3)
        let next = try await Self.sync(jake)
        #expect(next.uploaded == 1 && next.downloaded == 0 && next.cursors.values.max() == 4, "\(next)")
        // And Sarah's phone takes both of Jake's.
        #expect(try await Self.sync(sarah).downloaded == 2)
    }

    @Test("A phone whose uploads were numbered after another phone's reads the other phone's scores only, gap by gap, never its own back")
    func downloadSkipsOwnScores() async throws {
        let (homes, jake, sarah) = try await Self.jakeScoredSarahJoined()
        defer { withExtendedLifetime(homes) {} }
        // Jake's phone uploads and reads nothing after (a pass cut off there), so its numbers
        // follow Sarah's twice: 1 Jake · 2 Sarah · 3–5 Jake · 6–7 Sarah · 8–10 Jake.
        func uploadOnly(_ hub: Hub) async throws {
            let work = try hub.cloudWork()
            let roundID = try #require(work.eventsToUpload.first?.roundID)
            try await Self.withConnection(try #require(try hub.cloudConfiguration()).url) { cloud in
                let upload = try await cloud.upload(work.eventsToUpload, roundID: roundID)
                #expect(upload.refused.isEmpty)
                try hub.recordUploaded(upload.acknowledged)
            }
        }
        try sarah.score(player: "Sarah", strokes: 2, hole: 1)
        #expect(try await Self.sync(sarah).uploaded == 1)
        for hole in 2...4 { try jake.score(player: "Jake", strokes: 4, hole: hole) }
        try await uploadOnly(jake)
        for hole in 2...3 { try sarah.score(player: "Sarah", strokes: 3, hole: hole) }
        let sarahs = try await Self.sync(sarah)
        #expect(sarahs.uploaded == 2 && sarahs.downloaded == 3 && sarahs.read == 3, "Sarah's phone reads Jake's 3–5, not its own 6–7: \(sarahs)")
        for hole in 5...7 { try jake.score(player: "Jake", strokes: 3, hole: hole) }
        try await uploadOnly(jake)
        let jakes = try await Self.sync(jake)
        #expect(jakes.downloaded == 3 && jakes.read == 3 && jakes.cursors.values.max() == 10, "Jake's phone reads 2 and 6–7 only: \(jakes)")
        let last = try await Self.sync(sarah)
        #expect(last.read == 3 && last.cursors.values.max() == 10, "\(last)")
        // Both phones hold the same log in the cloud's order, and the same standings.
        let orders = try [jake, sarah].map { try $0.eventLog().events.map(\.id) }
        #expect(orders[0].count == 10 && orders[0] == orders[1])
        // (Each phone names the other's devices DEVICE@PHONE, so the rows are compared without them.)
        let standings = try [jake, sarah].map { try ($0.snapshot().round?.standings ?? []).map { "\($0.name) \($0.position ?? 0) \($0.totalStrokes)/\($0.holesPlayed)" } }
        #expect(standings[0] == standings[1] && standings[0] == ["Sarah 1 8/3", "Jake 2 24/7"], "\(standings)")
    }

    @Test("The cloud refuses, score by score and with its reason, what no phone could apply, and takes the good score sent with them")
    func refusals() async throws {
        let cloud = try await SeveralPhonesTests.makeCloud(phones: ["jake", "other"])
        let (home, organizer) = try Self.phone(try cloud.url("jake"), player: "Jake")
        defer { withExtendedLifetime(home) {} }
        let round = try organizer.startRound(course: "Willow Creek", players: ["Jake", "Sarah"])
        try await Self.sync(organizer)
        let jake = round.players[0], sarah = round.players[1]
        func event(_ player: Player, hole: Int, strokes: Int = 3, source: ScoreSource = .tap, supersedes: UUID? = nil, reporter: PlayerID? = nil) throws -> ScoreEvent {
            try ScoreEvent(roundID: round.id, playerID: player.id, hole: hole, strokes: strokes, supersedesEventID: supersedes,
                           reportedByPlayerID: reporter ?? player.id, deviceID: "phone-other", source: source, createdAt: Date())
        }
        let stranger = Player.registered(name: "Stranger")
        let hostile = [
            (try event(stranger, hole: 1), "HZ020"),                                  // not a player of the round
            (try event(jake, hole: 10), "HZ022"),                                     // Willow Creek has 9 holes
            (try event(sarah, hole: 2, supersedes: UUID()), "HZ024"),                 // corrects a score the cloud does not hold
            (try event(jake, hole: 3, reporter: "guest:nobody"), "HZ021"),            // reported by someone outside the round
            (try event(jake, hole: 4, source: .resolution), "HZ025"),                 // a resolution, not from the organizer's phone
        ]
        let good = try event(sarah, hole: 1, strokes: 4)
        let result = try await Self.withConnection(try cloud.url("other")) { try await $0.upload(hostile.map(\.0) + [good], roundID: round.id) }
        #expect(result.acknowledged.map(\.event.id) == [good.id], "the good score lands")
        for ((event, code), refused) in zip(hostile, result.refused) {
            #expect(refused.event.id == event.id && refused.reason.hasPrefix(code), "\(code): \(refused.reason)")
        }
        let reasons = result.refused.map(\.reason).joined(separator: "\n")
        #expect(reasons.contains("hole 10 is not on Willow Creek; holes are 1...9"), Comment(rawValue: reasons))

        // The organizer's phone may resolve; nobody rewrites the log, and a phone touches no table.
        let resolution = try ScoreEvent(roundID: round.id, playerID: jake.id, hole: 4, strokes: 3, reportedByPlayerID: jake.id,
                                        deviceID: "phone-jake", source: .resolution, createdAt: Date())
        let ruled = try await Self.withConnection(try cloud.url("jake")) { try await $0.upload([resolution], roundID: round.id) }
        #expect(ruled.acknowledged.count == 1)
        for statement in ["UPDATE hyzer.score_event SET strokes = 1", "DELETE FROM hyzer.score_event", "INSERT INTO hyzer.round_player VALUES (gen_random_uuid(), 'x', 'Eve', 9)",
                          "ALTER TABLE hyzer.score_event DISABLE TRIGGER ALL", "SELECT * FROM hyzer.score_event"] {
            let refused = try await CLIProcess.runTool("psql", [try cloud.url("other"), "-v", "ON_ERROR_STOP=1", "-qc", statement])
            #expect(refused.status != 0 && refused.stderr.contains("permission denied") || refused.stderr.contains("must be owner"), "a phone: \(statement): \(refused.stderr)")
        }
        for statement in ["UPDATE hyzer.score_event SET strokes = 1", "DELETE FROM hyzer.score_event", "UPDATE hyzer.round SET course_name = 'Elsewhere'"] {
            let refused = try await CLIProcess.runTool("psql", [cloud.adminURL, "-v", "ON_ERROR_STOP=1", "-qc", statement])
            #expect(refused.status != 0 && (refused.stderr.contains("append-only") || refused.stderr.contains("never change")), "the superuser: \(statement): \(refused.stderr)")
        }
        #expect(try await SeveralPhonesTests.psql(cloud.adminURL, "SELECT count(*) FROM hyzer.score_event") == "2")
    }

    @Test("After the cloud was cut off and came back, a score made here goes up at once (its kick reaches the new connection), not at the next poll")
    func kickAfterReconnect() async throws {
        let cloud = try await SeveralPhonesTests.makeCloud(phones: ["jake"])
        let (proxy, proxied) = try await SeveralPhonesTests.proxy(to: try cloud.url("jake"))
        defer { proxy.stop() }
        let (home, hub) = try Self.phone(proxied, player: "Jake")
        defer { withExtendedLifetime(home) {} }
        try hub.startRound(course: "Willow Creek", players: ["Jake", "Sarah"])
        // A poll so rare that only a kick can explain an upload within the test's time.
        let sync = CloudSync(hub: hub, statusFile: nil, logger: Self.logger, pollInterval: .seconds(600))
        let running = Task { try await sync.run() }
        defer { running.cancel() }
        #expect(try await eventually(timeout: .seconds(20)) { try hub.cloudSummary().roundsWaiting == 0 && sync.currentStatus.state == .idle })
        for round in 1...3 {
            proxy.send(SIGUSR1)
            #expect(await eventually(timeout: .seconds(20)) { sync.currentStatus.state == .offline }, "cut \(round)")
            proxy.send(SIGUSR2)
            #expect(await eventually(timeout: .seconds(20)) { sync.currentStatus.state == .idle }, "healed \(round)")
            try hub.score(player: "Jake", strokes: 2 + round, hole: round)
            sync.kick()
            #expect(try await eventually(timeout: .seconds(10)) { try hub.cloudSummary().eventsWaiting == 0 }, "the score after reconnection \(round) went up")
        }
    }

    @Test("A catch-up over a slow link that still answers goes through: calls too large for it are made smaller, and a pass lasts while answers come",
          .timeLimit(.minutes(2)))
    func catchUpOverSlowLink() async throws {
        let cloud = try await SeveralPhonesTests.makeCloud(phones: ["jake"])
        // 100 KB/s each way, and a cloud allowed 1 s of silence (30 s in serve): a call of 1,000
        // scores (~240 KB) cannot be through in time, one of 250 can; the whole catch-up takes
        // several seconds of answers.
        let (proxy, proxied) = try await SeveralPhonesTests.proxy(to: try cloud.url("jake"), bytesPerSecond: 100_000)
        defer { proxy.stop() }
        let (home, hub) = try Self.phone(proxied, player: "Jake")
        defer { withExtendedLifetime(home) {} }
        let round = try hub.startRound(course: "Maple Hill", players: ["Jake", "Sarah", "Mike", "Ana"])
        // 1,400 scores, under the phone's quota of 20 × 18 holes × 4 players.
        let events = try Self.correctedAgainAndAgain(round, count: 1_400)
        _ = try hub.append(batch: events)
        let said = NIOLockedValueBox<[String]>([])
        let sync = CloudSync(hub: hub, statusFile: nil, logger: Self.logger, pollInterval: .seconds(600), silence: .seconds(1),
                             onStatusChange: { status in if let detail = status.detail { said.withLockedValue { $0.append(detail) } } })
        let running = Task { try await sync.run() }
        defer { running.cancel() }
        #expect(try await eventually(timeout: .seconds(90)) { try hub.cloudSummary().eventsWaiting == 0 }, "\(sync.currentStatus)")
        #expect(try hub.cloudSummary().refused.isEmpty)
        // `cloud status` said why the catch-up went in smaller calls.
        #expect(said.withLockedValue { $0 }.contains { $0.hasPrefix("a slow or failing link: uploads go ") && $0.contains("scores a call after a pass that failed") },
                "\(said.withLockedValue { $0 })")
        let stored = try await SeveralPhonesTests.psql(cloud.adminURL, "SELECT string_agg(id::text, ',' ORDER BY round_seq) FROM hyzer.score_event")
        let ids = stored.split(separator: ",").map(String.init), expected = events.map { $0.id.uuidString.lowercased() }
        let mismatch = zip(ids, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(ids == expected, "each score once, numbered in this phone's order: \(ids.count) stored, \(Set(ids).count) distinct, first out of place at \(mismatch.map(String.init) ?? "-")")
    }

    @Test("Back in reach, a phone says syncing at once, not the offline of before, while its first pass runs")
    func reconnectSaysSyncing() async throws {
        let cloud = try await SeveralPhonesTests.makeCloud(phones: ["jake"])
        let (proxy, proxied) = try await SeveralPhonesTests.proxy(to: try cloud.url("jake"))
        defer { proxy.stop() }
        let (home, hub) = try Self.phone(proxied, player: "Jake")
        defer { withExtendedLifetime(home) {} }
        try hub.startRound(course: "Maple Hill", players: ["Jake", "Sarah"])
        proxy.send(SIGUSR1)
        let states = NIOLockedValueBox<[SyncState]>([])
        let sync = CloudSync(hub: hub, statusFile: nil, logger: Self.logger, pollInterval: .seconds(600),
                             onStatusChange: { status in states.withLockedValue { $0.append(status.state) } })
        let running = Task { try await sync.run() }
        defer { running.cancel() }
        #expect(await eventually(timeout: .seconds(20)) { states.withLockedValue { $0.contains(.offline) } })
        proxy.send(SIGUSR2)
        #expect(try await eventually(timeout: .seconds(30)) { try hub.cloudSummary().roundsWaiting == 0 }, "the round was shared")
        let seen = states.withLockedValue { $0 }
        let back = try #require(seen.lastIndex(of: .offline))
        #expect(seen[(back + 1)...].first == .syncing, "after offline: \(seen[(back + 1)...])")
    }

    @Test("The organizer ending the round reaches a phone that already holds every score of it at once (its notification), not at the next poll")
    func completionIsNotified() async throws {
        let (cloud, homes, phones) = try await Self.roundOnPhones(["Jake", "Sarah"])
        defer { withExtendedLifetime(homes) {} }
        let (jake, sarah) = (phones[0], phones[1])
        for (player, strokes) in [("Jake", 3), ("Sarah", 4)] { try jake.score(player: player, strokes: strokes, hole: 1) }
        try await Self.sync(jake)
        // A poll so rare that only the notification can explain the completion arriving within the test's time.
        let sync = CloudSync(hub: sarah, statusFile: nil, logger: Self.logger, pollInterval: .seconds(600))
        let running = Task { try await sync.run() }
        defer { running.cancel() }
        #expect(try await eventually(timeout: .seconds(20)) { try sarah.roundInPlay() != nil && sarah.cloudWork().cursors.values.max() == 2 })
        // Anyone may send the hint: a forged one is checked against the round and changes nothing.
        let roundID = try #require(try sarah.roundInPlay()?.id)
        _ = try await SeveralPhonesTests.psql(cloud.adminURL, "SELECT pg_notify('hyzer_events', '\(roundID.uuidString.lowercased()):completed')")
        try jake.score(player: "Sarah", strokes: 3, hole: 2)
        try await Self.sync(jake)
        #expect(try await eventually(timeout: .seconds(20)) { try sarah.cloudWork().cursors.values.max() == 3 })
        #expect(try sarah.roundInPlay() != nil, "a forged hint ended nothing")
        // Sarah's phone holds every score: ending the round brings no new number, only the completion.
        _ = try jake.finishRound(force: true)
        try await Self.sync(jake)
        #expect(try await eventually(timeout: .seconds(20)) { try sarah.roundInPlay() == nil }, "Sarah's phone still has the round in play")
        #expect(try sarah.snapshot().round == nil)
        #expect(try sarah.cloudWork().completionsToUpload.isEmpty, "a completion taken from the cloud is not sent back")
    }

    @Test("A score made before the end by a phone that was offline reaches a phone whose round is already finished, at once (a settled round is not read after every local change, but it is notified)")
    func lateUploadToSettledRound() async throws {
        let (_, homes, phones) = try await Self.roundOnPhones(["Jake", "Sarah", "Mike"])
        defer { withExtendedLifetime(homes) {} }
        let (jake, sarah, mike) = (phones[0], phones[1], phones[2])
        try jake.score(player: "Jake", strokes: 3, hole: 1)
        try await Self.sync(jake)
        try await Self.sync(mike)
        // Mike's phone scores offline; meanwhile the organizer ends the round.
        try mike.score(player: "Mike", strokes: 2, hole: 1)
        let sync = CloudSync(hub: sarah, statusFile: nil, logger: Self.logger, pollInterval: .seconds(600))
        let running = Task { try await sync.run() }
        defer { running.cancel() }
        #expect(try await eventually(timeout: .seconds(20)) { try sarah.roundInPlay() != nil })
        _ = try jake.finishRound(force: true)
        #expect(try jake.cloudSummary().completionsWaiting == 1, "cloud status says the end waits to go up")
        #expect(try await Self.sync(jake).completionsUploaded == 1)
        #expect(try jake.cloudSummary().completionsWaiting == 0)
        #expect(try await eventually(timeout: .seconds(20)) { try sarah.roundInPlay() == nil && !sarah.cloudWork().settled.isEmpty })
        // A local change on Sarah's phone (a kick) runs a pass that leaves the settled round alone.
        sync.kick()
        // Mike's phone comes back: its score, made before the end, goes up and reaches Sarah's finished round.
        #expect(try await Self.sync(mike).uploaded == 1)
        #expect(try await eventually(timeout: .seconds(20)) {
            try sarah.eventLog().events.contains { $0.hole == 1 && $0.strokes == 2 }
        }, "Sarah's finished round lacks Mike's late score")
    }

    @Test("A late score that disputes a finished round's score is settled after the end by the organizer's phone, on every phone; nothing else goes into the finished round")
    func lateDisputeIsSettledAfterTheEnd() async throws {
        let (_, homes, phones) = try await Self.roundOnPhones(["Jake", "Sarah", "Mike"])
        defer { withExtendedLifetime(homes) {} }
        let (jake, sarah, mike) = (phones[0], phones[1], phones[2])
        try jake.score(player: "Mike", strokes: 3, hole: 1)
        for phone in [jake, sarah, mike] { try await Self.sync(phone) }
        // Mike's phone, offline, says 4 for his own hole 1; meanwhile the organizer ends the round.
        try mike.score(player: "Mike", strokes: 4, hole: 1)
        _ = try jake.finishRound(force: true)
        try await Self.sync(jake)
        #expect(try await Self.sync(mike).uploaded == 1)
        for phone in [jake, sarah] { try await Self.sync(phone) }
        for phone in [jake, sarah, mike] {
            #expect(try phone.discrepanciesOfCurrentOrLastRound().discrepancies.count == 1, "the late score disputes Jake's 3 on every phone")
        }
        // Only the organizer's phone settles it, as in play; and nothing but a resolution goes in.
        #expect(throws: HubError.self) { try sarah.resolve(player: "Mike", strokes: 4, hole: 1) }
        #expect(throws: HubError.self) { try jake.score(player: "Sarah", strokes: 3, hole: 1) }
        #expect(throws: HubError.self) { try jake.resolve(player: "Sarah", strokes: 3, hole: 1) }
        // The next round has started meanwhile: the finished one is named.
        let finished = try #require(try jake.history().first?.round.id)
        _ = try jake.startRound(course: "Maple Hill", players: ["Jake", "Sarah", "Mike"])
        #expect(throws: HubError.self) { try jake.resolve(player: "Mike", strokes: 4, hole: 1) }
        #expect(try jake.openDiscrepanciesInFinishedRounds().map(\.round.id) == [finished])
        let settled = try jake.resolve(player: "Mike", strokes: 4, hole: 1, round: String(finished.uuidString.suffix(8)))
        #expect(settled.event.roundID == finished)
        #expect(settled.event.source == .resolution)
        try await Self.sync(jake)
        for phone in [sarah, mike] { try await Self.sync(phone) }
        for phone in [jake, sarah, mike] {
            #expect(try phone.openDiscrepanciesInFinishedRounds().isEmpty, "the resolution reached every phone's finished round")
            let mikeFinal = try #require(try phone.history().first?.round.standings.first { $0.name == "Mike" })
            #expect(mikeFinal.totalStrokes == 4 && !mikeFinal.discrepancy)
        }
    }

    @Test("A phone that may not end a shared round cannot finish it here (it would be over here and in play everywhere else); where any player resolves, a phone that scored in it can, and the cloud takes it")
    func onlyTheOrganizerFinishes() async throws {
        let (_, homes, phones) = try await Self.roundOnPhones(["Jake", "Sarah"])
        defer { withExtendedLifetime(homes) {} }
        let (jake, sarah) = (phones[0], phones[1])
        try jake.score(player: "Jake", strokes: 3, hole: 1)
        try await Self.sync(jake)
        try await Self.sync(sarah)
        try sarah.score(player: "Sarah", strokes: 3, hole: 1)
        #expect { _ = try sarah.finishRound(force: true) } throws: { error in
            "\(error)" == "Only the organizer's phone (Jake's) finishes this shared round; on this phone it stays in play until that phone finishes it, and the end reaches here with the next sync."
        }
        #expect(try sarah.roundInPlay() != nil)
        try await Self.sync(sarah)
        _ = try jake.finishRound(force: true)
        try await Self.sync(jake)
        try await Self.sync(sarah)
        #expect(try sarah.roundInPlay() == nil, "the organizer's end reached Sarah's phone")

        // A round where any player resolves: Sarah's phone has not scored yet, then has.
        _ = try jake.startRound(course: "Maple Hill", players: ["Jake", "Sarah"], anyPlayerResolves: true)
        try await Self.sync(jake)
        try await Self.sync(sarah)
        #expect { _ = try sarah.finishRound(force: true) } throws: { error in "\(error)".contains("or a phone that scored in it,") }
        try sarah.score(player: "Sarah", strokes: 4, hole: 1)
        _ = try sarah.finishRound(force: true)
        #expect(try await Self.sync(sarah).completionsUploaded == 1)
        try await Self.sync(jake)
        #expect(try jake.roundInPlay() == nil, "Sarah's end reached the organizer's phone")
    }

    @Test("Sessions a lost network left open on the server are ended when the phone connects again: three of them and the role's four-connection limit do not lock it out")
    func lostSessionsAreEnded() async throws {
        let cloud = try await SeveralPhonesTests.makeCloud(phones: ["jake", "sarah"])
        let (jakeHome, jake) = try Self.phone(try cloud.url("jake"), player: "Jake")
        let (sarahHome, sarah) = try Self.phone(try cloud.url("sarah"), player: "Sarah", autoJoin: true)
        defer { withExtendedLifetime((jakeHome, sarahHome)) {} }
        _ = try jake.startRound(course: "Willow Creek", players: ["Jake", "Sarah"])
        try jake.score(player: "Jake", strokes: 3, hole: 1)
        try await Self.sync(jake)
        // Three of Sarah's sessions the server still holds, as after her phone lost coverage mid-pass
        // (here busy, so they cannot end by themselves), named as her phone names its connections.
        let psql = try #require(["/usr/bin/psql", "/usr/lib/postgresql/15/bin/psql"].first { FileManager.default.isExecutableFile(atPath: $0) })
        let name = CloudSync.sessionName(hubID: try sarah.hubID)
        var ghosts: [RunningProcess] = []
        for _ in 0..<3 {
            ghosts.append(try await RunningProcess(path: psql, [try cloud.url("sarah"), "-X", "-c", "SELECT pg_sleep(600)"], environment: ["PGAPPNAME": name]))
        }
        defer { ghosts.forEach { $0.stop() } }
        let sessions = "SELECT count(*) FROM pg_stat_activity WHERE application_name = '\(name)' AND state = 'active'"
        #expect(try await eventually(timeout: .seconds(20)) { try await SeveralPhonesTests.psql(cloud.adminURL, sessions) == "3" })
        // Her phone's sync takes the fourth connection, ends the three, and listens on another.
        let sync = CloudSync(hub: sarah, statusFile: nil, logger: Self.logger, pollInterval: .seconds(600))
        let running = Task { try await sync.run() }
        defer { running.cancel() }
        #expect(await eventually(timeout: .seconds(20)) { ghosts.allSatisfy { !$0.isRunning } }, "the lost sessions are still there")
        #expect(try await eventually(timeout: .seconds(20)) { try sarah.roundInPlay() != nil })
        // Listening: Jake's next score reaches her at once.
        try jake.score(player: "Sarah", strokes: 4, hole: 1)
        try await Self.sync(jake)
        #expect(try await eventually(timeout: .seconds(20)) { try sarah.eventLog().events.count == 2 })
    }

    @Test("A role that is not a phone, or a superuser, cannot be used as a phone: the message says how to make one")
    func onlyPhones() async throws {
        let cloud = try await SeveralPhonesTests.makeCloud(phones: ["jake"])
        await #expect {
            try await Self.withConnection(cloud.adminURL) { _ in }
        } throws: { error in
            "\(error)".contains("is not a Hyzer phone") && "\(error)".contains("cloud init ADMIN-URL --phone NAME")
        }
    }

    @Test("A row written around the cloud's rules, that no phone could hold, is skipped by every phone alike, said by cloud status, and blocks nothing after it")
    func unreadableRowIsSkippedByEveryPhone() async throws {
        let cloud = try await SeveralPhonesTests.makeCloud(phones: ["jake", "sarah"])
        let (home, organizer) = try Self.phone(try cloud.url("jake"), player: "Jake")
        defer { withExtendedLifetime(home) {} }
        let round = try organizer.startRound(course: "Willow Creek", players: ["Jake", "Sarah"])
        try organizer.score(player: "Jake", strokes: 3, hole: 1)
        try await Self.sync(organizer)
        // Someone with the server's superuser drops a check and writes number 2 with a control character.
        let jake = round.players[0].id
        _ = try await SeveralPhonesTests.psql(cloud.adminURL, """
            ALTER TABLE hyzer.score_event DROP CONSTRAINT score_event_device_id_check;
            ALTER TABLE hyzer.score_event DISABLE TRIGGER score_event_checked;
            INSERT INTO hyzer.score_event (id, round_id, round_seq, player_id, hole, strokes, reported_by, device_id, source, created_at, uploaded_by, uploaded_at)
            VALUES (gen_random_uuid(), '\(round.id.uuidString)', 2, '\(jake)', 2, 4, '\(jake)', E'bad\\x01device', 'tap', '2026-11-26T05:00:00.000Z', 'intruder', now());
            ALTER TABLE hyzer.score_event ENABLE TRIGGER score_event_checked;
            """)
        let (sarahHome, sarah) = try Self.phone(try cloud.url("sarah"), player: "Sarah")
        defer { withExtendedLifetime(sarahHome) {} }
        let shared = try await Self.withConnection(try cloud.url("sarah")) { try await $0.round(id: round.id) }
        try sarah.join(try #require(shared))
        try organizer.score(player: "Sarah", strokes: 2, hole: 1)
        try await Self.sync(organizer)
        let downloaded = try await Self.sync(sarah).downloaded
        #expect(downloaded == 2, "the two good scores, on either side of the unreadable one")
        #expect(try sarah.eventLog().events.map(\.strokes) == [3, 2])
        #expect(try sarah.cloudWork(eventLimit: 0).cursors[round.id] == 3, "the cursor moved past the skipped row")
        for phone in [organizer, sarah] {
            let skipped = try phone.cloudSummary().skipped
            #expect(skipped.map(\.cloudSeq) == [2], "every phone skips number 2 alike: \(skipped)")
        }
        let status = try await CLIProcess.run("hyzer-hub", ["--home", sarahHome.path, "cloud", "status"])
        #expect(status.stdout.contains("Skipped from the cloud (rows no phone applies): 1") && status.stdout.contains("number 2"), "\(status.stdout)")
    }
}
