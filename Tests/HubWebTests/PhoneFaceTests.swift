import Foundation
import HyzerHarness
import Testing

/// The phone's face in a real browser: `phone_face.py` drives Debian's Chromium (headless, through
/// chromedriver and Selenium; `tools/test` installs them) against a real `hyzer-hub serve` and a
/// real headless `hyzer-watch` on one home, and checks what a user of both would see.
@Suite("The phone's face", .serialized)
struct PhoneFaceTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("phone_face.py").path
    /// Debian's Python, where python3-selenium lives.
    static let python = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") ? "/usr/bin/python3" : "python3"
    /// Where the screenshots go (docs/ holds the committed ones; tools/screenshots makes them).
    static let shots = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-phone-face")

    static func browser(_ arguments: [String]) async throws -> CLIProcess.Result {
        let bin = CLIProcess.productsDirectory.path
        return try await CLIProcess.runTool(python, [script] + arguments, environment: [
            "PATH": "\(bin):\(ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")",
        ])
    }

    static func webAddress(_ server: RunningProcess) async -> String? {
        guard await server.waitForLine(timeout: .seconds(30), { $0.hasPrefix("hyzer-hub phone's face on ") }) else { return nil }
        // "hyzer-hub phone's face on URL", and off loopback " (all addresses: …)" after it.
        return server.lines.first { $0.hasPrefix("hyzer-hub phone's face on ") }?.split(separator: " ").dropFirst(4).first.map(String.init)
    }

    /// A round on Willow Creek with `players` (and hole 1 scored by voice when `holeOne` says
    /// how), served with `serveArguments`: the home, the server and the page's address.
    static func servedPage(_ players: [String], holeOne: String? = nil, _ serveArguments: [String] = []) async throws
        -> (home: TemporaryHome, server: RunningProcess, url: String) {
        let home = try TemporaryHome()
        #expect(try await CLIProcess.run("hyzer-hub", ["--home", home.path, "round", "start", "--course", "Willow Creek", "--player"] + players).status == 0)
        if let holeOne { #expect(try await CLIProcess.run("hyzer-hub", ["--home", home.path, "voice", holeOne, "--hole", "1"]).status == 0) }
        let server = try await home.serve(serveArguments)
        guard let url = await webAddress(server) else {
            server.stop()
            throw TestFailure("serve did not print the page's address: \(server.lines)")
        }
        return (home, server, url)
    }

    @Test("A watch scores and the page shows it without a reload; the page scores and the watch shows it; a discrepancy from two devices is resolved on the page; voice, finish, history, setup; the accessibility tree")
    func scoresBothWays() async throws {
        let (home, server, url) = try await Self.servedPage(["Ann", "Ben", "Cal"])
        defer { server.stop() }
        #expect(url.hasPrefix("http://127.0.0.1:"))
        let watch = try await RunningProcess("hyzer-watch", ["--home", home.path, "--headless"])
        defer { watch.stop() }
        #expect(await eventually { FileManager.default.fileExists(atPath: home.url.appendingPathComponent("watch/ctl.sock").path) })
        #expect(try await CLIProcess.run("hyzer-watch", ["ctl", "--home", home.path, "--timeout", "20", "wait-for", "reachable"]).status == 0)
        try FileManager.default.createDirectory(at: Self.shots, withIntermediateDirectories: true)
        let result = try await Self.browser(["scenario", url, home.path, Self.shots.path])
        #expect(result.status == 0, "\(result.stderr.suffix(1_500))")
    }

    @Test("Off loopback the page is served over TLS with the hub's certificate and needs the pairing token: refused without it, works with it")
    func offLoopback() async throws {
        let (home, server, url) = try await Self.servedPage(["Ann", "Ben"], ["--web", "0.0.0.0:0"])
        defer { server.stop() }
        let local = url.replacingOccurrences(of: "0.0.0.0", with: "127.0.0.1")
        let result = try await Self.browser(["access", local, home.path])
        #expect(result.status == 0, "\(result.stderr.suffix(1_500))")
    }

    @Test("The page's API refuses what it cannot take, as the command line does: unknown routes, oversized and malformed bodies, scores the rules refuse; nothing accepted is lost")
    func refusals() async throws {
        let (home, server, url) = try await Self.servedPage(["Ann", "Ben"])
        defer { server.stop() }
        let result = try await Self.browser(["api", url, home.path])
        #expect(result.status == 0, "\(result.stderr.suffix(1_500))")
    }

    @Test("Peers that stall mid-request, never read the live page, send garbage or oversized headers: a reading page still gets the newest standings, the API answers, memory stays bounded; a request never finished is closed after 10 s and does not hold serve's stop")
    func hostilePeers() async throws {
        let (home, server, url) = try await Self.servedPage((1...150).map { String(format: "Player %03d", $0) })
        defer { server.stop() }
        let result = try await Self.browser(["hostile", url, home.path])
        #expect(result.status == 0, "\(result.stderr.suffix(1_500))")
        // The script stops serve with SIGTERM last.
        #expect(await server.waitForExit(timeout: .seconds(15)) == 0)
    }

    @Test("Requests mutated from good ones (methods, paths, headers, bodies; seeded, the seed printed) are each answered below 500 or closed; serve keeps serving and loses nothing accepted")
    func fuzzedRequests() async throws {
        let (home, server, url) = try await Self.servedPage(["Ann", "Ben"], holeOne: "Ann 3, Ben 4")
        defer { server.stop() }
        let result = try await Self.browser(["fuzz", url, home.path])
        #expect(result.status == 0, "\(result.stderr.suffix(1_500))")
        #expect(server.isRunning)
    }

    @Test("serve --no-web serves no page; without --web the page comes back on its last port; a --web address that is not HOST:PORT is refused before anything starts")
    func options() async throws {
        let home = try TemporaryHome()
        let server = try await home.serve(["--no-web"])
        #expect(!server.lines.contains { $0.contains("phone's face") })
        server.send(SIGTERM)
        #expect(await server.waitForExit(timeout: .seconds(30)) != nil)
        // Without --web the page comes back on the port it had, so an open page finds its phone again.
        let first = try await home.serve()
        let address = try #require(await Self.webAddress(first))
        #expect(try String(contentsOf: home.url.appendingPathComponent("hub/web-address"), encoding: .utf8) == address + "\n")
        first.send(SIGTERM)
        #expect(await first.waitForExit(timeout: .seconds(30)) != nil)
        let again = try await home.serve()
        defer { again.stop() }
        #expect(await Self.webAddress(again) == address)
        let bad = try await CLIProcess.run("hyzer-hub", ["--home", home.path, "serve", "--web", "localhost"])
        #expect(bad.status == 64 && bad.stderr.contains("--web: \"localhost\" is not a web address to listen on: give HOST:PORT"), "\(bad.stderr)")
    }
}
