import Foundation
import HyzerKit
import HyzerLink

/// The watch: `state + input → (new state, effects)`. Pure; the shell performs the effects.
public enum WatchMachine {
    public static let savedBannerDuration: TimeInterval = 2
    public static let failureBannerDuration: TimeInterval = 5

    public static func reduce(_ state: inout WatchState, _ input: WatchInput, _ env: WatchEnvironment) -> [WatchEffect] {
        switch input {
        case .crown(let delta): return crown(&state, delta, env)
        case .tap(let point): return tap(&state, point, env)
        case .back: return back(&state)
        case .save: return save(&state, env)
        case .snapshot(let snapshot): return receive(&state, snapshot, pushed: false, env)
        case .pushed(let snapshot): return receive(&state, snapshot, pushed: true, env)
        case .pending(let scores):
            state.pendingScores = scores
            state.pendingTransfers = scores.count
            return []
        case .acked(let event, let classification): return acked(&state, event, classification, env)
        case .snapshotUnreadable(let reason):
            state.snapshotProblem = reason
            return []
        case .heartbeat(let sequence):
            if let sequence, sequence == state.snapshot?.sequence { state.freshAt = env.now }
            return []
        case .reachability(let reachable):
            state.reachable = reachable
            state.linkKnown = true
            return []
        case .pendingTransfers(let count):
            state.pendingTransfers = count
            return []
        case .rejected(let rejection):
            state.banner = Banner(text: "Not accepted: \(shortReason(rejection.reason))", style: .failure,
                                  until: env.now.addingTimeInterval(failureBannerDuration))
            return pulse(&state, .failure, value: nil, env) + [.announce("Score not accepted. \(rejection.message)")]
        case .pairingRefused(let reason):
            state.banner = Banner(text: "Phone refused pairing: \(reason)", style: .failure, until: env.now.addingTimeInterval(failureBannerDuration))
            return []
        case .saveFailed(let reason):
            state.banner = Banner(text: "Not saved: \(reason)", style: .failure, until: env.now.addingTimeInterval(failureBannerDuration))
            return pulse(&state, .failure, value: nil, env) + [.announce("Score not saved.")]
        }
    }

    // MARK: Hands

    private static func crown(_ state: inout WatchState, _ delta: Double, _ env: WatchEnvironment) -> [WatchEffect] {
        let detents = state.crown.detents(for: delta)
        guard detents != 0 else { return [] }
        switch state.screen {
        case .leaderboard, .final:
            let rows = (state.round ?? state.finishedRound)?.standings.count ?? 0
            let maxScroll = max(0, rows - WatchLayout.visibleRows(size: env.size))
            state.scrollRow = min(maxScroll, max(0, state.scrollRow - detents))
            return []
        case .crown(var entry):
            var effects: [WatchEffect] = []
            for _ in 0..<abs(detents) {
                let next = entry.value + detents.signum()
                if Strokes.allowed.contains(next) {
                    entry.value = next
                    effects += pulse(&state, .tick, value: next, env)
                } else {
                    effects += pulse(&state, .limit, value: entry.value, env)
                }
            }
            state.screen = .crown(entry)
            return effects
        }
    }

    private static func tap(_ state: inout WatchState, _ point: Point, _ env: WatchEnvironment) -> [WatchEffect] {
        switch state.screen {
        case .leaderboard:
            guard let round = state.round, round.status.acceptsScores,
                  let row = WatchLayout.row(at: point, state: state, size: env.size) else { return [] }
            let standing = round.standings[row]
            let hole = round.currentHole
            let par = round.par(ofHole: hole) ?? 3
            var entry = CrownEntry(playerID: standing.playerID, playerName: standing.name, hole: hole, par: par, value: par)
            // Re-scoring opens at the score the hole has and corrects it: this watch's own unsent
            // score if there is one (it reaches the hub first), else the hub's current score.
            if let own = state.pendingScores.last(where: { $0.playerID == standing.playerID && $0.hole == hole }) {
                (entry.value, entry.supersedes, entry.scoredBy, entry.scoredStrokes) = (own.strokes, own.id, "this watch", own.strokes)
            } else if let strokes = standing.currentHoleStrokes, let id = standing.currentHoleEventID {
                let device = standing.currentHoleDeviceID
                (entry.value, entry.supersedes, entry.scoredStrokes) = (strokes, id, strokes)
                entry.scoredBy = device == state.deviceID ? "this watch" : device
            }
            state.crown.reset()
            state.screen = .crown(entry)
            let already = entry.scoredStrokes.map { " Already scored \($0)\(entry.scoredBy.map { " by \($0)" } ?? "")." } ?? ""
            return [.announce("Score for \(standing.name).\(already) Current value \(entry.value). Use Digital Crown to adjust. Double tap to save.")]
        case .final:
            return []
        case .crown:
            return WatchLayout.saveButton(size: env.size).contains(point) ? save(&state, env) : []
        }
    }

