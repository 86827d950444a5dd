#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A file of lines that only grows (until it is emptied): each record one line, appended at the
/// end, durable when `append(_:sync: true)` returns. One `fdatasync` per durable append, against
/// a file create + fsync + rename + directory fsync for `DurableFile.replace`: the watch's outbox
/// journal.
///
/// A record whose write or sync fails is cut back off, so what the caller was told failed is not
/// left behind. Where even that fails, or the file was left ending mid-line by a crash, the next
/// record starts on a new line: a later record never joins half of an earlier one.
///
/// Not thread-safe: its owner keeps it behind a lock. The file is opened (and created, with its
/// directory fsynced once) on the first append.
public struct AppendOnlyFile: ~Copyable {
    public let url: URL
    private var fd: Int32 = -1
    /// The file does not end with a newline (a cut-off record): the next append starts one.
    private var endsMidLine = false

    public init(url: URL) { self.url = url }

    deinit { if fd >= 0 { closeDescriptor(fd) } }

    /// Appends `line` (which ends with a newline); with `sync`, returns only once it is on the disk.
    ///
    /// `whenWritten` runs once the record is written and before it is synced (so it overlaps the
    /// sync with work of its own); if the sync then fails, the record is cut back off as if it had
    /// never been written, and the error thrown.
    public mutating func append(_ line: Data, sync: Bool, whenWritten: () -> Void = {}) throws(DurableFileError) {
        try openIfNeeded()
        let end = lseek(fd, 0, SEEK_END)
        var record = line
        if endsMidLine { record.insert(0x0A, at: 0) }
        do throws(DurableFileError) {
            try DurableFile.writeAll(fd, record, path: url.path)
            whenWritten()
            if sync, fdatasync(fd) != 0 { throw .failed("fdatasync", url.path, errno) }
        } catch {
            // Told it failed, the caller must not find the record later: take it back off.
            if end < 0 || ftruncate(fd, end) != 0 { endsMidLine = true }
            throw error
        }
        endsMidLine = false
    }

    /// The file's size in bytes (0 when it does not exist yet).
    public var length: Int {
        var info = stat()
        let found = fd >= 0 ? fstat(fd, &info) == 0 : stat(url.path, &info) == 0
        return found ? Int(info.st_size) : 0
    }

    /// Empties the file without syncing: after a crash it may hold its old records again.
    public mutating func removeAll() throws(DurableFileError) {
        if fd >= 0 {
            guard ftruncate(fd, 0) == 0 else { throw .failed("truncate", url.path, errno) }
        } else if truncate(url.path, 0) != 0 && errno != ENOENT {
            throw .failed("truncate", url.path, errno)
        }
        endsMidLine = false
    }

    private mutating func openIfNeeded() throws(DurableFileError) {
        guard fd < 0 else { return }
        var created = true
        var opened = open(url.path, O_RDWR | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0o644)
        if opened < 0 && errno == EEXIST {
            created = false
            opened = open(url.path, O_RDWR | O_APPEND | O_CLOEXEC)
        }
        guard opened >= 0 else { throw .failed("open", url.path, errno) }
        fd = opened
        // A new file's name must survive a crash as well as its records.
        if created { try DurableFile.syncDirectory(url.deletingLastPathComponent()) }
        var last: UInt8 = 0x0A
        if !created, lseek(fd, -1, SEEK_END) >= 0, read(fd, &last, 1) == 1, last != 0x0A { endsMidLine = true }
    }
}

private func closeDescriptor(_ fd: Int32) { _ = close(fd) }
