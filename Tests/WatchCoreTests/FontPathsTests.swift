import Foundation
import HyzerHarness
import Testing
import WatchCore
@testable import hyzer_watch

/// `watch/font-paths`: where fontconfig found the face's fonts, kept so that the next start need
/// not ask it. A cache a start cannot trust is ignored (fontconfig is asked again), never used.
@Suite("The watch's saved font paths")
struct FontPathsTests {
    /// Font files named as DejaVu's, in a temporary folder (only names and readability are checked).
    private func fonts(in home: TemporaryHome) throws -> [FontSpec.Family: String] {
        var paths: [FontSpec.Family: String] = [:]
        for family in FontSpec.Family.allCases {
            let url = home.url.appendingPathComponent(FontBook.patterns[family]!.file)
            try Data("not a font".utf8).write(to: url)
            paths[family] = url.path
        }
        return paths
    }

    @Test("What a start saves, the next start reads back")
    func roundTrip() throws {
        let home = try TemporaryHome()
        let paths = try fonts(in: home)
        let cache = home.url.appendingPathComponent("font-paths")
        try FontBook.save(paths, in: cache)
        #expect(FontBook.savedPaths(in: cache) == paths)
        #expect(try String(contentsOf: cache, encoding: .utf8).split(separator: "\n").count == FontSpec.Family.allCases.count)
    }

    @Test("No cache, a damaged one, the earlier JSON one, a moved or wrong font: fontconfig is asked again")
    func untrusted() throws {
        let home = try TemporaryHome()
        let paths = try fonts(in: home)
        let cache = home.url.appendingPathComponent("font-paths")
        #expect(FontBook.savedPaths(in: cache) == nil)

        func saved(_ text: String) throws -> [FontSpec.Family: String]? {
            try Data(text.utf8).write(to: cache)
            return FontBook.savedPaths(in: cache)
        }
        let lines = FontSpec.Family.allCases.map { "\($0.rawValue)\t\(paths[$0]!)" }
        #expect(try saved(lines.joined(separator: "\n")) == paths, "a last line without its line break still reads")
        #expect(try saved("{\"sans\":\"\(paths[.sans]!)\"}") == nil)
        #expect(try saved(lines.dropLast().joined(separator: "\n") + "\n") == nil, "a family missing")
        #expect(try saved((lines + [lines[0]]).joined(separator: "\n") + "\n") == nil, "a family twice")
        #expect(try saved(lines.joined(separator: "\n").replacingOccurrences(of: "sansBold\t", with: "serif\t") + "\n") == nil, "an unknown family")
        let swapped = lines.joined(separator: "\n").replacingOccurrences(of: "DejaVuSans-Bold.ttf", with: "DejaVuSans.ttf")
        #expect(try saved(swapped + "\n") == nil, "a path that is another family's file")
        try FileManager.default.removeItem(atPath: paths[.monoBold]!)
        #expect(try saved(lines.joined(separator: "\n") + "\n") == nil, "a font removed since")
        #expect(try saved(String(repeating: "x", count: 20_000)) == nil, "larger than any cache")
    }

    @Test("A FIFO, a directory or a device where the cache should be is not read (nor waited on)")
    func notARegularFile() throws {
        let home = try TemporaryHome()
        let fifo = home.url.appendingPathComponent("fifo")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        #expect(FontBook.savedPaths(in: fifo) == nil)
        #expect(FontBook.savedPaths(in: home.url) == nil)
        #expect(FontBook.savedPaths(in: URL(fileURLWithPath: "/dev/zero")) == nil)
    }

    @Test("Saving replaces the cache whole and leaves no other file beside it")
    func replaces() throws {
        let home = try TemporaryHome()
        let paths = try fonts(in: home)
        let folder = home.url.appendingPathComponent("watch")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let cache = folder.appendingPathComponent("font-paths")
        try Data(String(repeating: "stale line\n", count: 100).utf8).write(to: cache)
        // What a start killed mid-write left: replaced by the next write, not added to.
        try Data("half".utf8).write(to: folder.appendingPathComponent(".font-paths.tmp"))
        try FontBook.save(paths, in: cache)
        #expect(FontBook.savedPaths(in: cache) == paths)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["font-paths"])
    }

    @Test("A path with a tab or a line break is not saved")
    func unsavable() throws {
        let home = try TemporaryHome()
        var paths = try fonts(in: home)
        paths[.sans] = "/fonts\twith a tab/DejaVuSans.ttf"
        #expect(throws: HostError.self) { try FontBook.save(paths, in: home.url.appendingPathComponent("font-paths")) }
        paths[.sans] = "/fonts\nwith a break/DejaVuSans.ttf"
        #expect(throws: HostError.self) { try FontBook.save(paths, in: home.url.appendingPathComponent("font-paths")) }
    }
}
