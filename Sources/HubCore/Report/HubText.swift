import Foundation
import HyzerKit

/// The hub's human-readable output. Each function returns the text a command prints.
public enum HubText {
    public static func courses(_ courses: [Course]) -> String {
        let width = max(6, courses.map { columns($0.name) }.max() ?? 0)
        var lines = ["\(pad("COURSE", width))  HOLES  PAR"]
        for course in courses {
            lines.append("\(pad(course.name, width))  \(pad("\(course.holeCount)", 5))  \(course.totalPar)")
        }
        return lines.joined(separator: "\n")
    }

    public static func roundStarted(_ round: Round) -> String {
        let names = round.players.map { $0.isGuest ? "\($0.name) (guest)" : $0.name }
        return "Started a round on \(round.courseName) (\(ListText.count(round.holeCount, "hole"))) with \(ListText.joined(names)). "
            + "\(ScoreFormat.holeProgress(current: 1, of: round.holeCount))."
    }

    /// With what a forced finish left open: the score the standings count for each disputed hole.
    public static func roundFinished(_ round: Round, openDiscrepancies: [Discrepancy] = [], counted: [ScoreKey: ScoreEvent] = [:]) -> String {
        let left = openDiscrepancies.map { discrepancy in
            let counts = counted[discrepancy.key].map { " (\($0.strokes) counts)" } ?? ""
            return "\(round.player(discrepancy.playerID)?.name ?? discrepancy.playerID), hole \(discrepancy.hole)\(counts)"
        }
        guard !left.isEmpty else { return "Finished the round on \(round.courseName)." }
        return "Finished the round on \(round.courseName), with "
            + (left.count == 1 ? "a discrepancy" : "\(left.count) discrepancies") + " left open: " + left.joined(separator: "; ")
            + ". A finished round still takes a resolution: hyzer-hub discrepancies lists " + (left.count == 1 ? "it." : "them.")
    }

    public static func holeMoved(_ round: Round, to hole: Int) -> String {
        "Now on \(ScoreFormat.holeProgress(current: hole, of: round.holeCount)) at \(round.courseName)."
    }

    /// The final standings of a finished round, from its log.
    public static func finalStandings(of round: Round, events: [ScoreEvent]) -> String {
        table(RoundSnapshot(round: round, events: events))
    }

    /// The phone's history, newest first, a line each: "2026-11-28  Maple Hill (18 holes, 16
    /// players): Missy Gannon and Paige Pierce tied first at -6; you (Jake) finished tied 4th at
    /// -3" (the page's words), dated the day the round was started in this machine's time zone.
    public static func history(_ rounds: [FinishedRound], timeZone: TimeZone = .current) -> String {
        guard !rounds.isEmpty else { return "No finished rounds yet." }
        return rounds.map { finished in
            let round = finished.round, date = day(finished.createdAt, timeZone)
            let leaders = round.standings.filter { $0.position == 1 }
            let won = leaders.first.map { leader in
                (leaders.count == 1 ? "\(leader.name) won" : "\(ListText.joined(leaders.map(\.name))) tied first")
                    + " at \(ScoreFormat.relativeToPar(leader.scoreRelativeToPar))"
            } ?? "no scores"
            let you = round.standings.first { $0.playerID == finished.you && $0.position != nil && $0.position != 1 }.map {
                "; you (\($0.name)) finished \($0.tied ? "tied " : "")\(ScoreFormat.ordinal($0.position ?? 0)) at \(ScoreFormat.relativeToPar($0.scoreRelativeToPar))"
            } ?? ""
            let disputed = round.standings.filter(\.discrepancy).count
            let open = disputed == 0 ? "" : " (\(disputed == 1 ? "a discrepancy" : "\(disputed) players' discrepancies") open: hyzer-hub discrepancies)"
            return "\(date)  \(round.courseName) (\(ListText.count(round.holeCount, "hole")), \(ListText.count(round.standings.count, "player"))): \(won)\(you)\(open)"
        }.joined(separator: "\n")
    }

    /// Finished rounds' open discrepancies, each round named so `resolve --round` can settle them:
    /// "Willow Creek, 2026-11-28 (round 4F2A9C1E): Jake, hole 1: …".
    public static func finishedDiscrepancies(_ rounds: [(round: Round, discrepancies: [Discrepancy])], settledBy: (Round) -> String?,
                                             timeZone: TimeZone = .current) -> String {
        rounds.map { round, open in
            "\(round.courseName), \(day(round.createdAt, timeZone)) (round \(short(round.id))):\n"
                + discrepancies(open, round: round, settledBy: settledBy(round), naming: true)
        }.joined(separator: "\n")
    }

    /// "2026-11-28": the day a round was started, in `timeZone`.
    static func day(_ date: Date, _ timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let day = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", day.year ?? 0, day.month ?? 0, day.day ?? 0)
    }

