import Foundation
import HyzerHarness
import Testing

/// `tools/screenshots` makes every picture the README and docs/ show, and the committed ones are
/// what it makes now: a face changed without running it fails here, naming the stale pictures.
@Suite("tools/screenshots")
struct ScreenshotsScriptTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Pictures timed by the real clock (the voice overlay's countdown bar, a recording): compared
    /// by size only.
    static let timed: Set<String> = ["watch-voice.png", "watch-voice-correct.png", "watch-reshuffle.png", "watch-reduce-motion.png"]

    /// Every `watch-….png` the README and docs/*.md show.
    static func shownInDocs() throws -> Set<String> {
        let docs = root.appendingPathComponent("docs")
        let pages = [root.appendingPathComponent("README.md")]
            + (try FileManager.default.contentsOfDirectory(atPath: docs.path)).filter { $0.hasSuffix(".md") }.map { docs.appendingPathComponent($0) }
        var names: Set<String> = []
        for page in pages {
            let text = try String(contentsOf: page, encoding: .utf8)
            for match in text.matches(of: /!\[[^\]]*\]\((?:docs\/)?(watch-[^)\/]+\.png)\)/) { names.insert(String(match.1)) }
        }
        return names
    }

    /// Width and height from a PNG's header.
    static func size(_ data: Data) -> (Int, Int)? {
        guard data.count > 24 else { return nil }
        let be = { (at: Int) in data[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (be(16), be(20))
    }

    @Test("Every picture the docs show is made by tools/screenshots, and the committed ones are current")
    func picturesAreCurrent() async throws {
        let out = try TemporaryHome()
        let run = try await CLIProcess.runTool(Self.root.appendingPathComponent("tools/screenshots").path, ["--out", out.path],
                                               environment: ["HYZER_BIN": CLIProcess.productsDirectory.path, "DISPLAY": "", "WAYLAND_DISPLAY": ""])
        try #require(run.status == 0, "tools/screenshots failed: \(run.stderr)")
        let made = Set(try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".png") })
        let shown = try Self.shownInDocs()
        #expect(shown.subtracting(made).isEmpty, "shown in the docs but not made by tools/screenshots: \(shown.subtracting(made).sorted())")
        #expect(made.subtracting(shown).isEmpty, "made but shown nowhere: \(made.subtracting(shown).sorted())")
        var stale: [String] = []
        for name in made.sorted() {
            let new = try Data(contentsOf: out.url.appendingPathComponent(name))
            let committed = try? Data(contentsOf: Self.root.appendingPathComponent("docs/\(name)"))
            let current = Self.timed.contains(name) ? committed.flatMap(Self.size).map { $0 == Self.size(new)! } ?? false : committed == new
            if !current { stale.append(name) }
        }
        #expect(stale.isEmpty, "docs/ holds an old face in \(stale): run tools/screenshots and commit the pictures")
    }
}
