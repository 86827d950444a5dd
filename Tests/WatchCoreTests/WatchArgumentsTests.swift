import Foundation
import ArgumentParser
import HyzerHarness
import Testing
@testable import hyzer_watch

/// hyzer-watch reads plain command lines itself (`WatchArguments.quick`) to start sooner; it must
/// never read one otherwise than swift-argument-parser does.
@Suite("hyzer-watch arguments")
struct WatchArgumentsTests {
    static let names = ["--home", "--connect", "--token-file", "--hub-fingerprint", "--insecure", "--size", "--headless", "--script",
                        "--screenshot-dir", "--expect-timeout", "--reduce-motion", "--text-size", "--chrome", "--no-chrome", "--scale",
                        "--device", "--wearer", "--log-level", "--report-first-frame"]
    static let others = ["--help", "-h", "--version", "--", "-x", "--verbose", "--home=", "--headless=yes", "--no-chrome=1", "--Home",
                         "--generate-completion-script", "home", "--size=45", "--log-level=DEBUG", "--scale=-2", "---home"]
    static let values = ["/tmp/h", "", "-1", "45", "41", "49", "50", "ax1", "AX1", "xl", "bogus", "2", "physical", "0.1", "1e1", "inf",
                         "nan", "unix:/tmp/s", "tcp:host:80", "tcp:", "tcp:[::1]:9", "debug", "TRACE", "watch-1", "Zoë", "a=b", " 3", "3 "]

    @Test("The command lines the demo, the bench and the README use are read without the parser, as the parser reads them", arguments: [
        ["--home", "/tmp/h", "--headless", "--report-first-frame"],
        ["--home", "/tmp/h"],
        [],
        ["--home=/tmp/h", "--wearer", "Jake", "--size", "49", "--text-size", "ax1", "--no-chrome", "--scale", "physical"],
        ["--connect", "tcp:127.0.0.1:7420", "--token-file", "/tmp/t", "--hub-fingerprint", "sha256:ab", "--device", "w2", "--log-level", "debug"],
        ["--headless", "--script", "/tmp/s.txt", "--screenshot-dir", "/tmp", "--expect-timeout", "5", "--reduce-motion", "--chrome", "--insecure"],
    ])
    func common(arguments: [String]) throws {
        let quick = try #require(WatchArguments.quick(arguments))
        #expect(try HyzerWatch.parse(arguments).arguments == quick)
    }

    @Test("Over thousands of random command lines, whatever the quick reader accepts the parser reads the same")
    func randomLines() throws {
        var random = try SeededRandom.fromEnvironment(for: "hyzer-watch arguments")
        var accepted = 0, refused = 0
        for _ in 0..<2_500 {
            var line: [String] = []
            for _ in 0..<Int.random(in: 0...5, using: &random) {
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<5: line += [Self.names.randomElement(using: &random)!, Self.values.randomElement(using: &random)!]
                case 5..<7: line.append(Self.names.randomElement(using: &random)!)
                case 7: line.append(Self.names.randomElement(using: &random)! + "=" + Self.values.randomElement(using: &random)!)
                case 8: line.append(Self.others.randomElement(using: &random)!)
                default: line.append(Self.values.randomElement(using: &random)!)
                }
            }
            guard let quick = WatchArguments.quick(line) else { refused += 1; continue }
            accepted += 1
            let parsed = try? HyzerWatch.parse(line)
            #expect(parsed?.arguments == quick, "read otherwise than the parser (replay): \(line)")
        }
        #expect(accepted > 200 && refused > 200, "too few of one kind to compare (replay): \(accepted) read, \(refused) left to the parser")
    }

    @Test("What the parser lets through but no watch could use is refused with the reason, exit 64, whichever reader read it", arguments: [
        (["--home", ""], "Error: --home needs a value; got an empty one."),
        (["--device", ""], "Error: --device needs a value; got an empty one."),
        (["--device", String(repeating: "w", count: 65)], "Error: --device takes 1 to 64 bytes with no control characters; got 65 bytes."),
        (["--expect-timeout", "1e16"], "Error: --expect-timeout takes seconds from 0 to 3600; got 1e+16."),
        (["--expect-timeout", "nan"], "Error: --expect-timeout takes seconds from 0 to 3600; got nan."),
    ])
    func unusable(arguments: [String], message: String) async throws {
        let home = try TemporaryHome()
        let script = home.url.appendingPathComponent("quit.txt")
        try "quit\n".write(to: script, atomically: true, encoding: .utf8)
        let result = try await CLIProcess.run("hyzer-watch", (arguments.first == "--home" ? [] : ["--home", home.path])
                                                  + arguments + ["--headless", "--script", script.path])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
    }

    @Test("A long option written with one dash is refused, naming it and the two-dash spelling, exit 64; the parser would have read -home as -h and printed the help with status 0", arguments: [
        ["-home", "HOME", "--headless"], ["--home", "HOME", "-headless"], ["--home", "HOME", "--headless", "-device=w"],
    ])
    func singleDashWord(arguments: [String]) async throws {
        let home = try TemporaryHome()
        let result = try await CLIProcess.run("hyzer-watch", arguments.map { $0 == "HOME" ? home.path : $0 })
        let word = arguments.first { $0.hasPrefix("-") && !$0.hasPrefix("--") }!
        let long = "--" + word.dropFirst().split(separator: "=").first!
        #expect(result.status == 64)
        #expect(result.stderr == "hyzer-watch: \(word) is not an option. Long options take two dashes (\(long)); the only one-letter option is -h (help). See 'hyzer-watch --help'.\n")
        #expect(result.stdout == "")
        #expect(!FileManager.default.fileExists(atPath: home.url.appendingPathComponent("watch").path), "nothing ran")
    }
}
