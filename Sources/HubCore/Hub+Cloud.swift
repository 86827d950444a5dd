import Foundation
import HyzerKit

/// The phone's side of cloud sync (docs/SYNC.md), all in the local store: which rounds are shared,
/// what waits to upload, and applying what other phones uploaded. The network half (PostgreSQL)
/// is `HubCloud`'s; nothing here waits for it: every score commits locally first.
extension Hub {
    // MARK: Configuration

    public func cloudConfiguration() throws -> CloudConfiguration? {
        try database.read { store in try store.cloudConfiguration() }
    }

    /// Sets the cloud (nil forgets it). The round in play, if any and not shared yet, becomes
    /// shared with this phone as its organizer. Rounds already shared stay shared.
    public func setCloud(_ configuration: CloudConfiguration?) throws {
        try database.write { store in
            try store.setCloudConfiguration(configuration)
            if let configuration, let round = try store.roundInPlay(), try store.cloudRound(id: round.id) == nil {
                try store.learnOwner(from: round)
                try store.insert(CloudRoundRecord(roundID: round.id.uuidString, organizer: configuration.role ?? "",
                                                  organizerName: configuration.player, anyPlayerResolves: false,
                                                  uploaded: false, uploadedStatus: nil, cursor: 0))
            }
        }
    }

    /// What is shared and what waits, from the local store alone.
    public func cloudSummary() throws -> CloudSummary {
        try database.read { store in
            let shared = try store.sharedRounds()
            var summary = CloudSummary(configuration: try store.cloudConfiguration())
            summary.sharedRounds = shared.count
            summary.roundsWaiting = shared.filter { !$0.uploaded }.count
            summary.completionsWaiting = try store.countCompletionsWaitingToUpload()
            summary.eventsWaiting = try store.countEventsWaitingToUpload(after: queueStart(for: shared))
            summary.refused = try store.refusedEvents()
            summary.skipped = try store.skippedRows()
            return summary
        }
    }

    /// The phone owner's player id, once a shared round here named them (discovery follows it).
    public func ownerPlayerID() throws -> PlayerID? {
        try database.read { store in try store.ownerPlayerID() }
    }

    /// Whether this round is shared through the cloud, and who may resolve in it.
    public func cloudRoundInfo(_ id: UUID) throws -> (organizer: String, organizerName: String?, anyPlayerResolves: Bool)? {
        try database.read { store in
            try store.cloudRound(id: id).map { ($0.organizer, $0.organizerName, $0.anyPlayerResolves) }
        }
    }

    /// A shared round as this phone first saw it (joined, or started here): the cloud's copy must
    /// never differ from it.
    public func sharedRound(_ id: UUID) throws -> CloudRound? {
        try database.read { store in
            guard let record = try store.cloudRound(id: id), let round = try store.round(id: id) else { return nil }
            return Self.cloudRound(round, record)
        }
    }

    static func cloudRound(_ round: Round, _ record: CloudRoundRecord) -> CloudRound {
        CloudRound(id: round.id, courseName: round.courseName, holes: round.holes, players: round.players,
                   organizer: record.organizer, organizerName: record.organizerName, anyPlayerResolves: record.anyPlayerResolves,
                   status: round.status == .completed ? .completed : .active, createdAt: round.createdAt)
    }

    // MARK: Upload

    /// How many events one upload call takes (`hyzer.upload_events` takes at most 2,000).
    public static let eventsPerUpload = 1000

    /// Everything waiting for the cloud, oldest first (at most `eventLimit` events), with the
    /// configuration and cursors it goes with: one read. `after`: only the events past that row of
    /// the log (those after a batch still on its way up: `CloudWork.lastEventRow`).
    public func cloudWork(eventLimit: Int = eventsPerUpload, after afterRow: Int64? = nil) throws -> CloudWork {
        try database.read { store in
            var work = CloudWork(configuration: try store.cloudConfiguration(), roundInPlay: try store.roundInPlayHeader() != nil)
            let shared = try store.sharedRounds()
            for record in shared {
                // The round's row for its status; its course and players only for a share to send.
                guard let id = UUID(canonicalString: record.roundID), let row = try store.roundRecord(id: id) else { continue }
                work.cursors[id] = record.cursor
                if !record.uploaded { work.roundsToUpload.append(Self.cloudRound(try store.round(row), record)) }
                if row.status == .completed {
                    if record.uploadedStatus == RoundStatus.completed.rawValue { work.settled.insert(id) } else { work.completionsToUpload.append(id) }
                }
            }
            let waiting = try store.eventsWaitingToUpload(after: afterRow ?? queueStart(for: shared), limit: eventLimit)
            work.eventsToUpload = waiting.map(\.event)
            work.lastEventRow = waiting.last?.row
            // Nothing waits below the first event found, nor (none found) below the log's end. A
            // read past a batch on its way up leaves the start where it is: that batch may fail.
            if afterRow == nil {
                if let first = waiting.first {
                    keepQueueStart(first.row - 1, for: shared)
                } else if eventLimit > 0 {
                    keepQueueStart(try store.lastRow(), for: shared)
                }
            }
            return work
        }
    }

