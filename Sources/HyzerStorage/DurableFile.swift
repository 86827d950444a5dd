#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Writes that survive a crash or power cut at any instant.
public enum DurableFile {
    /// Replaces `url` with `data` so a reader sees the old file or the new one, never half of
    /// either: temp file in the same directory, fsync, rename over, fsync the directory. With
    /// `durable: false` (a status rewritten often, worth nothing after a crash), no fsync: still
    /// whole for every reader, only not guaranteed on the disk.
    public static func replace(_ url: URL, with data: Data, mode: mode_t = 0o644, durable: Bool = true) throws(DurableFileError) {
        let directory = url.deletingLastPathComponent()
        let temp = directory.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        let fd = open(temp.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw .failed("create", temp.path, errno) }
        do throws(DurableFileError) {
            try writeAll(fd, data, path: temp.path)
            guard !durable || fsync(fd) == 0 else { throw DurableFileError.failed("fsync", temp.path, errno) }
        } catch {
            close(fd)
            unlink(temp.path)
            throw error
        }
        close(fd)
        guard rename(temp.path, url.path) == 0 else {
            let code = errno
            unlink(temp.path)
            throw .failed("rename", url.path, code)
        }
        if durable { try syncDirectory(directory) }
    }

    /// Appends `data` to `url` and fsyncs before returning.
    public static func append(_ url: URL, _ data: Data) throws(DurableFileError) {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .failed("open", url.path, errno) }
        defer { close(fd) }
        try writeAll(fd, data, path: url.path)
        guard fsync(fd) == 0 else { throw .failed("fsync", url.path, errno) }
    }

    public static func syncDirectory(_ directory: URL) throws(DurableFileError) {
        let fd = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .failed("open directory", directory.path, errno) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw .failed("fsync directory", directory.path, errno) }
    }

    /// Makes `directory` and any missing parents (`mkdir -p`), naming the folder that could not
    /// be made and why (Foundation's error for this is an NSCocoaErrorDomain dump). `mode` is the
    /// new folder's own (0700 for one that holds a secret); parents are made 0755.
    public static func makeDirectory(_ directory: URL, mode: mode_t = 0o755) throws(DurableFileError) {
        var path = ""
        let components = directory.standardizedFileURL.path.split(separator: "/")
        for (index, component) in components.enumerated() {
            path += "/" + component
            if mkdir(path, index == components.count - 1 ? mode : 0o755) != 0 && errno != EEXIST { throw .failed("create the folder", path, errno) }
        }
        var info = stat()
        guard stat(path, &info) == 0 else { throw .failed("create the folder", path, errno) }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw .failed("create the folder", path, ENOTDIR) }
    }

    /// Whether a file can be written at `url` (its folder made first), checked now by creating it
    /// and removing it again (a file already there is left as it is): for a write that comes
    /// later, such as a recording's at its end.
    public static func checkWritable(_ url: URL) throws(DurableFileError) {
        try makeDirectory(url.deletingLastPathComponent())
        let created = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_NONBLOCK | O_CLOEXEC, 0o644)
        if created >= 0 {
            close(created)
            unlink(url.path)
            return
        }
        guard errno == EEXIST else { throw .failed("write", url.path, errno) }
        let existing = open(url.path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard existing >= 0 else { throw .failed("write", url.path, errno) }
        close(existing)
    }

    static func writeAll(_ fd: Int32, _ data: Data, path: String) throws(DurableFileError) {
        let failure: Int32? = data.withUnsafeBytes { buffer -> Int32? in
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        if let failure { throw .failed("write", path, failure) }
    }
}

public enum DurableFileError: Error, Equatable, Sendable, CustomStringConvertible {
    case failed(String, String, Int32)

    public var description: String {
        switch self {
        case .failed(let operation, let path, let code):
            "Could not \(operation) \(path): \(String(cString: strerror(code)))\(code == ENOSPC ? " (the disk is full)" : "")."
        }
    }
}
