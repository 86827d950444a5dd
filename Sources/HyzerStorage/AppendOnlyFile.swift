#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A file that only grows (until it is emptied): records appended at its end, each durable when
/// `append(_:sync: true)` returns. One `fdatasync` per durable append, against a file create +
/// fsync + rename + directory fsync for `DurableFile.replace`: the watch's outbox journal.
///
/// Not thread-safe: its owner keeps it behind a lock. The file is opened (and created, with its
/// directory fsynced once) on the first append.
public struct AppendOnlyFile: ~Copyable {
    public let url: URL
    private var fd: Int32 = -1

    public init(url: URL) { self.url = url }

    deinit { if fd >= 0 { closeDescriptor(fd) } }

    /// Appends `data`; with `sync`, returns only once it is on the disk. A write that fails midway
    /// is cut back off, so a later record never follows half of one.
    public mutating func append(_ data: Data, sync: Bool) throws(DurableFileError) {
        try openIfNeeded()
        let end = lseek(fd, 0, SEEK_END)
        do throws(DurableFileError) {
            try DurableFile.writeAll(fd, data, path: url.path)
        } catch {
            if end >= 0 { _ = ftruncate(fd, end) }
            throw error
        }
        if sync, fdatasync(fd) != 0 { throw .failed("fdatasync", url.path, errno) }
    }

    /// Empties the file without syncing: after a crash it may hold its old records again.
    public mutating func removeAll() throws(DurableFileError) {
        if fd >= 0 {
            guard ftruncate(fd, 0) == 0 else { throw .failed("truncate", url.path, errno) }
        } else if truncate(url.path, 0) != 0 && errno != ENOENT {
            throw .failed("truncate", url.path, errno)
        }
    }

    private mutating func openIfNeeded() throws(DurableFileError) {
        guard fd < 0 else { return }
        var created = true
        var opened = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0o644)
        if opened < 0 && errno == EEXIST {
            created = false
            opened = open(url.path, O_WRONLY | O_APPEND | O_CLOEXEC)
        }
        guard opened >= 0 else { throw .failed("open", url.path, errno) }
        fd = opened
        // A new file's name must survive a crash as well as its records.
        if created { try DurableFile.syncDirectory(url.deletingLastPathComponent()) }
    }
}

private func closeDescriptor(_ fd: Int32) { _ = close(fd) }
