import Foundation
import GRDB
import GRDBSQLite
import HyzerKit

/// The hub's tables inside one transaction that `HubDatabase` holds open: every statement the
/// hub runs on them is here (the cloud's in `HubStore+Cloud.swift`), behind methods that speak the
/// domain. Only the schema, its migrations and the transactions themselves are `HubDatabase`'s.
struct HubStore {
    let db: Database

    // MARK: Meta

    func meta(_ key: String) throws -> String? {
        // A cached statement: the change sequence is read several times a score.
        try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM \(MetaRecord.databaseTableName) WHERE key = ?"), arguments: [key])
    }

    func setMeta(_ key: String, _ value: String) throws {
        try MetaRecord(key: key, value: value).upsert(db)
    }

    var hubID: String { get throws { try meta(MetaRecord.hubID) ?? "" } }

    /// The change sequence: grows by one per committed change, across every process using the file.
    /// (0 when it is missing or not a number, as the text read as a number would be.) Read at the
    /// start of every score's transaction, so read through SQLite's own calls: GRDB's `fetchOne`
    /// costs more than the statement itself.
    var sequence: Int {
        get throws {
            let sql = "SELECT CAST(value AS INTEGER) FROM hub_meta WHERE key = 'sequence'"
            return Int(try RawBinding(db.cachedStatement(sql: sql)).stepForInteger(sql: sql) ?? 0)
        }
    }

    /// Marks a committed change: the snapshot sequence grows by one. Returns the new sequence.
    /// (SQLite makes a RETURNING statement's changes at its first step, the one read here.)
    @discardableResult
    func bumpSequence() throws -> Int {
        try requireOpenTransaction()
        let sql = "UPDATE hub_meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'sequence' RETURNING CAST(value AS INTEGER)"
        guard let sequence = try RawBinding(db.cachedStatement(sql: sql)).stepForInteger(sql: sql) else {
            throw HubError.storage("The change sequence is missing from hub_meta.")
        }
        return Int(sequence)
    }

    /// The same when this transaction has read the sequence (`current`) and holds the write
    /// lock: a plain UPDATE, not RETURNING (SQLite keeps a RETURNING statement's rows in a
    /// temporary table it makes and drops each time). Throws when the stored sequence is not
    /// `current`, rather than number two changes alike.
    func bumpSequence(from current: Int) throws -> Int {
        try requireOpenTransaction()
        let sql = "UPDATE hub_meta SET value = ?1 + 1 WHERE key = 'sequence' AND CAST(value AS INTEGER) = ?1"
        var bound = RawBinding(try db.cachedStatement(sql: sql))
        bound.integer(current)
        _ = try bound.step(sql: sql)
        guard bound.changes == 1 else { throw HubError.storage("The change sequence in hub_meta is not \(current), as this transaction read it.") }
        return current + 1
    }

    /// Whether a transaction is open on this store's connection (false once SQLite has rolled it back).
    var isInsideTransaction: Bool { db.isInsideTransaction }

    /// Throws SQLite's "transaction was aborted" when the write transaction this store runs in
    /// has been rolled back under it (SQLite does so itself on a full disk, an I/O error, out of
    /// memory): the writes bound with SQLite's own calls ask first, so none runs on its own and
    /// commits a part of what was meant to commit whole. (GRDB asks so before its own
    /// statements only inside its `inTransaction`.)
    func requireOpenTransaction() throws {
        guard isInsideTransaction else { throw DatabaseError(resultCode: .SQLITE_ABORT, message: "Transaction was aborted") }
    }

    // MARK: Courses

    func courses() throws -> [Course] {
        try CourseRecord.order(CourseRecord.Columns.name.collating(.nocase)).fetchAll(db).map(course)
    }

    func course(named name: String) throws -> (id: Int64, course: Course)? {
        guard let record = try CourseRecord.filter(CourseRecord.Columns.name.collating(.nocase) == name).fetchOne(db),
              let id = record.id else { return nil }
        return (id, try course(record))
    }

