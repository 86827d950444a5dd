import Foundation
import HyzerStorage
import HyzerKit
import NIOConcurrencyHelpers

/// Appends JSON lines to a file: `watch/haptics.jsonl`, `watch/announcements.jsonl`.
///
/// Lines are written with one `write` each (O_APPEND), not fsynced: they are a log of what the
/// wearer felt and heard, and the crown's detent-to-haptic budget is a few hundred microseconds.
public final class JSONLinesLog: Sendable {
    public let url: URL
    private let handle: NIOLockedValueBox<FileHandle?>

    public init(url: URL) throws {
        self.url = url
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        if !FileManager.default.fileExists(atPath: url.path), !FileManager.default.createFile(atPath: url.path, contents: nil) {
            throw DurableFileError.failed("create", url.path, errno)
        }
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        self.handle = NIOLockedValueBox(handle)
    }

    /// One record already written as JSON (without its newline): `HapticRecord.compactJSON`,
    /// `AnnouncementRecord.compactJSON`.
    public func append(line json: [UInt8]) throws {
        var line = json
        line.append(0x0A)
        try handle.withLockedValue { try $0?.write(contentsOf: line) }
    }

    public func close() {
        handle.withLockedValue { handle in
            try? handle?.close()
            handle = nil
        }
    }
}
