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
