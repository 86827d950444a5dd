import Foundation

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

    /// Starts a built executable with piped output, no stdin and no inherited HYZER_HOME.
    static func launch(_ process: Process, _ executable: String, _ arguments: [String], environment: [String: String]) throws -> (out: Pipe, err: Pipe) {
        process.executableURL = productsDirectory.appendingPathComponent(executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "HYZER_HOME")
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (out, err)
    }

    public static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        let (out, err) = try launch(process, executable, arguments, environment: environment)
        // Read both pipes to the end before waiting, so a chatty process never blocks on a full pipe.
        let stderrData = LockedData()
        let reader = Thread { stderrData.set(err.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !stderrData.isSet { usleep(1000) }
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: stdoutData, as: UTF8.self),
                      stderr: String(decoding: stderrData.value, as: UTF8.self))
    }
}

public final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?
    public func set(_ value: Data) { lock.withLock { data = value } }
    public var isSet: Bool { lock.withLock { data != nil } }
    public var value: Data { lock.withLock { data ?? Data() } }
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
    public func hub(_ arguments: String...) throws -> CLIProcess.Result {
        try CLIProcess.run("hyzer-hub", ["--home", path] + arguments)
    }
}

public final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    public init() {}
    public func increment() { lock.withLock { count += 1 } }
    public var value: Int { lock.withLock { count } }
}
