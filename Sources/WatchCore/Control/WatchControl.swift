#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HyzerKit
import NIOConcurrencyHelpers

/// Live control of a running watch, as `xcrun simctl` or `adb emu` control a running device:
/// `hyzer-watch ctl` connects to `watch/ctl.sock` in the watch's home and sends one scenario-script
/// line (`link down`, `tap Jake`, `wait-for stale`, `screenshot away.png`); the watch runs it on its
/// own loop, between frames, as a script's line, and answers `ok` or `error: …` once it is done (an
/// expectation or `wait-for`, once it holds or its timeout passes).
///
/// One request at a time per connection; connections are served one after another. The socket is
/// the user's own (0600 in the watch's folder); anything that is not one line of at most 4 KiB is
/// answered with an error.
public final class WatchControl: Sendable {
    public let socketPath: String
    private let listener: Int32
    /// Requests waiting for the host's loop; nil once stopping (a request then is answered at once).
    private let queue = NIOLockedValueBox<[Request]?>([])
    /// Held while a connection is served, so `stop()` returns only once its answer is written.
    private let serving = NIOLock()
    private let wake: @Sendable () -> Void

    /// A line to run and where its answer goes.
    public struct Request: Sendable {
        public let line: String
        public let timeout: TimeInterval?
        public let answer: @Sendable (String) -> Void
    }

    public static let maxLineBytes = 4_096

    /// Listens at `url` (a stale socket file from a watch that died is replaced); `wake` is called
    /// when a request waits, so the host's loop comes round to `takeRequests()`.
    public init(at url: URL, wake: @escaping @Sendable () -> Void) throws {
        socketPath = url.path
        self.wake = wake
        unlink(url.path)
        var address = try Self.address(url)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ControlError("could not make the control socket: \(String(cString: strerror(errno)))") }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, chmod(url.path, 0o600) == 0, listen(fd, 8) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw ControlError("could not listen at \(url.path): \(reason)")
        }
        listener = fd
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "hyzer.watch.control"
        thread.start()
    }

    /// Stops listening, answers what still waits, lets an answer being written finish (a `quit`'s
    /// own), and removes the socket file.
    public func stop() {
        let waiting = queue.withLockedValue { queue in defer { queue = nil }; return queue ?? [] }
        for request in waiting { request.answer("error: the watch is quitting") }
        serving.withLock {}
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        unlink(socketPath)
    }

    /// The requests waiting, oldest first; the host runs each and calls `answer`.
    public func takeRequests() -> [Request] {
        queue.withLockedValue { waiting in defer { if waiting != nil { waiting = [] } }; return waiting ?? [] }
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                // Closed by stop(): done. Anything else (EMFILE, an aborted connection) passes.
                if errno == EBADF || errno == EINVAL { return }
                if errno != EINTR { usleep(10_000) }
                continue
            }
            serving.withLock { serve(connection) }
            close(connection)
        }
    }

    /// Reads one request line (`[timeout SECONDS] LINE`), hands it to the host's loop, and writes
    /// back the answer when it is done.
    private func serve(_ connection: Int32) {
        // A client that connects and says nothing cannot hold the watch (its quit waits for this).
        var patience = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &patience, socklen_t(MemoryLayout<timeval>.size))
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1_024)
        while !bytes.contains(0x0A), bytes.count <= Self.maxLineBytes {
            let count = read(connection, &chunk, chunk.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        guard let end = bytes.firstIndex(of: 0x0A), end <= Self.maxLineBytes, let text = String(validating: bytes[..<end], as: UTF8.self) else {
            let said = bytes.isEmpty ? "nothing was sent within 5 s" : "send one line of at most \(Self.maxLineBytes) bytes of UTF-8, ending in a newline"
            Self.write("error: \(said)\n", to: connection)
            return
        }
        var line = text
        var timeout: TimeInterval?
        // "timeout 30 wait-for stale": how long an expectation may take, from `hyzer-watch ctl --timeout`.
        if line.hasPrefix("timeout "), let space = line.dropFirst(8).firstIndex(of: " "),
           let seconds = TimeInterval(line[line.index(line.startIndex, offsetBy: 8)..<space]) {
            guard (0...3600).contains(seconds) else {
                Self.write("error: a timeout is 0 to 3600 seconds; got \(line[line.index(line.startIndex, offsetBy: 8)..<space])\n", to: connection)
                return
            }
            timeout = seconds
            line = String(line[line.index(after: space)...])
        }
        let done = DispatchSemaphore(value: 0)
        let answer = NIOLockedValueBox("")
        let request = Request(line: line, timeout: timeout) { text in
            answer.withLockedValue { $0 = text }
            done.signal()
        }
        let queued = queue.withLockedValue { queue -> Bool in
            guard queue != nil else { return false }
            queue?.append(request)
            return true
        }
        guard queued else {
            Self.write("error: the watch is quitting\n", to: connection)
            return
        }
        wake()
        done.wait()
        Self.write(answer.withLockedValue { $0 } + "\n", to: connection)
    }

    /// The socket address of `url`, or why it cannot be one (a path too long for a Unix socket).
    private static func address(_ url: URL) throws -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = Array(url.path.utf8)
        guard path.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw ControlError("the path is too long for a Unix socket (\(path.count) bytes): \(url.path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: path)
            buffer[path.count] = 0
        }
        return address
    }

    private static func write(_ text: String, to connection: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            // MSG_NOSIGNAL: a client gone before its answer must not end the watch with SIGPIPE.
            let written = bytes.withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }

    /// Sends `line` to the watch whose control socket is `url` and returns its answer: what
    /// `hyzer-watch ctl` does. A watch just started has its socket within a moment: until
    /// `startWait` has passed, a missing one is waited for.
    public static func send(_ line: String, timeout: TimeInterval?, to url: URL, startWait: TimeInterval = 5) throws -> String {
        let deadline = Date().addingTimeInterval(startWait)
        while true {
            do {
                return try sendOnce(line, timeout: timeout, to: url)
            } catch let error as ControlError where error.watchMissing && Date() < deadline {
                usleep(50_000)
            }
        }
    }

    private static func sendOnce(_ line: String, timeout: TimeInterval?, to url: URL) throws -> String {
        var address = try Self.address(url)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ControlError("could not make a socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let missing = errno == ENOENT || errno == ECONNREFUSED
            let home = url.deletingLastPathComponent().deletingLastPathComponent().path
            let reason = missing ? "no watch is running there (start one: hyzer-watch --home '\(home)')" : String(cString: strerror(errno))
            throw ControlError("could not reach the watch at \(url.path): \(reason)", watchMissing: missing)
        }
        // The answer comes once the command is done: within its timeout, and the watch's own at most.
        var patience = timeval(tv_sec: Int((timeout ?? 3_600) + 60), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &patience, socklen_t(MemoryLayout<timeval>.size))
        write((timeout.map { "timeout \($0) " } ?? "") + line + "\n", to: fd)
        var reply: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1_024)
        while !reply.contains(0x0A) {
            let count = read(fd, &chunk, chunk.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            reply += chunk[0..<count]
        }
        guard let end = reply.firstIndex(of: 0x0A) else { throw ControlError("the watch closed the connection without answering (did it quit?)") }
        return String(decoding: reply[..<end], as: UTF8.self)
    }
}

public struct ControlError: Error, CustomStringConvertible {
    public let description: String
    /// Nothing listens at the socket (yet).
    let watchMissing: Bool
    init(_ description: String, watchMissing: Bool = false) { (self.description, self.watchMissing) = (description, watchMissing) }
}
