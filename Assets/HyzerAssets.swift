import Foundation

/// The files that ship with Hyzer: the seeded courses in `Assets/courses/*.json` and the
/// recorded rounds in `Assets/rounds/*.json`.
public enum HyzerAssets {
    /// The course files, sorted by file name.
    public static func courseFiles() -> [URL] { files(in: "courses") }

    /// The recorded rounds (`hyzer-hub replay`), sorted by file name.
    public static func roundFiles() -> [URL] { files(in: "rounds") }

    private static func files(in name: String) -> [URL] {
        let folder = Bundle.module.resourceURL?.appendingPathComponent(name)
        let files = folder.flatMap { try? FileManager.default.contentsOfDirectory(at: $0, includingPropertiesForKeys: nil) } ?? []
        return files.filter { $0.pathExtension == "json" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
    }
}