    private static func back(_ state: inout WatchState) -> [WatchEffect] {
        switch state.screen {
        case .crown:
            state.crown.reset()
            state.screen = .leaderboard
        case .final:
            state.screen = .leaderboard  // "No active round", with the finished round's summary
        case .leaderboard:
            break
        }
        return []
    }

    private static func save(_ state: inout WatchState, _ env: WatchEnvironment) -> [WatchEffect] {
        guard case .crown(let entry) = state.screen, let round = state.round else { return [] }
        let event: ScoreEvent
        do {
            event = try ScoreEvent(
                id: env.makeID(), roundID: round.id, playerID: entry.playerID, hole: entry.hole, strokes: entry.value,
                supersedesEventID: entry.supersedes, reportedByPlayerID: state.wearerID ?? entry.playerID,
                deviceID: state.deviceID, source: .crown, createdAt: env.now)
        } catch {
            return reduce(&state, .saveFailed(error.description), env)
        }
        state.crown.reset()
        state.screen = .leaderboard
        state.pendingTransfers += 1
        state.pendingScores.append(event)
        let verb = entry.supersedes == nil ? "Saved" : "Corrected"
        state.banner = Banner(text: "\(verb) \(entry.playerName) \(entry.value)", style: .success,
                              until: env.now.addingTimeInterval(savedBannerDuration))
        return [.enqueue(event)] + pulse(&state, .success, value: entry.value, env)
            + [.announce("\(verb). \(entry.playerName), \(entry.value) on hole \(entry.hole).")]
    }

    /// The hub committed a score from this watch. A discrepancy (another device scored this hole
    /// differently) is said out loud; anything else was already "Saved".
    private static func acked(_ state: inout WatchState, _ event: ScoreEvent, _ classification: ScoreClassification?, _ env: WatchEnvironment) -> [WatchEffect] {
        state.pendingScores.removeAll { $0.id == event.id }
        state.pendingTransfers = state.pendingScores.count
        guard classification == .discrepancy else { return [] }
        let name = state.round?.standings.first { $0.playerID == event.playerID }?.name ?? "This score"
        state.banner = Banner(text: "Disputed: \(name) \(event.strokes)", style: .failure,
                              until: env.now.addingTimeInterval(failureBannerDuration))
        return pulse(&state, .notification, value: event.strokes, env)
            + [.announce("Discrepancy. \(name), hole \(event.hole): this watch says \(event.strokes), another device disagrees. The organizer settles it on the phone.")]
    }

    // MARK: Phone

