import Foundation
import HubCloud
import HubCore
import HyzerKit
import HyzerTestSupport
import Logging
import Testing

/// The cloud's side of the contract in docs/SYNC.md, against the real PostgreSQL server: what it
/// refuses, and that an upload is idempotent when its acknowledgement is lost.
@Suite("The cloud's contract", .enabled(if: cloudTestServer != nil, "needs HYZER_TEST_POSTGRES_URL (tools/test starts a server)"))
struct CloudContractTests {
    let logger = Logger(label: "hyzer.test.cloud")

    /// A phone on a temporary home with this cloud set.
    static func phone(_ url: String, player: String) throws -> (TemporaryHome, Hub) {
        let home = try TemporaryHome()
        let hub = try Hub.open(paths: HyzerPaths(home: home.url))
        try hub.setCloud(CloudConfiguration(url: url, player: player))
        return (home, hub)
    }

    func connect(_ url: String) async throws -> CloudConnection {
        try await CloudConnection.connect(to: try CloudAddress(parsing: url), logger: logger)
    }

    @Test("An upload whose acknowledgement was lost is sent again: the cloud keeps one copy with its first number")
    func lostAcknowledgement() async throws {
        let (_, url) = try await SeveralPhonesTests.makeDatabase()
        let (home, organizer) = try Self.phone(url, player: "Jake")
        defer { withExtendedLifetime(home) {} }
        try organizer.startRound(course: "Willow Creek", players: ["Jake", "Sarah"])
        for (player, strokes) in [("Jake", 3), ("Sarah", 4)] { try organizer.score(player: player, strokes: strokes, hole: 1) }
        let cloud = try await connect(url)
        let work = try organizer.cloudWork()
        for round in work.roundsToUpload { try await cloud.upload(round) }
        try organizer.recordRoundUploaded(try #require(work.roundsToUpload.first).id)
        // The cloud commits; the phone dies before it records the acknowledgement.
        let first = try await cloud.upload(work.eventsToUpload, roundID: work.eventsToUpload[0].roundID, hubID: try organizer.hubID)
        #expect(first.acknowledged.map(\.cloudSeq) == [1, 2])
        #expect(try organizer.cloudSummary().eventsWaiting == 2)
        // After the restart the same events go up again.
        let (uploaded, _) = try await CloudSync.syncOnce(hub: organizer, cloud: cloud, player: nil, logger: logger)
        await cloud.close()
        #expect(uploaded == 2)
        #expect(try organizer.cloudSummary().eventsWaiting == 0)
        let stored = try await SeveralPhonesTests.psql(url, "SELECT string_agg(round_seq::text, ',' ORDER BY round_seq) FROM hyzer_score_event")
        #expect(stored == "1,2", "each event once, with the number it got first")
    }

    @Test("The cloud refuses what no phone could apply, says why, and still takes the good score sent with it")
    func refusals() async throws {
        let (_, url) = try await SeveralPhonesTests.makeDatabase()
        let (home, organizer) = try Self.phone(url, player: "Jake")
        defer { withExtendedLifetime(home) {} }
        let round = try organizer.startRound(course: "Willow Creek", players: ["Jake", "Sarah"])
        let cloud = try await connect(url)
        try await CloudSync.syncOnce(hub: organizer, cloud: cloud, player: nil, logger: logger)
        let jake = round.players[0], sarah = round.players[1]
        func event(_ player: Player, hole: Int, strokes: Int = 3, source: ScoreSource = .tap, supersedes: UUID? = nil, reporter: PlayerID? = nil) throws -> ScoreEvent {
            try ScoreEvent(roundID: round.id, playerID: player.id, hole: hole, strokes: strokes, supersedesEventID: supersedes,
                           reportedByPlayerID: reporter ?? player.id, deviceID: "phone-hostile", source: source, createdAt: Date())
        }
        let stranger = Player.registered(name: "Stranger")
        let hostile = [
            try event(stranger, hole: 1),                                     // not a player of the round
            try event(jake, hole: 10),                                        // Willow Creek has 9 holes
            try event(sarah, hole: 2, supersedes: UUID()),                    // corrects a score the cloud does not hold
            try event(jake, hole: 3, reporter: "guest:nobody"),               // reported by someone outside the round
            try event(jake, hole: 4, source: .resolution),                    // a resolution, not from the organizer's phone
        ]
        let good = try event(sarah, hole: 1, strokes: 4)
        let result = try await cloud.upload(hostile + [good], roundID: round.id, hubID: "another-phone")
        #expect(result.acknowledged.map(\.event.id) == [good.id], "the good score lands, in one transaction or alone")
        #expect(result.refused.count == hostile.count)
        let reasons = result.refused.map(\.reason).joined(separator: "\n")
        #expect(reasons.contains("hole 10 is not on Willow Creek: holes are 1...9"), Comment(rawValue: reasons))
        #expect(reasons.contains("only the organizer's phone resolves"), Comment(rawValue: reasons))
        #expect(reasons.contains("supersedes"), Comment(rawValue: reasons))

        // The organizer may resolve; the log is append-only in the cloud as on the phone.
        let resolution = try event(jake, hole: 4, source: .resolution)
        #expect(try await cloud.upload([resolution], roundID: round.id, hubID: try organizer.hubID).acknowledged.count == 1)
        await cloud.close()
        for statement in ["UPDATE hyzer_score_event SET strokes = 1", "DELETE FROM hyzer_score_event", "TRUNCATE hyzer_score_event CASCADE",
                          "UPDATE hyzer_round SET course_name = 'Elsewhere'", "DELETE FROM hyzer_round_player"] {
            let refused = try await CLIProcess.runTool("psql", [url, "-v", "ON_ERROR_STOP=1", "-qc", statement])
            #expect(refused.status != 0 && (refused.stderr.contains("append-only") || refused.stderr.contains("never change")), "\(statement): \(refused.stderr)")
        }
        #expect(try await SeveralPhonesTests.psql(url, "SELECT count(*) FROM hyzer_score_event") == "2")
    }

    @Test("A row written around the cloud's checks, that no phone could hold, is passed over by every phone: it blocks nothing after it")
    func unreadableRowIsPassedOver() async throws {
        let (_, url) = try await SeveralPhonesTests.makeDatabase()
        let (home, organizer) = try Self.phone(url, player: "Jake")
        defer { withExtendedLifetime(home) {} }
        let round = try organizer.startRound(course: "Willow Creek", players: ["Jake", "Sarah"])
        try organizer.score(player: "Jake", strokes: 3, hole: 1)
        let cloud = try await connect(url)
        try await CloudSync.syncOnce(hub: organizer, cloud: cloud, player: nil, logger: logger)
        // Someone with the server's superuser drops a check and writes a device id with a control character.
        let jake = round.players[0].id
        _ = try await SeveralPhonesTests.psql(url, """
            ALTER TABLE hyzer_score_event DROP CONSTRAINT hyzer_score_event_device_id_check;
            INSERT INTO hyzer_score_event (id, round_id, round_seq, player_id, hole, strokes, reported_by, device_id, source, created_at, uploaded_by)
            VALUES (gen_random_uuid(), '\(round.id.uuidString)', 2, '\(jake)', 2, 4, '\(jake)', E'bad\\x01device', 'tap', 'now', 'intruder');
            UPDATE hyzer_round SET last_seq = 2;
            """)
        let (sarahHome, sarah) = try Self.phone(url, player: "Sarah")
        defer { withExtendedLifetime(sarahHome) {} }
        try sarah.join(try #require(try await cloud.round(id: round.id)))
        try organizer.score(player: "Sarah", strokes: 2, hole: 1)
        try await CloudSync.syncOnce(hub: organizer, cloud: cloud, player: nil, logger: logger)
        let (_, downloaded) = try await CloudSync.syncOnce(hub: sarah, cloud: cloud, player: nil, logger: logger)
        await cloud.close()
        #expect(downloaded == 2, "the two good scores, on either side of the unreadable one")
        #expect(try sarah.eventLog().events.map(\.strokes) == [3, 2])
        #expect(try sarah.cloudWork(eventLimit: 0).cursors[round.id] == 3, "the cursor moved past the unreadable row")
    }
}
