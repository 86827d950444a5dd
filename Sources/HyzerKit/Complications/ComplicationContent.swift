import Foundation

/// What Hyzer's complications on the watch face show: one player's place in the round (the
/// wearer's, or the leader's when the watch has no wearer). The phone sends it in a complication
/// transfer; the watch app makes it from its own standings while it is in front (a reload from an
/// app in the foreground costs no budget). The families are read from it (`inline`, `corner`, …).
public struct ComplicationContent: Sendable, Hashable, Codable {
    /// The player shown; nil when there is no round (or nobody in it).
    public var playerID: PlayerID?
    public var name: String?
    /// Competition rank; nil while the player has no holes.
    public var position: Int?
    public var tied: Bool
    public var scoreRelativeToPar: Int
    public var holesPlayed: Int
    public var holeCount: Int
    /// The round's current hole (0 when there is no round).
    public var currentHole: Int
    /// The round is over: the standings are its final ones.
    public var finished: Bool

    public init(playerID: PlayerID?, name: String?, position: Int?, tied: Bool, scoreRelativeToPar: Int, holesPlayed: Int,
                holeCount: Int, currentHole: Int, finished: Bool) {
        self.playerID = playerID
        self.name = name
        self.position = position
        self.tied = tied
        self.scoreRelativeToPar = scoreRelativeToPar
        self.holesPlayed = holesPlayed
        self.holeCount = holeCount
        self.currentHole = currentHole
        self.finished = finished
    }

    /// Nothing to show: no round in play.
    public static let noRound = ComplicationContent(playerID: nil, name: nil, position: nil, tied: false, scoreRelativeToPar: 0,
                                                    holesPlayed: 0, holeCount: 0, currentHole: 0, finished: false)

    /// `wearer`'s line in `round` (the leader's when `wearer` is nil or not in the round).
    public init(round: RoundSnapshot?, wearer: PlayerID?, finished: Bool = false) {
        guard let round, let standing = round.standings.first(where: { $0.playerID == wearer }) ?? round.standings.first else {
            self = .noRound
            return
        }
        self.init(playerID: standing.playerID, name: standing.name, position: standing.position, tied: standing.tied,
                  scoreRelativeToPar: standing.scoreRelativeToPar, holesPlayed: standing.holesPlayed, holeCount: round.holeCount,
                  currentHole: round.currentHole, finished: finished)
    }

    public var hasRound: Bool { playerID != nil }

    // MARK: The families (watchOS's accessory families)

    /// "2nd", "T2" when shared, "–" before the first hole.
    public var place: String {
        guard let position else { return "–" }
        return ScoreFormat.place(position, tied: tied)
    }

    /// Inline (one line above the time): "2nd · -3 · thru 7", "Final · 2nd · -3", "Jake · no holes
    /// yet", "Hyzer · no round".
    public var inline: String {
        guard hasRound, let name else { return "Hyzer · no round" }
        guard position != nil else { return finished ? "Final · \(name) · no holes" : "\(name) · no holes yet" }
        let toPar = ScoreFormat.relativeToPar(scoreRelativeToPar)
        return finished ? "Final · \(place) · \(toPar)" : "\(place) · \(toPar) · thru \(holesPlayed)"
    }

    /// `inline` and its shorter forms, longest first: where a family's text does not fit (large
    /// text, a small watch) the face shows the first that does, as ClockKit's text providers offer
    /// a short text, rather than cutting the line before the part that says what it is.
    public var inlineForms: [String] {
        guard hasRound, position != nil else { return [inline] }
        let toPar = ScoreFormat.relativeToPar(scoreRelativeToPar)
        return [inline, "\(place) · \(toPar)"]
    }

    /// Corner: the score to par ("-3"); "–" with no round.
    public var corner: String { hasRound ? ScoreFormat.relativeToPar(scoreRelativeToPar) : "–" }

    /// Circular: the position ("2", "T2"), with a gauge of holes played (`gauge`).
    public var circular: String {
        guard hasRound, position != nil else { return "–" }
        return ScoreFormat.position(position, tied: tied)
    }

    /// The circular gauge: the part of the round played, 0…1.
    public var gauge: Double { holeCount > 0 ? min(1, Double(holesPlayed) / Double(holeCount)) : 0 }

    /// Rectangular: a heading and a line ("2nd · Jake", "-3 · thru 7 of 18"); the face adds how
    /// old it is. The longest of `rectangularForms`.
    public var rectangular: [String] { rectangularForms.map { $0[0] } }

    /// Each line of the rectangular family with its shorter forms, longest first (see
    /// `inlineForms`): "T2 · Jake Smith" then "T2 · Jake"; "-3 · thru 7 of 18", "-3 · thru 7",
    /// then "-3".
    public var rectangularForms: [[String]] {
        guard hasRound, let name else { return [["Hyzer"], ["No round"]] }
        guard position != nil else {
            return [[name], finished ? ["Final · no holes played", "Final"] : ["\(holeCount) holes to play", "\(holeCount) holes"]]
        }
        let firstName = name.split(separator: " ").first.map(String.init) ?? name
        let toPar = ScoreFormat.relativeToPar(scoreRelativeToPar)
        let heading = ["\(place) · \(name)"] + (firstName == name ? [] : ["\(place) · \(firstName)"])
        let detail = finished ? ["Final · \(toPar)"] : ["\(toPar) · thru \(holesPlayed) of \(holeCount)", "\(toPar) · thru \(holesPlayed)", toPar]
        return [heading, detail]
    }

    /// What VoiceOver says for the whole line: "Jake, second, 3 under par, thru 7 of 18 holes".
    public var spoken: String {
        guard hasRound, let name else { return "No round" }
        guard let spokenPlace else { return "\(name), \(finished ? "final, no holes played" : "no holes yet")" }
        return "\(name), \(spokenPlace), \(spokenToPar), \(finished ? "final" : "thru \(holesPlayed) of \(holeCount) holes")"
    }

    /// "second", "tied second"; nil before the first hole.
    public var spokenPlace: String? { position.map { (tied ? "tied " : "") + ScoreFormat.spokenOrdinal($0) } }

    /// "3 under par", "even par", "2 over par".
    public var spokenToPar: String {
        scoreRelativeToPar == 0 ? "even par" : scoreRelativeToPar < 0 ? "\(-scoreRelativeToPar) under par" : "\(scoreRelativeToPar) over par"
    }
}