    /// The row the upload queue starts after, as the last read of it left it, when the same rounds
    /// are shared (another round shared since: from the start).
    private func queueStart(for shared: [CloudRoundRecord]) -> Int64 {
        let ids = Set(shared.map(\.roundID))
        return uploadQueueStart.withLockedValue { $0.sharedRounds == ids ? $0.row : 0 }
    }

    private func keepQueueStart(_ row: Int64, for shared: [CloudRoundRecord]) {
        let ids = Set(shared.map(\.roundID))
        uploadQueueStart.withLockedValue { $0 = (ids, row) }
    }

    /// The cloud holds the round, shared by `organizer` (the role it recorded: this phone's).
    public func recordRoundUploaded(_ id: UUID, organizer: String) throws {
        try database.write { store in try store.markRoundUploaded(id, organizer: organizer) }
    }

    public func recordCompletionUploaded(_ id: UUID) throws {
        try database.write { store in try store.markCompletionUploaded(id) }
    }

    /// The cloud committed these events: they leave the upload queue with their cloud order.
    /// (Their place in the log does not move: an upload's order is after everything the cloud
    /// held before it, as it already was here.) When their numbers continue the round's cursor
    /// (nobody else uploaded to it in between), the cursor moves past them: this phone holds
    /// them, and a download would only read them back.
    ///
    /// Committed without a sync: an acknowledgement lost to a power cut leaves the events waiting,
    /// the next pass uploads them again and the cloud answers each with the number it gave it.
    /// (Its sync would meet the phone's next download on the disk.)
    public func recordUploaded(_ acknowledged: [CloudEvent]) throws {
        guard !acknowledged.isEmpty else { return }
        try database.write(synced: false) { store in
            for ack in acknowledged {
                try store.recordCloudOrder(eventID: ack.event.id, roundID: ack.event.roundID, cloudSeq: ack.cloudSeq)
            }
            for roundID in Set(acknowledged.map(\.event.roundID)) {
                guard let start = try store.cloudRound(id: roundID)?.cursor else { continue }
                _ = try store.advanceCursor(of: roundID, pastHeldAfter: start)
            }
        }
    }

    /// The cloud refused this event for good (it is kept here, shown by `cloud status`, never
    /// retried). It stops counting here too, as on every other phone: a change, so the round's
    /// ledger is read again without it (`LedgerCache.refusals`) and the watches get the standings.
    public func recordRefused(_ eventID: UUID, reason: String) throws {
        try database.write { store in
            try store.recordRefused(eventID: eventID, reason: reason, at: clock())
            _ = try store.bumpSequence()
        }
    }

    // MARK: Download

