#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SystemPackage

/// A file of lines that only grows (until it is emptied): each record one line, appended at the
/// end; with `sync`, durable when `append` returns (one `fdatasync`, against a file create + fsync
/// + rename + directory fsync for `DurableFile.replace`). The watch's outbox journal, and its
/// haptic and announcement logs (not synced: a log of what the wearer felt).
///
/// A record whose write or sync fails is cut back off, so what the caller was told failed is not
/// left behind. Where even that fails, or the file was left ending mid-line by a crash, the next
/// record starts on a new line: a later record never joins half of an earlier one.
///
/// A value its owner keeps behind a lock and closes when done. The file is opened (and created,
/// with its directory fsynced once) on the first append.
public struct AppendOnlyFile: Sendable {
    public let url: URL
    private var file: FileDescriptor?
    /// The file does not end with a newline (a cut-off record): the next append starts one.
    private var endsMidLine = false

    public init(url: URL) { self.url = url }

    /// Appends `line` (which ends with a newline); with `sync`, returns only once it is on the disk.
    ///
    /// `whenWritten` runs once the record is written and before it is synced (so it overlaps the
    /// sync with work of its own); if the sync then fails, the record is cut back off as if it had
    /// never been written, and the error thrown.
    public mutating func append(_ line: some Collection<UInt8>, sync: Bool, whenWritten: () -> Void = {}) throws(DurableFileError) {
        let file = try openIfNeeded()
        let end = lseek(file.rawValue, 0, SEEK_END)
        do throws(DurableFileError) {
            var record = Data(endsMidLine ? [0x0A] : [])
            record.append(contentsOf: line)
            try DurableFile.write(record, to: file, path: url.path)
            whenWritten()
            if sync { try DurableFile.sync(file, path: url.path, dataOnly: true) }
        } catch {
            // Told it failed, the caller must not find the record later: take it back off.
            if end < 0 || ftruncate(file.rawValue, end) != 0 { endsMidLine = true }
            throw error
        }
        endsMidLine = false
    }

    /// The file's size in bytes (0 when it does not exist yet).
    public var length: Int {
        var info = stat()
        let found = if let file { fstat(file.rawValue, &info) == 0 } else { stat(url.path, &info) == 0 }
        return found ? Int(info.st_size) : 0
    }

    /// Empties the file without syncing: after a crash it may hold its old records again.
    public mutating func removeAll() throws(DurableFileError) {
        if let file {
            guard ftruncate(file.rawValue, 0) == 0 else { throw .failed("truncate", url.path, errno) }
        } else if truncate(url.path, 0) != 0 && errno != ENOENT {
            throw .failed("truncate", url.path, errno)
        }
        endsMidLine = false
    }

    /// Closes the file; a later append opens it again.
    public mutating func close() {
        file?.closeQuietly()
        file = nil
    }

    private mutating func openIfNeeded() throws(DurableFileError) -> FileDescriptor {
        if let file { return file }
        var created = true
        let opened: FileDescriptor
        do {
            opened = try DurableFile.open(url, .readWrite, [.create, .exclusiveCreate, .append], mode: 0o644, doing: "open")
        } catch .failed(_, _, EEXIST) {
            created = false
            opened = try DurableFile.open(url, .readWrite, [.append], doing: "open")
        }
        file = opened
        // A new file's name must survive a crash as well as its records.
        if created { try DurableFile.syncDirectory(url.deletingLastPathComponent()) }
        var last: UInt8 = 0x0A
        if !created, lseek(opened.rawValue, -1, SEEK_END) >= 0, read(opened.rawValue, &last, 1) == 1, last != 0x0A { endsMidLine = true }
        return opened
    }
}
