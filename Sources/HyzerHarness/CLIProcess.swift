import Foundation
import Subprocess
import SystemPackage

/// Runs a built Hyzer executable the way a user or script would, and captures what it printed.
public struct CLIProcess {
    public struct Result: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String
    }

    /// The folder holding the built products (`.build/debug`), found from the test runner's own path.
    public static let productsDirectory: URL = {
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = runner.deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("hyzer-hub").path) { return directory }
            directory = directory.deletingLastPathComponent()
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug")
    }()

    /// More than any command here prints; a command printing more fails the run rather than hang it.
    static let outputLimit = 64 * 1024 * 1024

    /// Runs a built executable with no stdin and no inherited HYZER_HOME, and waits for it to end.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) async throws -> Result {
        try await runTool(productsDirectory.appendingPathComponent(executable).path, arguments, environment: environment)
    }

    /// Runs any program (an absolute path, or a name looked up on PATH) to completion.
    public static func runTool(_ program: String, _ arguments: [String], environment: [String: String] = [:]) async throws -> Result {
        let executable: Executable = program.contains("/") ? .path(FilePath(program)) : .name(program)
        let result = try await Subprocess.run(
            executable,
            arguments: Arguments(arguments),
            environment: .inherit(changing: childEnvironment(overriding: environment)),
            input: .none,
            output: .string(limit: outputLimit),
            error: .string(limit: outputLimit)
        )
        return Result(status: result.terminationStatus.code, stdout: result.standardOutput, stderr: result.standardError)
    }

    /// This process's environment without HYZER_HOME (a test's home is always explicit), plus `overrides`.
    static func childEnvironment(overriding overrides: [String: String]) -> [String: String?] {
        var environment: [String: String?] = ["HYZER_HOME": nil]
        for (key, value) in overrides { environment[key] = value }
        return environment
    }
}

extension Subprocess.Environment {
    /// The inherited environment with `changes` applied; a nil value removes the variable.
    static func inherit(changing changes: [String: String?]) -> Self {
        .inherit.updating(Dictionary(uniqueKeysWithValues: changes.compactMap { key, value in Key(rawValue: key).map { ($0, value) } }))
    }
}

extension TerminationStatus {
    /// What Foundation's `Process.terminationStatus` said: the exit code, or the number of the signal that ended it.
    var code: Int32 {
        switch self {
        case .exited(let code): code
        case .signaled(let signal): signal
        }
    }
}

/// A temporary Hyzer home, removed when the test is done with it.
public final class TemporaryHome: Sendable {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    public var path: String { url.path }

    /// Runs `hyzer-hub --home <this> arguments…`.
    @discardableResult
    public func hub(_ arguments: String...) async throws -> CLIProcess.Result {
        try await CLIProcess.run("hyzer-hub", ["--home", path] + arguments)
    }
}
