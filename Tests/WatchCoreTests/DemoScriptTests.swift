import Foundation
import HyzerHarness
import Testing

@Suite("tools/demo")
struct DemoScriptTests {
    static let demo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("tools/demo").path

    /// Processes (other than this test run) whose command line names `home`: the demo's hub and watch.
    static func processes(mentioning home: String) throws -> [String] {
        let ownPID = ProcessInfo.processInfo.processIdentifier
        let entries = try FileManager.default.contentsOfDirectory(atPath: "/proc")
        return entries.compactMap { entry -> String? in
            guard let pid = Int32(entry), pid != ownPID,
                  let raw = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { return nil }
            let commandLine = String(decoding: raw.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
            return commandLine.contains(home) ? "\(pid) \(commandLine)" : nil
        }
    }

    static func startDemo(home: TemporaryHome) async throws -> RunningProcess {
        try await RunningProcess(path: demo, [], environment: [
            "HYZER_BIN": CLIProcess.productsDirectory.path, "HYZER_HOME": home.path, "DISPLAY": nil, "WAYLAND_DISPLAY": nil,
        ])
    }

    @Test("The headless demo saves its screenshots and leaves no process behind")
    func normalRun() async throws {
        let home = try TemporaryHome()
        let demo = try await Self.startDemo(home: home)
        #expect(await demo.waitForExit(timeout: .seconds(120)) == 0, "\(demo.stderr)")
        let shots = try FileManager.default.contentsOfDirectory(atPath: home.url.appendingPathComponent("screenshots").path).sorted()
        // The phone's face too, drawn by Chromium where it is installed (tools/test installs it).
        let phone = FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium") ? ["6-phone.png"] : []
        #expect(shots == ["1-leaderboard.png", "2-crown.png", "3-reshuffle.png", "4-voice.png", "5-stale.png"] + phone)
        #expect(try await eventually(timeout: .seconds(5)) { try Self.processes(mentioning: home.path).isEmpty },
                "left running: \((try? Self.processes(mentioning: home.path)) ?? [])")
    }

    @Test("SIGTERM to the demo while the watch runs ends the hub and the watch too")
    func interrupted() async throws {
        let home = try TemporaryHome()
        let demo = try await Self.startDemo(home: home)
        // Both children are up once the watch's command line shows.
        let watchRunning = try await eventually(timeout: .seconds(60), pollingEvery: .milliseconds(5)) {
            try Self.processes(mentioning: home.path).contains { $0.contains("hyzer-watch") }
        }
        try #require(watchRunning, "the demo never started the watch: \(demo.stderr)")
        demo.send(SIGTERM)
        #expect(await demo.waitForExit(timeout: .seconds(30)) != nil)
        #expect(try await eventually(timeout: .seconds(10)) { try Self.processes(mentioning: home.path).isEmpty },
                "left running: \((try? Self.processes(mentioning: home.path)) ?? [])")
    }
}
