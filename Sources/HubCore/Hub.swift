import Foundation
import HyzerAssets
import HyzerKit
import Logging
import NIOConcurrencyHelpers

/// What happened to an event handed to the hub.
public struct AppendResult: Equatable, Sendable {
    public enum Outcome: Equatable, Sendable {
        /// Committed, classified against what the log held for its {player, hole}.
        case stored(ScoreClassification)
        /// The log already held this event id: nothing written (a resend after a lost ack).
        case alreadyStored
    }

    public let event: ScoreEvent
    public let outcome: Outcome
}

/// The phone's use cases: every scoring operation is one invariant-preserving transaction on the
/// `HubDatabase`, followed by an atomic export of `standings.json` when a file home is attached.
public final class Hub: Sendable {
    /// The device ID of scores entered on the phone itself.
    public static let phoneDeviceID = "phone"

    public let paths: HyzerPaths?
    let database: HubDatabase
    private let exporter: SnapshotExporter?
    let clock: @Sendable () -> Date
    let logger = Logger(label: "hyzer.hub")

    /// The round in play as last loaded. Its course and players never change once it is active,
    /// so each append re-reads only its status and selected hole.
    private let roundInPlayCache = NIOLockedValueBox<Round?>(nil)

    init(database: HubDatabase, paths: HyzerPaths?, clock: @escaping @Sendable () -> Date) {
        self.database = database
        self.paths = paths
        self.exporter = paths.map { SnapshotExporter(url: $0.standingsSnapshot) }
        self.clock = clock
    }