    /// Applies what the cloud holds of a shared round past this phone's cursor: rows in cloud
    /// order (an event already here only gets its cloud order), then the round's completion. A row
    /// that breaks the rules a local write keeps (or that cannot be read) is skipped and kept in
    /// `cloud_skipped`: every phone applies the same checks to the same rows, so all skip it alike.
    /// One transaction: a phone killed mid-download keeps all of a batch or none of it.
    /// The caller has checked that the rows follow the cursor with no gap.
    ///
    /// Committed without a sync, as an upload's acknowledgement is: the cloud keeps these events,
    /// and a power cut that loses the commit loses the cursor with them, so the next pass
    /// downloads them again. The next synced commit (a score) makes them durable with it.
    ///
    /// The round in play is read from memory and its ledger grows with the batch, as a score's
    /// append grows it: the standings of the change come back built (`CloudApplied.snapshot`), for
    /// `serve` to push the moment the commit returns. `standings.json` is the caller's to write
    /// (`exportSnapshot`), after the push.
    @discardableResult
    public func applyFromCloud(roundID: UUID, rows: [CloudRow], status: RoundStatus?) throws -> CloudApplied {
        var standings: StandingsInMemory?
        let (added, changed, held) = try appending(synced: false) { store, context -> (Int, Bool, HeldNumbers) in
            let committedSequence = try store.sequence
            let inPlay = try? roundInPlay(in: store, context: &context, at: committedSequence)
            guard var round = inPlay?.id == roundID ? inPlay : try store.round(id: roundID),
                  let record = try store.cloudRound(id: roundID) else {
                throw HubError.storage("Round \(roundID.uuidString) is not a shared round on this phone.")
            }
            if round.status.acceptsScores, context.ledger == nil {
                context.ledger = try takeLedger(of: round, at: committedSequence, in: store)
            }
            var added = 0
            let role = try store.cloudConfiguration()?.role
            // A batch arrives at one time, with one insert statement. The score a correction names
            // must be of the same player and hole: in the ledger's history of that {player, hole}
            // when there is a ledger (it holds the whole round), else this batch's or the log's.
            let receivedAt = HyzerJSON.formatTimestamp(clock()), insert = try store.eventInsert()
            var inserted: [UUID: ScoreEvent] = [:]
            func held(_ id: UUID, by event: ScoreEvent) throws -> ScoreEvent? {
                guard let ledger = context.ledger?.ledger else { return try inserted[id] ?? store.event(id: id) }
                return ledger.keyHistory(of: ScoreKey(playerID: event.playerID, hole: event.hole))?.events.first { $0.id == id }
            }
            // An event already here (this phone's own, its acknowledgement lost) only gets its
            // cloud order, whatever the checks would say of it: the insert, which inserts nothing
            // for an id the log holds, tells; a row the checks refuse is looked for first.
            func heldAlready(_ uploaded: CloudEvent) throws -> Bool {
                guard try store.containsEvent(id: uploaded.event.id) else { return false }
                try store.recordCloudOrder(eventID: uploaded.event.id, roundID: roundID, cloudSeq: uploaded.cloudSeq)
                return true
            }
            for row in rows {
                let skip: (UUID, String)
                switch row {
                case .unreadable(_, let eventID, let reason):
                    skip = (eventID, "it cannot be read: \(reason)")
                case .event(let uploaded):
                    let cloudEvent: CloudEvent
                    do { cloudEvent = try Self.storedHere(uploaded, role: role) } catch {
                        if try heldAlready(uploaded) { continue }
                        skip = (uploaded.event.id, "its device cannot be stored: \(error)")
                        break
                    }
                    let event = cloudEvent.event
                    if let problem = try Self.problemWithCloudEvent(cloudEvent, round: round, record: record, event: { try held($0, by: event) }) {
                        if try heldAlready(uploaded) { continue }
                        skip = (event.id, problem)
                        break
                    }
                    let stored = try store.insert(event, receivedAt: receivedAt, using: insert)
                    try store.recordCloudOrder(eventID: event.id, roundID: roundID, cloudSeq: cloudEvent.cloudSeq)
                    // Nothing inserted: the log held the id already, and it only gets its cloud order.
                    guard let stored else { continue }
                    context.insertedAny = true
                    // Ordered before an event the ledger holds (one of this phone's, not yet
                    // acknowledged), it cannot simply grow: the next reader rebuilds it.
                    if context.ledger?.append(event, row: stored, cloudSeq: cloudEvent.cloudSeq) == false { context.ledger = nil }
                    if context.ledger == nil { inserted[event.id] = event }
                    added += 1
                    continue
                }
                // The cloud checks the same things before it commits; this is a cloud written around its rules.
                logger.error("skipped row \(row.cloudSeq) of the cloud's round: \(skip.1)", metadata: ["event": "\(skip.0)", "round": "\(roundID)"])
                try store.recordSkipped(roundID: roundID, cloudSeq: row.cloudSeq, eventID: skip.0, reason: skip.1, at: clock())
            }
            // Past the batch, and past the numbers held here that follow it: the next read starts after them.
            let held = try store.advanceCursor(of: roundID, pastHeldAfter: max(record.cursor, rows.last?.cloudSeq ?? record.cursor))
            // The cloud holds the round's completion already: this phone has none to upload.
            if status == .completed { try store.markCompletionUploaded(roundID) }
            let before = (round.status, round.selectedHole)
            if round.status.acceptsScores {
                if status == .completed {
                    try? round.finish(events: [], allowIncomplete: true)
                } else if added > 0 {
                    let perHole = try context.ledger?.ledger.playersPerHole ?? store.playersScoredPerHole(roundID: roundID)
                    round.updateProgress(scoredKeyCount: perHole.values.reduce(0, +), playersScored: { perHole[$0] ?? 0 })
                }
            }
            let changed = added > 0 || (round.status, round.selectedHole) != before
            if (round.status, round.selectedHole) != before { try store.updateProgress(of: round) }
            if changed {
                // The ledger was brought to the sequence this transaction read; the bump adds one.
                let sequence = try context.ledger.map { try store.bumpSequence(from: $0.sequence) } ?? store.bumpSequence()
                context.ledger?.sequence = sequence
                context.sequenceBumped = true
                // Still in play (not completed by this download): cached as the round in play.
                if inPlay?.id == roundID, round.status.acceptsScores { context.round = round }
                standings = try standingsInMemory(context, in: store)
            }
            return (added, changed, held)
        }
        return CloudApplied(added: added, changed: changed, snapshot: standings.map { $0.snapshot(at: clock()) }, held: held)
    }