    private func course(_ record: CourseRecord) throws -> Course {
        let holes = try HoleRecord.fetchAll(db.cachedStatement(sql: "SELECT * FROM hole WHERE courseID = ? ORDER BY number"), arguments: [record.id])
        do {
            return try Course(name: record.name, holes: holes.map(\.hole))
        } catch {
            throw HubError.storage("The stored course \"\(record.name)\" is invalid: \(error)")
        }
    }

    func insert(_ course: Course) throws {
        var record = CourseRecord(id: nil, name: course.name)
        try record.insert(db)
        guard let id = record.id else { throw HubError.storage("The course \"\(course.name)\" got no id.") }
        for hole in course.holes { try HoleRecord(courseID: id, number: hole.number, par: hole.par).insert(db) }
    }

    // MARK: Players and rounds

    /// The registered (not guest) player with this name, any case.
    func registeredPlayer(named name: String) throws -> Player? {
        try PlayerRecord
            .filter(!PlayerRecord.Columns.isGuest && PlayerRecord.Columns.name.collating(.nocase) == name)
            .order(Column.rowID.desc)
            .fetchOne(db)?.player
    }

    /// Every registered player's name.
    func registeredPlayerNames() throws -> [String] {
        try String.fetchAll(db, sql: "SELECT name FROM player WHERE NOT isGuest")
    }

    /// Stores a new round with its players (a registered player already known is kept as is).
    func insert(_ round: Round, courseID: Int64) throws {
        try RoundRecord(round, courseID: courseID).insert(db)
        for (ordinal, player) in round.players.enumerated() {
            try PlayerRecord(player).insert(db, onConflict: .ignore)
            try RoundPlayerRecord(roundID: round.id.canonicalString, playerID: player.id, ordinal: ordinal).insert(db)
        }
    }

    /// Saves the parts of a round that change: status and selected hole.
    func updateProgress(of round: Round) throws {
        try db.cachedStatement(sql: "UPDATE round SET status = ?, selectedHole = ? WHERE id = ?")
            .execute(arguments: [round.status.rawValue, round.selectedHole, round.id.canonicalString])
    }

    /// The round in play (setup, active or awaiting finalization), if any.
    func roundInPlay() throws -> Round? {
        try inPlayRecord().map(round)
    }

    /// The most recently created round, in play or not.
    func latestRound() throws -> Round? {
        try RoundRecord.order(RoundRecord.Columns.createdAt.desc, Column.rowID.desc).fetchOne(db).map(round)
    }

    /// The ids of the completed rounds, newest first, and how many events they hold: what the
    /// history holds, without reading it (a shared round's events may still arrive from the
    /// cloud after this phone finished it).
    func completedRoundsKey(limit: Int) throws -> [String] {
        let ids = try String.fetchAll(db, sql: "SELECT id FROM round WHERE status = ? ORDER BY createdAt DESC, rowid DESC LIMIT ?",
                                      arguments: [RoundStatus.completed.rawValue, limit])
        let events = try Int.fetchOne(db, sql: "SELECT count(*) FROM score_event WHERE roundID IN (SELECT id FROM round WHERE status = ?)",
                                      arguments: [RoundStatus.completed.rawValue]) ?? 0
        return ids + ["\(events)"]
    }

    /// The rounds whose id ends with `id` (8 hex digits or more, any case).
    func rounds(idEndingWith id: String) throws -> [Round] {
        let wanted = id.uppercased()
        guard wanted.count >= 8, wanted.allSatisfy({ $0.isHexDigit || $0 == "-" }) else { return [] }
        return try RoundRecord.filter(sql: "upper(id) LIKE ?", arguments: ["%" + wanted]).fetchAll(db).map(round)
    }

    /// Completed rounds, newest first (the phone's history).
    func completedRounds(limit: Int) throws -> [Round] {
        try RoundRecord.filter(RoundRecord.Columns.status == RoundStatus.completed.rawValue)
            .order(RoundRecord.Columns.createdAt.desc, Column.rowID.desc).limit(limit).fetchAll(db).map(round)
    }

