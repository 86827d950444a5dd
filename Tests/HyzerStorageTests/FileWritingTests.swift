import Foundation
import HyzerHarness
import HyzerStorage
import Testing

/// Hyzer's one way of writing files, as the files' readers see it.
@Suite("Writing files")
struct FileWritingTests {
    static func mode(of url: URL) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int) ?? -1
    }

    static func names(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test("A replaced file holds the new contents whole, with the mode asked for, and nothing is left beside it")
    func replace() throws {
        let home = try TemporaryHome()
        let url = home.url.appendingPathComponent("secret")
        try Data(String(repeating: "old\n", count: 1_000).utf8).write(to: url)
        try DurableFile.replace(url, with: Data("new\n".utf8), mode: 0o600)
        #expect(try String(contentsOf: url, encoding: .utf8) == "new\n")
        #expect(try Self.mode(of: url) == 0o600)
        try DurableFile.replace(url, with: Data("newer\n".utf8), durable: false)
        #expect(try String(contentsOf: url, encoding: .utf8) == "newer\n")
        #expect(try Self.names(in: home.url) == ["secret"])
    }

    @Test("Replacing a file in a folder that is not there says which file and why, and leaves nothing")
    func replaceFails() throws {
        let home = try TemporaryHome()
        let url = home.url.appendingPathComponent("missing/file")
        #expect {
            try DurableFile.replace(url, with: Data("x".utf8))
        } throws: { error in
            "\(error)".contains(home.url.appendingPathComponent("missing").path) && "\(error)".contains("No such file or directory")
        }
        #expect(try Self.names(in: home.url).isEmpty)
    }

    @Test("Created only if absent: the first contents stay, a second creator is told so, no temp file is left")
    func createIfAbsent() throws {
        let home = try TemporaryHome()
        let url = home.url.appendingPathComponent("token")
        #expect(try DurableFile.createIfAbsent(url, with: Data("first\n".utf8), mode: 0o600))
        #expect(try !DurableFile.createIfAbsent(url, with: Data("second\n".utf8), mode: 0o600))
        #expect(try String(contentsOf: url, encoding: .utf8) == "first\n")
        #expect(try Self.mode(of: url) == 0o600)
        #expect(try Self.names(in: home.url) == ["token"])
    }

    @Test("Appended records are lines in order; after a file left ending mid-line the next record starts a line of its own")
    func append() throws {
        let home = try TemporaryHome()
        let url = home.url.appendingPathComponent("log.jsonl")
        var file = AppendOnlyFile(url: url)
        try file.append(Array("one\n".utf8), sync: true)
        try file.append(Array("two\n".utf8), sync: false)
        file.close()
        #expect(try String(contentsOf: url, encoding: .utf8) == "one\ntwo\n")

        try Data("one\nhal".utf8).write(to: url)  // a record a crash cut off
        var reopened = AppendOnlyFile(url: url)
        try reopened.append(Array("three\n".utf8), sync: true)
        #expect(reopened.length == "one\nhal\nthree\n".utf8.count)
        try reopened.removeAll()
        try reopened.append(Array("four\n".utf8), sync: false)
        reopened.close()
        #expect(try String(contentsOf: url, encoding: .utf8) == "four\n")
    }

    @Test("mkdir -p makes every missing folder, and a file in the way is named")
    func makeDirectory() throws {
        let home = try TemporaryHome()
        let deep = home.url.appendingPathComponent("a/b/c")
        try DurableFile.makeDirectory(deep, mode: 0o700)
        #expect(try Self.mode(of: deep) == 0o700)
        let blocker = home.url.appendingPathComponent("file")
        try Data().write(to: blocker)
        #expect {
            try DurableFile.makeDirectory(blocker.appendingPathComponent("inside"))
        } throws: { error in "\(error)".contains(blocker.path) }
    }
}
