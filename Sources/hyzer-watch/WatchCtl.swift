import ArgumentParser
import Foundation
import HyzerKit
import WatchCore

/// `hyzer-watch ctl`: one scenario-script line sent to a running watch (`WatchControl`), answered
/// once it is done.
struct WatchCtl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ctl",
        abstract: "Send a command to a running watch (in a window or headless) and wait until it is done.",
        discussion: """
            COMMAND is any scenario-script line (see hyzer-watch --help and the README): tap NAME, \
            crown +N/-N, save, back, hole +N/-N, link down/up, wrist down/up, app background/foreground, advance-clock DURATION, \
            set-clock YYYY-MM-DDTHH:MM, expect-complication-budget N, \
            screenshot FILE.png, dump FILE.json, expect-… and wait-for CONDITION, or quit. It runs on the \
            watch's own loop, between frames, as a script's line would; expectations and wait-for wait up \
            to --timeout (default: the watch's --expect-timeout). Prints ok, or the reason on standard \
            error and exits 1. A relative FILE is under the watch's --screenshot-dir.

            wait-for CONDITION: stale, fresh, reachable, unreachable, screen NAME (leaderboard, crown, \
            voice, final, no-round, watch-face), delivered N (N scores acked by the phone since the watch started), \
            pending N (N scores waiting to send), dropped N (N live messages dropped because the app \
            was in the background), complications N (N complication transfers received).

            Examples, mixing phone and watch steps without sleeps:
              hyzer-watch ctl --home H link down
              hyzer-hub --home H score Jake 2          # the phone scores; the watch is out of range
              hyzer-watch ctl --home H --timeout 40 wait-for stale
              hyzer-watch ctl --home H link up
              hyzer-watch ctl --home H wait-for delivered 1
            """
    )

    @Option(help: ArgumentHelp("The running watch's home (as for hyzer-watch).", valueName: "DIR"), completion: .directory)
    var home: String?

    @Option(help: ArgumentHelp("Seconds an expectation or wait-for may take (0 to 3600).", valueName: "S"))
    var timeout: Double?

    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("A scenario-script line (options go before it).", valueName: "COMMAND"))
    var command: [String] = []

    /// `arguments` up to `ctl`'s script line, which is taken as written: its words are the script's
    /// to answer (`advance-clock -5m` was refused as a mistyped option "--5m").
    static func beforeScriptLine(_ arguments: [String]) -> [String] {
        guard let ctl = arguments.firstIndex(of: "ctl") else { return arguments }
        var end = ctl + 1
        // Its options (--home DIR, --timeout S, or --home=DIR) come before the line.
        while end < arguments.count, arguments[end].hasPrefix("-") { end += arguments[end].contains("=") ? 1 : 2 }
        return Array(arguments[..<min(end, arguments.count)])
    }

    func validate() throws {
        // The command is taken as written, dashes and all (crown -2): help is asked for here.
        if ["--help", "-h", "help"].contains(command.first ?? "") { throw CleanExit.helpRequest(self) }
        if home?.isEmpty == true { throw ValidationError("--home needs a value; got an empty one.") }
        if let timeout, !(0...3600).contains(timeout) { throw ValidationError("--timeout must be 0 to 3600 seconds; got \(timeout).") }
        if command.isEmpty { throw ValidationError("Say what the watch should do, e.g. hyzer-watch ctl --home H link down.") }
        // ctl's own options after the line are read as the line's words ("wait-for takes …").
        if let option = command.dropFirst().first(where: { word in
            ["--home", "--timeout", "--help", "--version"].contains { word == $0 || word.hasPrefix($0 + "=") }
        }) {
            let name = option.split(separator: "=").first.map(String.init) ?? option
            let value = ["--help", "--version"].contains(name) ? "" : " VALUE"
            throw ValidationError("\(name) is an option of ctl: it goes before the command, e.g. hyzer-watch ctl \(name)\(value) \(command[0]) ….")
        }
    }

    func run() throws {
        let paths = HyzerPaths.resolve(explicitHome: home, environment: ProcessInfo.processInfo.environment, userHome: NSHomeDirectory())
        // A word with a space in it was one argument: quoted again for the script's grammar.
        let line = command.map { $0.contains(where: \.isWhitespace) ? "\"\($0)\"" : $0 }.joined(separator: " ")
        let reply: String
        do {
            reply = try WatchControl.send(line, timeout: timeout, to: paths.watchControl)
        } catch let error as ControlError {
            // Said as every other ctl failure is (not ArgumentParser's "Error:").
            reply = "error: \(error.description)"
        }
        guard reply == "ok" else {
            FileHandle.standardError.write(Data("hyzer-watch ctl: \(reply.hasPrefix("error: ") ? String(reply.dropFirst(7)) : reply)\n".utf8))
            throw ExitCode(1)
        }
        print("ok")
    }
}
