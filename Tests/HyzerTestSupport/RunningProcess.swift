#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A built executable running in the background, its output lines collected as they come.
public final class RunningProcess: @unchecked Sendable {
    public let process = Process()
    private let lock = NSLock()
    private var stdoutLines: [String] = []
    private var stderrText = ""

    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        let (out, err) = try CLIProcess.launch(process, executable, arguments, environment: environment)
        Thread { [self] in
            var pending = Data()
            while true {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 0x0A) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    lock.withLock { stdoutLines.append(line) }
                }
            }
        }.start()
        Thread { [self] in
            while true {
                let chunk = err.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                lock.withLock { stderrText += String(decoding: chunk, as: UTF8.self) }
            }
        }.start()
    }

    public var lines: [String] { lock.withLock { stdoutLines } }
    public var stderr: String { lock.withLock { stderrText } }

    /// Waits until a stdout line satisfies `predicate`; false on timeout or exit.
    @discardableResult
    public func waitForLine(timeout: TimeInterval = 30, _ predicate: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if lines.contains(where: predicate) { return true }
            if !process.isRunning { return lines.contains(where: predicate) }
            usleep(5_000)
        }
        return false
    }

    /// Waits for the process to end by itself; returns its status, or nil on timeout.
    public func waitForExit(timeout: TimeInterval = 60) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline { return nil }
            usleep(5_000)
        }
        return process.terminationStatus
    }

    public func kill(_ signal: Int32 = SIGKILL) {
        if process.isRunning { Glibc.kill(process.processIdentifier, signal) }
        process.waitUntilExit()
    }

    deinit { if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) } }
}

extension TemporaryHome {
    /// Starts `hyzer-hub --home <this> serve …` and waits until it listens.
    public func serve(_ arguments: [String] = []) throws -> RunningProcess {
        let server = try RunningProcess("hyzer-hub", ["--home", path, "serve", "--log-level", "warning"] + arguments)
        guard server.waitForLine(timeout: 30, { $0.hasPrefix("hyzer-hub serving on") }) else {
            throw TestFailure("hyzer-hub serve did not start: \(server.stderr)")
        }
        return server
    }
}

public struct TestFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A plain Unix-socket client that speaks raw bytes, for hostile and handshake tests.
public final class RawSocket {
    private let fd: Int32

    public init(unixPath: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(unixPath.utf8.prefix(raw.count - 1))
            raw.copyBytes(from: bytes + [0])
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else { throw TestFailure("connect \(unixPath): \(String(cString: strerror(errno)))") }
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// Says "no more bytes from me" while still reading.
    public func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    public func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Everything received until the peer closes or `timeout` passes; `closed` says which.
    public func receiveAll(timeout: TimeInterval) -> (bytes: [UInt8], closed: Bool) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count == 0 { return (received, true) }
            if count < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
                return (received, true)
            }
            received += buffer[0..<count]
        }
        return (received, false)
    }
}