    /// The round in play's id, status and selected hole: the parts of a round that change.
    func roundInPlayHeader() throws -> (id: String, status: RoundStatus, selectedHole: Int?)? {
        try inPlayRecord().map { ($0.id, $0.status, $0.selectedHole) }
    }

    private func inPlayRecord() throws -> RoundRecord? {
        try RoundRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM round WHERE status IN ('setup', 'active', 'awaitingFinalization')"))
    }

    /// A round with its course and players. Read for every change pushed and by every cloud pass,
    /// so through cached statements, as every read on a score's way is: GRDB's query builder
    /// writes and prepares its SQL anew at each call, which costs more than reading the rows.
    func round(_ record: RoundRecord) throws -> Round {
        guard let courseRecord = try CourseRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM course WHERE id = ?"), arguments: [record.courseID]) else {
            throw HubError.storage("Round \(record.id) names a course that is missing from the database.")
        }
        let players = try PlayerRecord.fetchAll(db.cachedStatement(sql: """
            SELECT player.* FROM round_player JOIN player ON player.id = round_player.playerID
            WHERE round_player.roundID = ? ORDER BY round_player.ordinal
            """), arguments: [record.id])
        guard let id = UUID(canonicalString: record.id) else { throw HubError.storage("Round \(record.id) has an unreadable id.") }
        return Round(id: id, course: try course(courseRecord), players: players.map(\.player), status: record.status,
                     selectedHole: record.selectedHole, createdAt: HyzerJSON.parseTimestamp(record.createdAt) ?? Date(timeIntervalSince1970: 0))
    }

    // MARK: Score events

    /// Log order: the cloud's order for events the cloud holds, then this hub's arrival order for
    /// those still waiting to upload. A hub without a cloud has only the second: arrival order.
    /// Every phone holding the same uploaded events therefore reads them in the same order.
    static let logOrder = "ORDER BY cloud_event.cloudSeq IS NULL, cloud_event.cloudSeq, score_event.seq"
    private static let eventsWithOrder = "SELECT score_event.* FROM score_event LEFT JOIN cloud_event ON cloud_event.eventID = score_event.id"
    /// A score the cloud refused counts on no phone, this one included: it stays in the log (and in
    /// `cloud status`), but the round is read without it, so every phone keeps one answer.
    static let notRefused = "NOT EXISTS (SELECT 1 FROM cloud_rejected WHERE cloud_rejected.eventID = score_event.id)"

    /// A round's events in log order (without those the cloud refused).
    func events(roundID: UUID) throws -> [ScoreEvent] {
        // A round no cloud orders is in arrival order, read straight off its index.
        let sql = try isShared(roundID) ? "\(Self.eventsWithOrder) WHERE score_event.roundID = ? AND \(Self.notRefused) \(Self.logOrder)"
                                        : "SELECT * FROM score_event WHERE roundID = ? ORDER BY seq"
        return try ScoreEventRecord.fetchAll(db.cachedStatement(sql: sql), arguments: [roundID.canonicalString]).map { try $0.event() }
    }

    /// How many players have a score on each hole of a round, from the log: its progress
    /// (`Round.updateProgress`) without reading its events.
    func playersScoredPerHole(roundID: UUID) throws -> [Int: Int] {
        var perHole: [Int: Int] = [:]
        let rows = try Row.fetchCursor(db.cachedStatement(sql: "SELECT hole, COUNT(DISTINCT playerID) FROM score_event WHERE roundID = ? AND \(Self.notRefused) GROUP BY hole"),
                                       arguments: [roundID.canonicalString])
        while let row = try rows.next() { perHole[row[0]] = row[1] }
        return perHole
    }

    /// Whether the cloud orders this round's events (it is shared).
    func isShared(_ roundID: UUID) throws -> Bool {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM cloud_round WHERE roundID = ?"), arguments: [roundID.canonicalString]) != nil
    }

    /// A round's events in log order with their row number (arrival here) and cloud order
    /// (nil while waiting to upload, and always on a phone alone); only rows after `afterRow`;
    /// none the cloud refused.
    func eventsWithOrder(roundID: UUID, afterRow: Int64 = 0) throws -> [(event: ScoreEvent, row: Int64, cloudSeq: Int64?)] {
        // The whole round through `score_event_round`; the rows after one as a range of the
        // table's own key, so catching up costs the new rows only, however long the round (the
        // unary `+` keeps SQLite from the round's index instead).
        let rows = afterRow > 0 ? "score_event.seq > ? AND +score_event.roundID = ?" : "score_event.roundID = ? AND score_event.seq > ?"
        let statement = try db.cachedStatement(sql: """
            SELECT score_event.*, score_event.seq AS rowSeq, cloud_event.cloudSeq AS cloudSeq FROM score_event
            LEFT JOIN cloud_event ON cloud_event.eventID = score_event.id
            WHERE \(rows) AND \(Self.notRefused) \(Self.logOrder)
            """)
        let arguments: StatementArguments = afterRow > 0 ? [afterRow, roundID.canonicalString] : [roundID.canonicalString, afterRow]
        return try Row.fetchAll(statement, arguments: arguments).map { row in
            (try ScoreEventRecord(row: row).event(), row["rowSeq"], row["cloudSeq"])
        }
    }

    func event(id: UUID) throws -> ScoreEvent? {
        try ScoreEventRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM score_event WHERE id = ?"), arguments: [id.canonicalString])?.event()
    }

    func containsEvent(id: UUID) throws -> Bool {
        let sql = "SELECT 1 FROM score_event WHERE id = ?"
        var bound = RawBinding(try db.cachedStatement(sql: sql))
        bound.text(id)
        return try bound.step(sql: sql) == SQLITE_ROW
    }

    /// Inserts `event`; its row (arrival number, `score_event.seq`), or nil when the log already
    /// holds an event with its id (then nothing is written).
    @discardableResult
    func insert(_ event: ScoreEvent, receivedAt: Date) throws -> Int64? {
        try insert(event, receivedAt: HyzerJSON.formatTimestamp(receivedAt))
    }

    /// The log's insert statement, taken once by a transaction that appends many events: each
    /// event then binds and steps it without looking it up in GRDB's statement cache again.
    struct EventInsert {
        fileprivate let statement: Statement
    }

    func eventInsert() throws -> EventInsert {
        EventInsert(statement: try db.cachedStatement(sql: ScoreEventRecord.insertSQL))
    }

    /// The same with the arrival time already formatted (a batch formats it once), on `prepared`
    /// when the transaction holds it.
    @discardableResult
    func insert(_ event: ScoreEvent, receivedAt: String, using prepared: EventInsert? = nil) throws -> Int64? {
        // Every event the hub stores comes through here: bound with SQLite's own calls on GRDB's
        // cached statement, not through `StatementArguments` (eleven boxed values an event, on the
        // path every batch takes). The columns are `ScoreEventRecord.Columns`' order.
        try requireOpenTransaction()
        var bound = RawBinding(try prepared?.statement ?? db.cachedStatement(sql: ScoreEventRecord.insertSQL))
        bound.text(event.id)
        bound.text(event.roundID)
        bound.text(event.playerID)
        bound.integer(event.hole)
        bound.integer(event.strokes)
        if let supersedes = event.supersedesEventID { bound.text(supersedes) } else { bound.null() }
        bound.text(event.reportedByPlayerID)
        bound.text(event.deviceID)
        bound.text(event.source.rawValue)
        bound.text(HyzerJSON.formatTimestamp(event.createdAt))
        bound.text(receivedAt)
        guard try bound.step(sql: ScoreEventRecord.insertSQL) == SQLITE_DONE else { throw HubError.storage("Inserting a score event returned a row.") }
        // `ON CONFLICT (id) DO NOTHING`: no change means the id was already in the log.
        return bound.changes == 0 ? nil : bound.lastInsertedRow
    }
}

