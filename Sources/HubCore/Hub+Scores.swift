import Foundation
import HyzerKit

/// Scores: the phone's tap, correction, resolution and voice use cases, and the one place an
/// event (from the watch or the phone) enters the log.
extension Hub {
    // MARK: Scores

    /// Appends an already-formed event (from the watch, or a test). Idempotent by event id:
    /// a resend returns `.alreadyStored` and writes nothing. Refusals throw `HubError.score`.
    /// With `exportingSnapshot: false` the caller exports (the link server acks first, then exports).
    @discardableResult
    public func append(_ event: ScoreEvent, exportingSnapshot: Bool = true) throws -> AppendResult {
        let result = try appending { store, context in try self.append(event, in: store, context: &context) }
        if exportingSnapshot, result.outcome != .alreadyStored { try exportSnapshot() }
        return result
    }

    /// Appends an event from a paired watch; when it is stored, also the standings it leads to,
    /// built from the round and ledger the append already holds in memory: `serve` pushes them
    /// the moment the commit returns, with no read of the store in between. Exports nothing.
    public func appendForPush(_ event: ScoreEvent) throws -> (result: AppendResult, snapshot: StandingsSnapshot?) {
        var standings: StandingsInMemory?
        let result = try appending { store, context -> AppendResult in
            let result = try self.append(event, in: store, context: &context)
            if result.outcome != .alreadyStored { standings = try self.standingsInMemory(context, in: store) }
            return result
        }
        return (result, standings.map { $0.snapshot(at: clock()) })
    }

    /// What the standings of a transaction's change are made of, taken inside it from the round
    /// and ledger it holds in memory; the snapshot is made once it has committed.
    struct StandingsInMemory {
        let round: Round
        let ledger: ScoreLedger
        let sequence: Int
        let hubID: String

        func snapshot(at date: Date) -> StandingsSnapshot {
            StandingsSnapshot(hubID: hubID, sequence: sequence, lastUpdatedAt: date, round: RoundSnapshot(round: round, ledger: ledger))
        }
    }

    /// The standings this transaction's change leads to, when it holds the round in play and its
    /// ledger at the sequence it bumped to; nil otherwise (a reader makes them).
    func standingsInMemory(_ context: AppendContext, in store: HubStore) throws -> StandingsInMemory? {
        guard let round = context.round, round.status.acceptsScores, let cache = context.ledger, context.sequenceBumped else { return nil }
        return StandingsInMemory(round: round, ledger: cache.ledger, sequence: cache.sequence, hubID: try hubID(in: store))
    }

    /// Appends many events in one transaction (all or nothing), then exports once.
    @discardableResult
    public func append(batch events: [ScoreEvent]) throws -> [AppendResult] {
        let results = try appending { store, context in
            return try events.map { try self.append($0, in: store, context: &context) }
        }
        if results.contains(where: { $0.outcome != .alreadyStored }) { try exportSnapshot() }
        return results
    }

    /// A score entered on the phone, as a report of what this device saw (`ScoreWrite.plan`): the
    /// strokes this phone already says record nothing; other strokes for a hole this phone
    /// already scored are refused in favour of `correct` (a device never disagrees with itself).
    @discardableResult
    public func score(
        player name: String, strokes: Int, hole: Int? = nil, source: ScoreSource = .tap,
        deviceID: String? = nil, reportedBy: String? = nil
    ) throws -> AppendResult {
        try enter(player: name, strokes: strokes, hole: hole, intent: .report, source: source, deviceID: deviceID, reportedBy: reportedBy)
    }

    /// Changes what this phone says of a hole (`ScoreWrite.plan`): its own score there is replaced;
    /// with none, the score that counts is disputed. Strokes that this phone already says, or
    /// that already count, record nothing.
    /// `deviceID` and `reportedBy` play another device's correction, as for `score`.
    @discardableResult
    public func correct(player name: String, strokes: Int, hole: Int, deviceID: String? = nil, reportedBy: String? = nil) throws -> AppendResult {
        try enter(player: name, strokes: strokes, hole: hole, intent: .correction, source: .tap, deviceID: deviceID, reportedBy: reportedBy)
    }

