#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SystemPackage

/// Hyzer's one way of writing files: whole files replaced (durable, or only whole for readers),
/// a file created once, and `AppendOnlyFile` for records added at the end. All on swift-system's
/// `FileDescriptor`; what fails is said as `DurableFileError`, naming the file and the reason.
public enum DurableFile {
    /// Replaces `url` with `data` so a reader sees the old file or the new one, never half of
    /// either: temp file in the same directory, fsync, rename over, fsync the directory. With
    /// `durable: false` (a status rewritten often, a screenshot, a cache: worth nothing after a
    /// crash), no fsync: still whole for every reader, only not guaranteed on the disk.
    ///
    /// The temp file is named for this process, so writers in several processes never share one;
    /// a writer that is alone by design may name it (`temporaryName`), so that what a writer killed
    /// mid-write left is replaced by the next write instead of staying beside the file.
    public static func replace(
        _ url: URL, with data: Data, mode: mode_t = 0o644, durable: Bool = true, temporaryName: String? = nil
    ) throws(DurableFileError) {
        let temp = try writeTemporary(beside: url, named: temporaryName, data, mode: mode, durable: durable)
        guard rename(temp.path, url.path) == 0 else {
            let code = errno
            unlink(temp.path)
            throw .failed("rename", url.path, code)
        }
        if durable { try syncDirectory(url.deletingLastPathComponent()) }
    }

    /// Creates `url` holding `data`, durably, unless it already exists: then nothing is written
    /// and false is returned. Two processes creating it at once: one wins, and the other (told
    /// false) reads the winner's whole file, never half of it.
    public static func createIfAbsent(_ url: URL, with data: Data, mode: mode_t = 0o644) throws(DurableFileError) -> Bool {
        let temp = try writeTemporary(beside: url, named: nil, data, mode: mode, durable: true)
        defer { unlink(temp.path) }
        // link(2), unlike rename(2), refuses to replace what is there.
        guard link(temp.path, url.path) == 0 else {
            if errno == EEXIST { return false }
            throw .failed("create", url.path, errno)
        }
        try syncDirectory(url.deletingLastPathComponent())
        return true
    }

    /// Appends `data` to `url` and fsyncs before returning.
    public static func append(_ url: URL, _ data: Data) throws(DurableFileError) {
        let file = try open(url, .writeOnly, [.create, .append], mode: 0o644, doing: "open")
        defer { try? file.close() }
        try write(data, to: file, path: url.path)
        try sync(file, path: url.path)
    }

    public static func syncDirectory(_ directory: URL) throws(DurableFileError) {
        let folder = try open(directory, .readOnly, [.directory], doing: "open directory")
        defer { try? folder.close() }
        guard fsync(folder.rawValue) == 0 else { throw .failed("fsync directory", directory.path, errno) }
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
        do {
            try FileDescriptor.open(url.path, .writeOnly, options: [.create, .exclusiveCreate, .nonBlocking, .closeOnExec],
                                    permissions: [.ownerReadWrite, .groupRead, .otherRead]).close()
            unlink(url.path)
        } catch Errno.fileExists {
            try open(url, .writeOnly, [.nonBlocking], doing: "write").closeQuietly()
        } catch {
            throw .failed("write", url.path, (error as? Errno)?.rawValue ?? EIO)
        }
    }

    /// `data` in a new file beside `url` (named for this process unless `name` is given), synced
    /// when `durable`.
    /// The whole of a file a person named (a course, a recorded round, a script): what fails is
    /// said as the system says it ("No such file or directory", "Is a directory", "Permission
    /// denied"), never as Foundation's error domain and code.
    public static func read(_ url: URL) throws(DurableFileError) -> Data {
        let file = try open(url, .readOnly, [], doing: "read")
        defer { file.closeQuietly() }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count: Int
            do { count = try chunk.withUnsafeMutableBytes { try file.read(into: $0) } } catch {
                throw .failed("read", url.path, (error as? Errno)?.rawValue ?? EIO)
            }
            if count == 0 { return data }
            data.append(contentsOf: chunk[..<count])
        }
    }

    private static func writeTemporary(beside url: URL, named name: String?, _ data: Data, mode: mode_t, durable: Bool) throws(DurableFileError) -> URL {
        let temp = url.deletingLastPathComponent().appendingPathComponent(name ?? ".\(url.lastPathComponent).\(getpid()).tmp")
        let file = try open(temp, .writeOnly, [.create, .truncate], mode: mode, doing: "create")
        do throws(DurableFileError) {
            // The mode asked for, whatever the umask or an earlier temp file left.
            guard fchmod(file.rawValue, mode) == 0 else { throw .failed("create", temp.path, errno) }
            try write(data, to: file, path: temp.path)
            if durable { try sync(file, path: temp.path) }
            try? file.close()
        } catch {
            try? file.close()
            unlink(temp.path)
            throw error
        }
        return temp
    }

    static func open(
        _ url: URL, _ access: FileDescriptor.AccessMode, _ options: FileDescriptor.OpenOptions, mode: mode_t? = nil, doing operation: String
    ) throws(DurableFileError) -> FileDescriptor {
        do {
            return try FileDescriptor.open(url.path, access, options: options.union(.closeOnExec), permissions: mode.map(FilePermissions.init(rawValue:)))
        } catch {
            throw .failed(operation, url.path, (error as? Errno)?.rawValue ?? EIO)
        }
    }

    static func write(_ data: Data, to file: FileDescriptor, path: String) throws(DurableFileError) {
        do {
            _ = try file.writeAll(data)
        } catch {
            throw .failed("write", path, (error as? Errno)?.rawValue ?? EIO)
        }
    }

    static func sync(_ file: FileDescriptor, path: String, dataOnly: Bool = false) throws(DurableFileError) {
        guard (dataOnly ? fdatasync(file.rawValue) : fsync(file.rawValue)) == 0 else { throw .failed(dataOnly ? "fdatasync" : "fsync", path, errno) }
    }
}

extension FileDescriptor {
    func closeQuietly() { try? close() }
}

public enum DurableFileError: Error, Equatable, Sendable, CustomStringConvertible {
    case failed(String, String, Int32)

    public var description: String {
        switch self {
        case .failed(let operation, let path, _): "Could not \(operation) \(path): \(reason)."
        }
    }

    /// Why, as the system says it: "No such file or directory", "Is a directory".
    public var reason: String {
        switch self {
        case .failed(_, _, let code): "\(String(cString: strerror(code)))\(code == ENOSPC ? " (the disk is full)" : "")"
        }
    }
}