/// Binds a GRDB cached statement's parameters in order with SQLite's own calls, then steps it once.
/// Used where GRDB's `StatementArguments` boxing costs more than the statement itself; GRDB still
/// owns the statement (its lifetime and cache), and every call starts from a reset.
///
/// Text is not handed to SQLite as it is bound: its bytes are gathered in one buffer and bound at
/// `step` without a copy (SQLITE_STATIC), the buffer alive until the step is done and the bindings
/// cleared after it. Bound with SQLITE_TRANSIENT, SQLite would allocate and copy every text
/// value, most of the eleven a stored event binds.
struct RawBinding {
    private let handle: OpaquePointer
    private var index: Int32 = 0
    private var textBytes: [UInt8] = []
    private var textSpans: [(parameter: Int32, start: Int, count: Int)] = []

    init(_ statement: Statement) {
        handle = statement.sqliteStatement
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    private static let staticText = unsafeBitCast(0, to: sqlite3_destructor_type.self)
    private static let transientText = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    mutating func text(_ value: String) {
        var value = value
        value.withUTF8 { text($0) }
    }

    /// A UUID as `canonicalString` writes it, copied straight into the buffer.
    mutating func text(_ value: UUID) {
        value.withCanonicalUTF8 { text($0) }
    }

    private mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) {
        index += 1
        if textBytes.isEmpty { textBytes.reserveCapacity(320) }
        textSpans.append((index, textBytes.count, bytes.count))
        textBytes.append(contentsOf: bytes)
    }