    /// Settles an open discrepancy with an appended resolution event: in `round` (an id or its
    /// end, `Hub.round(matching:)`), else the round in play, else the last round finished. A
    /// finished round's discrepancy stays open after a forced finish, or opens when a phone that
    /// was offline uploads a score made before the end (even after the next round started). A
    /// resolution is the one event a finished round takes: it adds no score, it settles one.
    @discardableResult
    public func resolve(player name: String, strokes: Int, hole: Int, round roundID: String? = nil) throws -> AppendResult {
        let result = try appending { store, context -> AppendResult in
            let named = try roundID.map { try Self.round(matching: $0, in: store) }
            let last = try named == nil && store.roundInPlay() == nil ? store.latestRound() : nil
            let finished = (named ?? last).flatMap { $0.status == .completed ? $0 : nil }
            var (round, player) = try Self.target(name, hole: hole, in: store, round: finished ?? named)
            guard Strokes.allowed.contains(strokes) else { throw HubError.score(.strokesOutOfRange(strokes)) }
            let history = try keyHistory(of: ScoreKey(playerID: player.id, hole: hole), round: round, in: store, context: &context)
            guard let state = history?.state, let counted = state.counted, state.isDisputed else {
                throw HubError.noDiscrepancy(player: player.name, hole: hole)
            }
            let event = try makeEvent(round: round, player: player, hole: hole, strokes: strokes, reporter: Self.defaultReporter(store, round: round),
                                      deviceID: try Self.phoneDeviceID(store, round: round), source: .resolution, supersedes: counted.id)
            guard finished != nil else { return try self.append(event, in: store, context: &context) }
            try Self.requireResolver(store, roundID: round.id)
            return try record(event, in: &round, history: history?.events ?? [], before: state, store: store, context: &context)
        }
        try exportSnapshot()
        return result
    }

    /// One score from this phone (or a device it plays with `--device`), by the one rule every
    /// input path follows.
    private func enter(
        player name: String, strokes: Int, hole: Int?, intent: ScoreWrite.Intent, source: ScoreSource,
        deviceID: String? = nil, reportedBy: String? = nil
    ) throws -> AppendResult {
        if let problem = deviceID.flatMap(Self.deviceIDProblem) { throw HubError.invalidDeviceID(problem) }
        let result = try appending { store, context -> AppendResult in
            let round = try Self.requireRoundInPlay(store)
            let hole = try hole ?? Self.currentHole(store, round: round)
            let (_, player) = try Self.target(name, hole: hole, in: store, round: round)
            guard Strokes.allowed.contains(strokes) else { throw HubError.score(.strokesOutOfRange(strokes)) }
            // Another device's score (`--device watch-sarah`) is its wearer's unless said otherwise,
            // as a watch started with --wearer names itself; a device with no wearer reports as the
            // player it scores, as a watch without --wearer does. Never as this phone's owner.
            let wearer = deviceID.flatMap { device in round.players.first { Player.watchDeviceID(wearer: $0.name) == device } }
            let reporter = try reportedBy.map { try Self.player(named: $0, in: round) } ?? wearer
                ?? (deviceID == nil ? Self.defaultReporter(store, round: round) : player)
            let history = try keyHistory(of: ScoreKey(playerID: player.id, hole: hole), round: round, in: store, context: &context)
            if intent == .correction, history?.state.counted == nil { throw HubError.noScoreToCorrect(player: player.name, hole: hole) }
            return try self.enter(strokes: strokes, intent: intent, player: player, hole: hole, round: round, reporter: reporter,
                                  deviceID: deviceID ?? Self.phoneDeviceID(store, round: round), played: deviceID != nil,
                                  source: source, history: history, in: store, context: &context)
        }
        if result.outcome != .unchanged { try exportSnapshot() }
        return result
    }

