import ArgumentParser
import Logging
import NIOConcurrencyHelpers

/// `--log-level`, shared by every executable. Logs always go to standard error, so a command's
/// output on standard output (`--json` above all) is never mixed with a log line.
public struct LoggingOptions: ParsableArguments {
    @Option(name: .customLong("log-level"),
            help: "How much to log on standard error (default: info for hyzer-hub serve, error for hyzer-bench, warning otherwise).")
    public var logLevel: Logger.Level?

    public init() {}

    private static let bootstrapped = NIOLockedValueBox(false)

    /// Sends every logger to standard error at `logLevel` (else `defaultLevel`), first thing in
    /// `run()`. Only the first call in a process counts (swift-log allows one bootstrap).
    public func bootstrap(defaultLevel: Logger.Level = .warning) {
        Self.bootstrap(level: logLevel, defaultLevel: defaultLevel)
    }

    /// The same for a level read without the parser (hyzer-watch's quick reader).
    public static func bootstrap(level: Logger.Level?, defaultLevel: Logger.Level = .warning) {
        guard bootstrapped.withLockedValue({ done in defer { done = true }; return !done }) else { return }
        let level = level ?? defaultLevel
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
