import Foundation
import HyzerStorage
import HyzerAssets
import HyzerKit
import Logging
import NIOConcurrencyHelpers

/// The phone's use cases: every scoring operation is one invariant-preserving transaction on the
/// `HubDatabase`, followed by an atomic export of `standings.json` when a file home is attached.
public final class Hub: Sendable {
    /// The device ID of scores entered on the phone itself.
    public static let phoneDeviceID = "phone"

    /// Why this phone may not score under `deviceID`, or nil. In a shared round every phone
    /// stores another phone's device as `DEVICE@PHONE` (`storedHere`): a device of this phone
    /// named `w@sarah_phone` would read, here, as Sarah's phone's device `w`, and the phones would
    /// draw different lines between devices. So no device id a phone scores under holds an @.
    public static func deviceIDProblem(_ deviceID: String) -> String? {
        if deviceID.isEmpty || deviceID.utf8.count > ScoreEvent.maxDeviceIDLength || deviceID.containsControlCharacter {
            return "The device id \"\(NameText.shown(deviceID))\" cannot be used: a device id is 1 to \(ScoreEvent.maxDeviceIDLength) bytes with no control characters (this one: \(deviceID.utf8.count) bytes)."
        }
        guard deviceID.contains("@") else { return nil }
        return "The device id \"\(deviceID)\" holds an @; in a shared round each phone writes another phone's device as DEVICE@PHONE, so a device id has none."
    }

    public let paths: HyzerPaths?
    let database: HubDatabase
    private let exporter: SnapshotExporter?
    let clock: @Sendable () -> Date
    let logger = Logger(label: "hyzer.hub")

    /// The round in play as last loaded or left by an append, with its course (checked once) and
    /// the change sequence it is current at. Every committed change bumps the sequence, so at that
    /// sequence the round is exactly this; at another, its course and players still hold (they
    /// never change once it is active) and only its status and selected hole are read again.
    let roundInPlayCache = NIOLockedValueBox<RoundInPlayCache?>(nil)

    /// Where the upload queue starts: every event at or below `row` was uploaded, refused, or not in
    /// one of `sharedRounds`, as the last read of the queue found it (`cloudWork`). The next read
    /// starts after it, so it costs what waits, not the phone's whole history: rows only grow, an
    /// event uploaded or refused stays so, and another round shared starts over.
    let uploadQueueStart = NIOLockedValueBox<(sharedRounds: Set<String>, row: Int64)>(([], 0))

    /// The database's id, read once: it is written when the database is made and never changes.
    private let knownHubID = NIOLockedValueBox<String?>(nil)

    /// The hub id (`hubID`) inside a transaction already open, from memory after the first read.
    func hubID(in store: HubStore) throws -> String {
        if let known = knownHubID.withLockedValue({ $0 }) { return known }
        let id = try store.hubID
        if !id.isEmpty { knownHubID.withLockedValue { $0 = id } }
        return id
    }

    struct RoundInPlayCache {
        let round: Round
        let course: Course
        let sequence: Int
        /// The round's player ids, made once when the round is read: an event's player and
        /// reporter are looked up here rather than by scanning the player list twice for every
        /// event, a cost that grows with the round. Players never change once it is active.
        let playerIDs: Set<PlayerID>

        init(round: Round, course: Course, sequence: Int, playerIDs: Set<PlayerID>? = nil) {
            self.round = round
            self.course = course
            self.sequence = sequence
            self.playerIDs = playerIDs ?? Set(round.players.map(\.id))
        }
    }

