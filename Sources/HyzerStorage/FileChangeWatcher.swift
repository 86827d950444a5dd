#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// Calls `onChange` when any of some files in one directory is written (once its writer closes
/// it), touched, replaced, created or removed: inotify on the directory (a replacing rename shows
/// up there too), with a
/// slow poll of the files' size, time and inode as the safety net for file systems without
/// inotify (and for a change inotify reported before it could be read: the poll then reports it
/// once more). Nothing runs at a fixed high rate, so an idle watcher costs next to nothing.
public final class FileChangeWatcher: Sendable {
    public let directory: URL
    /// Files whose inotify events count (`files`); the poll looks at these and `polledFiles`.
    private let names: Set<String>
    private let polledNames: Set<String>
    private let pollInterval: Duration
    private let onChange: @Sendable () -> Void
    private let stopped = Atomic<Bool>(false)

    /// - Parameters:
    ///   - files: files in one directory (the directory of the first is watched).
    ///   - polledFiles: files in the same directory that only the poll looks at (their writes
    ///     are too many, or too early, to be worth waking for).
    public init(files: [URL], polledFiles: [URL] = [], pollInterval: Duration = .seconds(1), onChange: @escaping @Sendable () -> Void) {
        precondition(!files.isEmpty, "FileChangeWatcher needs at least one file")
        directory = files[0].deletingLastPathComponent()
        names = Set(files.map(\.lastPathComponent))
        polledNames = names.union(polledFiles.map(\.lastPathComponent))
        self.pollInterval = pollInterval
        self.onChange = onChange
    }

    /// Starts watching on a thread of its own. The watch is in place when this returns: a change
    /// made right after is reported.
    public func start(name: String = "hyzer.file-watcher") {
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let fd = inotify_init1(Int32(IN_CLOEXEC))
        // Not IN_MODIFY: it fires for every write to any file in the directory (the hub's WAL
        // beside its commit signal: eight wake-ups a commit, just as its push goes out), and a
        // file being written is complete only when it is closed (IN_CLOSE_WRITE).
        let mask = UInt32(IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE)
        let watching = fd >= 0 && inotify_add_watch(fd, directory.path, mask) >= 0
        let initial = signature()
        let thread = Thread { [self] in run(fd: fd, watching: watching, initial: initial) }
        thread.name = name
        thread.start()
    }

    /// Stops within a tenth of a second.
    public func stop() { stopped.store(true, ordering: .releasing) }

    private func run(fd: Int32, watching: Bool, initial: [String]) {
        defer { if fd >= 0 { close(fd) } }
        let clock = ContinuousClock()
        var nextPoll = clock.now + pollInterval
        var lastSignature = initial
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !stopped.load(ordering: .acquiring) {
            if watching {
                // Wakes for an event, else every 100 ms only to notice `stop()`.
                var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                if poll(&descriptor, 1, 100) > 0 {
                    let count = read(fd, &buffer, buffer.count)
                    // The poll's own signature is left as it was: a change seen here before it
                    // could be read (a commit's WAL write precedes its sync) is seen again by the
                    // next poll, whose signature then differs.
                    if count > 0, !names.isDisjoint(with: Self.names(in: buffer, count: count)) { onChange() }
                }
            } else {
                usleep(100_000)
            }
            if clock.now >= nextPoll {
                nextPoll = clock.now + pollInterval
                let current = signature()
                if current != lastSignature {
                    lastSignature = current
                    onChange()
                }
            }
        }
    }

    /// The file names in a buffer of inotify events.
    static func names(in buffer: [UInt8], count: Int) -> [String] {
        var names: [String] = []
        var offset = 0
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= count {
            let length = buffer.withUnsafeBytes { Int($0.load(fromByteOffset: offset + 12, as: UInt32.self)) }
            let nameBytes = buffer[(offset + header)..<min(count, offset + header + length)]
            names.append(String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self))
            offset += header + length
        }
        return names
    }

    /// Each file's time, size and inode, from `stat` (Foundation's attributes also look up the
    /// owner's name in /etc/passwd and /etc/group: two file reads for every write noticed).
    private func signature() -> [String] {
        polledNames.sorted().map { Self.signature(of: directory.appendingPathComponent($0)) }
    }

    /// A file's time, size and inode ("" when it is missing): a different signature means the
    /// file was written or replaced since.
    public static func signature(of file: URL) -> String {
        var info = stat()
        guard stat(file.path, &info) == 0 else { return "" }
        return "\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec) \(info.st_size) \(info.st_ino)"
    }
}
