import Foundation
import GRDB
import HyzerKit

/// `cloud_round`: a round shared through the cloud.
struct CloudRoundRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "cloud_round"

    var roundID: String
    /// The organizer's role in the cloud (`CloudRound.organizer`).
    var organizer: String
    var organizerName: String?
    var anyPlayerResolves: Bool
    var uploaded: Bool
    var uploadedStatus: String?
    var cursor: Int64
}

/// The cloud's side of the hub's store: which rounds are shared, what waits to upload, the cloud
/// order of what was uploaded or downloaded.
extension HubStore {
    static let cloudURLKey = "cloudURL"
    static let cloudPlayerKey = "cloudPlayer"
    static let cloudAutoJoinKey = "cloudAutoJoin"
    /// The owner's player id, once a shared round on this phone named them: discovery then
    /// follows that player, not just anyone with the name.
    static let cloudPlayerIDKey = "cloudPlayerID"
    /// Whose phone this is, by name (`round start --owner`), when no cloud names its player.
    static let ownerKey = "owner"

    func owner() throws -> String? { try meta(Self.ownerKey).flatMap { $0.isEmpty ? nil : $0 } }
    func setOwner(_ name: String) throws { try setMeta(Self.ownerKey, name) }

    func ownerPlayerID() throws -> PlayerID? {
        try meta(Self.cloudPlayerIDKey).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Remembers the owner's id from a shared round that names them.
    func learnOwner(from round: Round) throws {
        guard let owner = try cloudConfiguration()?.player,
              let player = round.players.first(where: { !$0.isGuest && $0.name.lowercased() == owner.lowercased() }) else { return }
        try setMeta(Self.cloudPlayerIDKey, player.id)
    }

    func cloudConfiguration() throws -> CloudConfiguration? {
        guard let url = try meta(Self.cloudURLKey), !url.isEmpty else { return nil }
        return CloudConfiguration(url: url, player: try meta(Self.cloudPlayerKey).flatMap { $0.isEmpty ? nil : $0 },
                                  autoJoin: try meta(Self.cloudAutoJoinKey) == "1")
    }

    func setCloudConfiguration(_ configuration: CloudConfiguration?) throws {
        if try cloudConfiguration()?.player?.lowercased() != configuration?.player?.lowercased() { try setMeta(Self.cloudPlayerIDKey, "") }
        try setMeta(Self.cloudURLKey, configuration?.url ?? "")
        try setMeta(Self.cloudPlayerKey, configuration?.player ?? "")
        try setMeta(Self.cloudAutoJoinKey, configuration?.autoJoin == true ? "1" : "")
    }

    func cloudRound(id: UUID) throws -> CloudRoundRecord? {
        try CloudRoundRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM cloud_round WHERE roundID = ?"), arguments: [id.canonicalString])
    }

    func insert(_ record: CloudRoundRecord) throws { try record.insert(db, onConflict: .ignore) }

    /// Whether this phone scored in the round (an event of its own devices the cloud did not
    /// refuse): another phone's device is stored as DEVICE@PHONE, and a device id has no @.
    func scoredHere(roundID: UUID) throws -> Bool {
        try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM score_event WHERE roundID = ? AND instr(deviceID, '@') = 0
                           AND id NOT IN (SELECT eventID FROM cloud_rejected))
            """, arguments: [roundID.canonicalString]) ?? false
    }

    func sharedRounds() throws -> [CloudRoundRecord] { try CloudRoundRecord.fetchAll(db.cachedStatement(sql: "SELECT * FROM cloud_round")) }

    func markRoundUploaded(_ id: UUID, organizer: String) throws {
        try db.execute(sql: "UPDATE cloud_round SET uploaded = 1, organizer = ? WHERE roundID = ?", arguments: [organizer, id.canonicalString])
    }

    func markCompletionUploaded(_ id: UUID) throws {
        try db.execute(sql: "UPDATE cloud_round SET uploadedStatus = 'completed' WHERE roundID = ?", arguments: [id.canonicalString])
    }

    func advanceCursor(of id: UUID, to cursor: Int64) throws {
        try db.cachedStatement(sql: "UPDATE cloud_round SET cursor = max(cursor, ?) WHERE roundID = ?").execute(arguments: [cursor, id.canonicalString])
    }

    /// Moves the round's cursor past `number` and past the numbers held here that follow it with
    /// no gap (this phone's own uploads, numbered after another phone's): the cursor is the highest
    /// number with every number up to it held. Returns where that leaves it and the next held number.
    func advanceCursor(of id: UUID, pastHeldAfter number: Int64) throws -> HeldNumbers {
        let held = try heldNumbers(of: id, after: number)
        try advanceCursor(of: id, to: held.end)
        return held
    }

    /// The cloud's numbers past `number` that this phone holds already (its own scores, numbered
    /// by their upload): `end`, the last of those that follow `number` with no gap (`number` when
    /// the next is not held), and `next`, the first held one after them (nil: none).
    func heldNumbers(of roundID: UUID, after number: Int64) throws -> HeldNumbers {
        let numbers = try Int64.fetchCursor(db.cachedStatement(sql: "SELECT cloudSeq FROM cloud_event WHERE roundID = ? AND cloudSeq > ? ORDER BY cloudSeq"),
                                            arguments: [roundID.canonicalString, number])
        var end = number
        while let held = try numbers.next() {
            guard held == end + 1 else { return HeldNumbers(end: end, next: held) }
            end = held
        }
        return HeldNumbers(end: end, next: nil)
    }

    /// Events of shared rounds the cloud neither holds nor refused, in this hub's arrival order,
    /// with their rows; only rows after `row` (where the queue is known to start, `Hub.queueStart`).
    func eventsWaitingToUpload(after row: Int64, limit: Int) throws -> [(event: ScoreEvent, row: Int64)] {
        try Row.fetchAll(db.cachedStatement(sql: "SELECT score_event.*, score_event.seq AS rowSeq \(Self.waitingFrom) ORDER BY score_event.seq LIMIT ?"),
                         arguments: [row, limit]).map { row in (try ScoreEventRecord(row: row).event(), row["rowSeq"]) }
    }

    /// Shared rounds finished here whose completion the cloud has not taken yet (`completionsToUpload`).
    func countCompletionsWaitingToUpload() throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: """
            SELECT COUNT(*) FROM cloud_round JOIN round ON round.id = cloud_round.roundID
            WHERE round.status = 'completed' AND cloud_round.uploadedStatus IS NOT 'completed'
            """)) ?? 0
    }

    func countEventsWaitingToUpload(after row: Int64) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) \(Self.waitingFrom)"), arguments: [row]) ?? 0
    }

    /// The queue's rows, read from the shared rounds through the log's (roundID, seq) index: `CROSS
    /// JOIN` keeps that order (SQLite otherwise scanned every event the phone ever held, shared or
    /// not, ~9 ms for 10,000, on every pass and every update of the phone's page).
    private static let waitingFrom = """
        FROM cloud_round CROSS JOIN score_event ON score_event.roundID = cloud_round.roundID
        WHERE score_event.seq > ?
          AND NOT EXISTS (SELECT 1 FROM cloud_event WHERE cloud_event.eventID = score_event.id)
          AND NOT EXISTS (SELECT 1 FROM cloud_rejected WHERE cloud_rejected.eventID = score_event.id)
        """

    /// The log's last row (0 when empty).
    func lastRow() throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT coalesce(max(seq), 0) FROM score_event")) ?? 0
    }

    /// Records the cloud's order of an event; the same event and order again is a no-op.
    func recordCloudOrder(eventID: UUID, roundID: UUID, cloudSeq: Int64) throws {
        // Once for every event a download or an acknowledgement brings: bound as the log's insert is.
        let sql = "INSERT OR IGNORE INTO cloud_event (eventID, roundID, cloudSeq) VALUES (?, ?, ?)"
        var bound = RawBinding(try db.cachedStatement(sql: sql))
        bound.text(eventID)
        bound.text(roundID)
        bound.integer(cloudSeq)
        _ = try bound.step(sql: sql)
    }

    func recordRefused(eventID: UUID, reason: String, at date: Date) throws {
        try db.execute(sql: "INSERT OR IGNORE INTO cloud_rejected (eventID, reason, rejectedAt) VALUES (?, ?, ?)",
                       arguments: [eventID.canonicalString, reason, HyzerJSON.formatTimestamp(date)])
    }

    /// A row of the cloud this phone skips (as every phone does): kept with why, shown by `cloud status`.
    func recordSkipped(roundID: UUID, cloudSeq: Int64, eventID: UUID, reason: String, at date: Date) throws {
        try db.execute(sql: "INSERT OR IGNORE INTO cloud_skipped (roundID, cloudSeq, eventID, reason, skippedAt) VALUES (?, ?, ?, ?, ?)",
                       arguments: [roundID.canonicalString, cloudSeq, eventID.canonicalString, reason, HyzerJSON.formatTimestamp(date)])
    }

    func skippedRows() throws -> [(cloudSeq: Int64, eventID: String, reason: String)] {
        try Row.fetchAll(db, sql: "SELECT cloudSeq, eventID, reason FROM cloud_skipped ORDER BY skippedAt, cloudSeq").map { ($0["cloudSeq"], $0["eventID"], $0["reason"]) }
    }

    func refusedCount() throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM cloud_rejected")) ?? 0
    }

    /// The refused events with what each was, as a person reads it: "Mike · hole 1: 3".
    func refusedEvents() throws -> [(eventID: String, score: String, reason: String)] {
        try Row.fetchAll(db, sql: """
            SELECT cloud_rejected.eventID, cloud_rejected.reason, player.name, score_event.hole, score_event.strokes
            FROM cloud_rejected LEFT JOIN score_event ON score_event.id = cloud_rejected.eventID
            LEFT JOIN player ON player.id = score_event.playerID ORDER BY cloud_rejected.rejectedAt, score_event.seq
            """).map { row in
            let score = (row["hole"] as Int?).map { "\((row["name"] as String?) ?? "?") · hole \($0): \((row["strokes"] as Int?) ?? 0)" } ?? "a score no longer here"
            return (row["eventID"], score, row["reason"])
        }
    }

    /// The round with this id, whatever its status.
    func round(id: UUID) throws -> Round? {
        try roundRecord(id: id).map(round)
    }

    /// The round's row alone (its status), without its course and players.
    func roundRecord(id: UUID) throws -> RoundRecord? {
        try RoundRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM round WHERE id = ?"), arguments: [id.canonicalString])
    }
}