    /// Opens (creating on first use) the hub under `paths.home`, seeding the shipped courses.
    public static func open(paths: HyzerPaths, clock: @escaping @Sendable () -> Date = Date.init) throws -> Hub {
        for directory in [paths.hubDirectory, paths.sharedDirectory] {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        let hub = Hub(database: try HubDatabase.open(at: paths.database), paths: paths, clock: clock)
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
        get throws { try database.read { store in try store.hubID } }
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
        do { data = try Data(contentsOf: url) } catch {
            throw HubError.badCourseFile(path: url.path, reason: "the file cannot be read")
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
        try store.insert(course)
    }

    private func seedCoursesIfNeeded() throws {
        try database.write { store in
            guard try store.meta(MetaRecord.coursesSeeded) == nil else { return }
            for file in HyzerAssets.courseFiles() {
                let course = try HyzerJSON.decoder().decode(Course.self, from: Data(contentsOf: file))
                if try store.course(named: course.name) == nil { try store.insert(course) }
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
    @discardableResult
    public func startRound(course courseName: String, players: [String], guests: [String] = []) throws -> Round {
        let round = try database.write { store -> Round in
            if let inPlay = try store.roundInPlay() { throw HubError.roundAlreadyInPlay(course: inPlay.courseName) }
            guard let (courseID, course) = try store.course(named: courseName) else {
                throw HubError.unknownCourse(courseName, available: try store.courses().map(\.name))
            }
            var round = Round(course: course, createdAt: clock())
            for name in players + guests {
                guard name.contains(where: { $0.isLetter || $0.isNumber }) else { throw HubError.invalidPlayerName(name) }
            }
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
            try store.insert(round, courseID: courseID)
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

    /// Completes the round in play. An incomplete round needs `allowIncomplete`.
    @discardableResult
    public func finishRound(allowIncomplete: Bool = false) throws -> Round {
        let round = try mutateRoundInPlay { round, store in
            try round.finish(events: try store.events(roundID: round.id), allowIncomplete: allowIncomplete)
        }
        try exportSnapshot()
        return round
    }

    private func mutateRoundInPlay(_ change: (inout Round, HubStore) throws -> Void) throws -> Round {
        try database.write { store in
            guard var round = try store.roundInPlay() else { throw HubError.noActiveRound }
            do { try change(&round, store) } catch let error as RoundError { throw HubError.round(error) }
            try store.updateProgress(of: round)
            try store.bumpSequence()
            return round
        }
    }

    // MARK: Scores

    /// Appends an already-formed event (from the watch, or a test). Idempotent by event id:
    /// a resend returns `.alreadyStored` and writes nothing. Refusals throw `HubError.score`.
    /// With `exportingSnapshot: false` the caller exports (the link server acks first, then exports).
    @discardableResult
    public func append(_ event: ScoreEvent, exportingSnapshot: Bool = true) throws -> AppendResult {
        let result = try database.write { store in try self.append(event, in: store) }
        if exportingSnapshot, result.outcome != .alreadyStored { try exportSnapshot() }
        return result
    }

    /// Appends many events in one transaction (all or nothing), then exports once.
    @discardableResult
    public func append(batch events: [ScoreEvent]) throws -> [AppendResult] {
        let results = try database.write { store in
            var context = AppendContext()
            return try events.map { try self.append($0, in: store, context: &context) }
        }
        if results.contains(where: { $0.outcome != .alreadyStored }) { try exportSnapshot() }
        return results
    }

    /// A score entered on the phone. A second, different score for a hole this device already
    /// scored is refused in favour of `correct`; the same score again is a harmless silent merge.
    @discardableResult
    public func score(
        player name: String, strokes: Int, hole: Int? = nil, source: ScoreSource = .tap,
        deviceID: String = Hub.phoneDeviceID, reportedBy: String? = nil
    ) throws -> AppendResult {
        let result = try database.write { store -> AppendResult in
            let round = try Self.requireRoundInPlay(store)
            let player = try Self.player(named: name, in: round)
            let reporter = try reportedBy.map { try Self.player(named: $0, in: round) } ?? round.players[0]
            let hole = try hole ?? Self.currentHole(store, round: round)
            let event = try makeEvent(round: round, player: player, hole: hole, strokes: strokes, reporter: reporter,
                                      deviceID: deviceID, source: source, supersedes: nil)
            let history = try store.history(roundID: round.id, playerID: player.id, hole: hole)
            if let own = ScoreResolution.ownScoreContradicted(inHistory: history, deviceID: deviceID, strokes: strokes) {
                throw HubError.alreadyScored(player: player.name, hole: hole, strokes: own.strokes, attempted: strokes)
            }
            return try self.append(event, in: store)
        }
        try exportSnapshot()
        return result
    }

    /// Supersedes the current score of a hole with a new one from the phone.
    @discardableResult
    public func correct(player name: String, strokes: Int, hole: Int) throws -> AppendResult {
        try supersedeCurrent(player: name, strokes: strokes, hole: hole, source: .tap) { player, current in
            guard current != nil else { throw HubError.noScoreToCorrect(player: player.name, hole: hole) }
        }
    }

    /// Settles an open discrepancy with an appended resolution event.
    @discardableResult
    public func resolve(player name: String, strokes: Int, hole: Int) throws -> AppendResult {
        try supersedeCurrent(player: name, strokes: strokes, hole: hole, source: .resolution) { player, _ in
            throw HubError.noDiscrepancy(player: player.name, hole: hole)
        }
    }

    private func supersedeCurrent(
        player name: String, strokes: Int, hole: Int, source: ScoreSource,
        check: (Player, ScoreEvent?) throws -> Void
    ) throws -> AppendResult {
        let result = try database.write { store -> AppendResult in
            let round = try Self.requireRoundInPlay(store)
            let player = try Self.player(named: name, in: round)
            guard (1...round.holeCount).contains(hole) else { throw HubError.score(.holeOutOfRange(hole: hole, holeCount: round.holeCount)) }
            let history = try store.history(roundID: round.id, playerID: player.id, hole: hole)
            let current = ScoreResolution.leaves(ofHistory: history).first
            if source == .resolution {
                if ConflictDetector.openDiscrepancy(inHistory: history) == nil { try check(player, current) }
            } else {
                try check(player, current)
            }
            let event = try makeEvent(round: round, player: player, hole: hole, strokes: strokes, reporter: round.players[0],
                                      deviceID: Self.phoneDeviceID, source: source, supersedes: current?.id)
            return try self.append(event, in: store)
        }
        try exportSnapshot()
        return result
    }

    /// Records what a spoken transcript makes clear; reports the rest.
    public func voice(_ transcript: String, hole: Int? = nil) throws -> VoiceOutcome {
        let outcome = try database.write { store -> VoiceOutcome in
            let round = try Self.requireRoundInPlay(store)
            let hole = try hole ?? Self.currentHole(store, round: round)
            guard (1...round.holeCount).contains(hole) else { throw HubError.score(.holeOutOfRange(hole: hole, holeCount: round.holeCount)) }
            let parsed = VoiceTranscriptParser.parse(transcript, matcher: FuzzyNameMatcher(players: round.players))
            var outcome = VoiceOutcome(hole: hole, parse: parsed)
            for entry in parsed.entries {
                let history = try store.history(roundID: round.id, playerID: entry.player.id, hole: hole)
                if let own = ScoreResolution.ownScoreContradicted(inHistory: history, deviceID: Self.phoneDeviceID, strokes: entry.strokes) {
                    outcome.refused.append(.init(entry: entry, reason: HubError.alreadyScored(
                        player: entry.player.name, hole: hole, strokes: own.strokes, attempted: entry.strokes).description))
                    continue
                }
                let event = try makeEvent(round: round, player: entry.player, hole: hole, strokes: entry.strokes,
                                          reporter: round.players[0], deviceID: Self.phoneDeviceID, source: .voice, supersedes: nil)
                outcome.recorded.append(try self.append(event, in: store))
            }
            return outcome
        }
        if !outcome.recorded.isEmpty { try exportSnapshot() }
        return outcome
    }

    private func makeEvent(
        round: Round, player: Player, hole: Int, strokes: Int, reporter: Player,
        deviceID: String, source: ScoreSource, supersedes: UUID?
    ) throws -> ScoreEvent {
        do {
            return try ScoreEvent(roundID: round.id, playerID: player.id, hole: hole, strokes: strokes,
                                  supersedesEventID: supersedes, reportedByPlayerID: reporter.id,
                                  deviceID: deviceID, source: source, createdAt: clock())
        } catch {
            throw HubError.score(error)
        }
    }

    /// What one write transaction knows about the round in play, so a batch loads it once.
    struct AppendContext {
        var round: Round?
        /// {player, hole} pairs with a score, counted once and then kept up to date.
        var scoredKeys: Int?
        /// The change sequence grows once per transaction: a batch is one change to publish.
        var sequenceBumped = false
    }

    private func append(_ event: ScoreEvent, in store: HubStore) throws -> AppendResult {
        var context = AppendContext()
        return try append(event, in: store, context: &context)
    }

    /// The one place an event enters the log: dedupe by id, validate against the round and the
    /// chain it extends, classify, insert, advance the round.
    private func append(_ event: ScoreEvent, in store: HubStore, context: inout AppendContext) throws -> AppendResult {
        if try store.containsEvent(id: event.id) { return AppendResult(event: event, outcome: .alreadyStored) }
        var round = try context.round ?? cachedRoundInPlay(store)
        do {
            try round.validate(event)
            if let target = event.supersedesEventID {
                guard let superseded = try store.event(id: target), superseded.roundID == event.roundID else {
                    throw ScoreError.unknownSupersededEvent(target)
                }
                guard superseded.playerID == event.playerID, superseded.hole == event.hole else {
                    throw ScoreError.supersedesDifferentScore(target)
                }
            }
        } catch let error as ScoreError {
            throw HubError.score(error)
        }
        let history = try store.history(roundID: event.roundID, playerID: event.playerID, hole: event.hole)
        let classification = ConflictDetector.classify(event, history: history)
        try store.insert(event, receivedAt: clock())
        if classification == .newScore {
            let before = (round.status, round.selectedHole)
            let scoredKeys: Int
            if let known = context.scoredKeys {
                scoredKeys = known + 1
            } else {
                // The round can only have become complete if this player now has every hole: count
                // their holes (a few index rows) before counting the whole round.
                let playerHoles = try store.holesScored(roundID: round.id, playerID: event.playerID)
                scoredKeys = playerHoles < round.holeCount ? 0 : try store.scoredKeys(roundID: round.id)
                if playerHoles >= round.holeCount { context.scoredKeys = scoredKeys }
            }
            let onSelected = try round.selectedHole.map { hole in try store.playersScored(roundID: round.id, hole: hole) } ?? 0
            round.updateProgress(scoredKeyCount: scoredKeys, playersScoredOnSelectedHole: onSelected)
            if before != (round.status, round.selectedHole) { try store.updateProgress(of: round) }
        }
        context.round = round
        if !context.sequenceBumped {
            try store.bumpSequence()
            context.sequenceBumped = true
        }
        logger.debug("stored event", metadata: ["id": "\(event.id)", "classification": "\(classification.rawValue)"])
        return AppendResult(event: event, outcome: .stored(classification))
    }

    private func cachedRoundInPlay(_ store: HubStore) throws -> Round {
        guard let header = try store.roundInPlayHeader() else { throw HubError.noActiveRound }
        if let cached = roundInPlayCache.withLockedValue({ $0 }), cached.id.uuidString == header.id {
            return Round(id: cached.id, course: try Course(name: cached.courseName, holes: cached.holes), players: cached.players,
                         status: header.status, selectedHole: header.selectedHole, createdAt: cached.createdAt)
        }
        guard let round = try store.roundInPlay() else { throw HubError.noActiveRound }
        roundInPlayCache.withLockedValue { $0 = round }
        return round
    }

    // MARK: Reads

    /// The round in play, else the most recent one (what a command's output names players from).
    public func currentOrLatestRound() throws -> Round? {
        try database.read { store in try store.roundInPlay() ?? store.latestRound() }
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
            return (round, ConflictDetector.openDiscrepancies(in: try store.events(roundID: round.id)))
        }
    }

    /// The sequence of the newest committed change; another process's change shows here at once.
    public func currentSequence() throws -> Int {
        try database.read { store in try store.sequence }
    }

    /// The standings snapshot as of now, exactly what `standings.json` holds after an export.
    public func snapshot() throws -> StandingsSnapshot {
        try database.read { store in
            StandingsSnapshot(
                hubID: try store.hubID,
                sequence: try store.sequence,
                lastUpdatedAt: clock(),
                round: try store.roundInPlay().map { RoundSnapshot(round: $0, events: try store.events(roundID: $0.id)) }
            )
        }
    }

    /// Writes `shared/standings.json` (see `SnapshotExporter`); returns the snapshot written, nil
    /// for a hub without files.
    @discardableResult
    public func exportSnapshot() throws -> StandingsSnapshot? {
        try exporter?.export(snapshot)
    }

    // MARK: Helpers

    private static func requireRoundInPlay(_ store: HubStore) throws -> Round {
        guard let round = try store.roundInPlay() else { throw HubError.noActiveRound }
        return round
    }

    private static func currentHole(_ store: HubStore, round: Round) throws -> Int {
        round.currentHole(events: try store.events(roundID: round.id))
    }

    /// A round player by name: exact (any case), else a clear fuzzy match (first name, small typo).
    static func player(named name: String, in round: Round) throws -> Player {
        let wanted = trim(name)
        if let exact = round.players.first(where: { $0.name.lowercased() == wanted.lowercased() }) { return exact }
        switch FuzzyNameMatcher(players: round.players).match(wanted) {
        case .clear(let player): return player
        case .near(let player, _): throw HubError.unknownPlayer(wanted, roundPlayers: round.players.map(\.name), suggestion: player.name)
        case .ambiguous, .none: throw HubError.unknownPlayer(wanted, roundPlayers: round.players.map(\.name), suggestion: nil)
        }
    }

    private static func trim(_ name: String) -> String { name.trimmingCharacters(in: .whitespacesAndNewlines) }
}

/// What `voice` did with a transcript.
public struct VoiceOutcome: Equatable, Sendable {
    public struct Refused: Equatable, Sendable {
        public let entry: VoiceParseResult.Entry
        public let reason: String
    }

    public let hole: Int
    public let parse: VoiceParseResult
    public var recorded: [AppendResult] = []
    public var refused: [Refused] = []

    public init(hole: Int, parse: VoiceParseResult) {
        self.hole = hole
        self.parse = parse
    }

    /// Everything in the transcript was recorded.
    public var isComplete: Bool { parse.isComplete && refused.isEmpty }
}
