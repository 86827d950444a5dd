import ArgumentParser
import Foundation
import HubCore
import HyzerKit
import HyzerStorage

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Play a recorded round through the phone, hole by hole, in real or accelerated time.",
        discussion: """
            Starts a round on the file's course with its players as guests (the course is added if \
            this phone lacks it), enters every score as the phone would, one at a time, and finishes \
            the round: a serve running meanwhile pushes each change to its watches, as during a real \
            round. At --speed 1 a hole takes --hole-minutes (8, a PDGA round's pace); --speed 60 plays \
            18 holes in under 3 minutes. Ctrl-C stops; the scores entered so far stay.

            The file format is in Assets/README.md; Assets/rounds has real PDGA rounds. --plan prints \
            what the watch face's complication transfers would cost for this round, for each wearer, \
            and stores nothing.
            """
    )
    @ParentCommand var root: HyzerHub
    @Argument(help: ArgumentHelp("A recorded round (JSON).", valueName: "FILE")) var file: String
    @Option(help: ArgumentHelp("How much faster than real time (more than 0, at most 100000).", valueName: "N")) var speed = 1.0
    @Option(name: .customLong("hole-minutes"), help: ArgumentHelp("Minutes a hole takes at --speed 1.", valueName: "M")) var holeMinutes = 8.0
    @Flag(help: "Print the complication transfers the policies spend on this round for each wearer; store nothing.") var plan = false
    @Flag(name: .customLong("no-finish"), help: "Leave the round in play after the last score.") var noFinish = false

    func validate() throws {
        guard speed > 0, speed <= 100_000, speed.isFinite else { throw ValidationError("--speed must be more than 0 and at most 100000; got \(speed).") }
        guard holeMinutes >= 0, holeMinutes <= 120, holeMinutes.isFinite else {
            throw ValidationError("--hole-minutes must be 0 to 120; got \(holeMinutes).")
        }
    }

    func run() throws {
        let data: Data
        do { data = try DurableFile.read(URL(fileURLWithPath: file)) } catch {
            throw CommandMessage("\(file): cannot be read (\(error.reason)).")
        }
        let recorded: RecordedRound
        do { recorded = try RecordedRound.read(data, from: file) } catch { throw CommandMessage(error.description) }
        if plan { return try printPlan(recorded) }

        let hub = try root.openHub()
        // What the file names that this phone cannot take (a course or player name) is said of the file.
        func ofTheFile<T>(_ body: () throws -> T) throws -> T {
            do { return try body() } catch let error as CourseError { throw CommandMessage("\(file): \(error)") } catch let error as HubError {
                switch error {
                case .lookAlikeName, .invalidPlayerName, .duplicatePlayerName, .course: throw CommandMessage("\(file): \(error)")
                default: throw error
                }
            }
        }
        let course = try ofTheFile { try Course(name: recorded.course, holes: recorded.holes) }
        let existing = try hub.courses().first(where: { $0.name.lowercased() == course.name.lowercased() })
        if let existing, existing.holes != course.holes {
            throw CommandMessage("This phone has a course named \"\(existing.name)\" with other holes than the recording's; rename one of them (the recording's \"course\").")
        }
        // The course is added with the round, or not at all: a replay that cannot start leaves nothing behind.
        let round = try ofTheFile { try hub.startRound(course: course.name, players: [], guests: recorded.players.map(\.name), adding: existing == nil ? course : nil) }
        // Each line written at once (print buffers when stdout is a pipe): someone watching sees
        // each score land, after the lines that say what is replayed.
        func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
        say(HubText.roundStarted(round))
        if let source = recorded.source { say("Replaying \([recorded.event, recorded.round.map { "round \($0)" }].compactMap { $0 }.joined(separator: ", ")) (\(source)).") }
        let interval = holeMinutes * 60 / Double(recorded.players.count) / speed
        for (index, play) in recorded.plays.enumerated() {
            if index > 0, interval > 0 { Thread.sleep(forTimeInterval: interval) }
            try hub.score(player: play.player, strokes: play.strokes, hole: play.hole)
            let par = recorded.pars[play.hole - 1]
            say("hole \(play.hole) · \(play.player) \(play.strokes) (\(ScoreFormat.spokenHoleRelative(play.strokes - par)))")
        }
        guard !noFinish else { return say("All \(recorded.plays.count) scores entered; the round stays in play (--no-finish).") }
        let finished = try hub.finishRound()
        say(HubText.finalStandings(of: finished.round, events: try hub.eventLog().events))
    }

    /// For each wearer (and a watch without one, which shows the leader), the transfers each
    /// policy spends on the round.
    private func printPlan(_ recorded: RecordedRound) throws {
        print("Complication transfers for \(recorded.course), \(recorded.pars.count) holes, \(recorded.players.count) players (a real watch allows 50 a day):")
        print("wearer".padding(toLength: 24, withPad: " ", startingAt: 0) + "worthwhile (hole, place, finish)   every-change")
        for wearer in [nil] + recorded.players.map(\.name) {
            let worthwhile = try recorded.complicationTransfers(.worthwhile, wearer: wearer)
            let naive = try recorded.complicationTransfers(.everyChange, wearer: wearer)
            let count = { (reason: ComplicationPolicy.Reason) in worthwhile.filter { $0 == reason }.count }
            let split = "\(count(.holeChanged) + count(.first)), \(count(.positionChanged)), \(count(.roundFinished))"
            print((wearer ?? "(none: the leader)").padding(toLength: 24, withPad: " ", startingAt: 0)
                  + "\(worthwhile.count) (\(split))".padding(toLength: 35, withPad: " ", startingAt: 0) + "\(naive.count)")
        }
    }
}
