import Foundation
import HubCloud
import HubCore
import HyzerKit
import HyzerHarness
import Logging
import Testing

/// The review's attacks on the cloud (issue 34), replayed with real phones (hubs) beside a hostile
/// phone that has its own login and speaks SQL directly: each attack is refused by the cloud, or
/// detected by every phone alike; the honest phones converge and lose nothing. (The same attacks
/// at the SQL level, every privilege and trigger, are Tests/CloudTests/attacks.sh, which tools/test runs.)
@Suite("A cloud that trusts no phone", .enabled(if: cloudTestServer != nil, "needs HYZER_TEST_POSTGRES_URL (tools/test starts a server)"))
struct HostileCloudTests {
    typealias Contract = CloudContractTests

    /// SQL as the hostile phone (its own role, over TCP with its password); the server's error when it fails.
    static func hostile(_ cloud: SeveralPhonesTests.TestCloud, _ sql: String) async throws -> (ok: Bool, output: String) {
        try await Self.sql(cloud, as: "hostile", sql)
    }

    /// SQL as one phone of the cloud, as `hostile` is.
    static func sql(_ cloud: SeveralPhonesTests.TestCloud, as phone: String, _ sql: String) async throws -> (ok: Bool, output: String) {
        let result = try await CLIProcess.runTool("psql", [try cloud.url(phone), "-X", "-v", "ON_ERROR_STOP=1", "-tAqc", sql])
        return (result.status == 0, result.stdout + result.stderr)
    }

    /// An upload of `count` new first scores of player p1 on holes 1 to 3, as SQL (answers the number stored).
    static func scores(_ count: Int, in round: UUID, device: String) -> String {
        """
        SELECT count(round_seq) FROM hyzer.upload_events('\(round)', ARRAY(SELECT gen_random_uuid() FROM generate_series(1, \(count))),
            array_fill('p1'::text, ARRAY[\(count)]), ARRAY(SELECT i % 3 + 1 FROM generate_series(1, \(count)) AS i), array_fill(3, ARRAY[\(count)]),
            array_fill(NULL::uuid, ARRAY[\(count)]), array_fill('p1'::text, ARRAY[\(count)]), array_fill('\(device)'::text, ARRAY[\(count)]),
            array_fill('tap'::text, ARRAY[\(count)]), array_fill('2026-11-26T05:00:00.000Z'::text, ARRAY[\(count)]));
        """
    }

    /// Jake's phone organizes a round with Sarah; Sarah's phone joins; both are in step.
    static func honestRound(_ cloud: SeveralPhonesTests.TestCloud) async throws -> (homes: [TemporaryHome], jake: Hub, sarah: Hub, round: Round) {
        let (jakeHome, jake) = try Contract.phone(try cloud.url("jake"), player: "Jake")
        let (sarahHome, sarah) = try Contract.phone(try cloud.url("sarah"), player: "Sarah", autoJoin: true)
        let round = try jake.startRound(course: "Maple Hill", players: ["Jake", "Sarah"])
        try jake.score(player: "Jake", strokes: 3, hole: 1)
        try await Contract.sync(jake)
        try await Contract.sync(sarah)
        #expect(try sarah.roundInPlay()?.id == round.id, "Sarah's phone joined (auto-join)")
        return ([jakeHome, sarahHome], jake, sarah, round)
    }

    static func expectInStep(_ phones: [Hub], events: Int, _ comment: Comment) throws {
        let logs = try phones.map { try $0.eventLog().events.map(\.id).sorted { $0.uuidString < $1.uuidString } }
        #expect(logs.allSatisfy { $0 == logs[0] } && logs[0].count == events, comment)
        let standings = try phones.map { try ($0.snapshot().round?.standings ?? []).map { "\($0.name) \($0.totalStrokes) \($0.discrepancy)" } }
        #expect(standings.allSatisfy { $0 == standings[0] }, "every phone shows the same standings: \(standings)")
    }