    private static func receive(_ state: inout WatchState, _ snapshot: StandingsSnapshot, pushed: Bool, _ env: WatchEnvironment) -> [WatchEffect] {
        guard snapshot.supersedes(state.snapshot) else { return [] }
        let previous = state.snapshot
        // A push is news from the phone now; a file is as fresh as the hub says it was.
        let fresh = pushed ? env.now : min(env.now, env.hubTimeToWatchTime(snapshot.lastUpdatedAt))
        state.freshAt = max(state.freshAt ?? fresh, fresh)
        state.snapshotProblem = nil
        state.snapshot = snapshot
        resolveWearer(&state, env)
        guard previous?.sequence != snapshot.sequence || previous?.hubID != snapshot.hubID else { return [] }
        var effects: [WatchEffect] = []

        // The phone finished the round: show its final standings, say so, and keep them for the
        // "No active round" summary.
        if snapshot.round == nil, let last = previous?.round, previous?.hubID == snapshot.hubID {
            state.finishedRound = last
            state.screen = .final
            state.scrollRow = 0
            state.reshuffle = nil
            return pulse(&state, .notification, value: nil, env) + [.announce(finalAnnouncement(last))]
        }
        if snapshot.round != nil, case .final = state.screen { state.screen = .leaderboard }

        if case .crown(let entry) = state.screen, snapshot.round?.status.acceptsScores != true
            || snapshot.round?.standings.contains(where: { $0.playerID == entry.playerID }) != true {
            state.screen = .leaderboard
        }
        let rows = snapshot.round?.standings.count ?? 0
        state.scrollRow = min(state.scrollRow, max(0, rows - WatchLayout.visibleRows(size: env.size)))

        guard let new = snapshot.round else { return effects }
        if let old = previous?.round, old.id == new.id {
            let changes = StandingsChange.positionChanges(from: old.standings, to: new.standings)
            if !changes.isEmpty {
                let oldRows = Dictionary(old.standings.enumerated().map { ($1.playerID, $0) }, uniquingKeysWith: { a, _ in a })
                state.reshuffle = Reshuffle(
                    startedAt: env.now,
                    fromRow: oldRows,
                    movedUp: changes.mapValues(\.movedUp))
                effects += pulse(&state, .notification, value: nil, env)
            }
        }
        if previous?.round?.standings.map(\.scoreRelativeToPar) != new.standings.map(\.scoreRelativeToPar)
            || previous?.round?.standings.map(\.playerID) != new.standings.map(\.playerID) {
            effects.append(.announce(leaderboardAnnouncement(new)))
        }
        return effects
    }

    /// A rejection in a few words, for the banner (the announcement has the whole message).
    static func shortReason(_ reason: Rejection.Reason) -> String {
        switch reason {
        case .noActiveRound: "no round on the phone"
        case .wrongRound, .roundNotAcceptingScores: "round is over"
        case .unknownPlayer: "player not in round"
        case .unknownReporter: "wearer not in round"
        case .strokesOutOfRange: "strokes 1 to 10"
        case .holeOutOfRange: "no such hole"
        case .invalidCorrection: "score changed meanwhile"
        case .wrongDevice: "wrong device"
        case .invalidScore: "unreadable score"
        }
    }

    /// Matches `--wearer NAME` to a player of the round (any case), and scrolls to the wearer's row.
    private static func resolveWearer(_ state: inout WatchState, _ env: WatchEnvironment) {
        guard let name = state.wearerName, let standings = state.round?.standings else { return }
        guard let index = standings.firstIndex(where: { $0.name.lowercased() == name.lowercased() }) else {
            // Say so once per round rather than silently scoring as nobody.
            if state.wearerID == nil, state.wearerMissingIn != state.round?.id {
                state.wearerMissingIn = state.round?.id
                state.banner = Banner(text: "\(name) is not in this round", style: .failure, until: env.now.addingTimeInterval(failureBannerDuration))
            }
            return
        }
        let newlyFound = state.wearerID != standings[index].playerID
        state.wearerID = standings[index].playerID
        if newlyFound {
            let visible = WatchLayout.visibleRows(size: env.size)
            state.scrollRow = max(0, min(index - visible / 2, standings.count - visible))
        }
    }

    /// "Round finished on Maple Hill. Final standings. First, Jake, minus two. …"
    public static func finalAnnouncement(_ round: RoundSnapshot) -> String {
        "Round finished on \(round.courseName). Final standings. " + leaderboardAnnouncement(round).dropFirst("Leaderboard. ".count)
    }

    /// "Leaderboard. First, Jake, minus two. Second, Mike, minus one."
    public static func leaderboardAnnouncement(_ round: RoundSnapshot) -> String {
        let ranked = round.standings.map { standing -> String in
            guard let position = standing.position else { return "\(standing.name), no holes yet." }
            let place = ScoreFormat.spokenOrdinal(position).capitalized
            return "\(standing.tied ? "Tied \(place.lowercased())" : place), \(standing.name), \(ScoreFormat.spokenRelativeToPar(standing.scoreRelativeToPar))."
        }
        return (["Leaderboard."] + ranked).joined(separator: " ")
    }

    private static func pulse(_ state: inout WatchState, _ kind: HapticKind, value: Int?, _ env: WatchEnvironment) -> [WatchEffect] {
        state.pulse = HapticPulse(kind: kind, at: env.now)
        return [.haptic(kind, value: value)]
    }
}
