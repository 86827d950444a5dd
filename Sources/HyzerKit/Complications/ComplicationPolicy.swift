import Foundation

/// When the phone spends one of the watch's complication transfers (50 a day on a real watch).
///
/// The rule (`worthwhile`, the default), per watch:
/// - the round's finish: always (the final place is what a glance after the round wants);
/// - the hole changing (everyone has a score for the one before): once per hole, carrying every
///   change of that hole at once;
/// - the wearer's place changing in the middle of a hole: once per hole, the first time;
/// - anything else (a score that moves nobody, a second move on the same hole, another player's
///   change) waits: the next transfer carries the net content. Nothing is sent when the content
///   equals what the watch was last sent.
///
/// - the wearer's last hole scored (the round's current hole stays on the last one, so no hole
///   change says it).
///
/// The arithmetic: at most 2 a hole, the wearer's last hole and the finish: 2 × 18 + 2 = 38 for an
/// 18-hole round, 12 under the 50 a day (docs/HANDOFF.md has the figures measured on real rounds).
///
/// While the watch app is in the foreground (it says so in its heartbeats) nothing is spent: the
/// app reloads its complications itself, for free (`shownByApp`).
///
/// `everyChange` is the naive app, kept to rehearse what it does to the budget: one transfer for
/// every standings change (every score), whether or not the face would show anything new.
public struct ComplicationPolicy: Sendable, Hashable {
    public enum Mode: String, Sendable, Hashable, CaseIterable {
        case worthwhile
        case everyChange = "every-change"
        /// No complication transfers at all.
        case off
    }

    /// Why a transfer was spent.
    public enum Reason: String, Sendable, Hashable, Codable, CaseIterable {
        /// The first content this phone sends this watch.
        case first
        case roundFinished
        case holeChanged
        case positionChanged
        /// `every-change`: the standings changed.
        case changed
    }

    public let mode: Mode
    /// What the watch was last sent.
    public private(set) var lastSent: ComplicationContent?
    /// The hole on which a mid-hole place change was already sent.
    private var midHoleSpentOn: Int?
    /// The newest content of the round in play, sent or not.
    private var latest: ComplicationContent?

    public init(mode: Mode = .worthwhile) { self.mode = mode }

    /// Whether `next` is worth a transfer now, and why; a transfer is taken as sent (the next
    /// decision compares with it). A round that disappears from the standings (finished on the
    /// phone) is sent as the last content marked final, and stays until another round starts.
    public mutating func consider(_ next: ComplicationContent) -> (content: ComplicationContent, reason: Reason)? {
        var next = next
        if next.hasRound {
            latest = next
        } else if let last = lastSent, last.hasRound {
            // The round finished: its last standings (with what waited to be sent), as final. The
            // final place stays on the face until another round starts.
            guard !last.finished, var final = latest else { return nil }
            final.finished = true
            next = final
        }
        let reason: Reason? = switch mode {
        case .off: nil
        case .everyChange: lastSent == nil ? .first : .changed
        case .worthwhile: next == lastSent ? nil : worthwhile(next)
        }
        guard let reason else { return nil }
        if reason == .positionChanged { midHoleSpentOn = next.currentHole }
        lastSent = next
        return (next, reason)
    }

    /// The watch app is in the foreground and reloads its complications itself (free): what it
    /// shows is `content`, and the next transfer is judged against it.
    public mutating func shownByApp(_ content: ComplicationContent) {
        if content.hasRound {
            latest = content
        } else if lastSent?.finished == true {
            return  // the app keeps the final place too
        }
        lastSent = content
    }

    private func worthwhile(_ next: ComplicationContent) -> Reason? {
        guard let last = lastSent else { return .first }
        if next.finished, !last.finished { return .roundFinished }
        if next.hasRound != last.hasRound || next.currentHole != last.currentHole { return .holeChanged }
        // The wearer's last hole: the round's current hole stays the last one, so this is the
        // hole change that never comes.
        if next.holesPlayed == next.holeCount, last.holesPlayed < last.holeCount { return .holeChanged }
        let moved = next.playerID != last.playerID || next.position != last.position || next.tied != last.tied
        if moved, midHoleSpentOn != next.currentHole { return .positionChanged }
        return nil
    }
}
