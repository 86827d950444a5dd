#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Subprocess
import NIOConcurrencyHelpers
import SystemPackage

/// An executable running in the background under swift-subprocess, its stdout lines and stderr
/// text collected as they come.
///
/// The child runs in a task of its own that reads both streams until they close and then records
/// how the child ended. Everything that waits is async and suspends rather than blocks. The last
/// reference going away SIGKILLs a child still running, so no test leaves a process behind.
public final class RunningProcess: Sendable {
    private let output: Output
    private let runner: Task<Void, Never>

    /// Starts a built Hyzer executable with no stdin and no inherited HYZER_HOME.
    public convenience init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) async throws {
        try await self.init(path: CLIProcess.productsDirectory.appendingPathComponent(executable).path, arguments,
                            environment: CLIProcess.childEnvironment(overriding: environment))
    }

    /// Starts the executable at `path` in this process's environment with `environment` applied
    /// (a nil value removes a variable); returns once it is running.
    public init(path: String, _ arguments: [String], environment: [String: String?] = [:]) async throws {
        let output = Output()
        self.output = output
        runner = Task { await output.collect(path: path, arguments: arguments, environment: environment) }
        guard await eventually(timeout: .seconds(30), pollingEvery: .milliseconds(1), { output.processIdentifier != nil || output.failure != nil }) else {
            throw TestFailure("\(path) did not start within 30 s")
        }
        if let failure = output.failure { throw failure }
    }

    deinit { stop() }

    /// The child's pid, once it was started.
    public var processIdentifier: pid_t? { output.processIdentifier }
    public var lines: [String] { output.lines }
    public var stderr: String { output.stderr }
    /// True until the child has ended and all it printed has been read.
    public var isRunning: Bool { output.status == nil && output.failure == nil }

    /// Waits until a stdout line satisfies `predicate`; false on timeout, or when the child ended without printing one.
    @discardableResult
    public func waitForLine(
        timeout: Duration = .seconds(30), pollingEvery interval: Duration = .milliseconds(5),
        isolation: isolated (any Actor)? = #isolation, _ predicate: (String) -> Bool
    ) async -> Bool {
        await eventually(timeout: timeout, pollingEvery: interval) { output.lines.contains(where: predicate) || !isRunning }
        return output.lines.contains(where: predicate)
    }

    /// Waits for the child to end by itself; its exit code (or the signal that ended it), or nil on timeout.
    public func waitForExit(timeout: Duration = .seconds(60)) async -> Int32? {
        await eventually(timeout: timeout, pollingEvery: .milliseconds(5)) { output.status != nil }
        return output.status
    }

    /// Sends `signal` to the child if it is still running, without waiting.
    public func send(_ signal: Int32) {
        guard isRunning, let pid = processIdentifier else { return }
        Glibc.kill(pid, signal)
    }

    /// Sends `signal` and waits until the child has ended and its output is read.
    public func kill(_ signal: Int32 = SIGKILL) async {
        send(signal)
        await runner.value
    }

    /// SIGKILLs the child if it is still running, without waiting (for `defer`, which cannot await).
    public func stop() { send(SIGKILL) }
}

/// What a running child printed and how it ended; written by the reading task, read by anyone.
private final class Output: Sendable {
    private struct State {
        var processIdentifier: pid_t?
        var lines: [String] = []
        var stderr: [UInt8] = []
        var status: Int32?
        var failure: TestFailure?
    }

    private let state = NIOLockedValueBox(State())

    var processIdentifier: pid_t? { state.withLockedValue { $0.processIdentifier } }
    var lines: [String] { state.withLockedValue { $0.lines } }
    var stderr: String { state.withLockedValue { String(decoding: $0.stderr, as: UTF8.self) } }
    var status: Int32? { state.withLockedValue { $0.status } }
    var failure: TestFailure? { state.withLockedValue { $0.failure } }

    /// Runs the child to its end, reading stdout and stderr side by side so neither pipe fills.
    func collect(path: String, arguments: [String], environment: [String: String?]) async {
        do {
            let result = try await Subprocess.run(
                .path(FilePath(path)), arguments: Arguments(arguments), environment: .inherit(changing: environment),
                input: .none, output: .sequence, error: .sequence
            ) { execution in
                state.withLockedValue { $0.processIdentifier = execution.processIdentifier.value }
                await withTaskGroup(of: Void.self) { group in
                    group.addTask {
                        do {
                            for try await line in execution.standardOutput.strings(separatedBy: .unicodeScalarSequence(["\n"]), bufferingPolicy: .unbounded) {
                                self.state.withLockedValue { $0.lines.append(line) }
                            }
                        } catch {
                            self.note("(reading stdout failed: \(error))")
                        }
                    }
                    group.addTask {
                        do {
                            for try await chunk in execution.standardError {
                                let bytes = chunk.withUnsafeBytes { Array($0) }
                                self.state.withLockedValue { $0.stderr += bytes }
                            }
                        } catch {
                            self.note("(reading stderr failed: \(error))")
                        }
                    }
                }
            }
            state.withLockedValue { $0.status = result.terminationStatus.code }
        } catch {
            state.withLockedValue { $0.failure = TestFailure("could not run \(path): \(error)") }
        }
    }

    /// Adds a line of the runner's own to stderr, so a failure message shows it.
    private func note(_ text: String) {
        state.withLockedValue { $0.stderr += Array("\n\(text)\n".utf8) }
    }
}

extension TemporaryHome {
    /// Starts `hyzer-hub --home <this> serve …` and waits until it listens.
    public func serve(_ arguments: [String] = []) async throws -> RunningProcess {
        let server = try await RunningProcess("hyzer-hub", ["--home", path, "serve", "--log-level", "warning"] + arguments)
        guard await server.waitForLine(timeout: .seconds(30), { $0.hasPrefix("hyzer-hub serving on") }) else {
            throw TestFailure("hyzer-hub serve did not start: \(server.stderr)")
        }
        return server
    }
}
