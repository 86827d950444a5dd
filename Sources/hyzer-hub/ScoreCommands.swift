import ArgumentParser
import Foundation
import HubCore
import HyzerKit

struct ScoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "score",
        abstract: "Record a tap score (strokes 1...10) for a player.",
        discussion: """
            The default hole is the current hole. To change a score this device already recorded, use \
            `correct`; the same strokes again record nothing. --device and --reported-by play another scorer's \
            device, e.g. to rehearse a discrepancy (--device watch-NAME is reported by that wearer).
            """
    )
    @ParentCommand var root: HyzerHub
    @Argument(help: "The player's name (any case; a first name works when it is unique; a near spelling is read as the player it is clearly like, and said).") var player: String
    @Argument(help: "Strokes, 1...10.") var strokes: Int
    @Option(help: "The hole (default: the current hole).") var hole: Int?
    @Option(help: "The device that reported the score, with no @ (default: this phone: \"phone\", or \"phone-<hub id>\" in a round shared through a cloud).")
    var device: String?
    @Option(name: .customLong("reported-by"), help: ArgumentHelp("The player whose device reported it.", valueName: "NAME"))
    var reportedBy: String?
    @Flag(help: jsonHelp) var json = false

    func run() throws {
        let hub = try root.openHub()
        let result = try hub.score(player: player, strokes: strokes, hole: hole, deviceID: device, reportedBy: reportedBy)
        try report(result, hub: hub, json: json, typed: player)
    }
}

struct CorrectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "correct",
        abstract: "Replace a score (appends a correction, never erases).",
        discussion: "The correction is a new event that supersedes this phone's own score for the hole (or, if it has none, the score that counts now, which disputes another device's score); the log keeps both. Strokes this phone already says, or that already count, record nothing. The message says what counts afterwards and who still disagrees (docs/SYNC.md, \"Which score counts\")."
    )
    @ParentCommand var root: HyzerHub
    @Argument(help: "The player's name.") var player: String
    @Argument(help: "The corrected strokes, 1...10.") var strokes: Int
    @Option(help: "The hole to correct.") var hole: Int
    @Option(help: "The device correcting its own score (default: this phone), as for score --device.") var device: String?
    @Option(name: .customLong("reported-by"), help: ArgumentHelp("The player whose device corrects it.", valueName: "NAME"))
    var reportedBy: String?
    @Flag(help: jsonHelp) var json = false

    func run() throws {
        let hub = try root.openHub()
        let result = try hub.correct(player: player, strokes: strokes, hole: hole, deviceID: device, reportedBy: reportedBy)
        try report(result, hub: hub, json: json, typed: player)
    }
}

struct ResolveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "Settle an open discrepancy with the agreed strokes.",
        discussion: """
            In the round in play, else the last round finished; --round names another finished round \
            whose discrepancy is still open (a late score from a phone that was offline can open one after \
            the next round started): hyzer-hub discrepancies lists them with their ids.
            """
    )
    @ParentCommand var root: HyzerHub
    @Argument(help: "The player's name.") var player: String
    @Argument(help: "The agreed strokes, 1...10.") var strokes: Int
    @Option(help: "The hole in dispute.") var hole: Int
    @Option(help: ArgumentHelp("The round: its id, or the last 8 or more hex digits of it.", valueName: "ID")) var round: String?
    @Flag(help: jsonHelp) var json = false

    func run() throws {
        let hub = try root.openHub()
        let result = try hub.resolve(player: player, strokes: strokes, hole: hole, round: round)
        try report(result, hub: hub, json: json, typed: player)
    }
}

struct VoiceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "voice",
        abstract: "Record scores from speech: \"Mike 3, Jake four\".",
        discussion: """
            Scores are digits, number words (and what recognizers write for them: "won", "to", "for", \
            "ate", "tree"), or golf words counted from the hole's par: ace, eagle, birdie, par, bogey, \
            double (bogey), triple, "one under", "two over". Strokes are 1 to 10.
            Names are matched to the round's players by name, first or last name, initials, common short \
            forms (Mike for Michael), and how they sound (Sara for Sarah); fillers ("um", "okay", "got a") \
            and possessives are ignored. A clear match (over 80 %) is recorded, a near one (50 to 80 %) is \
            answered "did you mean …?", a name two players fit equally is refused naming both.
            "Jake 4, sorry, Jake 5" and "Jake 4, make that 5" record 5. What is clear is recorded even when \
            the rest is not.
            Exit status: 0 when everything was recorded, 2 when only part was, 1 when nothing was \
            (with --dry-run: would be).
            """
    )
    @ParentCommand var root: HyzerHub
    @Argument(help: "The transcript, as a speech recognizer wrote it.") var transcript: String
    @Option(help: "The hole (default: the current hole).") var hole: Int?
    @Flag(name: .customLong("dry-run"), help: "Show what would be recorded, and why each name matched, without recording anything.")
    var dryRun = false
    @Flag(help: "Print what was recorded, suggested and refused, and how each name matched, as JSON (the exit status is the same).")
    var json = false

    func run() throws {
        let hub = try root.openHub()
        let outcome = try hub.voice(transcript, hole: hole, dryRun: dryRun)
        let round = try reportRound(hub)
        if json { try printJSON(VoiceReport(outcome, round: round)) } else { print(HubText.voice(outcome, round: round)) }
        if !outcome.isComplete { throw ExitCode(outcome.recordedNothing ? 1 : 2) }
    }
}

let jsonHelp: ArgumentHelp = "Print the event and its outcome (newScore, silentMerge, discrepancy, correction, resolution, alreadyStored, or unchanged: nothing recorded), with the strokes that count and any discrepancy, as JSON."

/// Prints a just-recorded score for a person, or as JSON.
/// `typed`: the name as typed. Read as another player's name (a typo, a nickname, a name spelled
/// as it sounds: the voice's matching), that is said on stderr first, so a slip is seen.
func report(_ result: AppendResult, hub: Hub, json: Bool, typed: String) throws {
    // The score's own round: a resolution may settle an earlier round's discrepancy (--round).
    let round = try hub.round(matching: result.event.roundID.uuidString)
    let wanted = typed.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    if let name = round.player(result.event.playerID)?.name, wanted != name.lowercased(),
       !name.lowercased().split(separator: " ").contains(Substring(wanted)) {
        FileHandle.standardError.write(Data("hyzer-hub: read \u{201C}\(NameText.shown(typed))\u{201D} as \(name)\n".utf8))
    }
    if json { try printJSON(RecordedReport(result, round: round)) } else {
        print(HubText.recorded(result, round: round, settledBy: try hub.settledElsewhere(round.id)))
    }
}

/// The round whose players a just-recorded score names.
func reportRound(_ hub: Hub) throws -> Round {
    guard let round = try hub.currentOrLatestRound() else { throw HubError.noActiveRound }
    return round
}
