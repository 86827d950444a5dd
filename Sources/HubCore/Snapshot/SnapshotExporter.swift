import Foundation
import HyzerKit
import HyzerStorage

/// Writes `shared/standings.json`, the file a watch on the same machine always has.
///
/// Exporters in several `hyzer-hub` processes take turns under a file lock, and each builds its
/// snapshot from the newest committed state while holding it, so the file always ends on the
/// newest. The write is durable and atomic (temp file, fsync, rename, directory fsync).
public struct SnapshotExporter: Sendable {
    public let url: URL
    private let lockURL: URL

    public init(url: URL) {
        self.url = url
        lockURL = url.deletingLastPathComponent().appendingPathComponent(".standings.lock")
    }

    /// Builds the snapshot with `makeSnapshot` under the lock and writes it; returns what was written.
    public func export(_ makeSnapshot: () throws -> StandingsSnapshot) throws -> StandingsSnapshot {
        do {
            return try FileLock.withLock(lockURL) {
                removeLeftoverTempFiles()
                let snapshot = try makeSnapshot()
                // Another process already wrote this very change: nothing to write (and no second
                // fsync), the file keeps saying when the standings last changed.
                if let written = Self.written(at: url), written.hubID == snapshot.hubID, written.sequence == snapshot.sequence {
                    return snapshot
                }
                try DurableFile.replace(url, with: snapshot.prettyJSON())
                return snapshot
            }
        } catch let error as DurableFileError {
            throw HubError.storage("The change is saved, but \(url.path) was not updated: \(error)")
        }
    }

    /// Which change the file holds and when it was written, if it can be read.
    public func writtenSnapshotHeader() -> (hubID: String, sequence: Int, lastUpdatedAt: Date)? {
        struct Header: Decodable { let hubID: String; let sequence: Int; let lastUpdatedAt: Date }
        guard let data = try? Data(contentsOf: url), let header = try? HyzerJSON.decoder().decode(Header.self, from: data) else { return nil }
        return (header.hubID, header.sequence, header.lastUpdatedAt)
    }

    /// Which change the file holds, if it can be read.
    private static func written(at url: URL) -> (hubID: String, sequence: Int)? {
        struct Header: Decodable { let hubID: String; let sequence: Int }
        guard let data = try? Data(contentsOf: url), let header = try? JSONDecoder().decode(Header.self, from: data) else { return nil }
        return (header.hubID, header.sequence)
    }

    /// Temp files an exporter killed mid-write left behind (`.standings.json.PID.tmp`). Only the
    /// lock holder writes one, so under the lock any that exists is stale.
    private func removeLeftoverTempFiles() {
        let directory = url.deletingLastPathComponent()
        let prefix = ".\(url.lastPathComponent)."
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            unlink(directory.appendingPathComponent(name).path)
        }
    }
}
