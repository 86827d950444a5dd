import Foundation
import HyzerStorage
import HyzerKit
import NIOConcurrencyHelpers
import Synchronization

/// Appends JSON lines to a file: `watch/haptics.jsonl`, `watch/announcements.jsonl`.
///
/// Lines are appended (`AppendOnlyFile`), not fsynced: they are a log of what the wearer felt and
/// heard, and a haptic is logged on the crown's detent, which must not wait for the disk.
public final class JSONLinesLog: Sendable {
    public let url: URL
    private let file: Mutex<AppendOnlyFile>

    public init(url: URL) throws {
        self.url = url
        // The file is there from the start, empty until the first record, for whoever reads it.
        try DurableFile.makeDirectory(url.deletingLastPathComponent())
        var log = AppendOnlyFile(url: url)
        try log.append(Data(), sync: false)
        file = Mutex(log)
    }

    /// One record already written as JSON (without its newline): `HapticRecord.compactJSON`,
    /// `AnnouncementRecord.compactJSON`.
    public func append(line json: [UInt8]) throws {
        var line = Data(json)
        line.append(0x0A)
        try file.withLock { try $0.append(line, sync: false) }
    }

    public func close() {
        file.withLock { $0.close() }
    }
}
