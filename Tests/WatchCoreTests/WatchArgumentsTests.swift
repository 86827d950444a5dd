import Foundation
import ArgumentParser
import HyzerHarness
import Testing
@testable import hyzer_watch

/// hyzer-watch's command line, as swift-argument-parser reads it, and what it refuses beyond that.
@Suite("hyzer-watch arguments")
struct WatchArgumentsTests {
    @Test("The command lines the demo, the bench and the README use are read as written", arguments: [
        ["--home", "/tmp/h", "--headless", "--report-first-frame"],
        ["--home=/tmp/h", "--wearer", "Jake", "--size", "49", "--text-size", "ax1", "--no-chrome", "--scale", "physical"],
        ["--connect", "tcp:127.0.0.1:7420", "--token-file", "/tmp/t", "--hub-fingerprint", "sha256:ab", "--device", "w2", "--log-level", "debug"],
    ])
    func common(arguments: [String]) throws {
        let read = try HyzerWatch.parse(arguments).arguments
        #expect(read.home == "/tmp/h" || read.connect != nil)
        if arguments.contains("--wearer") { #expect(read.wearer == "Jake" && read.size == .mm49 && read.textSize == .accessibility1 && read.chrome == false) }
        if arguments.contains("--device") { #expect(read.device == "w2" && read.tokenFile == "/tmp/t" && read.logLevel == .debug) }
    }

    @Test("What the parser lets through but no watch could use is refused with the reason, exit 64, as the parser reads it", arguments: [
        (["--home", ""], "Error: --home needs a value; got an empty one."),
        (["--device", ""], "Error: --device needs a value; got an empty one."),
        (["--device", String(repeating: "w", count: 65)], "Error: --device takes 1 to 64 bytes with no control characters; got 65 bytes."),
        (["--expect-timeout", "1e16"], "Error: --expect-timeout takes seconds from 0 to 3600; got 1e+16."),
        (["--expect-timeout", "nan"], "Error: --expect-timeout takes seconds from 0 to 3600; got nan."),
        (["--hub-fingerprint", "sha256:0000"],
         "Error: --hub-fingerprint takes the hub certificate's SHA-256 as hyzer-hub token --fingerprint prints it (sha256: and 64 hex digits); got sha256:0000."),
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

    @Test("ctl's script line is passed as written: a word with a dash in it is the script's to answer, not a mistyped option")
    func ctlLineAsWritten() async throws {
        let home = try TemporaryHome()
        let result = try await CLIProcess.run("hyzer-watch", ["ctl", "--home", home.path, "advance-clock", "-5m"])
        #expect(!result.stderr.contains("is not an option"), "\(result.stderr)")
        #expect(result.stderr.contains("no watch is running there"), "\(result.stderr)")
        let mistyped = try await CLIProcess.run("hyzer-watch", ["ctl", "-home", home.path, "link", "up"])
        #expect(mistyped.status == 64 && mistyped.stderr.contains("-home is not an option"), "\(mistyped.stderr)")
        // ctl's own option after the line: said to go before it, not answered as a word of the line.
        let late = try await CLIProcess.run("hyzer-watch", ["ctl", "--home", home.path, "wait-for", "dropped", "4", "--timeout", "2"])
        #expect(late.status == 64 && late.stderr.contains("--timeout is an option of ctl: it goes before the command"), "\(late.stderr)")
    }
}
