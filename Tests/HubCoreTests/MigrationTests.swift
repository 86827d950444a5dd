import Foundation
import GRDB
import Testing
@testable import HubCore
import HyzerKit
import HyzerHarness

@Suite("Migrating a hub's store")
struct MigrationTests {
    /// A two-hole course and a round of Ann and Ben on it, in play: what the old files' events belong to.
    static func insertTinyRound(_ round: String, in db: Database) throws {
        try db.execute(sql: """
            INSERT INTO course (id, name) VALUES (1, 'Tiny');
            INSERT INTO hole (courseID, number, par) VALUES (1, 1, 3), (1, 2, 4);
            INSERT INTO player (id, name, isGuest) VALUES ('guest:Ann', 'Ann', 1), ('guest:Ben', 'Ben', 1);
            INSERT INTO round (id, courseID, status, selectedHole, createdAt) VALUES (?, 1, 'active', 1, '2026-11-24T05:00:00.000Z');
            INSERT INTO round_player (roundID, playerID, ordinal) VALUES (?, 'guest:Ann', 0), (?, 'guest:Ben', 1);
            """, arguments: [round, round, round])
    }

    /// A store migrated up to `version`, with Ann and Ben's round and four of its events (arrival
    /// numbers with gaps, one correction): what the v5 and v6 tests migrate.
    static func storeWithFourEvents(upTo version: String, in home: TemporaryHome) throws -> (DatabaseQueue, round: String, ids: [String]) {
        let queue = try DatabaseQueue(path: home.url.appendingPathComponent("old.sqlite").path)
        try HubDatabase.migrator.migrate(queue, upTo: version)
        let round = UUID().uuidString
        let ids = (0..<4).map { _ in UUID().uuidString }
        try queue.write { db in
            try Self.insertTinyRound(round, in: db)
            let rows: [(Int, String, Int, Int, String?)] = [(2, "guest:Ann", 1, 3, nil), (3, "guest:Ben", 1, 4, nil), (7, "guest:Ann", 1, 2, ids[0]), (8, "guest:Ben", 2, 5, nil)]
            for (index, row) in rows.enumerated() {
                try db.execute(sql: """
                    INSERT INTO score_event (seq, id, roundID, playerID, hole, strokes, supersedesEventID, reportedByPlayerID, deviceID, source, createdAt, receivedAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'watch', 'crown', '2026-11-24T05:00:00.000Z', '2026-11-24T05:00:01.000Z')
                    """, arguments: [row.0, ids[index], round, row.1, row.2, row.3, row.4, row.1])
            }
        }
        return (queue, round, ids)
    }