    /// The same, for rows that are all events (the sync engine's tests and the bench).
    @discardableResult
    public func applyFromCloud(roundID: UUID, events: [CloudEvent], status: RoundStatus?) throws -> Int {
        try applyFromCloud(roundID: roundID, rows: events.map(CloudRow.event), status: status).added
    }

    /// What applying a download did: how many events were new here, whether the store changed,
    /// and the standings it led to when the round is in play here (built from memory).
    public struct CloudApplied: Sendable {
        public var added: Int
        public var changed: Bool
        public var snapshot: StandingsSnapshot?
        /// The round's cursor after the batch (`end`: past the numbers held here that follow it)
        /// and the next number held here: where the next read starts and stops.
        public var held: HeldNumbers
    }

    /// An event as this phone stores it. In a shared round a device is the pair (phone, device
    /// id): another phone's event keeps its device as `DEVICE@PHONE` (the role the cloud recorded),
    /// so a phone naming a device of another phone is a different device: it disputes that
    /// device's score and cannot withdraw it. Every phone draws the same line between devices:
    /// a phone's own events are the same device on every phone, whatever their spelling.
    static func storedHere(_ uploaded: CloudEvent, role: String?) throws -> CloudEvent {
        guard let uploader = uploaded.uploadedBy, uploader != role else { return uploaded }
        let event = uploaded.event
        let qualified = try ScoreEvent(id: event.id, roundID: event.roundID, playerID: event.playerID, hole: event.hole, strokes: event.strokes,
                                       supersedesEventID: event.supersedesEventID, reportedByPlayerID: event.reportedByPlayerID,
                                       deviceID: "\(event.deviceID)@\(uploader)", source: event.source, createdAt: event.createdAt)
        return CloudEvent(event: qualified, cloudSeq: uploaded.cloudSeq, uploadedBy: uploader)
    }

    /// Why a downloaded event cannot be applied here, or nil: the rules a local write keeps, with
    /// the uploader the cloud recorded standing for "who sent it". The chain it extends must be
    /// here: the cloud's order puts an event after the one it supersedes.
    static func problemWithCloudEvent(_ cloudEvent: CloudEvent, round: Round, record: CloudRoundRecord,
                                      event held: (UUID) throws -> ScoreEvent?) throws -> String? {
        let event = cloudEvent.event
        guard event.roundID == round.id else { return "it belongs to round \(event.roundID.uuidString)" }
        guard round.player(event.playerID) != nil else { return "player \(event.playerID) is not in the round" }
        guard round.player(event.reportedByPlayerID) != nil else { return "reporter \(event.reportedByPlayerID) is not in the round" }
        guard (1...round.holeCount).contains(event.hole) else { return "hole \(event.hole) is not on the course" }
        if event.source == .resolution, !record.anyPlayerResolves, let uploader = cloudEvent.uploadedBy, uploader != record.organizer {
            return "a resolution uploaded by \(uploader), not by the organizer's phone (\(record.organizer))"
        }
        if let target = event.supersedesEventID {
            guard let superseded = try held(target), superseded.roundID == event.roundID,
                  superseded.playerID == event.playerID, superseded.hole == event.hole else {
                return "it supersedes \(target.uuidString), which is not a score of the same player and hole"
            }
        }
        return nil
    }

    // MARK: Joining

