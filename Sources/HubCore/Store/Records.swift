import Foundation
import GRDB
import HyzerKit

// The hub's own tables as GRDB records: one type per table, columns named once. (The cloud's
// `cloud_round` has its record in `HubStore+Cloud.swift`; its other tables have none and are
// used through plain SQL.)
// Conversions to and from the domain live here and in `HubStore`, so nothing outside the store
// reads a row by hand.

/// `hub_meta`: the hub's identity, its change sequence and one-time markers.
struct MetaRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "hub_meta"
    enum Columns { static let key = Column(CodingKeys.key) }

    var key: String
    var value: String

    static let hubID = "hubID"
    static let sequence = "sequence"
    static let coursesSeeded = "coursesSeeded"
}

/// `course`: a course by name; its holes are `hole` rows (`HoleRecord`).
struct CourseRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "course"
    static let holes = hasMany(HoleRecord.self)
    enum Columns { static let name = Column(CodingKeys.name) }

    var id: Int64?
    var name: String

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// `hole`: one hole of a course and its par.
struct HoleRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "hole"
    enum Columns {
        static let courseID = Column(CodingKeys.courseID)
        static let number = Column(CodingKeys.number)
    }

    var courseID: Int64
    var number: Int
    var par: Int

    var hole: Hole { Hole(number: number, par: par) }
}

/// `player`: registered players (found again by name in later rounds) and guests.
struct PlayerRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "player"
    enum Columns {
        static let name = Column(CodingKeys.name)
        static let isGuest = Column(CodingKeys.isGuest)
    }

    var id: String
    var name: String
    var isGuest: Bool

    init(_ player: Player) {
        id = player.id
        name = player.name
        isGuest = player.isGuest
    }

    var player: Player { Player(id: id, name: name) }
}

/// `round`: its course, lifecycle status and the hole the phone moved to. Read on every score
/// (its status and selected hole change), so the row mapping is written out.
struct RoundRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "round"
    enum Columns: String, ColumnExpression {
        case id, courseID, status, selectedHole, createdAt
    }

    var id: String
    var courseID: Int64
    var status: RoundStatus
    var selectedHole: Int?
    var createdAt: String

    init(_ round: Round, courseID: Int64) {
        id = round.id.canonicalString
        self.courseID = courseID
        status = round.status
        selectedHole = round.selectedHole
        createdAt = HyzerJSON.formatTimestamp(round.createdAt)
    }

    init(row: Row) throws {
        id = row[Columns.id]
        courseID = row[Columns.courseID]
        guard let status = RoundStatus(rawValue: row[Columns.status]) else {
            throw HubError.storage("Round \(id) has an unreadable status.")
        }
        self.status = status
        selectedHole = row[Columns.selectedHole]
        createdAt = row[Columns.createdAt]
    }

    func encode(to container: inout PersistenceContainer) {
        container[Columns.id] = id
        container[Columns.courseID] = courseID
        container[Columns.status] = status.rawValue
        container[Columns.selectedHole] = selectedHole
        container[Columns.createdAt] = createdAt
    }
}

/// `round_player`: who plays a round, in the order they were named.
struct RoundPlayerRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "round_player"

    var roundID: String
    var playerID: String
    var ordinal: Int
}

/// `score_event`: the append-only log. `seq` is the hub's arrival order; `receivedAt` its clock.
///
/// Read only: rows in, events out (`HubStore.insert` binds a new event itself). Row mapping is
/// written out (not `Codable`): a round's log is read on the ingest path (its ledger is built
/// from it), and GRDB's hand-written mapping is several times faster.
struct ScoreEventRecord: FetchableRecord {
    static let databaseTableName = "score_event"

    enum Columns: String, ColumnExpression, CaseIterable {
        case id, roundID, playerID, hole, strokes, supersedesEventID, reportedByPlayerID, deviceID, source, createdAt, receivedAt
    }

    /// The insert the ingest path runs for every score, as one cached statement; its placeholders
    /// come from `Columns` in order, and `HubStore.insert` binds the values in the same order.
    /// An id the log already holds inserts nothing (the unique index on `id` finds it on the
    /// way), so the ingest path needs no query of its own to tell a new event from a stored one.
    static let insertSQL = """
        INSERT INTO score_event (\(Columns.allCases.map(\.rawValue).joined(separator: ", ")))
        VALUES (\(Columns.allCases.map { _ in "?" }.joined(separator: ", "))) ON CONFLICT (id) DO NOTHING
        """

    var id: String
    var roundID: String
    var playerID: String
    var hole: Int
    var strokes: Int
    var supersedesEventID: String?
    var reportedByPlayerID: String
    var deviceID: String
    var source: String
    var createdAt: String
    var receivedAt: String

    init(row: Row) {
        id = row[Columns.id]
        roundID = row[Columns.roundID]
        playerID = row[Columns.playerID]
        hole = row[Columns.hole]
        strokes = row[Columns.strokes]
        supersedesEventID = row[Columns.supersedesEventID]
        reportedByPlayerID = row[Columns.reportedByPlayerID]
        deviceID = row[Columns.deviceID]
        source = row[Columns.source]
        createdAt = row[Columns.createdAt]
        receivedAt = row[Columns.receivedAt]
    }

    /// The domain event; a row the domain would refuse is reported as damaged storage.
    func event() throws -> ScoreEvent {
        guard let eventID = UUID(canonicalString: id), let round = UUID(canonicalString: roundID),
              let source = ScoreSource(rawValue: source) else {
            throw HubError.storage("A stored score event is unreadable (id \(id)).")
        }
        do {
            return try ScoreEvent(
                id: eventID, roundID: round, playerID: playerID, hole: hole, strokes: strokes,
                supersedesEventID: supersedesEventID.flatMap(UUID.init(canonicalString:)), reportedByPlayerID: reportedByPlayerID,
                deviceID: deviceID, source: source, createdAt: HyzerJSON.parseTimestamp(createdAt) ?? Date(timeIntervalSince1970: 0))
        } catch {
            throw HubError.storage("The stored score event \(id) is invalid: \(error)")
        }
    }
}
