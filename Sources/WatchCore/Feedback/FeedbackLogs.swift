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
    private let file: NIOLockedValueBox<AppendOnlyFile>

    /// Makes the file's folder and the file itself now, so a log that cannot be written is said
    /// at start rather than at the first haptic.
    public init(url: URL) throws {
        self.url = url
        try DurableFile.makeDirectory(url.deletingLastPathComponent())
        var file = AppendOnlyFile(url: url)
        try file.append([], sync: false)
        self.file = NIOLockedValueBox(file)
    }

    deinit { close() }

    /// One record already written as JSON (without its newline): `HapticRecord.compactJSON`,
    /// `AnnouncementRecord.compactJSON`.
    public func append(line json: [UInt8]) throws {
        try file.withLockedValue { try $0.append(json + [0x0A], sync: false) }
    }

    public func close() {
        file.withLockedValue { $0.close() }
    }
}
