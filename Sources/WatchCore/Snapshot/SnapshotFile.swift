import Foundation
import HyzerKit

/// Why `standings.json` could not be used. The watch keeps its last good snapshot and says this.
public enum SnapshotReadError: Error, Equatable, Sendable, CustomStringConvertible {
    case missing(path: String)
    case unreadable(path: String, reason: String)
    case unsupportedSchema(version: Int)

    public var description: String {
        switch self {
        case .missing(let path): "no standings file at \(path) yet"
        case .unreadable(let path, let reason): "\(path) is partial or corrupt (\(reason)); keeping the last good standings"
        case .unsupportedSchema(let version): "standings schema version \(version) is not supported (this watch reads version \(StandingsSnapshot.currentSchemaVersion))"
        }
    }
}

/// Reading `shared/standings.json`, the "app group" file the hub replaces atomically.
public enum SnapshotFile {
    public static func read(_ url: URL) -> Result<StandingsSnapshot, SnapshotReadError> {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            return .failure(FileManager.default.fileExists(atPath: url.path)
                ? .unreadable(path: url.path, reason: "cannot be read")
                : .missing(path: url.path))
        }
        return decode(data, path: url.path)
    }

    public static func decode(_ data: Data, path: String) -> Result<StandingsSnapshot, SnapshotReadError> {
        do {
            let snapshot = try HyzerJSON.decoder().decode(StandingsSnapshot.self, from: data)
            guard snapshot.schemaVersion == StandingsSnapshot.currentSchemaVersion else {
                return .failure(.unsupportedSchema(version: snapshot.schemaVersion))
            }
            if let violation = snapshot.schemaViolation { return .failure(.unreadable(path: path, reason: violation)) }
            return .success(snapshot)
        } catch {
            let reason = data.isEmpty ? "empty" : "\(data.count) bytes that are not a standings snapshot"
            return .failure(.unreadable(path: path, reason: reason))
        }
    }
}
