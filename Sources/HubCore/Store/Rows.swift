import Foundation
import GRDB
import HyzerKit

/// Reading domain values out of the hub's tables. All of these run inside a transaction the caller holds.
enum Rows {
    static func courses(_ db: Database) throws -> [Course] {
        let ids = try Row.fetchAll(db, sql: "SELECT id, name FROM course ORDER BY name COLLATE NOCASE")
        return try ids.map { row in try course(db, id: row["id"], name: row["name"]) }
    }

    static func course(_ db: Database, named name: String) throws -> (id: Int64, course: Course)? {
        guard let row = try Row.fetchOne(db, sql: "SELECT id, name FROM course WHERE name = ? COLLATE NOCASE", arguments: [name])
        else { return nil }
        return (row["id"], try course(db, id: row["id"], name: row["name"]))
    }

    static func course(_ db: Database, id: Int64, name: String) throws -> Course {
        let holes = try Row.fetchAll(db, sql: "SELECT number, par FROM hole WHERE courseID = ? ORDER BY number", arguments: [id])
            .map { Hole(number: $0["number"], par: $0["par"]) }
        do {
            return try Course(name: name, holes: holes)
        } catch {
            throw HubError.storage("The stored course \"\(name)\" is invalid: \(error)")
        }
    }

    /// The round in play (active or awaiting finalization), if any.
    static func roundInPlay(_ db: Database) throws -> Round? {
        guard let id = try String.fetchOne(db, sql: "SELECT id FROM round WHERE status IN ('setup', 'active', 'awaitingFinalization')")
        else { return nil }
        return try round(db, id: id)
    }

    /// The most recently created round, in play or not.
    static func latestRound(_ db: Database) throws -> Round? {
        guard let id = try String.fetchOne(db, sql: "SELECT id FROM round ORDER BY createdAt DESC, rowid DESC LIMIT 1")
        else { return nil }
        return try round(db, id: id)
    }

    static func round(_ db: Database, id: String) throws -> Round {
        guard let row = try Row.fetchOne(db, sql: """
            SELECT round.id, round.status, round.selectedHole, round.createdAt, course.id AS courseID, course.name AS courseName
            FROM round JOIN course ON course.id = round.courseID WHERE round.id = ?
            """, arguments: [id])
        else { throw HubError.storage("Round \(id) is missing from the database.") }
        let course = try course(db, id: row["courseID"], name: row["courseName"])
        let players = try Row.fetchAll(db, sql: """
            SELECT player.id, player.name FROM round_player JOIN player ON player.id = round_player.playerID
            WHERE round_player.roundID = ? ORDER BY round_player.ordinal
            """, arguments: [id])
            .map { Player(id: $0["id"], name: $0["name"]) }
        guard let uuid = UUID(uuidString: row["id"]), let status = RoundStatus(rawValue: row["status"]) else {
            throw HubError.storage("Round \(id) has an unreadable id or status.")
        }
        return Round(id: uuid, course: course, players: players, status: status, selectedHole: row["selectedHole"],
                     createdAt: timestamp(row["createdAt"]))
    }

    static let eventColumns = "id, roundID, playerID, hole, strokes, supersedesEventID, reportedByPlayerID, deviceID, source, createdAt"

    /// A round's events in log order: the order they reached the hub.
    static func events(_ db: Database, roundID: UUID) throws -> [ScoreEvent] {
        try Row.fetchAll(db, sql: "SELECT \(eventColumns) FROM score_event WHERE roundID = ? ORDER BY seq",
                         arguments: [roundID.uuidString]).map(event)
    }

    /// One {player, hole} history in log order.
    static func history(_ db: Database, roundID: UUID, playerID: PlayerID, hole: Int) throws -> [ScoreEvent] {
        let statement = try db.cachedStatement(sql: """
            SELECT \(eventColumns) FROM score_event WHERE roundID = ? AND playerID = ? AND hole = ? ORDER BY seq
            """)
        return try Row.fetchAll(statement, arguments: [roundID.uuidString, playerID, hole]).map(event)
    }

    static func event(_ db: Database, id: UUID) throws -> ScoreEvent? {
        let statement = try db.cachedStatement(sql: "SELECT \(eventColumns) FROM score_event WHERE id = ?")
        return try Row.fetchOne(statement, arguments: [id.uuidString]).map(event)
    }

    static func containsEvent(_ db: Database, id: UUID) throws -> Bool {
        let statement = try db.cachedStatement(sql: "SELECT 1 FROM score_event WHERE id = ?")
        return try Int.fetchOne(statement, arguments: [id.uuidString]) != nil
    }

    /// The round in play's id, status and selected hole: the parts of a round that change.
    static func roundInPlayHeader(_ db: Database) throws -> (id: String, status: RoundStatus, selectedHole: Int?)? {
        let statement = try db.cachedStatement(sql: "SELECT id, status, selectedHole FROM round WHERE status IN ('setup', 'active', 'awaitingFinalization')")
        guard let row = try Row.fetchOne(statement), let status = RoundStatus(rawValue: row["status"]) else { return nil }
        return (row["id"], status, row["selectedHole"])
    }

    static func event(_ row: Row) throws -> ScoreEvent {
        guard let id = UUID(uuidString: row["id"]), let roundID = UUID(uuidString: row["roundID"]),
              let source = ScoreSource(rawValue: row["source"]) else {
            throw HubError.storage("A stored score event is unreadable (id \(String(describing: row["id"] as String?))).")
        }
        let supersedes: String? = row["supersedesEventID"]
        return try ScoreEvent(
            id: id, roundID: roundID, playerID: row["playerID"], hole: row["hole"], strokes: row["strokes"],
            supersedesEventID: supersedes.flatMap(UUID.init(uuidString:)), reportedByPlayerID: row["reportedByPlayerID"],
            deviceID: row["deviceID"], source: source, createdAt: timestamp(row["createdAt"]))
    }

    static func insert(_ db: Database, event: ScoreEvent, receivedAt: Date) throws {
        let statement = try db.cachedStatement(sql: """
            INSERT INTO score_event (\(eventColumns), receivedAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        try statement.execute(arguments: [
                event.id.uuidString, event.roundID.uuidString, event.playerID, event.hole, event.strokes,
                event.supersedesEventID?.uuidString, event.reportedByPlayerID, event.deviceID, event.source.rawValue,
                HyzerJSON.formatTimestamp(event.createdAt), HyzerJSON.formatTimestamp(receivedAt),
            ])
    }

    static func meta(_ db: Database, _ key: String) throws -> String? {
        try String.fetchOne(db, sql: "SELECT value FROM hub_meta WHERE key = ?", arguments: [key])
    }

    static func setMeta(_ db: Database, _ key: String, _ value: String) throws {
        try db.execute(sql: "INSERT INTO hub_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                       arguments: [key, value])
    }

    /// Marks a committed change: the snapshot sequence grows by one.
    static func bumpSequence(_ db: Database) throws {
        try db.cachedStatement(sql: "UPDATE hub_meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'sequence'").execute()
    }

    static func timestamp(_ text: String) -> Date {
        HyzerJSON.parseTimestamp(text) ?? Date(timeIntervalSince1970: 0)
    }
}