    @Test("v4 rebuilds score_event: every event and its arrival number kept, cloud rows still point at them, new numbers keep growing, still append-only")
    func v4KeepsEveryEvent() throws {
        let home = try TemporaryHome()
        let path = home.url.appendingPathComponent("old.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try HubDatabase.migrator.migrate(queue, upTo: "v3: rounds shared through a cloud")
        let round = UUID().uuidString
        let ids = (0..<6).map { _ in UUID().uuidString }
        try queue.write { db in
            try Self.insertTinyRound(round, in: db)
            // Arrival numbers with a gap (as a rolled-back insert leaves), a correction chain, every source.
            let rows: [(Int, String, Int, Int, String?, String)] = [
                (1, "guest:Ann", 1, 3, nil, "tap"), (2, "guest:Ben", 1, 4, nil, "crown"), (5, "guest:Ann", 1, 2, ids[0], "crown"),
                (6, "guest:Ben", 2, 5, nil, "voice"), (7, "guest:Ann", 1, 3, ids[2], "resolution"), (9, "guest:Ann", 2, 4, nil, "tap"),
            ]
            for (index, row) in rows.enumerated() {
                try db.execute(sql: """
                    INSERT INTO score_event (seq, id, roundID, playerID, hole, strokes, supersedesEventID, reportedByPlayerID, deviceID, source, createdAt, receivedAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'watch', ?, '2026-11-24T05:00:00.000Z', '2026-11-24T05:00:01.000Z')
                    """, arguments: [row.0, ids[index], round, row.1, row.2, row.3, row.4, row.1, row.5])
            }
            try db.execute(sql: "INSERT INTO cloud_round (roundID, organizerHubID, anyPlayerResolves) VALUES (?, 'hub-a', 0)", arguments: [round])
            try db.execute(sql: "INSERT INTO cloud_event (eventID, roundID, cloudSeq) VALUES (?, ?, 1), (?, ?, 2)", arguments: [ids[0], round, ids[1], round])
        }
        let before = try queue.read { db in try Row.fetchAll(db, sql: "SELECT * FROM score_event ORDER BY seq") }

        try HubDatabase.migrator.migrate(queue, upTo: "v4: score events without per-insert overhead")
        try queue.read { db in
            #expect(try Row.fetchAll(db, sql: "SELECT * FROM score_event ORDER BY seq") == before)
            #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
            #expect(try String.fetchAll(db, sql: "SELECT eventID FROM cloud_event ORDER BY cloudSeq") == [ids[0], ids[1]])
            let schema = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'score_event'") ?? ""
            #expect(!schema.contains("AUTOINCREMENT") && !schema.contains(" IN ("))
            #expect(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE tbl_name = 'score_event' AND type IN ('index', 'trigger') AND name NOT LIKE 'sqlite_%' ORDER BY name")
                    == ["score_event_key", "score_event_no_delete", "score_event_no_update", "score_event_round"])
        }
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO score_event (id, roundID, playerID, hole, strokes, reportedByPlayerID, deviceID, source, createdAt, receivedAt)
                VALUES (?, ?, 'guest:Ben', 2, 3, 'guest:Ben', 'phone', 'tap', '2026-11-24T05:01:00.000Z', '2026-11-24T05:01:00.000Z')
                """, arguments: [UUID().uuidString, round])
            #expect(db.lastInsertedRowID == 10, "the next arrival number follows the largest")
            #expect(throws: DatabaseError.self) { try db.execute(sql: "DELETE FROM score_event WHERE seq = 10") }
            #expect(throws: DatabaseError.self) { try db.execute(sql: "UPDATE score_event SET strokes = 9 WHERE seq = 1") }
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: """
                    INSERT INTO score_event (id, roundID, playerID, hole, strokes, reportedByPlayerID, deviceID, source, createdAt, receivedAt)
                    VALUES (?, ?, 'guest:Ben', 2, 3, 'guest:Ben', 'phone', 'telepathy', '2026-11-24T05:01:00.000Z', '2026-11-24T05:01:00.000Z')
                    """, arguments: [UUID().uuidString, round])
            }
        }
    }

    @Test("v5 rebuilds score_event again: every event, arrival number and cloud row kept; one secondary index; only the chain's foreign key; still append-only")
    func v5KeepsEveryEvent() throws {
        let home = try TemporaryHome()
        let (queue, round, ids) = try Self.storeWithFourEvents(upTo: "v4: score events without per-insert overhead", in: home)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO cloud_round (roundID, organizerHubID, anyPlayerResolves) VALUES (?, 'hub-a', 0)", arguments: [round])
            try db.execute(sql: "INSERT INTO cloud_event (eventID, roundID, cloudSeq) VALUES (?, ?, 1)", arguments: [ids[1], round])
        }
        let before = try queue.read { db in try Row.fetchAll(db, sql: "SELECT * FROM score_event ORDER BY seq") }

        try HubDatabase.migrator.migrate(queue, upTo: "v5: score events with one secondary index, checked by the hub")
        try queue.read { db throws in
            #expect(try Row.fetchAll(db, sql: "SELECT * FROM score_event ORDER BY seq") == before)
            #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
            #expect(try String.fetchAll(db, sql: "SELECT \"table\" || '.' || \"from\" FROM pragma_foreign_key_list('score_event')") == ["score_event.supersedesEventID"])
            #expect(try String.fetchAll(db, sql: "SELECT \"table\" FROM pragma_foreign_key_list('cloud_event')") == ["score_event"])
            #expect(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE tbl_name = 'score_event' AND type IN ('index', 'trigger') AND name NOT LIKE 'sqlite_%' ORDER BY name")
                    == ["score_event_key", "score_event_no_delete", "score_event_no_update"])
        }
        // The hub reads the migrated log: the round's events in log order (the one the cloud ordered
        // first, then arrival order), and the catch-up after a row by its number.
        let store = try queue.read { db in try HubStore(db: db).eventsWithOrder(roundID: UUID(uuidString: round)!).map(\.row) }
        #expect(store == [3, 2, 7, 8])
        let after = try queue.read { db in try HubStore(db: db).eventsWithOrder(roundID: UUID(uuidString: round)!, afterRow: 3).map(\.row) }
        #expect(after == [7, 8])
        try queue.write { db in
            #expect(throws: DatabaseError.self) { try db.execute(sql: "DELETE FROM score_event WHERE seq = 8") }
            #expect(throws: DatabaseError.self) { try db.execute(sql: "UPDATE score_event SET strokes = 9 WHERE seq = 2") }
            #expect(throws: DatabaseError.self, "a correction of an event the log does not hold") {
                try db.execute(sql: """
                    INSERT INTO score_event (id, roundID, playerID, hole, strokes, supersedesEventID, reportedByPlayerID, deviceID, source, createdAt, receivedAt)
                    VALUES (?, ?, 'guest:Ben', 2, 3, ?, 'guest:Ben', 'phone', 'tap', '2026-11-24T05:01:00.000Z', '2026-11-24T05:01:00.000Z')
                    """, arguments: [UUID().uuidString, round, UUID().uuidString])
            }
        }
    }

    @Test("v6 swaps the {player, hole} index for (round, arrival): every row kept, a round read off the new index in arrival order, with no sort")
    func v6IndexesByRoundAndArrival() throws {
        let home = try TemporaryHome()
        let (queue, round, _) = try Self.storeWithFourEvents(upTo: "v5: score events with one secondary index, checked by the hub", in: home)
        let before = try queue.read { db in try Row.fetchAll(db, sql: "SELECT * FROM score_event ORDER BY seq") }

        try HubDatabase.migrator.migrate(queue)
        try queue.read { db throws in
            #expect(try Row.fetchAll(db, sql: "SELECT * FROM score_event ORDER BY seq") == before)
            #expect(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE tbl_name = 'score_event' AND type IN ('index', 'trigger') AND name NOT LIKE 'sqlite_%' ORDER BY name")
                    == ["score_event_no_delete", "score_event_no_update", "score_event_round"])
            #expect(try String.fetchAll(db, sql: "SELECT name FROM pragma_index_info('score_event_round') ORDER BY seqno") == ["roundID", "seq"])
            // A round is read off the index, with no sort of its own.
            let details = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT * FROM score_event WHERE roundID = ? ORDER BY seq", arguments: [round]).map { $0["detail"] as String }
            #expect(details.contains { $0.contains("score_event_round") } && !details.contains { $0.contains("TEMP B-TREE") }, "\(details)")
        }
        let rows = try queue.read { db in try HubStore(db: db).eventsWithOrder(roundID: UUID(uuidString: round)!).map(\.row) }
        #expect(rows == [2, 3, 7, 8])
        let after = try queue.read { db in try HubStore(db: db).eventsWithOrder(roundID: UUID(uuidString: round)!, afterRow: 3).map(\.row) }
        #expect(after == [7, 8])
    }

    @Test("v7 keeps every shared round, with its organizer under the column's new name, and adds the table of skipped cloud rows")
    func v7NamesTheOrganizer() throws {
        let home = try TemporaryHome()
        let (queue, round, _) = try Self.storeWithFourEvents(upTo: "v6: score events indexed by round and arrival, not by {player, hole}", in: home)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO cloud_round (roundID, organizerHubID, anyPlayerResolves, cursor) VALUES (?, 'hub-a', 1, 7)", arguments: [round])
        }
        try HubDatabase.migrator.migrate(queue)
        try queue.read { db in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT organizer, anyPlayerResolves, cursor FROM cloud_round WHERE roundID = ?", arguments: [round]))
            #expect(row["organizer"] as String == "hub-a" && row["anyPlayerResolves"] as Bool && row["cursor"] as Int64 == 7)
            #expect(try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('cloud_skipped') ORDER BY cid") == ["roundID", "cloudSeq", "eventID", "reason", "skippedAt"])
        }
    }
}