    @Test("Attacks 1–3, 5, 7 and 8 from a phone of the cloud: refused at the server; honest phones converge and lose nothing")
    func hostilePhone() async throws {
        let cloud = try await SeveralPhonesTests.makeCloud(phones: ["jake", "sarah", "hostile"])
        let (homes, jake, sarah, round) = try await Self.honestRound(cloud)
        defer { withExtendedLifetime(homes) {} }
        let r = round.id.uuidString, jakeID = round.players[0].id, sarahID = round.players[1].id
        let jakeDevice = try #require(try jake.eventLog().events.first?.deviceID)

        // 1, 2, 5: no phone writes a table, numbers a row, adds a player or disables a trigger.
        for sql in ["INSERT INTO hyzer.score_event (id, round_id, round_seq, player_id, hole, strokes, reported_by, device_id, source, created_at, uploaded_by, uploaded_at) VALUES (gen_random_uuid(), '\(r)', 9000000000000000000, '\(jakeID)', 2, 1, '\(jakeID)', 'x', 'tap', '2026-11-26T05:00:00.000Z', 'x', now())",
                    "INSERT INTO hyzer.round_player VALUES ('\(r)', 'eve', 'Eve', 5)",
                    "ALTER TABLE hyzer.score_event DISABLE TRIGGER ALL",
                    "UPDATE hyzer.round SET course_name = 'Elsewhere'"] {
            let (ok, output) = try await Self.hostile(cloud, sql)
            #expect(!ok && (output.contains("permission denied") || output.contains("must be owner")), "\(sql): \(output)")
        }
        // 3: a resolution from a phone that is not the organizer's; a correction under Jake's device.
        func upload(_ id: UUID, player: PlayerID, hole: Int, strokes: Int, supersedes: String = "NULL", device: String, source: String) -> String {
            """
            SELECT coalesce(refusal_code, 'ok') || ' ' || coalesce(round_seq::text, '-') FROM hyzer.upload_events('\(r)', ARRAY['\(id)']::uuid[], ARRAY['\(player)'], ARRAY[\(hole)], ARRAY[\(strokes)],
                ARRAY[\(supersedes)]::uuid[], ARRAY['\(player)'], ARRAY['\(device)'], ARRAY['\(source)'], ARRAY['2026-11-26T05:00:00.000Z'])
            """
        }
        let jakeScore = try #require(try jake.eventLog().events.first?.id)
        let ruling = try await Self.hostile(cloud, upload(UUID(), player: jakeID, hole: 1, strokes: 1, device: "phone-evil", source: "resolution"))
        #expect(ruling.output.hasPrefix("HZ025 -"), "a resolution not from the organizer's phone: \(ruling.output)")
        // A "correction" under Jake's device id lands, but every phone stores it as another device
        // (DEVICE@PHONE): it disputes Jake's score and cannot withdraw it.
        let withdrawal = try await Self.hostile(cloud, upload(UUID(), player: jakeID, hole: 1, strokes: 1, supersedes: "'\(jakeScore)'", device: jakeDevice, source: "tap"))
        #expect(withdrawal.output.hasPrefix("ok 2"), "\(withdrawal.output)")
        // 7: an id the cloud holds already, sent with other content.
        let reuse = try await Self.hostile(cloud, upload(jakeScore, player: jakeID, hole: 1, strokes: 1, device: "phone-evil", source: "tap"))
        #expect(reuse.output.hasPrefix("HZ011 -"), "the same id with other content: \(reuse.output)")
        // What no server can refuse: a valid score for a round whose id it knows. It opens a
        // discrepancy (another device names Sarah's hole 1) and settles nothing.
        let claim = try await Self.hostile(cloud, upload(UUID(), player: sarahID, hole: 1, strokes: 2, device: "phone-evil", source: "tap"))
        #expect(claim.ok && claim.output.hasPrefix("ok 3"), "a valid score lands, numbered 3: \(claim.output)")
        // 8: notifications anyone may send, garbage and forged.
        _ = try await Self.hostile(cloud, "NOTIFY hyzer_events, 'not-a-round'; SELECT pg_notify('hyzer_events', '\(r):999999')")

        try sarah.score(player: "Sarah", strokes: 4, hole: 1)
        try jake.score(player: "Sarah", strokes: 4, hole: 1)
        for _ in 0..<2 { for phone in [jake, sarah] { try await Contract.sync(phone) } }
        try Self.expectInStep([jake, sarah], events: 5, "Jake's, the hostile phone's two and Sarah's two scores, on both phones")
        for phone in [jake, sarah] {
            let open = try phone.discrepancies().discrepancies.map { "\($0.hole) \($0.events.map(\.strokes))" }
            #expect(open.count == 2, "the hostile phone disputes Jake's and Sarah's hole 1 and settles nothing: \(open)")
            let jakeCounts = try phone.snapshot().round?.standings.first { $0.name == "Jake" }?.totalStrokes
            #expect(jakeCounts == 3, "Jake's own 3 still counts: the hostile 'correction' did not withdraw it")
        }
        #expect(try await SeveralPhonesTests.psql(cloud.adminURL, "SELECT string_agg(round_seq::text, ',' ORDER BY round_seq) FROM hyzer.score_event") == "1,2,3,4,5",
                "the server numbered every score, with no gap")
        // Only the organizer ends a round, even for a phone that scored in it.
        let ended = try await Self.hostile(cloud, "SELECT hyzer.complete_round('\(r)')")
        #expect(!ended.ok && ended.output.contains("only the organizer's phone"), "\(ended.output)")
    }

    @Test("A phone naming another phone's device before it scores takes nothing from it: that phone's scores land, and every phone agrees")
    func devicePreClaim() async throws {
        let cloud = try await SeveralPhonesTests.makeCloud(phones: ["jake", "sarah", "hostile"])
        let (homes, jake, sarah, round) = try await Self.honestRound(cloud)
        defer { withExtendedLifetime(homes) {} }
        try sarah.score(player: "Sarah", strokes: 4, hole: 1)
        try await Contract.sync(sarah)
        let sarahDevice = try #require(try sarah.eventLog().events.last?.deviceID)
        // The hostile phone scores hole 2 for everyone under Sarah's device id, before Sarah's phone does.
        for player in round.players {
            let taken = try await Self.hostile(cloud, """
                SELECT coalesce(refusal_code, 'ok') FROM hyzer.upload_events('\(round.id)', ARRAY['\(UUID())']::uuid[], ARRAY['\(player.id)'], ARRAY[2], ARRAY[9],
                    ARRAY[NULL]::uuid[], ARRAY['\(player.id)'], ARRAY['\(sarahDevice)'], ARRAY['tap'], ARRAY['2026-11-26T05:00:00.000Z'])
                """)
            #expect(taken.output.hasPrefix("ok"), "\(taken.output)")
        }
        for phone in [jake, sarah] { try await Contract.sync(phone) }
        try sarah.score(player: "Sarah", strokes: 3, hole: 2)
        try sarah.score(player: "Jake", strokes: 4, hole: 2)
        for _ in 0..<2 { for phone in [jake, sarah] { try await Contract.sync(phone) } }
        let refused = try sarah.cloudSummary().refused
        #expect(refused.isEmpty, "Sarah's phone's scores are not refused: \(refused)")
        try Self.expectInStep([jake, sarah], events: 6, "every score on both phones")
        let disputed = try sarah.discrepancies().discrepancies.map(\.hole)
        #expect(disputed == [2, 2], "the hostile 9s dispute Sarah's phone's scores (another device); the organizer settles them: \(disputed)")
    }

    @Test("Attack 7: a score whose id the cloud holds under another round is refused for good and shown; the phone is not stuck and its other scores land")
    func idHeldElsewhere() async throws {
        let cloud = try await SeveralPhonesTests.makeCloud(phones: ["jake", "sarah", "hostile"])
        let (homes, jake, sarah, round) = try await Self.honestRound(cloud)
        defer { withExtendedLifetime(homes) {} }
        // The hostile phone shares a round of its own and files, under it, the id Jake's next score will have.
        let stolen = UUID()
        let theirs = UUID()
        let shared = try await Self.hostile(cloud, """
            SELECT hyzer.share_round('\(theirs)', 'Elm Park', '{3,3}', 'Eve', false, '2026-11-26T05:00:00.000Z', ARRAY['eve'], ARRAY['Eve']);
            SELECT refusal_code FROM hyzer.upload_events('\(theirs)', ARRAY['\(stolen)']::uuid[], ARRAY['eve'], ARRAY[1], ARRAY[3], ARRAY[NULL]::uuid[],
                ARRAY['eve'], ARRAY['phone-eve'], ARRAY['tap'], ARRAY['2026-11-26T05:00:00.000Z'])
            """)
        #expect(shared.ok, "\(shared.output)")
        let event = try ScoreEvent(id: stolen, roundID: round.id, playerID: round.players[1].id, hole: 2, strokes: 3,
                                   reportedByPlayerID: round.players[0].id, deviceID: "phone-jake", source: .tap, createdAt: Date())
        try jake.append(batch: [event])
        try jake.score(player: "Jake", strokes: 4, hole: 2)
        let result = try await Contract.sync(jake)
        #expect(result.uploaded == 1, "the other score lands")
        let refused = try jake.cloudSummary().refused
        #expect(refused.map(\.eventID) == [stolen.uuidString] && refused[0].reason.hasPrefix("HZ010"), "\(refused)")
        #expect(try await Contract.sync(jake).uploaded == 0, "nothing is retried")
        try await Contract.sync(sarah)
        #expect(try sarah.eventLog().events.count == 2, "Sarah holds what the cloud holds of the round")
    }

    @Test("Attack 4: a round naming the owner is offered with its organizer, never joined without asking; a name no phone could show is refused at the server")
    func joiningAsks() async throws {
        let cloud = try await SeveralPhonesTests.makeCloud(phones: ["jake", "sarah", "hostile"])
        let (sarahHome, sarah) = try Contract.phone(try cloud.url("sarah"), player: "Sarah")
        defer { withExtendedLifetime(sarahHome) {} }
        let blinding = try await Self.hostile(cloud, """
            SELECT hyzer.share_round(gen_random_uuid(), 'Maple Hill', '{3,3}', 'Eve', false, '2026-11-26T05:00:00.000Z', ARRAY['a', 'b'], ARRAY['Sarah', E'Eve\\x07'])
            """)
        #expect(!blinding.ok && blinding.output.contains("player 2's name"), "a control character in a name: \(blinding.output)")
        let lure = UUID()
        let shared = try await Self.hostile(cloud, """
            SELECT hyzer.share_round('\(lure)', 'Maple Hill', '{3,3}', 'Jake', false, '2026-11-26T05:00:00.000Z', ARRAY['a', 'b'], ARRAY['Sarah', 'Eve'])
            """)
        #expect(shared.ok, "\(shared.output)")
        let result = try await Contract.sync(sarah)
        #expect(try sarah.roundInPlay() == nil, "not joined without asking")
        let offer = try #require(result.offers.first)
        #expect(offer.roundID == lure && offer.organizer.hasPrefix("hostile_") && offer.organizerName == "Jake",
                "the offer says which phone organized it, whatever name it gave: \(offer)")
        // Twenty-five look-alikes of Jake's round from one phone take one place among the offers.
        let (jakeHome, jake) = try Contract.phone(try cloud.url("jake"), player: "Jake")
        defer { withExtendedLifetime(jakeHome) {} }
        let real = try jake.startRound(course: "Maple Hill", players: ["Jake", "Sarah"])
        try await Contract.sync(jake)
        _ = try await Self.hostile(cloud, """
            SELECT hyzer.share_round(gen_random_uuid(), 'Maple Hill', '{3,3}', 'Jake', false, '2026-11-26T05:00:00.000Z', ARRAY['a', 'b'], ARRAY['Jake', 'Sarah'])
            FROM generate_series(1, 25)
            """)
        let offers = try await Contract.sync(sarah).offers
        #expect(offers.contains { $0.roundID == real.id && $0.organizer.hasPrefix("jake_") }, "the real round is offered: \(offers.map(\.description))")
        #expect(offers.count == 2, "one offer per organizer: \(offers.map(\.description))")
        let sync = try await CLIProcess.run("hyzer-hub", ["--home", sarahHome.path, "cloud", "sync"])
        #expect(sync.stdout.contains("Offered: a round on Maple Hill with Jake, Sarah, organized by hostile_") && sync.stdout.contains("organized by jake_"),
                "\(sync.stdout)\(sync.stderr)")
    }

    @Test("A cloud written around its rules by its superuser (a changed round, a jump in numbers) is said and not followed, by every phone alike")
    func tamperedCloudIsNotFollowed() async throws {
        let cloud = try await SeveralPhonesTests.makeCloud(phones: ["jake", "sarah"])
        let (homes, jake, sarah, round) = try await Self.honestRound(cloud)
        defer { withExtendedLifetime(homes) {} }
        let r = round.id.uuidString, jakeID = round.players[0].id
        _ = try await SeveralPhonesTests.psql(cloud.adminURL, """
            ALTER TABLE hyzer.score_event DISABLE TRIGGER score_event_checked;
            INSERT INTO hyzer.score_event (id, round_id, round_seq, player_id, hole, strokes, reported_by, device_id, source, created_at, uploaded_by, uploaded_at)
            VALUES (gen_random_uuid(), '\(r)', 9000000000000000000, '\(jakeID)', 2, 1, '\(jakeID)', 'phone-x', 'tap', '2026-11-26T05:00:00.000Z', 'x', now());
            ALTER TABLE hyzer.score_event ENABLE TRIGGER score_event_checked;
            """)
        for phone in [jake, sarah] {
            await #expect {
                try await Contract.sync(phone)
            } throws: { error in
                "\(error)".contains("skips from number 1 to 9000000000000000000")
            }
            #expect(try phone.cloudWork(eventLimit: 0).cursors[round.id] == 1, "the cursor did not follow the jump")
            #expect(try phone.eventLog().events.count == 1)
        }
        _ = try await SeveralPhonesTests.psql(cloud.adminURL, """
            ALTER TABLE hyzer.round DISABLE TRIGGER round_before_update;
            UPDATE hyzer.round SET pars = '{3,3,3}' WHERE id = '\(r)';
            """)
        await #expect {
            try await Contract.sync(sarah)
        } throws: { error in
            "\(error)".contains("has another course than when this phone first saw it")
        }
    }

    @Test("Sharing a round reads none of the other rounds' scores: a round of 12 players shared into a cloud whose statistics say it holds one round makes no scan of the score table")
    func sharingReadsOnlyItsRound() async throws {
        let cloud = try await SeveralPhonesTests.makeCloud(phones: ["hostile"])
        let players = (1...12).map { "'p\($0)'" }.joined(separator: ", ")
        func share(_ id: UUID) -> String {
            "SELECT hyzer.share_round('\(id)', 'Maple Hill', '{3,3,3}', 'Eve', false, '2026-11-26T05:00:00.000Z', ARRAY[\(players)], ARRAY[\(players)]);"
        }
        let first = UUID()
        let filled = try await Self.hostile(cloud, share(first) + Self.scores(600, in: first, device: "phone-eve"))
        #expect(filled.output.hasSuffix("600\n"), "the first round's 600 scores landed: \(filled.output)")
        // What autovacuum says of a young cloud: one round. Planned for any round, "does this round
        // hold a score?" then looked cheapest as a scan that stops at the first match, and a new
        // round has none: each player's insert read the whole table (a cloud of millions of scores
        // took seconds a player, under the phone's share lock).
        _ = try await SeveralPhonesTests.psql(cloud.adminURL, "ANALYZE hyzer.score_event")
        let shared = try await Self.hostile(cloud, "BEGIN; " + share(UUID()) + """
            SELECT 'scans ' || seq_scan FROM pg_stat_xact_user_tables WHERE relid = 'hyzer.score_event'::regclass; COMMIT;
            """)
        #expect(shared.ok && shared.output.contains("scans 0\n"), "sharing the second round scanned the score table: \(shared.output)")
    }

    @Test("A phone's share counts only its own rounds of the day and a refused completion reads none of the round's scores: the cloud's work for one phone does not grow with the others'")
    func onePhonesCallsReadItsOwnRows() async throws {
        let cloud = try await SeveralPhonesTests.makeCloud(phones: ["hostile", "jake", "sarah"])
        func share(_ id: UUID, anyPlayerResolves: Bool = false) -> String {
            "SELECT hyzer.share_round('\(id)', 'Maple Hill', '{3,3,3}', 'Jake', \(anyPlayerResolves), '2026-11-26T05:00:00.000Z', ARRAY['p1'], ARRAY['Jake']);"
        }
        // 40 rounds of the day from two other phones; Jake's last one lets any player resolve.
        let jakes = (0..<20).map { _ in UUID() }
        for phone in ["jake", "sarah"] {
            let rounds = phone == "jake" ? jakes : (0..<20).map { _ in UUID() }
            let sql = rounds.enumerated().map { share($1, anyPlayerResolves: $0 == 19) }.joined(separator: " ")
            #expect(try await Self.sql(cloud, as: phone, sql).ok)
        }
        let open = jakes[19]
        let filled = try await Self.sql(cloud, as: "jake", Self.scores(60, in: open, device: "phone-jake"))
        #expect(filled.output.hasPrefix("60"), "Jake's 60 scores landed: \(filled.output)")
        // The rows a transaction read from a table, by scan or through an index.
        func rowsRead(_ table: String) -> String {
            "SELECT '\(table) ' || (seq_tup_read + coalesce(idx_tup_fetch, 0)) FROM pg_stat_xact_user_tables WHERE relid = 'hyzer.\(table)'::regclass;"
        }
        // Planned as in a cloud large enough for its indexes (this one is small enough that a
        // scan of everything is cheapest anyway): the share's count of the phone's rounds of the
        // day compared the organizer as session_user (a name, collation "C"), which no index of a
        // text column serves, and read every phone's rounds of the day.
        let shared = try await Self.hostile(cloud, "SET enable_seqscan = off; BEGIN; " + share(UUID()) + rowsRead("round") + " COMMIT;")
        let roundRows = shared.output.split(separator: "\n").first { $0.hasPrefix("round ") }.flatMap { Int($0.dropFirst(6)) }
        #expect(shared.ok && (roundRows ?? .max) < 10, "sharing one round read \(roundRows.map(String.init) ?? "?") rows of the 41 rounds: \(shared.output)")
        // Seven refused completions in one session (the plans PL/pgSQL keeps for any round from
        // the sixth call on): whether this phone scored in the round is its own scores, counted
        // by the uploader index, never the round's 60. (Planned for indexes again: once
        // autovacuum has analyzed a table of 60 rows, reading all of it is cheapest.) Analyzed here
        // as autovacuum may have done or not: with statistics that say every score is Jake's, the
        // plan kept for any phone read the round's 60 scores through the (round, number) index.
        _ = try await SeveralPhonesTests.psql(cloud.adminURL, "ANALYZE hyzer.score_event")
        let commands = ["SET enable_seqscan = off", "BEGIN"] + Array(repeating: "SELECT hyzer.complete_round('\(open)')", count: 7) + [rowsRead("score_event"), "COMMIT"]
        let refused = try await CLIProcess.runTool("psql", [try cloud.url("hostile"), "-X", "-tAq", "-v", "ON_ERROR_ROLLBACK=on"] + commands.flatMap { ["-c", $0] })
        #expect(refused.stderr.components(separatedBy: "only the organizer's phone").count == 8, "seven completions refused: \(refused.stderr)")
        #expect(refused.stdout.contains("score_event 0\n"), "a refused completion read the round's scores: \(refused.stdout)")
        #expect(refused.stderr.contains("or a phone that scored in it completes round") && refused.stderr.contains(" has not scored in it"),
                "the refusal names the rule of a round where any player resolves: \(refused.stderr)")
        // And the rule's other side: in a round where any player resolves, a phone that scored in it may end it.
        let ended = try await Self.sql(cloud, as: "sarah", Self.scores(1, in: open, device: "phone-sarah") + "SELECT hyzer.complete_round('\(open)');")
        #expect(ended.ok && ended.output.hasSuffix("1\nt\n"), "Sarah's phone scored in Jake's round and may end it: \(ended.output)")
    }
}