    /// Records (or not) what `ScoreWrite.plan` says of one score, inside a write transaction.
    /// `played`: `deviceID` is another device the command plays (`--device`), which a refusal names.
    private func enter(
        strokes: Int, intent: ScoreWrite.Intent, player: Player, hole: Int, round: Round, reporter: Player,
        deviceID: String, played: Bool = false, source: ScoreSource, history: KeyHistory?, in store: HubStore, context: inout AppendContext
    ) throws -> AppendResult {
        switch ScoreWrite.plan(strokes: strokes, intent: intent, deviceID: deviceID, state: history?.state) {
        case .unchanged(let claim):
            guard let held = history?.events.first(where: { $0.id == claim.eventID }) else {
                throw HubError.storage("The score \(claim.eventID.canonicalString) that already says \(strokes) is not in its history.")
            }
            return AppendResult(event: held, outcome: .unchanged, state: history?.state)
        case .contradictsOwn(let own):
            throw HubError.alreadyScored(player: player.name, hole: hole, strokes: own.strokes, attempted: strokes, device: played ? deviceID : nil)
        case .record(let supersedes):
            let event = try makeEvent(round: round, player: player, hole: hole, strokes: strokes, reporter: reporter,
                                      deviceID: deviceID, source: source, supersedes: supersedes)
            return try append(event, in: store, context: &context)
        }
    }

    /// The round in play and the named player, with the hole checked against its course.
    private static func target(_ name: String, hole: Int, in store: HubStore, round known: Round? = nil) throws -> (Round, Player) {
        let round = try known ?? requireRoundInPlay(store)
        let player = try player(named: name, in: round)
        guard (1...round.holeCount).contains(hole) else { throw HubError.score(.holeOutOfRange(hole: hole, holeCount: round.holeCount)) }
        return (round, player)
    }

    /// Records what a spoken transcript makes clear; reports the rest. With `dryRun`, records
    /// nothing and reports what would have been recorded (`outcome.wouldRecord`). `intent`: a
    /// report for `hyzer-hub voice` (strokes other than the phone's own are refused, pointing to
    /// `correct`); a correction for the page's voice overlay, which corrects the hole's score as the
    /// watch's overlay does (the person saw the rows and could change them before they saved).
    public func voice(_ transcript: String, hole: Int? = nil, dryRun: Bool = false, intent: ScoreWrite.Intent = .report) throws -> VoiceOutcome {
        let outcome = try appending { store, context -> VoiceOutcome in
            let round = try Self.requireRoundInPlay(store)
            let hole = try hole ?? Self.currentHole(store, round: round)
            guard (1...round.holeCount).contains(hole) else { throw HubError.score(.holeOutOfRange(hole: hole, holeCount: round.holeCount)) }
            let par = round.holes.first { $0.number == hole }?.par
            let parsed = VoiceTranscriptParser.parse(transcript, players: round.players, par: par)
            var outcome = VoiceOutcome(transcript: transcript, hole: hole, par: par, parse: parsed, dryRun: dryRun)
            let deviceID = try Self.phoneDeviceID(store, round: round), reporter = try Self.defaultReporter(store, round: round)
            for entry in parsed.entries {
                let history = try keyHistory(of: ScoreKey(playerID: entry.player.id, hole: hole), round: round, in: store, context: &context)
                let plan = ScoreWrite.plan(strokes: entry.strokes, intent: intent, deviceID: deviceID, state: history?.state)
                if case .contradictsOwn(let own) = plan {
                    outcome.refused.append(.init(entry: entry, reason: HubError.alreadyScored(
                        player: entry.player.name, hole: hole, strokes: own.strokes, attempted: entry.strokes).description))
                    continue
                }
                if dryRun {
                    outcome.wouldRecord.append(entry)
                    continue
                }
                outcome.recorded.append(try enter(strokes: entry.strokes, intent: intent, player: entry.player, hole: hole, round: round,
                                                  reporter: reporter, deviceID: deviceID, source: .voice, history: history,
                                                  in: store, context: &context))
            }
            return outcome
        }
        if outcome.recorded.contains(where: { $0.outcome != .unchanged }) { try exportSnapshot() }
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
        /// The round's player ids, as cached with the round in play (made once per round read).
        var playerIDs: Set<PlayerID>?
        /// The round's ledger, taken from the cache on the first append and grown by each insert:
        /// histories and progress come from memory, never from the log.
        var ledger: LedgerCache?
        /// Whether this transaction inserted anything (then the ledger holds uncommitted events).
        var insertedAny = false
        /// The log's insert statement, taken by the first insert.
        var insert: HubStore.EventInsert?
        /// The change sequence grows once per transaction: a batch is one change to publish.
        var sequenceBumped = false
        /// When this transaction received its events, as stored: a batch arrives at one instant,
        /// so the time is read and formatted once.
        var receivedAt: String?
    }