    /// Rows the last step changed, and the row it inserted (SQLite's own counters, read without
    /// GRDB's checks of the calling queue).
    var changes: Int32 { sqlite3_changes(sqlite3_db_handle(handle)) }
    var lastInsertedRow: Int64 { sqlite3_last_insert_rowid(sqlite3_db_handle(handle)) }

    mutating func integer(_ value: Int) {
        integer(Int64(value))
    }

    mutating func integer(_ value: Int64) {
        index += 1
        sqlite3_bind_int64(handle, index, value)
    }

    mutating func null() {
        index += 1
        sqlite3_bind_null(handle, index)
    }

    /// Steps once and reads the row's first column as an integer; nil when there is no row.
    func stepForInteger(sql: String) throws -> Int64? {
        var value: Int64?
        _ = try step(sql: sql) { value = sqlite3_column_int64($0, 0) }
        return value
    }

    /// Steps once: SQLITE_ROW or SQLITE_DONE, else the error as GRDB would throw it, naming `sql`
    /// (given by the caller: GRDB's `Statement.sql` rebuilds the text on every call). The statement
    /// is reset afterwards (releasing its read of the table), so it never stays mid-step, and holds
    /// no pointer into the text buffer once this returns.
    func step(sql: String, row: (OpaquePointer) -> Void = { _ in }) throws -> Int32 {
        precondition(index == sqlite3_bind_parameter_count(handle), "bound \(index) of \(sqlite3_bind_parameter_count(handle)) parameters of \(sql)")
        return try textBytes.withUnsafeBufferPointer { bytes throws -> Int32 in
            for span in textSpans {
                if span.count == 0 {
                    // An empty value needs an address all the same (SQLite binds a null pointer as NULL).
                    _ = sqlite3_bind_text(handle, span.parameter, "", 0, Self.transientText)
                } else {
                    let start = UnsafeRawPointer(bytes.baseAddress! + span.start).assumingMemoryBound(to: CChar.self)
                    _ = sqlite3_bind_text(handle, span.parameter, start, Int32(span.count), Self.staticText)
                }
            }
            let code = sqlite3_step(handle)
            if code == SQLITE_ROW { row(handle) }
            defer {
                sqlite3_reset(handle)
                if !textSpans.isEmpty { sqlite3_clear_bindings(handle) }
            }
            guard code == SQLITE_ROW || code == SQLITE_DONE else {
                let connection = sqlite3_db_handle(handle)
                let message = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
                throw DatabaseError(resultCode: ResultCode(rawValue: sqlite3_extended_errcode(connection)), message: message, sql: sql)
            }
            return code
        }
    }
}
