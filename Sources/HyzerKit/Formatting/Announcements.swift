import Foundation

/// What the faces say out loud (the watch's VoiceOver, the phone page's live region): one wording
/// for both, so the phone and the watch announce a change in the same words.
public enum Announcements {
    /// What changed between two standings of one round, said briefly: who moved where, whose
    /// score changed. Other devices' discrepancies are not said: the spec alerts only the
    /// organizer (on the phone); a wearer sees the row's quiet badge come and go, and a dispute
    /// this watch's own score opened is said by its ack. Nil when nothing a wearer hears changed.
    public static func standingsChange(from old: RoundSnapshot, to new: RoundSnapshot) -> String? {
        let before = Dictionary(old.standings.map { ($0.playerID, $0) }, uniquingKeysWith: { a, _ in a })
        var said: [String] = []
        if new.currentHole != old.currentHole { said.append("Hole \(new.currentHole).") }
        for standing in new.standings {
            guard let was = before[standing.playerID] else {
                said.append("\(standing.name) joined.")
                continue
            }
            let place = standing.position.map { (standing.tied ? "tied " : "") + ScoreFormat.spokenOrdinal($0) }
            let score = ScoreFormat.spokenRelativeToPar(standing.scoreRelativeToPar)
            if standing.position != was.position || standing.tied != was.tied, let place {
                let wasBetter = (was.position ?? Int.max) < (standing.position ?? Int.max)
                let verb = was.position == nil ? "is" : wasBetter ? "drops to" : standing.position == was.position ? "is now" : "moves up to"
                said.append("\(standing.name) \(verb) \(place), \(score).")
            } else if standing.scoreRelativeToPar != was.scoreRelativeToPar || standing.holesPlayed != was.holesPlayed {
                said.append("\(standing.name), \(score).")
            }
        }
        return said.isEmpty ? nil : said.joined(separator: " ")
    }

    /// A score entered on this device: "Score recorded, Ann, four, one over par. Hole 3."
    public static func scoreSaved(name: String, strokes: Int, relativeToPar: Int, hole: Int, corrected: Bool) -> String {
        "\(corrected ? "Score corrected" : "Score recorded"), \(name), \(ScoreFormat.spokenNumber(strokes)), \(ScoreFormat.spokenHoleRelative(relativeToPar)). Hole \(hole)."
    }
}
