import Foundation

/// The files that ship with Hyzer: the seeded courses in `Assets/courses/*.json`.
public enum HyzerAssets {
    /// The course files, sorted by file name.
    public static func courseFiles() -> [URL] {
        let folder = Bundle.module.resourceURL?.appendingPathComponent("courses")
        let files = folder.flatMap { try? FileManager.default.contentsOfDirectory(at: $0, includingPropertiesForKeys: nil) } ?? []
        return files.filter { $0.pathExtension == "json" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
    }
}