    /// Runs appends in one write transaction. The round's ledger they grow goes back to the cache
    /// after the commit; when the transaction fails it goes back only if nothing was inserted and
    /// the sequence was not bumped (it still holds committed state), else it is dropped and the
    /// next reader rebuilds it. `synced: false` is `HubDatabase.write`'s: for what the cloud holds.
    func appending<T>(synced: Bool = true, _ body: (HubStore, inout AppendContext) throws -> T) throws -> T {
        var context = AppendContext()
        do {
            let result = try database.write(synced: synced) { store in try body(store, &context) }
            if let ledger = context.ledger {
                keep(ledger)
                // The round as this commit left it (its progress), current at the bumped sequence.
                if let round = context.round, context.sequenceBumped { keepRoundInPlay(round, at: ledger.sequence) }
            }
            return result
        } catch {
            // Nothing inserted and no sequence bumped: the ledger still holds committed state.
            if let ledger = context.ledger, !context.insertedAny, !context.sequenceBumped { keep(ledger) }
            throw error
        }
    }

    /// The one place an event enters the log: dedupe by id, validate against the round and the
    /// chain it extends, classify, insert, advance the round.
    ///
    /// A resend is found without a query of its own: an event of the round in play is in its
    /// {player, hole}'s history in the ledger, and an id stored anywhere else makes the insert
    /// insert nothing (`ON CONFLICT (id) DO NOTHING`). Only when a check refuses the event is the
    /// log asked whether it holds that id, so a resend is acked whatever the round now says of it
    /// (a score of a round that has since finished, say), as the first check did before.
    private func append(_ event: ScoreEvent, in store: HubStore, context: inout AppendContext) throws -> AppendResult {
        // Read once by a transaction's first append, before it writes: the committed state's
        // sequence, which the round in play and the ledger are taken at.
        let committedSequence = context.round == nil ? try store.sequence : nil
        var round: Round
        do {
            round = try roundInPlay(in: store, context: &context, at: committedSequence)
        } catch HubError.noActiveRound {
            if let stored = try storedAlready(event, in: store) { return stored }
            // A score for a round that was finished says so, rather than that none was ever started.
            if let named = try store.round(id: event.roundID), !named.status.acceptsScores {
                throw HubError.score(.roundNotAcceptingScores(status: named.status))
            }
            throw HubError.noActiveRound
        }
        let history: [ScoreEvent], before: ScoreState?
        do {
            switch try checked(event, in: round, store: store, context: &context, at: committedSequence) {
            case .resend(let held): return try Self.resent(event, held: held)
            case .new(let past, let state): (history, before) = (past, state)
            }
        } catch {
            // Once SQLite has rolled the transaction back (a failed read on a full disk, say),
            // nothing more is asked of the store: the error stands for the whole transaction.
            guard store.isInsideTransaction else { throw error }
            if let stored = try storedAlready(event, in: store) { return stored }
            // A score for a round finished since (a watch away across two rounds): the round is
            // over, as with no round in play, rather than "another round".
            if case HubError.score(.wrongRound) = error, let named = try store.round(id: event.roundID), !named.status.acceptsScores {
                throw HubError.score(.roundNotAcceptingScores(status: named.status))
            }
            throw error
        }
        return try record(event, in: &round, history: history, before: before, store: store, context: &context)
    }

    /// The round in play, as this transaction first read it.
    func roundInPlay(in store: HubStore, context: inout AppendContext, at committedSequence: Int?) throws -> Round {
        if let known = context.round { return known }
        let cached = try cachedRoundInPlay(store, at: committedSequence ?? store.sequence)
        context.playerIDs = cached.playerIDs
        return cached.round
    }

    /// What checking an event against the round and its {player, hole}'s history found.
    private enum Checked {
        /// The history holds this very id: a resend.
        case resend(of: ScoreEvent)
        /// A new score that keeps the rules: the history it joins and the state that history is in.
        case new(history: [ScoreEvent], before: ScoreState?)
    }