    /// The round in play's log, grouped (`ScoreLedger`), as of a change sequence: a snapshot reads
    /// only the rows that arrived since, so its cost does not grow with the round.
    struct LedgerCache {
        let roundID: UUID
        var sequence: Int
        var ledger: ScoreLedger
        /// The highest row (arrival number) the ledger holds.
        var lastRow: Int64
        /// Whether the ledger holds an event the cloud has not ordered: an event the cloud orders
        /// later belongs before it, so the ledger must then be rebuilt in the new log order.
        var holdsUnordered: Bool
        /// The highest cloud order the ledger holds: a new row the cloud ordered lower (it was
        /// committed before one of ours, and downloaded after) belongs before it too.
        var highestCloudSeq: Int64
        /// How many scores the cloud had refused when it was built: a refusal since (by any
        /// process) takes a score out of the round, so the ledger is rebuilt without it.
        let refusals: Int

        /// Whether `cloudSeq` goes at the end of the log as the ledger holds it.
        func appendsAtEnd(cloudSeq: Int64?) -> Bool {
            guard let cloudSeq else { return true }
            return !holdsUnordered && cloudSeq > highestCloudSeq
        }

        /// Grows the ledger with an event stored at `row` (in the cloud's order `cloudSeq`, nil
        /// when no cloud has ordered it). False, and nothing grown, when the event belongs before
        /// one the ledger holds: the ledger must then be rebuilt in log order.
        mutating func append(_ event: ScoreEvent, row: Int64, cloudSeq: Int64?) -> Bool {
            guard appendsAtEnd(cloudSeq: cloudSeq) else { return false }
            ledger.append(event)
            lastRow = row
            holdsUnordered = holdsUnordered || cloudSeq == nil
            highestCloudSeq = max(highestCloudSeq, cloudSeq ?? 0)
            return true
        }
    }
    let ledgerCache = NIOLockedValueBox<LedgerCache?>(nil)

    init(database: HubDatabase, paths: HyzerPaths?, clock: @escaping @Sendable () -> Date) {
        self.database = database
        self.paths = paths
        self.exporter = paths.map { SnapshotExporter(url: $0.standingsSnapshot) }
        self.clock = clock
    }

