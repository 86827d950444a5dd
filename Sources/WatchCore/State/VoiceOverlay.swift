import Foundation
import HyzerKit

/// The voice confirmation overlay (seeds/001, component 4): the scores a transcript gave, one row
/// each, auto-saved 1.5 s after they appear unless a row is tapped to correct it. Turning the
/// crown then adjusts that row's score and starts the 1.5 s again.
public struct VoiceOverlay: Sendable, Hashable {
    public static let autoCommitAfter: TimeInterval = 1.5

    public struct Row: Sendable, Hashable {
        /// The name and score as heard ("Sara", "birdie").
        public let heard: String
        public let said: String
        /// The player this row scores; nil while unresolved (shown with "?").
        public var player: Player?
        /// Who an unresolved name could be: tapping the row picks the next of them.
        public let candidates: [Player]
        public var value: Int?
        /// Why the row cannot be saved as heard (cleared once a person corrects it).
        public var problem: String?
        /// The score the hole already has for this player, and who gave it: saving replaces it
        /// (this watch's own) or disputes it (another device's).
        public var existingStrokes: Int? = nil
        public var existingBy: Scorer? = nil

        /// A score was said but cannot be a score ("Jake 12").
        public var scoreRefused: Bool { value == nil && !said.isEmpty }

        /// Saved on commit: a player, a score, nothing left in doubt.
        public var isReady: Bool { player != nil && value != nil && problem == nil }
    }

    public let transcript: String
    public let hole: Int
    public let par: Int
    public var rows: [Row]
    /// The row being corrected with the crown.
    public var selected: Int?
    /// The first row on screen, when there are more rows than fit at 44 pt (the crown scrolls
    /// them while no row is being corrected).
    public var firstRow = 0
    /// When the scores save by themselves; nil while a tapped row waits for the crown, or when
    /// nothing was understood.
    public var deadline: Date?

    /// Some row would be saved: Save is offered (with none, it would save nothing and close).
    public var canSave: Bool { !failed && rows.contains(where: \.isReady) }

    /// A name heard unsure ("Jake?") waits for a tap, as the phone page's overlay does: the 1.5 s do
    /// not run while one does, so its score is never dropped unseen (Save saves the others). A name
    /// that is no player's does not hold them.
    public var unsureNames: Bool { rows.contains { $0.player == nil && !$0.candidates.isEmpty } }

    /// When the scores save by themselves from `now`, if they do: some row is ready and no name is unsure.
    func countdown(from now: Date) -> Date? { canSave && !unsureNames ? now.addingTimeInterval(Self.autoCommitAfter) : nil }

    /// Nothing in the transcript could become a score: "Not understood. Try again?"
    public var failed: Bool { !rows.contains { $0.player != nil || !$0.candidates.isEmpty } }

    public init(transcript: String, hole: Int, par: Int, parse: VoiceParseResult, now: Date) {
        self.transcript = transcript
        self.hole = hole
        self.par = par
        rows = parse.items.map { item in
            var candidates: [Player] = []
            switch item.resolution {
            case .suggestion(let player, _): candidates = [player]
            case .ambiguous(let players, _): candidates = players
            case .player, .unknown, .noName: break
            }
            return Row(heard: item.heard, said: item.said, player: item.player, candidates: candidates, value: item.strokes, problem: item.problem)
        }
        deadline = nil
        deadline = countdown(from: now)
    }

    /// Marks rows that name the same player as `index` as named twice (not saved unless tapped).
    mutating func holdBackOthers(naming player: Player, except index: Int) {
        for other in rows.indices where other != index && rows[other].player?.id == player.id && rows[other].problem == nil {
            rows[other].problem = "\(player.name) named twice"
        }
    }

    /// How much of the countdown is left (1 → 0), or nil when it is not running.
    public func remaining(at now: Date) -> Double? {
        deadline.map { min(1, max(0, $0.timeIntervalSince(now) / Self.autoCommitAfter)) }
    }
}
