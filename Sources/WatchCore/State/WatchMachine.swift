import Foundation
import HyzerKit

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
        case .snapshot(let snapshot): return receive(&state, snapshot, env)
        case .snapshotUnreadable(let reason):
            state.snapshotProblem = reason
            return []
        case .heartbeat(let sequence):
            if let sequence, sequence == state.snapshot?.sequence { state.freshAt = env.now }
            return []
        case .reachability(let reachable):
            state.reachable = reachable
            return []
        case .pendingTransfers(let count):
            state.pendingTransfers = count
            return []
        case .rejected(let rejection):
            state.banner = Banner(text: "Not accepted: \(rejection.message)", style: .failure,
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
        case .leaderboard:
            let rows = state.round?.standings.count ?? 0
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
            state.crown.reset()
            state.screen = .crown(CrownEntry(playerID: standing.playerID, playerName: standing.name, hole: hole, par: par, value: par))
            return [.announce("Score for \(standing.name). Current value \(par). Use Digital Crown to adjust. Double tap to save.")]
        case .crown:
            return WatchLayout.saveButton(size: env.size).contains(point) ? save(&state, env) : []
        }
    }

    private static func back(_ state: inout WatchState) -> [WatchEffect] {
        guard case .crown = state.screen else { return [] }
        state.crown.reset()
        state.screen = .leaderboard
        return []
    }

    private static func save(_ state: inout WatchState, _ env: WatchEnvironment) -> [WatchEffect] {
        guard case .crown(let entry) = state.screen, let round = state.round else { return [] }
        let event: ScoreEvent
        do {
            event = try ScoreEvent(
                id: env.makeID(), roundID: round.id, playerID: entry.playerID, hole: entry.hole, strokes: entry.value,
                reportedByPlayerID: state.wearerID ?? entry.playerID, deviceID: state.deviceID, source: .crown, createdAt: env.now)
        } catch {
            return reduce(&state, .saveFailed(error.description), env)
        }
        state.crown.reset()
        state.screen = .leaderboard
        state.pendingTransfers += 1
        state.banner = Banner(text: "Saved \(entry.playerName) \(entry.value)", style: .success,
                              until: env.now.addingTimeInterval(savedBannerDuration))
        return [.enqueue(event)] + pulse(&state, .success, value: entry.value, env)
            + [.announce("Saved. \(entry.playerName), \(entry.value) on hole \(entry.hole).")]
    }

    // MARK: Phone

    private static func receive(_ state: inout WatchState, _ snapshot: StandingsSnapshot, _ env: WatchEnvironment) -> [WatchEffect] {
        guard snapshot.supersedes(state.snapshot) else { return [] }
        let previous = state.snapshot
        let fresh = min(env.now, env.hubTimeToWatchTime(snapshot.lastUpdatedAt))
        state.freshAt = max(state.freshAt ?? fresh, fresh)
        state.snapshotProblem = nil
        state.snapshot = snapshot
        guard previous?.sequence != snapshot.sequence || previous?.hubID != snapshot.hubID else { return [] }

        if case .crown(let entry) = state.screen, snapshot.round?.status.acceptsScores != true
            || snapshot.round?.standings.contains(where: { $0.playerID == entry.playerID }) != true {
            state.screen = .leaderboard
        }
        let rows = snapshot.round?.standings.count ?? 0
        state.scrollRow = min(state.scrollRow, max(0, rows - WatchLayout.visibleRows(size: env.size)))

        guard let new = snapshot.round else { return [] }
        var effects: [WatchEffect] = []
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
