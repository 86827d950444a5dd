#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// An exclusive advisory lock (`flock`) on a file, so several processes take turns.
public enum FileLock {
    /// Runs `body` holding the lock on `url`, blocking until it is free. The lock goes with the
    /// process, so a killed holder never leaves it taken.
    public static func withLock<T>(_ url: URL, _ body: () throws -> T) throws -> T {
        let fd = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw DurableFileError.failed("open lock", url.path, errno) }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw DurableFileError.failed("lock", url.path, errno) }
        }
        return try body()
    }
}

/// A lock held for as long as this value lives (or the process does): `serve` holds one so that a
/// second `serve` on the same home refuses instead of taking over its socket.
public final class HeldFileLock: Sendable {
    private let fd: Int32

    /// Takes the lock on `url` if it is free and writes this process's id into the file; nil when
    /// another process holds it (`holder` then reads its id).
    public static func acquire(_ url: URL) throws(DurableFileError) -> HeldFileLock? {
        let fd = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .failed("open lock", url.path, errno) }
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            let code = errno
            close(fd)
            if code == EWOULDBLOCK { return nil }
            throw .failed("lock", url.path, code)
        }
        var pid = "\(getpid())\n"
        _ = ftruncate(fd, 0)
        _ = pid.withUTF8 { pwrite(fd, $0.baseAddress, $0.count, 0) }
        return HeldFileLock(fd: fd)
    }

    /// Whether some process holds the lock on `url` now; asks without taking it or writing
    /// anything (a read-only home can be asked too).
    public static func isHeld(_ url: URL) -> Bool {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        while flock(fd, LOCK_SH | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            return errno == EWOULDBLOCK
        }
        return false
    }

    /// The process id written by whoever holds the lock on `url`, if readable.
    public static func holder(_ url: URL) -> Int32? {
        (try? String(contentsOf: url, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    private init(fd: Int32) { self.fd = fd }

    deinit { close(fd) }
}