    private func checked(_ event: ScoreEvent, in round: Round, store: HubStore, context: inout AppendContext,
                         at committedSequence: Int?) throws -> Checked {
        do {
            if let playerIDs = context.playerIDs { try round.validate(event, isPlayer: { id in playerIDs.firstIndex(of: id).map { playerIDs[$0].hasSameBytes(as: id) } ?? false }) } else { try round.validate(event) }
        } catch {
            throw HubError.score(error)
        }
        if event.source == .resolution { try Self.requireResolver(store, roundID: event.roundID) }
        if context.ledger == nil { context.ledger = try takeLedger(of: round, at: try committedSequence ?? store.sequence, in: store) }
        let keyHistory = context.ledger?.ledger.keyHistory(of: ScoreKey(playerID: event.playerID, hole: event.hole))
        let history = keyHistory?.events ?? [], before = keyHistory?.state
        if let held = history.first(where: { $0.id == event.id }) { return .resend(of: held) }
        if let target = event.supersedesEventID {
            guard history.contains(where: { $0.id == target }) else {
                let elsewhere = try store.event(id: target).map { $0.roundID == event.roundID } ?? false
                throw HubError.score(elsewhere ? .supersedesDifferentScore(target) : .unknownSupersededEvent(target))
            }
            // A device's chain never forks: a second replacement of a score that its own device
            // (or a resolution) already replaced would be acked and then hold a stale claim.
            // Name the score that counts now instead.
            if let replaced = history.first(where: { $0.id == target }),
               ScoreRule.retires(event, replaced), history.contains(where: { ScoreRule.retires($0, replaced) }),
               let current = before?.counted {
                throw HubError.score(.supersedesReplacedScore(target, current: current.id))
            }
        }
        return .new(history: history, before: before)
    }

    /// Stores a checked event and brings the ledger, the round's progress and the sequence along.
    private func record(_ event: ScoreEvent, in round: inout Round, history: [ScoreEvent], before: ScoreState?,
                        store: HubStore, context: inout AppendContext) throws -> AppendResult {
        let receivedAt = context.receivedAt ?? HyzerJSON.formatTimestamp(clock())
        context.receivedAt = receivedAt
        if context.insert == nil { context.insert = try store.eventInsert() }
        guard let row = try store.insert(event, receivedAt: receivedAt, using: context.insert) else {
            // The id is in the log, but not as a score of this {player, hole}: another score's id.
            if let stored = try storedAlready(event, in: store) { return stored }
            throw HubError.storage("The event \(event.id.canonicalString) was neither inserted nor found in the log.")
        }
        context.insertedAny = true
        // A new row is last in log order: no cloud has ordered it yet.
        let keysBefore = context.ledger?.ledger.keys.count
        _ = context.ledger?.append(event, row: row, cloudSeq: nil)
        let after = context.ledger?.ledger.keyHistory(of: ScoreKey(playerID: event.playerID, hole: event.hole))?.state
            ?? ScoreRule.state(ofHistory: history + [event])
        let classification = ConflictDetector.classify(event, before: before, after: after, history: history)
        if let ledger = context.ledger?.ledger, ledger.keys.count != keysBefore {
            let before = (round.status, round.selectedHole)
            round.updateProgress(scoredKeyCount: ledger.keys.count, playersScored: { ledger.playersPerHole[$0] ?? 0 })
            if before != (round.status, round.selectedHole) { try store.updateProgress(of: round) }
        }
        // A finished round (a resolution after the end) is not the round in play.
        if round.status.acceptsScores { context.round = round }
        if !context.sequenceBumped {
            // The ledger was brought to the sequence this transaction read; the bump adds one.
            let sequence = try context.ledger.map { try store.bumpSequence(from: $0.sequence) } ?? store.bumpSequence()
            context.sequenceBumped = true
            context.ledger?.sequence = sequence
        }
        logger.debug("stored event", metadata: ["id": "\(event.id)", "classification": "\(classification.rawValue)"])
        return AppendResult(event: event, outcome: .stored(classification), state: after)
    }