    /// The standings table; `snapshot.round == nil` reads "No active round".
    public static func standings(_ snapshot: StandingsSnapshot) -> String {
        guard let round = snapshot.round else { return "No active round." }
        return table(round)
    }

    static func table(_ round: RoundSnapshot) -> String {
        let width = max(6, round.standings.map { columns($0.name) }.max() ?? 0)
        var lines = [
            // A finished round is on no hole (its first hole not scored by all read "Hole 1 of 18").
            round.status == .completed ? "\(round.courseName) · Final · \(ListText.count(round.holeCount, "hole"))"
                : "\(round.courseName) · \(ScoreFormat.holeProgress(current: round.currentHole, of: round.holeCount)) · \(round.status.displayName)",
            "POS  \(pad("PLAYER", width))  SCORE  THRU  STROKES",
        ]
        for standing in round.standings {
            let thru = standing.holesPlayed == 0 ? "-" : "\(standing.holesPlayed)"
            let score = standing.holesPlayed == 0 ? "-" : ScoreFormat.relativeToPar(standing.scoreRelativeToPar)
            let flag = standing.discrepancy ? "  (discrepancy open)" : ""
            lines.append("\(pad(ScoreFormat.position(of: standing), 3))  \(pad(standing.name, width))  \(pad(score, 5))  \(pad(thru, 4))  \(standing.totalStrokes)\(flag)")
        }
        return lines.joined(separator: "\n")
    }

    /// What a score command did, and what it left: the strokes that count, and who disagrees.
    /// `settledBy`: who settles a discrepancy when it is not this phone.
    public static func recorded(_ result: AppendResult, round: Round, settledBy: String? = nil) -> String {
        let event = result.event
        let name = round.player(event.playerID)?.name ?? event.playerID
        let strokes = "\(event.strokes) on hole \(event.hole)" + (round.holes.first { $0.number == event.hole }.map {
            " (par \($0.par), \(ScoreFormat.relativeToPar(event.strokes - $0.par)))"
        } ?? "")
        var text: String
        switch result.outcome {
        case .unchanged:
            text = "Nothing recorded: \(name) already has \(strokes), as \(claim(event, round: round, saying: false))."
        case .alreadyStored:
            text = "Recorded \(name): \(strokes). It was already stored; nothing changed."
        case .stored(.resolution):
            text = "Resolved \(name): \(strokes)."
        case .stored(let classification):
            text = event.supersedesEventID == nil ? "Recorded \(name): \(strokes)." : "Corrected \(name) to \(strokes)."
            if classification == .silentMerge { text += " Same as the score that counts: merged, nothing changes." }
        }
        if let state = result.state, let discrepancy = Discrepancy(state) {
            let others = discrepancy.events.filter { $0.strokes != event.strokes }.map { claim($0, round: round) }
            text += " Disputed: \(ListText.joined(others)); \(discrepancy.counted.strokes) counts until "
                + (settledBy.map { "\($0) settles it." } ?? "it is settled: hyzer-hub resolve \"\(name)\" STROKES --hole \(event.hole)")
        }
        return text
    }

    /// "Sarah says 3 (watch-sarah)", or with `saying: false` "reported by Sarah (watch-sarah)".
    /// A resolution is a ruling, not a player's claim: "Jake ruled 4 (phone)".
    static func claim(_ event: ScoreEvent, round: Round, saying: Bool = true, note: String = "") -> String {
        let who = round.player(event.reportedByPlayerID)?.name ?? event.reportedByPlayerID
        let says = event.source == .resolution ? "\(who) ruled \(event.strokes)" : "\(who) says \(event.strokes)"
        return (saying ? says : event.source == .resolution ? "ruled by \(who)" : "reported by \(who)") + " (\(event.deviceID)\(note))"
    }

    public static func voice(_ outcome: VoiceOutcome, round: Round) -> String {
        var lines: [String] = []
        if outcome.dryRun {
            lines.append("Dry run, nothing recorded. Hole \(outcome.hole)\(outcome.par.map { " (par \($0))" } ?? ""):")
            for entry in outcome.wouldRecord {
                lines.append("Would record \(entry.player.name): \(entry.strokes). \(voiceReason(entry, par: outcome.par))")
            }
        }
        for result in outcome.recorded {
            var line = recorded(result, round: round)
            if let entry = outcome.parse.entries.first(where: { $0.player.id == result.event.playerID }), !plainlySaid(entry) {
                line += " \(voiceReason(entry, par: outcome.par))"
            }
            lines.append(line)
        }
        for refused in outcome.refused { lines.append("Not recorded: \(refused.entry.heard) \(refused.entry.said): \(sentence(refused.reason))") }
        for suggestion in outcome.parse.suggestions {
            lines.append("Not recorded: \"\(suggestion.heard)\" \(suggestion.said): did you mean \(suggestion.player.name)? "
                + "(\(suggestion.evidence.description), \(Int((suggestion.confidence * 100).rounded())) % match; say it again or use: "
                + "hyzer-hub score \"\(suggestion.player.name)\" \(suggestion.strokes) --hole \(outcome.hole))")
        }
        for problem in outcome.parse.problems { lines.append("Not recorded: \(sentence(problem.reason))") }
        if outcome.parse.items.isEmpty {
            lines.append("Heard no names or scores in \"\(outcome.transcript)\". Say it like: \"Mike 3, Jake four, Sarah birdie\".")
        }
        return lines.joined(separator: "\n")
    }

