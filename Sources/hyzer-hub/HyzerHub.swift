import ArgumentParser
import Foundation
import HubCore
import HyzerCLI
import HyzerKit

/// The entry point: the parser's own `main`, after refusing a long option written with one dash
/// (`-home`) and saying so when a negative number was read as an option.
@main
enum HyzerHubMain {
    static func main() async {
        HyzerHub.refuseSingleDashWords()
        HyzerHub.refuseUnknownCommands(valueOptions: ["--home", "--log-level"])
        HyzerHub.explainNegativeNumbers()
        await HyzerHub.main()
    }
}

struct HyzerHub: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hyzer-hub",
        abstract: "The phone side of Hyzer: scoring, standings and the standings snapshot the watch reads.",
        discussion: """
            Data lives in one home directory: --home, else $HYZER_HOME, else $XDG_DATA_HOME/hyzer, \
            else ~/.local/share/hyzer. It holds hub/ (database, pairing token), shared/standings.json \
            (rewritten atomically after every change) and watch/.

            A typical round:
              hyzer-hub round start --course "Maple Hill" --player Jake Mike --guest Sarah
              hyzer-hub score Jake 3
              hyzer-hub voice "Mike 4, Sarah two"
              hyzer-hub standings

            Logs go to standard error, so --json output on standard output is always clean JSON.
            """,
        version: HyzerVersion.current,
        subcommands: [
            CourseCommand.self, RoundCommand.self, ScoreCommand.self, CorrectCommand.self, VoiceCommand.self,
            HoleCommand.self, StandingsCommand.self, HistoryCommand.self, EventsCommand.self, DiscrepanciesCommand.self,
            ResolveCommand.self, ReplayCommand.self, AppCommand.self, TokenCommand.self, CloudCommand.self, ServeCommand.self,
        ]
    )

    @Option(name: .long, help: ArgumentHelp("The Hyzer home directory.", valueName: "DIR"), completion: .directory)
    var home: String?
    @OptionGroup var logging: LoggingOptions

    /// `--home ""` would quietly mean the default home.
    func validate() throws {
        if home?.isEmpty == true { throw ValidationError("--home needs a value; got an empty one.") }
    }

    var paths: HyzerPaths {
        HyzerPaths.resolve(explicitHome: home, environment: ProcessInfo.processInfo.environment, userHome: NSHomeDirectory())
    }

    /// Starts logging and opens the hub: what every subcommand but `serve` does first.
    /// The hub under the home. A command that only reads passes `creating: false`: it never
    /// makes a home, so a mistyped --home says there is no hub there instead of showing an empty one.
    func openHub(creating: Bool = true) throws -> Hub {
        logging.bootstrap()
        return try Hub.open(paths: paths, creating: creating)
    }
}

/// The names of the courses in the hub under the home being completed (for shell completion);
/// the shipped courses where no hub exists yet. Completion never creates a home.
func courseNames(_ words: [String]) -> [String] {
    var home: String?
    if let flag = words.firstIndex(of: "--home"), flag + 1 < words.count { home = words[flag + 1] }
    let paths = HyzerPaths.resolve(explicitHome: home, environment: ProcessInfo.processInfo.environment, userHome: NSHomeDirectory())
    let courses = FileManager.default.fileExists(atPath: paths.database.path)
        ? (try? Hub.open(paths: paths).courses()) : (try? Hub.shippedCourses())
    return (courses ?? []).map(\.name).sorted()
}

/// Prints a value as pretty JSON with Hyzer's conventions.
func printJSON<T: Encodable>(_ value: T) throws {
    print(String(decoding: try HyzerJSON.encoder(pretty: true).encode(value), as: UTF8.self))
}

/// A message for the person at the terminal that only the command line adds (a flag to try).
struct CommandMessage: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