    /// Whether the log already holds `event` (a resend): `.alreadyStored` for the same score,
    /// `HubError.eventIDInUse` for another score under its id, nil for a new id. The link asks it
    /// for a score it refuses itself (another device's, a resolution from a watch), so a resend is
    /// answered as one whatever it says, as for any other score (PROTOCOL.md, the hub side).
    public func storedResult(of event: ScoreEvent) throws -> AppendResult? {
        try database.read { store in try storedAlready(event, in: store) }
    }

    /// `HubError.eventIDInUse` when the log holds a score under `id`: asked for a score frame the
    /// link cannot accept as sent (strokes 11, a field of the wrong type), which can never be the
    /// same event as one stored (PROTOCOL.md: the id is checked before the content).
    public func checkIDUnused(_ id: UUID) throws {
        guard let held = try database.read({ store in try store.event(id: id) }) else { return }
        throw HubError.eventIDInUse(id, stored: Self.describe(held))
    }

    private static func describe(_ held: ScoreEvent) -> String {
        "\(held.playerID), hole \(held.hole), \(held.strokes) strokes, from \(held.deviceID)"
    }

    /// When the log holds an event with `event`'s id: `.alreadyStored` when it is the same score
    /// (a resend), `eventIDInUse` when it is another; nil when the id is new.
    private func storedAlready(_ event: ScoreEvent, in store: HubStore) throws -> AppendResult? {
        guard let held = try store.event(id: event.id) else { return nil }
        return try Self.resent(event, held: held)
    }

    /// A resend is the same event; the same id with another score is refused, not acked as if stored.
    private static func resent(_ event: ScoreEvent, held: ScoreEvent) throws -> AppendResult {
        guard held.isSameScore(as: event) else {
            throw HubError.eventIDInUse(event.id, stored: describe(held))
        }
        return AppendResult(event: event, outcome: .alreadyStored)
    }

    /// One {player, hole}'s history, its leaves and open discrepancy, as this transaction sees
    /// them (nil when it has no event): from the round's ledger, which the transaction takes on
    /// its first read (from the cache, brought up to date, or rebuilt) and grows with every
    /// insert, so a second history in the same transaction (a transcript naming several players)
    /// holds the first one's event too. The log has no index by {player, hole}: the ledger is
    /// the one place a history is read from.
    func keyHistory(of key: ScoreKey, round: Round, in store: HubStore, context: inout AppendContext) throws -> KeyHistory? {
        if context.ledger == nil {
            // Nothing is inserted before the ledger is taken, so the sequence read is the committed one.
            context.ledger = try takeLedger(of: round, at: try store.sequence, in: store)
        }
        return context.ledger?.ledger.keyHistory(of: key)
    }

    /// The round in play at the committed change `sequence`: as cached when the cache is at that
    /// sequence (no query), else its status and selected hole read again (or all of it, for
    /// another round).
    private func cachedRoundInPlay(_ store: HubStore, at sequence: Int) throws -> RoundInPlayCache {
        let cached = roundInPlayCache.withLockedValue { $0 }
        if let cached, cached.sequence == sequence { return cached }
        guard let header = try store.roundInPlayHeader() else { throw HubError.noActiveRound }
        let fresh: RoundInPlayCache
        if let cached, cached.round.id.uuidString == header.id {
            let round = Round(id: cached.round.id, course: cached.course, players: cached.round.players,
                              status: header.status, selectedHole: header.selectedHole, createdAt: cached.round.createdAt)
            fresh = RoundInPlayCache(round: round, course: cached.course, sequence: sequence, playerIDs: cached.playerIDs)
        } else {
            guard let loaded = try store.roundInPlay() else { throw HubError.noActiveRound }
            fresh = RoundInPlayCache(round: loaded, course: try Course(name: loaded.courseName, holes: loaded.holes), sequence: sequence)
        }
        roundInPlayCache.withLockedValue { $0 = fresh }
        return fresh
    }

    /// After a commit: the round in play as it left it, at the sequence it bumped to.
    private func keepRoundInPlay(_ round: Round, at sequence: Int) {
        roundInPlayCache.withLockedValue { cache in
            guard let current = cache, current.round.id == round.id, current.sequence < sequence else { return }
            cache = RoundInPlayCache(round: round, course: current.course, sequence: sequence, playerIDs: current.playerIDs)
        }
    }

}
