import ArgumentParser
import Logging

/// `--log-level`, shared by every executable. Logs always go to standard error, so a command's
/// output on standard output (`--json` above all) is never mixed with a log line.
public struct LoggingOptions: ParsableArguments {
    @Option(name: .customLong("log-level"), help: "How much to log on standard error.")
    public var logLevel: Logger.Level = .warning

    public init() {}

    /// Sends every logger to standard error at `logLevel`. Call once, first thing in `run()`.
    public func bootstrap() {
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
    public var defaultValueDescription: String { rawValue }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}
