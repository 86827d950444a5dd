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
            `correct`. --device and --reported-by play another scorer's device, e.g. to rehearse a discrepancy.
            """
    )
    @ParentCommand var root: HyzerHub
    @Argument(help: "The player's name (any case; a first name works when it is unique).") var player: String
    @Argument(help: "Strokes, 1...10.") var strokes: Int
    @Option(help: "The hole (default: the current hole).") var hole: Int?
    @Option(help: "The device that reported the score (default: this phone: \"phone\", or \"phone-<hub id>\" in a round shared through a cloud).")
    var device: String?
    @Option(name: .customLong("reported-by"), help: ArgumentHelp("The player whose device reported it.", valueName: "NAME"))
    var reportedBy: String?
    @Flag(help: jsonHelp) var json = false

    func run() throws {
        let hub = try root.openHub()
        let result = try hub.score(player: player, strokes: strokes, hole: hole, deviceID: device, reportedBy: reportedBy)
        try report(result, hub: hub, json: json)
    }
}

struct CorrectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "correct",
        abstract: "Replace a score (appends a correction, never erases).",
        discussion: "The correction is a new event that supersedes the current score; the log keeps both."
    )
    @ParentCommand var root: HyzerHub
    @Argument(help: "The player's name.") var player: String
    @Argument(help: "The corrected strokes, 1...10.") var strokes: Int
    @Option(help: "The hole to correct.") var hole: Int
    @Flag(help: jsonHelp) var json = false

    func run() throws {
        let hub = try root.openHub()
        let result = try hub.correct(player: player, strokes: strokes, hole: hole)
        try report(result, hub: hub, json: json)
    }
}

struct ResolveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "Settle an open discrepancy with the agreed strokes."
    )
    @ParentCommand var root: HyzerHub
    @Argument(help: "The player's name.") var player: String
    @Argument(help: "The agreed strokes, 1...10.") var strokes: Int
    @Option(help: "The hole in dispute.") var hole: Int
    @Flag(help: jsonHelp) var json = false

    func run() throws {
        let hub = try root.openHub()
        let result = try hub.resolve(player: player, strokes: strokes, hole: hole)
        try report(result, hub: hub, json: json)
    }
}

struct VoiceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "voice",
        abstract: "Record scores from speech: \"Mike 3, Jake four\".",
        discussion: """
            Numbers are digits or words (one to ten). Names are matched to the round's players: a clear \
            match (over 80 %) is recorded, a near one (50 to 80 %) is answered "did you mean …?", a poor \
            one is refused. What is clear is recorded even when the rest is not.
            Exit status: 0 when everything was recorded, 2 when only part was, 1 when nothing was.
            """
    )
    @ParentCommand var root: HyzerHub
    @Argument(help: "The transcript.") var transcript: String
    @Option(help: "The hole (default: the current hole).") var hole: Int?
    @Flag(help: "Print what was recorded, suggested and refused as JSON (the exit status is the same).") var json = false

    func run() throws {
        let hub = try root.openHub()
        let outcome = try hub.voice(transcript, hole: hole)
        let round = try reportRound(hub)
        if json { try printJSON(VoiceReport(outcome, round: round)) } else { print(HubText.voice(outcome, round: round)) }
        if !outcome.isComplete { throw ExitCode(outcome.recorded.isEmpty ? 1 : 2) }
    }
}

let jsonHelp: ArgumentHelp = "Print the stored event and its outcome (newScore, silentMerge, discrepancy, correction, resolution, alreadyStored) as JSON."

/// Prints a just-recorded score for a person, or as JSON.
func report(_ result: AppendResult, hub: Hub, json: Bool) throws {
    let round = try reportRound(hub)
    if json { try printJSON(RecordedReport(result, round: round)) } else { print(HubText.recorded(result, round: round)) }
}

/// The round whose players a just-recorded score names.
func reportRound(_ hub: Hub) throws -> Round {
    guard let round = try hub.currentOrLatestRound() else { throw HubError.noActiveRound }
    return round
}
