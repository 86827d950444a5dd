#if canImport(Glibc)
import Glibc
#endif

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
    }

    /// A TCP connection to `host:port` (an IPv4 address), with no TLS: the bytes are raw.
    public init(tcpHost host: String, port: UInt16) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { throw TestFailure("not an IPv4 address: \(host)") }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { throw TestFailure("connect \(host):\(port): \(String(cString: strerror(errno)))") }
    }

    deinit { close(fd) }

    /// Says "no more bytes from me" while still reading.
    public func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    /// Sends every byte, suspending while the peer's buffer is full (a hub reads a watch's scores
    /// only as it answers them), so no thread of the pool is held; stops early if the peer closed
    /// (what a hostile peer's test then reads says so). Throws if the peer stops reading for `timeout`.
    public func send(_ bytes: [UInt8], timeout: Duration = .seconds(120)) async throws {
        var sent = 0
        let done = await eventually(timeout: timeout, pollingEvery: .milliseconds(5)) {
            while sent < bytes.count {
                let count = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
                if count >= 0 {
                    sent += count
                } else if errno != EINTR {
                    return errno != EAGAIN && errno != EWOULDBLOCK
                }
            }
            return true
        }
        guard done else { throw TestFailure("sent \(sent) of \(bytes.count) bytes: the peer read nothing more for \(timeout)") }
    }

    /// Sends every byte, blocking the thread while the peer's buffer is full: for peers that run on
    /// threads of their own. Stops early if the peer closed, as `send` does.
    public func sendBlocking(_ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count >= 0 { sent += count } else if errno != EINTR { return }
        }
    }

    /// Waits (blocking the thread, for tests that run peers on threads of their own) until bytes
    /// arrive or the peer closes, up to `timeoutMillis`; returns what came, and whether the peer
    /// closed.
    @discardableResult
    public func receiveBlocking(timeoutMillis: Int32) -> (bytes: [UInt8], closed: Bool) {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, timeoutMillis) > 0 else { return ([], false) }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = recv(fd, &buffer, buffer.count, 0)
        return count > 0 ? (Array(buffer[0..<count]), false) : ([], count == 0 || (errno != EINTR && errno != EAGAIN))
    }

    /// Everything received until the peer closes or `timeout` passes; `closed` says which.
    /// Reads without blocking and suspends between reads, so no thread of the pool is held.
    public func receiveAll(timeout: Duration) async -> (bytes: [UInt8], closed: Bool) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let closed = await eventually(timeout: timeout, pollingEvery: .milliseconds(2)) {
            while true {
                let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                if count > 0 {
                    received += buffer[0..<count]
                } else if count == 0 {
                    return true
                } else if errno == EINTR {
                    continue
                } else {
                    return errno != EAGAIN && errno != EWOULDBLOCK
                }
            }
        }
        return (received, closed)
    }
}