    /// Whether the entry was said as the player's name and a plain number (nothing to explain).
    static func plainlySaid(_ entry: VoiceParseResult.Entry) -> Bool {
        entry.evidence.kind == .name && entry.evidence.confidence == 1
            && (Int(entry.said) == entry.strokes && !entry.said.hasPrefix("+") || entry.said == ScoreFormat.spokenNumber(entry.strokes))
    }

    /// Heard "Sara birdie": sounds like Sarah; birdie on a par 3 is 2.
    static func voiceReason(_ entry: VoiceParseResult.Entry, par: Int?) -> String {
        var why = "Heard \"\(entry.heard) \(entry.said)\": \(entry.evidence.description)"
        let signed = entry.said.hasPrefix("-") || entry.said.hasPrefix("+")
        if Int(entry.said) == nil || signed, entry.said != ScoreFormat.spokenNumber(entry.strokes) {
            why += "; \"\(entry.said)\" is \(entry.strokes)" + (par.map { " on a par \($0)" } ?? "")
        }
        return why + "."
    }

    public static func events(_ events: [ScoreEvent], round: Round?) -> String {
        guard let round else { return "No rounds yet." }
        guard !events.isEmpty else { return "No scores yet in the round on \(round.courseName)." }
        let names = Dictionary(round.players.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        let width = max(6, round.players.map { columns($0.name) }.max() ?? 0)
        var lines = [[pad("#", 4), pad("AT", 24), pad("PLAYER", width), "HOLE", "STROKES", pad("SOURCE", 10), pad("DEVICE", 12), pad("ID", 8), "SUPERSEDES"]
            .joined(separator: "  ")]
        for (index, event) in events.enumerated() {
            lines.append([
                pad("\(index + 1)", 4), pad(HyzerJSON.formatTimestamp(event.createdAt), 24), pad(names[event.playerID] ?? event.playerID, width),
                pad("\(event.hole)", 4), pad("\(event.strokes)", 7), pad(event.source.rawValue, 10), pad(event.deviceID, 12),
                pad(short(event.id), 8), event.supersedesEventID.map(short) ?? "",
            ].joined(separator: "  "))
        }
        return lines.joined(separator: "\n")
    }

    /// `settledBy`: who settles them when it is not this phone (a shared round's organizer).
    /// `naming`: the settle hint names the round (`--round`), for one that is not the default.
    public static func discrepancies(_ discrepancies: [Discrepancy], round: Round, settledBy: String? = nil, naming: Bool = false) -> String {
        guard !discrepancies.isEmpty else { return "No open discrepancies." }
        let names = Dictionary(round.players.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        return discrepancies.map { discrepancy in
            let name = names[discrepancy.playerID] ?? discrepancy.playerID
            // Every score in play: the first counts until the discrepancy is settled.
            let claims = discrepancy.events.enumerated().map { index, event in
                claim(event, round: round, note: index > 0 ? "" : ", counts for now")
            }
            return "\(name), hole \(discrepancy.hole): \(claims.joined(separator: ", ")). "
                + (settledBy.map { "\($0.prefix(1).uppercased() + $0.dropFirst()) settles it." }
                    ?? "Settle with: hyzer-hub resolve \"\(name)\" STROKES --hole \(discrepancy.hole)" + (naming ? " --round \(short(round.id))" : ""))
        }.joined(separator: "\n")
    }

    static func pad(_ text: String, _ width: Int) -> String {
        let used = columns(text)
        return used >= width ? text : text + String(repeating: " ", count: width - used)
    }

    /// The columns `text` takes in a terminal: two for East Asian wide and full-width characters
    /// and for emoji, one for any other character (accents included), so "李小龙" lines up with "Ann".
    static func columns(_ text: String) -> Int {
        text.reduce(0) { width, character in
            guard let scalar = character.unicodeScalars.first else { return width }
            let wide: Bool = switch scalar.value {
            case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
                 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD: true
            default: scalar.properties.isEmojiPresentation
            }
            return width + (wide ? 2 : 1)
        }
    }

    /// `text` ending in exactly one full stop.
    public static func sentence(_ text: String) -> String { text.hasSuffix(".") ? text : text + "." }

    /// An id's last eight hex digits: the hub's ids are time-ordered (version 7), so their first
    /// eight are the same for every event of the same minute; the end is random in any UUID.
    static func short(_ id: UUID) -> String { String(id.uuidString.suffix(8)) }
}
