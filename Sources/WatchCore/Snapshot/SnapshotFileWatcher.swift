#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Logging
import NIOConcurrencyHelpers

/// Calls `onChange` when `standings.json` is replaced: inotify on its directory (the hub renames a
/// new file into place), with a slow poll as a safety net for file systems without inotify.
public final class SnapshotFileWatcher: Sendable {
    public let url: URL
    private let onChange: @Sendable () -> Void
    private let stopped = NIOLockedValueBox(false)
    private let logger = Logger(label: "hyzer.watch.snapshot")
    private let pollInterval: TimeInterval

    public init(url: URL, pollInterval: TimeInterval = 1, onChange: @escaping @Sendable () -> Void) {
        self.url = url
        self.pollInterval = pollInterval
        self.onChange = onChange
    }

    public func start() {
        let directory = url.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let thread = Thread { [self] in run(directory: directory) }
        thread.name = "hyzer.watch.snapshot"
        thread.start()
    }

    public func stop() { stopped.withLockedValue { $0 = true } }

    private func run(directory: URL) {
        let fd = inotify_init1(Int32(IN_CLOEXEC))
        let watch = fd >= 0 ? inotify_add_watch(fd, directory.path, UInt32(IN_MOVED_TO | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE)) : -1
        if watch < 0 {
            logger.notice("inotify unavailable; polling \(url.path) every \(pollInterval)s")
        }
        defer { if fd >= 0 { close(fd) } }
        var lastPoll = Date()
        var lastSignature = signature()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !stopped.withLockedValue({ $0 }) {
            if watch >= 0 {
                var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                if poll(&descriptor, 1, 100) > 0 {
                    let count = read(fd, &buffer, buffer.count)
                    if count > 0, Self.names(in: buffer, count: count).contains(url.lastPathComponent) {
                        lastSignature = signature()
                        onChange()
                    }
                }
            } else {
                usleep(50_000)
            }
            if Date().timeIntervalSince(lastPoll) >= pollInterval {
                lastPoll = Date()
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

    private func signature() -> [String] {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else { return [] }
        return ["\(attributes[.modificationDate] ?? "")", "\(attributes[.size] ?? "")", "\(attributes[.systemFileNumber] ?? "")"]
    }
}