    /// Opens (creating on first use) the hub under `paths.home`, seeding the shipped courses.
    /// `forServe`: the hub `hyzer-hub serve` runs, which watches for the commit signal others
    /// touch (`HubDatabase.commitSignal(for:)`) and so does not touch it itself.
    /// - creating: false for a command that only reads: a home with no hub yet is an error
    ///   (`HubError.noHub`), never made empty (a mistyped `--home` must not look like a new phone).
    public static func open(paths: HyzerPaths, forServe: Bool = false, creating: Bool = true,
                            clock: @escaping @Sendable () -> Date = Date.init) throws -> Hub {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: paths.home.path, isDirectory: &isFolder), !isFolder.boolValue {
            throw HubError.badHome(path: paths.home.path, problem: "it is a file, not a folder")
        }
        guard creating || FileManager.default.fileExists(atPath: paths.database.path) else {
            throw HubError.noHub(path: paths.home.path)
        }
        do {
            // hub/ holds the pairing token and the link's socket: only its owner may look in.
            try DurableFile.makeDirectory(paths.hubDirectory, mode: 0o700)
            try DurableFile.makeDirectory(paths.sharedDirectory)
        } catch {
            throw HubError.badHome(path: paths.home.path, problem: error.description)
        }
        let database = try HubDatabase.open(at: paths.database)
        let hub = Hub(database: forServe ? database.notSignallingCommits() : database, paths: paths, clock: clock)
        try hub.seedCoursesIfNeeded()
        return hub
    }

    /// A hub on an in-memory database with no files (tests reach it with `@testable import`).
    static func inMemory(clock: @escaping @Sendable () -> Date = Date.init) throws -> Hub {
        let hub = Hub(database: try HubDatabase.inMemory(), paths: nil, clock: clock)
        try hub.seedCoursesIfNeeded()
        return hub
    }

    public var hubID: String {
        get throws {
            if let known = knownHubID.withLockedValue({ $0 }) { return known }
            return try database.read { store in try hubID(in: store) }
        }
    }

    // MARK: Courses

    public func courses() throws -> [Course] {
        try database.read { store in try store.courses() }
    }

    public func addCourse(_ course: Course) throws {
        try database.write { store in try Self.insert(course, into: store) }
    }

    /// Reads, validates and adds a course file; nothing is stored if any part of it is wrong.
    @discardableResult
    public func addCourse(fileAt url: URL) throws -> Course {
        let data: Data
        do { data = try DurableFile.read(url) } catch {
            throw HubError.badCourseFile(path: url.path, reason: "the file cannot be read (\(error.reason))")
        }
        let course: Course
        do {
            course = try HyzerJSON.decoder().decode(Course.self, from: data)
        } catch let error as CourseError {
            throw HubError.badCourseFile(path: url.path, reason: error.description)
        } catch let error as DecodingError {
            throw HubError.badCourseFile(path: url.path, reason: HyzerJSON.explain(error))
        }
        try addCourse(course)
        return course
    }

    private static func insert(_ course: Course, into store: HubStore) throws {
        if try store.course(named: course.name) != nil { throw HubError.duplicateCourse(course.name) }
        let skeleton = NameText.skeleton(course.name)
        if let alike = try store.courses().first(where: { NameText.skeleton($0.name) == skeleton }) {
            throw HubError.lookAlikeName(course.name, existing: alike.name, what: "course")
        }
        try store.insert(course)
    }

    /// The courses that ship with Hyzer (`Assets/courses`), read without opening any hub.
    public static func shippedCourses() throws -> [Course] {
        try HyzerAssets.courseFiles().map { try HyzerJSON.decoder().decode(Course.self, from: Data(contentsOf: $0)) }
    }

    private func seedCoursesIfNeeded() throws {
        // Read first: a read-only home (already seeded) must open without writing.
        guard try database.read({ store in try store.meta(MetaRecord.coursesSeeded) }) == nil else { return }
        try database.write { store in
            guard try store.meta(MetaRecord.coursesSeeded) == nil else { return }
            for course in try Self.shippedCourses() where try store.course(named: course.name) == nil {
                try store.insert(course)
            }
            try store.setMeta(MetaRecord.coursesSeeded, "1")
        }
    }

    // MARK: Rounds

    /// The round in play (active or awaiting finalization), if any.
    public func roundInPlay() throws -> Round? {
        try database.read { store in try store.roundInPlay() }
    }

    /// Starts a round: registered players are found by name or created; guests are `guest:<name>`.
    /// With a cloud set, the round is shared with this phone as its organizer; `anyPlayerResolves`
    /// lets every player's phone resolve its discrepancies (a shared round's option).
    /// `owner`: whose phone this is (a player of the round): this phone's scores are reported by
    /// them, in this round and later ones (`defaultReporter`). `adding`: a course this phone lacks,
    /// added in the same transaction (a replay's): a round that cannot start leaves no course behind.
    @discardableResult
    public func startRound(course courseName: String, players: [String], guests: [String] = [], anyPlayerResolves: Bool = false,
                           owner: String? = nil, adding newCourse: Course? = nil) throws -> Round {
        let round = try database.write { store -> Round in
            let cloud = try store.cloudConfiguration()
            if anyPlayerResolves, cloud == nil { throw HubError.cloudNotConfigured(option: "--any-player-resolves") }
            if let inPlay = try store.roundInPlay() { throw HubError.roundAlreadyInPlay(course: inPlay.courseName) }
            if let newCourse { try Self.insert(newCourse, into: store) }
            guard let (courseID, course) = try store.course(named: courseName) else {
                throw HubError.unknownCourse(courseName, available: try store.courses().map(\.name))
            }
            var round = Round(course: course, createdAt: clock())
            for name in players + guests { try Self.checkPlayerName(name, guest: guests.contains(name)) }
            try Self.refuseLookAlikes(players.map(Self.trim), guests: guests.map(Self.trim), store: store)
            do {
                for name in players.map(Self.trim) {
                    try round.addPlayer(try store.registeredPlayer(named: name) ?? .registered(name: name))
                }
                for name in guests.map(Self.trim) { try round.addPlayer(.guest(name: name)) }
                try round.start()
            } catch let error as RoundError {
                if case .duplicatePlayer(let name) = error { throw HubError.duplicatePlayerName(name) }
                throw HubError.round(error)
            }
            if let owner {
                let player = try Self.player(named: owner, in: round)
                try store.setOwner(player.name)
            }
            try store.insert(round, courseID: courseID)
            if let cloud {
                try store.insert(CloudRoundRecord(roundID: round.id.uuidString, organizer: cloud.role ?? "", organizerName: cloud.player,
                                                  anyPlayerResolves: anyPlayerResolves, uploaded: false, uploadedStatus: nil, cursor: 0))
                try store.learnOwner(from: round)
            }
            try store.bumpSequence()
            return round
        }
        try exportSnapshot()
        return round
    }

    /// Moves the current hole (the phone's choice until everyone has scored it).
    @discardableResult
    public func moveToHole(_ hole: Int) throws -> Round {
        let round = try mutateRoundInPlay { round, _ in try round.moveToHole(hole) }
        try exportSnapshot()
        return round
    }

    /// Completes the round in play. Unless `force`, a round with holes unscored
    /// (`RoundError.incomplete`) or with discrepancies still open (`HubError.openDiscrepancies`)
    /// is refused; forced, the score the standings show counts for an open discrepancy, and the
    /// discrepancies left open are returned, with that score, so the caller can say so.
    @discardableResult
    public func finishRound(force: Bool = false) throws -> (round: Round, openDiscrepancies: [Discrepancy], counted: [ScoreKey: ScoreEvent]) {
        var open: [Discrepancy] = [], counted: [ScoreKey: ScoreEvent] = [:]
        let round = try mutateRoundInPlay { round, store in
            try Self.requireFinisher(store, round: round)
            let events = try store.events(roundID: round.id)
            let ledger = ScoreLedger(events: events)
            open = ledger.discrepancies
            if !force, !open.isEmpty {
                throw HubError.openDiscrepancies(open.map { HubError.DisputedHole(player: round.player($0.playerID)?.name ?? $0.playerID, hole: $0.hole) },
                                                 missingScores: round.missingScores(events: events))
            }
            try round.finish(events: events, allowIncomplete: force)
            // The score the standings count for each disputed hole, as they stand at the finish.
            for discrepancy in open { counted[discrepancy.key] = ledger.currentScores[discrepancy.key] }
        }
        try exportSnapshot()
        return (round, open, counted)
    }

    private func mutateRoundInPlay(_ change: (inout Round, HubStore) throws -> Void) throws -> Round {
        try database.write { store in
            var round = try Self.requireRoundInPlay(store)
            do { try change(&round, store) } catch let error as RoundError { throw HubError.round(error) }
            try store.updateProgress(of: round)
            try store.bumpSequence()
            return round
        }
    }

    // MARK: Reads

    /// The round in play, else the most recent one (what a command's output names players from).
    public func currentOrLatestRound() throws -> Round? {
        try database.read { store in try store.roundInPlay() ?? store.latestRound() }
    }

    /// What `history(limit:)` would read (the finished rounds and how many events they hold):
    /// when it is unchanged, so is the history.
    public func historyKey(limit: Int = 100) throws -> [String] {
        try database.read { store in try store.completedRoundsKey(limit: limit) }
    }

    /// Completed rounds, newest first, each with its final standings: the phone's history (the
    /// page's, and `hyzer-hub history`).
    public func history(limit: Int = 100) throws -> [FinishedRound] {
        try database.read { store in
            try store.completedRounds(limit: limit).map { round in
                let owner = try Self.defaultReporter(store, round: round)
                return FinishedRound(round: RoundSnapshot(round: round, events: try store.events(roundID: round.id)), createdAt: round.createdAt,
                                     you: owner.id, organizer: try store.cloudRound(id: round.id)?.organizerName ?? owner.name)
            }
        }
    }

    /// The registered players this phone knows, by name (round setup offers them).
    public func knownPlayers() throws -> [String] {
        try database.read { store in try store.registeredPlayerNames() }.sorted { $0.localizedCaseInsensitiveCompare($1) == .orderedAscending }
    }

    /// Whose phone this is in `round`: the player its own scores are reported by (the cloud's
    /// `--player`, else the owner named at `round start --owner`, else the round's first player).
    public func owner(in round: Round) throws -> Player {
        try database.read { store in try Self.defaultReporter(store, round: round) }
    }

    /// The round in play, else the latest round, with its log in arrival order.
    public func eventLog() throws -> (round: Round?, events: [ScoreEvent]) {
        try database.read { store in
            guard let round = try store.roundInPlay() ?? store.latestRound() else { return (nil, []) }
            return (round, try store.events(roundID: round.id))
        }
    }

    /// Open discrepancies of the round in play, with the round for names.
    public func discrepancies() throws -> (round: Round, discrepancies: [Discrepancy]) {
        try database.read { store in
            let round = try Self.requireRoundInPlay(store)
            return (round, try Self.openDiscrepancies(of: round, in: store))
        }
    }

    /// The round `id` names: its whole id or the end of it (8 hex digits or more, as `HubText`
    /// shortens ids), in play or finished.
    public func round(matching id: String) throws -> Round {
        try database.read { store in try Self.round(matching: id, in: store) }
    }

    static func round(matching id: String, in store: HubStore) throws -> Round {
        let id = id.trimmingCharacters(in: .whitespaces)
        if let whole = UUID(canonicalString: id), let round = try store.round(id: whole) { return round }
        let found = try store.rounds(idEndingWith: id)
        guard found.count == 1 else { throw HubError.unknownRound(id, matches: found.count) }
        return found[0]
    }

    static func openDiscrepancies(of round: Round, in store: HubStore) throws -> [Discrepancy] {
        ConflictDetector.openDiscrepancies(in: try store.events(roundID: round.id))
    }

    /// Finished rounds (the newest 100) with discrepancies still open, newest first, but `except`.
    public func openDiscrepanciesInFinishedRounds(except: UUID? = nil) throws -> [(round: Round, discrepancies: [Discrepancy])] {
        try database.read { store in
            try store.completedRounds(limit: 100).filter { $0.id != except }.compactMap { round in
                let open = try Self.openDiscrepancies(of: round, in: store)
                return open.isEmpty ? nil : (round, open)
            }
        }
    }

    /// The discrepancies of `round`, in play or finished.
    public func discrepancies(of round: Round) throws -> [Discrepancy] {
        try database.read { store in try Self.openDiscrepancies(of: round, in: store) }
    }

    /// Those of the round in play, else what the last round left open when it was finished
    /// (`finished` says which); `HubError.noActiveRound` before any round.
    public func discrepanciesOfCurrentOrLastRound() throws -> (round: Round, discrepancies: [Discrepancy], finished: Bool) {
        try database.read { store in
            guard let round = try store.roundInPlay() ?? store.latestRound() else { throw HubError.noActiveRound }
            return (round, try Self.openDiscrepancies(of: round, in: store), !round.status.acceptsScores)
        }
    }

    /// Whether another process committed to the store since the last call (true at the first, and
    /// when it cannot tell): `serve` sees its own commits in its database's files too.
    public func changedElsewhere() -> Bool {
        (try? database.committedElsewhere()) ?? true
    }

    /// The sequence of the newest committed change; another process's change shows here at once.
    public func currentSequence() throws -> Int {
        try database.read { store in try store.sequence }
    }

    /// The standings snapshot as of now, exactly what `standings.json` holds after an export.
    public func snapshot() throws -> StandingsSnapshot {
        try database.read { store in
            let sequence = try store.sequence
            let inPlay = try store.roundInPlay()
            return StandingsSnapshot(
                hubID: try hubID(in: store),
                sequence: sequence,
                lastUpdatedAt: clock(),
                round: try inPlay.map { round in
                    keepRoundInPlayRead(round, at: sequence)
                    return RoundSnapshot(round: round, ledger: try ledger(of: round, at: sequence, in: store))
                },
                // With none in play, the last one finished: a watch away when it finished shows it from here.
                finishedRound: inPlay != nil ? nil : try store.latestRound().flatMap { round in
                    round.status == .completed ? RoundSnapshot(round: round, ledger: try ledger(of: round, at: sequence, in: store)) : nil
                }
            )
        }
    }

    /// A round in play read whole at the committed change `sequence`, cached unless the cache is
    /// as new: `serve` reads a round another process started to push it, and the watch's first
    /// score of that round then finds it (and its ledger) without reading the round again.
    private func keepRoundInPlayRead(_ round: Round, at sequence: Int) {
        guard let course = try? Course(name: round.courseName, holes: round.holes) else { return }
        roundInPlayCache.withLockedValue { cache in
            if let cache, cache.sequence >= sequence { return }
            cache = RoundInPlayCache(round: round, course: course, sequence: sequence)
        }
    }

    /// The standings as `standings.json` says them: the snapshot of now, dated when its change
    /// was exported (the file's `lastUpdatedAt` when the file holds this very change, which every
    /// `hyzer-hub` command and `serve` write right after it), not at the moment of asking.
    public func publishedSnapshot() throws -> StandingsSnapshot {
        let current = try snapshot()
        guard let exporter, let written = exporter.writtenSnapshotHeader(),
              written.hubID == current.hubID, written.sequence == current.sequence else { return current }
        return StandingsSnapshot(schemaVersion: current.schemaVersion, hubID: current.hubID, sequence: current.sequence,
                                 lastUpdatedAt: written.lastUpdatedAt, round: current.round, finishedRound: current.finishedRound)
    }

    /// The round's ledger at `sequence`: the cached one brought up to date with the rows that
    /// arrived since (whoever wrote them), or rebuilt from the whole log when the log order changed
    /// under it (the cloud ordered an event before one the ledger already holds) or there is none.
    func ledger(of round: Round, at sequence: Int, in store: HubStore) throws -> ScoreLedger {
        let cache = try takeLedger(of: round, at: sequence, in: store)
        keep(cache)
        return cache.ledger
    }

    /// The cached ledger taken out of the cache (so growing it never copies it; a reader meanwhile
    /// rebuilds) and brought up to date with the rows after it in `store`, or rebuilt. Give it back
    /// with `keep` once it holds committed state only.
    func takeLedger(of round: Round, at sequence: Int, in store: HubStore) throws -> LedgerCache {
        let taken = ledgerCache.withLockedValue { cache -> LedgerCache? in
            guard cache?.roundID == round.id else { return nil }
            defer { cache = nil }
            return cache
        }
        guard var taken, taken.sequence <= sequence else { return try rebuiltLedger(of: round, at: sequence, in: store) }
        if taken.sequence < sequence {
            guard try store.refusedCount() == taken.refusals else { return try rebuiltLedger(of: round, at: sequence, in: store) }
            for (event, row, cloudSeq) in try store.eventsWithOrder(roundID: round.id, afterRow: taken.lastRow) {
                guard taken.append(event, row: row, cloudSeq: cloudSeq) else { return try rebuiltLedger(of: round, at: sequence, in: store) }
            }
            taken.sequence = sequence
        }
        return taken
    }

    private func rebuiltLedger(of round: Round, at sequence: Int, in store: HubStore) throws -> LedgerCache {
        let rows = try store.eventsWithOrder(roundID: round.id)
        return LedgerCache(roundID: round.id, sequence: sequence, ledger: ScoreLedger(events: rows.map(\.event)),
                           lastRow: rows.map(\.row).max() ?? 0, holdsUnordered: rows.contains { $0.cloudSeq == nil },
                           highestCloudSeq: rows.compactMap(\.cloudSeq).max() ?? 0, refusals: try store.refusedCount())
    }

    /// Caches `cache` unless the one there is newer for the same round (another reader got further).
    func keep(_ cache: LedgerCache) {
        ledgerCache.withLockedValue { current in
            if let current, current.roundID == cache.roundID, current.sequence >= cache.sequence { return }
            current = cache
        }
    }

    /// Writes `shared/standings.json` (see `SnapshotExporter`); returns the snapshot written, nil
    /// for a hub without files.
    ///
    /// `built` is a snapshot already made for this change (the one `serve` pushed): it is written
    /// as it is while the store is still at its change, else the newest state is read as usual.
    @discardableResult
    public func exportSnapshot(_ built: StandingsSnapshot? = nil) throws -> StandingsSnapshot? {
        try exporter?.export {
            if let built, try currentSequence() == built.sequence { return built }
            return try snapshot()
        }
    }

    // MARK: Helpers

    static func requireRoundInPlay(_ store: HubStore) throws -> Round {
        guard let round = try store.roundInPlay() else {
            // Say why when the latest round was finished (perhaps by the organizer's phone).
            if let latest = try store.latestRound(), latest.status == .completed { throw HubError.roundFinished(course: latest.courseName) }
            throw HubError.noActiveRound
        }
        return round
    }

    static func currentHole(_ store: HubStore, round: Round) throws -> Int {
        round.currentHole(events: try store.events(roundID: round.id))
    }

    /// A round player by name: exact (any case), else a clear fuzzy match (first name, small typo).
    static func player(named name: String, in round: Round) throws -> Player {
        let wanted = trim(name)
        if let exact = round.players.first(where: { $0.name.lowercased() == wanted.lowercased() }) { return exact }
        switch FuzzyNameMatcher(players: round.players).match(wanted) {
        case .clear(let player, _): return player
        case .near(let player, _): throw HubError.unknownPlayer(wanted, roundPlayers: round.players.map(\.name), suggestion: player.name)
        case .ambiguous(let players, _): throw HubError.ambiguousPlayer(wanted, candidates: players.map(\.name))
        case .none: throw HubError.unknownPlayer(wanted, roundPlayers: round.players.map(\.name), suggestion: nil)
        }
    }

    static func trim(_ name: String) -> String { name.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// A new player whose name reads like a registered player's (or like another's in the same
    /// round) but is not it: refused, naming the one it reads like. The same name in another
    /// case is the same player, as before.
    static func refuseLookAlikes(_ players: [String], guests: [String], store: HubStore) throws {
        let registered = try store.registeredPlayerNames()
        var seen: [String: String] = [:]
        for name in players + guests {
            let skeleton = NameText.skeleton(name)
            if let other = seen[skeleton], other.lowercased() != name.lowercased() {
                throw HubError.lookAlikeName(name, existing: other, what: "player")
            }
            seen[skeleton] = name
            guard players.contains(name), try store.registeredPlayer(named: name) == nil,
                  let alike = registered.first(where: { NameText.skeleton($0) == skeleton }) else { continue }
            throw HubError.lookAlikeName(name, existing: alike, what: "player")
        }
    }

    /// A name every device can score and show: a letter or digit, no control characters, and a
    /// guest's id (`guest:<name>`) within a score's bound for player ids.
    static func checkPlayerName(_ given: String, guest: Bool) throws {
        let name = trim(given)
        // Said as given when trimming left nothing ("   " is no name, and "" would not show it).
        if let problem = NameText.problem(name) { throw HubError.invalidPlayerName(name.isEmpty ? given : name, problem) }
        let room = ScoreEvent.maxPlayerIDLength - Player.guestPrefix.utf8.count
        guard !guest || name.utf8.count <= room else {
            throw HubError.invalidPlayerName(name, "a guest's name is at most \(room) bytes (\(name.utf8.count) given): its id, guest:<name>, is at most \(ScoreEvent.maxPlayerIDLength)")
        }
    }
}