    /// Joins a round another phone started: its course, players (with the organizer's ids) and
    /// options are stored here; its events follow through `applyFromCloud`. Joining the round
    /// already in play here is a no-op.
    @discardableResult
    public func join(_ shared: CloudRound) throws -> Round {
        let round = try database.write { store -> Round in
            if let existing = try store.round(id: shared.id) {
                guard existing.status.acceptsScores else { throw HubError.sharedRoundFinished(course: shared.courseName) }
                return existing
            }
            if let inPlay = try store.roundInPlay() { throw HubError.roundAlreadyInPlay(course: inPlay.courseName) }
            guard shared.status.acceptsScores else { throw HubError.sharedRoundFinished(course: shared.courseName) }
            // Names from the cloud pass the checks a name typed here passes.
            for player in shared.players {
                if let problem = NameText.problem(player.name) { throw HubError.invalidPlayerName(player.name, problem) }
            }
            let courseID: Int64
            if let (id, course) = try store.course(named: shared.courseName) {
                guard course.holes == shared.holes else { throw HubError.sharedCourseDiffers(shared.courseName) }
                courseID = id
            } else {
                try store.insert(try Self.course(of: shared))
                guard let (id, _) = try store.course(named: shared.courseName) else { throw HubError.storage("The joined course was not stored.") }
                courseID = id
            }
            let round = Round(id: shared.id, course: try Self.course(of: shared), players: shared.players, status: .active, createdAt: shared.createdAt)
            try store.insert(round, courseID: courseID)
            try store.insert(CloudRoundRecord(roundID: shared.id.uuidString, organizer: shared.organizer,
                                              organizerName: shared.organizerName, anyPlayerResolves: shared.anyPlayerResolves,
                                              uploaded: true, uploadedStatus: nil, cursor: 0))
            try store.learnOwner(from: round)
            try store.bumpSequence()
            return round
        }
        try exportSnapshot()
        return round
    }

    private static func course(of shared: CloudRound) throws -> Course {
        do { return try Course(name: shared.courseName, holes: shared.holes) } catch { throw HubError.course(error) }
    }

    // MARK: Rules for shared rounds

    /// The device id of scores entered on this phone: `phone` alone, `phone-<hub id>` in a shared
    /// round, where every phone must be a different device (a device never disagrees with itself).
    static func phoneDeviceID(_ store: HubStore, round: Round) throws -> String {
        guard try store.cloudRound(id: round.id) != nil else { return phoneDeviceID }
        return "phone-" + String(try store.hubID.prefix(8)).lowercased()
    }

    /// Who reports a score entered on this phone: the phone's owner (`cloud set --player`, else
    /// `round start --owner`) when they play the round, else the round's first player (the
    /// organizer, who usually starts the round on their own phone).
    static func defaultReporter(_ store: HubStore, round: Round) throws -> Player {
        for owner in [try store.cloudConfiguration()?.player, try store.owner()].compactMap({ $0 }) {
            if let player = round.players.first(where: { $0.name.lowercased() == owner.lowercased() }) { return player }
        }
        return round.players[0]
    }

    /// In a shared round, only the organizer's phone ends it; where any player resolves, also a
    /// phone that scored in it (the cloud's rule: `complete_round` would refuse any other, and the
    /// round would be over here and in play everywhere else). Not shared yet: this phone's own.
    static func requireFinisher(_ store: HubStore, round: Round) throws {
        guard let shared = try store.cloudRound(id: round.id), !shared.organizer.isEmpty,
              shared.organizer != (try store.cloudConfiguration()?.role) else { return }
        if shared.anyPlayerResolves, try store.scoredHere(roundID: round.id) { return }
        throw HubError.notOrganizerToFinish(organizer: shared.organizerName, anyPlayerResolves: shared.anyPlayerResolves)
    }

    /// In a shared round, only the organizer's phone resolves unless the round lets any player.
    static func requireResolver(_ store: HubStore, roundID: UUID) throws {
        guard let shared = try store.cloudRound(id: roundID), !shared.anyPlayerResolves,
              shared.organizer != (try store.cloudConfiguration()?.role) else { return }
        throw HubError.notOrganizer(organizer: shared.organizerName)
    }
}

extension Hub {
    /// Who settles a shared round's discrepancies when this phone may not ("the organizer
    /// (Jake's phone)", to go mid-sentence); nil when this phone may (or the round is not shared).
    public func settledElsewhere(_ roundID: UUID) throws -> String? {
        try database.read { store in
            do { try Self.requireResolver(store, roundID: roundID) } catch let HubError.notOrganizer(organizer) {
                return "the organizer (\(organizer.map { "\($0)'s phone" } ?? "the phone that started the round"))"
            }
            return nil
        }
    }

    /// The local status of a shared round (nil when it is not here).
    public func cloudRoundStatus(_ id: UUID) throws -> RoundStatus? {
        try database.read { store in try store.round(id: id)?.status }
    }

    /// The cloud's numbers of a round held here past `number` (HeldNumbers).
    public func heldNumbers(of roundID: UUID, after number: Int64) throws -> HeldNumbers {
        try database.read { store in try store.heldNumbers(of: roundID, after: number) }
    }
}
