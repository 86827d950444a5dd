import Foundation
import HyzerKit
import HyzerHarness
import Testing

/// Scoring from the wrist as a user does it, end to end: the real `hyzer-hub serve` and
/// `hyzer-watch --headless` on a temporary home. Each test failed before its fix.
@Suite("Scoring you can trust from the wrist", .serialized)
struct WristTests {
    static func events(_ home: TemporaryHome) async throws -> [ScoreEvent] {
        try HyzerJSON.decoder().decode([ScoreEvent].self, from: Data(try await home.hub("events", "--json").stdout.utf8))
    }

    static func jsonLines(_ url: URL) throws -> [[String: Any]] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
            .map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
    }

    static func runWatch(_ home: TemporaryHome, _ script: String, _ extra: [String] = []) async throws -> RunningProcess {
        let file = try WatchHeadlessTests.script(home, script)
        return try await RunningProcess("hyzer-watch", ["--home", home.path, "--headless", "--script", file, "--screenshot-dir", home.path,
                                                        "--log-level", "info", "--expect-timeout", "15"] + extra)
    }

    @Test("Re-scoring from the watch corrects its own score; scoring over the phone's different score is a discrepancy the watch shows")
    func rescoring() async throws {
        let home = try TemporaryHome()
        #expect(try await home.hub("round", "start", "--course", "Maple Hill", "--player", "Ann", "Ben", "Cat").status == 0)
        #expect(try await home.hub("score", "Ben", "3").status == 0)
        let server = try await home.serve()
        defer { server.stop() }
        let watch = try await Self.runWatch(home, """
            wait-snapshot
            tap Ann
            crown +1
            save
            expect-text "2 Ann +1"
            tap Ann
            expect-text "Hole 1 Scored 4 by this watch"
            expect-text "Correct"
            screenshot rescore.png
            crown -2
            save
            expect-text "Ann -1"
            tap Ben
            expect-text "Hole 1 Scored 3 by phone"
            crown +2
            save
            expect-text "Ben ! E"
            screenshot discrepancy.png
            tap Ben
            expect-text "Hole 1 Disputed · 3 phone · 5 you"
            screenshot disputed-open.png
            back
            """)
        #expect(await watch.waitForExit(timeout: .seconds(60)) == 0, "\(watch.stderr.suffix(800))")

        let events = try await Self.events(home)
        let ann = events.filter { $0.deviceID == "watch" && $0.strokes != 5 }
        #expect(ann.map(\.strokes) == [4, 2])
        #expect(ann[1].supersedesEventID == ann[0].id, "the re-score supersedes the watch's own score")
        let discrepancies = try JSONSerialization.jsonObject(with: Data(try await home.hub("discrepancies", "--json").stdout.utf8)) as! [[String: Any]]
        #expect(discrepancies.map { $0["name"] as? String } == ["Ben"], "only Ben's hole is disputed, never Ann's")
        let announcements = try Self.jsonLines(home.url.appendingPathComponent("watch/announcements.jsonl")).compactMap { $0["text"] as? String }
        #expect(announcements.contains { $0.hasPrefix("Discrepancy. Ben, hole 1: this watch says 5, another device disagrees.") })
        #expect(!announcements.contains { $0.contains("Discrepancy for Ben") }, "said once, by the ack, not again by the standings")
        #expect(announcements.contains { $0.hasPrefix("Score for Ann. Already scored 4 by this watch.") })
        #expect(announcements.contains { $0.hasPrefix("Score for Ben. Hole 1 is disputed. The phone says 3, which counts for now. This watch says 5. The organizer settles it on the phone.") })
        let haptics = try Self.jsonLines(home.url.appendingPathComponent("watch/haptics.jsonl"))
        #expect(haptics.contains { $0["kind"] as? String == "notification" && $0["value"] as? Int == 5 })
    }

    @Test("When the phone finishes the round the watch shows the final standings, then the round's summary on No active round")
    func roundEnd() async throws {
        let home = try TemporaryHome()
        #expect(try await home.hub("round", "start", "--course", "Maple Hill", "--player", "Ann", "Ben").status == 0)
        #expect(try await home.hub("score", "Ann", "2").status == 0)
        #expect(try await home.hub("score", "Ben", "4").status == 0)
        let server = try await home.serve()
        defer { server.stop() }
        let watch = try await Self.runWatch(home, """
            wait-snapshot
            expect-text "1 Ann -1 2 Ben +1"
            expect-screen final
            expect-text "Final"
            expect-text "1 Ann -1 2 Ben +1"
            screenshot final.png
            back
            expect-screen no-round
            expect-text "Last: Maple Hill"
            expect-text "Ann won, -1"
            screenshot last-round.png
            """)
        #expect(await eventually(timeout: .seconds(15)) { watch.stderr.contains("line 3: expect-screen final") })
        #expect(try await home.hub("round", "finish", "--force").status == 0)
        #expect(await watch.waitForExit(timeout: .seconds(60)) == 0, "\(watch.stderr.suffix(800))")
        let announcements = try Self.jsonLines(home.url.appendingPathComponent("watch/announcements.jsonl")).compactMap { $0["text"] as? String }
        #expect(announcements.contains("Round finished on Maple Hill. Final standings. First, Ann, minus one. Second, Ben, plus one."))
        let haptics = try Self.jsonLines(home.url.appendingPathComponent("watch/haptics.jsonl")).compactMap { $0["kind"] as? String }
        #expect(haptics.contains("notification"))
    }

    @Test("The phone going away is announced once and its return once; the watch quitting is not the phone going away")
    func quittingIsNotNews() async throws {
        let home = try TemporaryHome()
        #expect(try await home.hub("round", "start", "--course", "Maple Hill", "--player", "Ann", "Ben").status == 0)
        let server = try await home.serve()
        defer { server.stop() }
        let watch = try await Self.runWatch(home, """
            wait-snapshot
            expect-reachable true
            link down
            expect-reachable false
            link up
            expect-reachable true
            quit
            """)
        #expect(await watch.waitForExit(timeout: .seconds(60)) == 0, "\(watch.stderr.suffix(800))")
        let announcements = try Self.jsonLines(home.url.appendingPathComponent("watch/announcements.jsonl")).compactMap { $0["text"] as? String }
        #expect(announcements.filter { $0.hasPrefix("No phone") }.count == 1, "\(announcements)")
        #expect(announcements.last == "Phone connected.", "\(announcements)")
    }

    @Test("A score saved while the phone is away marks its row as pending until the hub acks it")
    func pendingRow() async throws {
        let home = try TemporaryHome()
        #expect(try await home.hub("round", "start", "--course", "Maple Hill", "--player", "Ann", "Ben").status == 0)
        let server = try await home.serve()
        defer { server.stop() }
        let watch = try await Self.runWatch(home, """
            wait-snapshot
            link down
            tap Ann
            crown -1
            save
            expect-pending 1
            expect-text "1 to send"
            screenshot pending.png
            link up
            expect-text "1 Ann -1"
            expect-text "Ben -"
            """)
        #expect(await watch.waitForExit(timeout: .seconds(60)) == 0, "\(watch.stderr.suffix(800))")
        #expect(try await Self.events(home).map(\.strokes) == [2])
    }

    @Test("Two watches with different wearers, paired at once: each highlights its wearer and reports scores as them")
    func wearers() async throws {
        let home = try TemporaryHome()
        #expect(try await home.hub("round", "start", "--course", "Maple Hill", "--player", "Ann", "Ben", "Cat").status == 0)
        let server = try await home.serve()
        defer { server.stop() }
        // Two devices: each watch keeps its own storage (its own home) and pairs with the hub's socket and token.
        let pairing = ["--connect", "unix:\(home.url.appendingPathComponent("hub/link.sock").path)",
                       "--token-file", home.url.appendingPathComponent("hub/token").path]
        let annHome = try TemporaryHome(), benHome = try TemporaryHome()
        let annWatch = try await Self.runWatch(annHome, """
            wait-snapshot
            tap Cat
            save
            screenshot wearer-ann.png
            """, ["--wearer", "Ann"] + pairing)
        let benWatch = try await Self.runWatch(benHome, """
            wait-snapshot
            tap Ann
            crown -1
            save
            """, ["--wearer", "ben"] + pairing)
        #expect(await annWatch.waitForExit(timeout: .seconds(60)) == 0, "\(annWatch.stderr.suffix(600))")
        #expect(await benWatch.waitForExit(timeout: .seconds(60)) == 0, "\(benWatch.stderr.suffix(600))")
        #expect(await eventually(timeout: .seconds(15)) { (try? await Self.events(home).count) == 2 })
        let round = try #require(try HyzerJSON.decoder().decode(StandingsSnapshot.self, from: Data(try await home.hub("standings", "--json").stdout.utf8)).round)
        let id = Dictionary(uniqueKeysWithValues: round.standings.map { ($0.name, $0.playerID) })
        let events = try await Self.events(home)
        let byDevice = Dictionary(uniqueKeysWithValues: events.map { ($0.deviceID, $0) })
        #expect(Set(byDevice.keys) == ["watch-ann", "watch-ben"])
        #expect(byDevice["watch-ann"]?.reportedByPlayerID == id["Ann"])
        #expect(byDevice["watch-ann"]?.playerID == id["Cat"])
        #expect(byDevice["watch-ben"]?.reportedByPlayerID == id["Ben"])
    }

    @Test("A second watch on the same home is refused, naming the home, instead of sharing the first one's outbox")
    func oneWatchPerHome() async throws {
        let home = try TemporaryHome()
        let first = try await Self.runWatch(home, "wait 10s\n")
        defer { first.stop() }
        #expect(await eventually(timeout: .seconds(10)) { first.stderr.contains("line 1: wait 10s") })
        let second = try await CLIProcess.run("hyzer-watch", ["--home", home.path, "--headless", "--script", try WatchHeadlessTests.script(home, "quit\n")])
        #expect(second.status == 1)
        #expect(second.stderr.contains("Another hyzer-watch (pid \(first.processIdentifier ?? -1)) is using \(home.path)/watch"), "\(second.stderr)")
    }

    @Test("A watch whose display does not answer says so and ends, instead of running in a window nobody can see or click")
    func noDisplayNoWindow() async throws {
        let home = try TemporaryHome()
        // A display number no X server of this machine serves.
        let free = (90..<300).first { !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\($0)") } ?? 299
        let watch = try await CLIProcess.run("hyzer-watch", ["--home", home.path, "--script", try WatchHeadlessTests.script(home, "wait 30s\n")],
                                             environment: ["DISPLAY": ":\(free)", "WAYLAND_DISPLAY": "", "SDL_VIDEODRIVER": ""])
        #expect(watch.status == 1)
        #expect(watch.stderr.contains("No display to open the watch's window on: DISPLAY :\(free) did not answer"), "\(watch.stderr)")
        #expect(watch.stderr.contains("--headless"))
    }
}

extension WristTests {
    @Test("An outbox file that cannot be read is moved aside with its reason, counted on the face, and reported once")
    func corruptOutboxFile() async throws {
        let home = try TemporaryHome()
        let outbox = home.url.appendingPathComponent("watch/outbox")
        try FileManager.default.createDirectory(at: outbox, withIntermediateDirectories: true)
        let name = "00000000000000000001-00000000-0000-0000-0000-0000000000AA.json"
        try Data("{\"id\": \"half a score".utf8).write(to: outbox.appendingPathComponent(name))
        // Beside "No phone" the count is said in short, as the band has room for.
        let first = try await Self.runWatch(home, """
            expect-text "No phone · 1 unreadable"
            screenshot unreadable.png
            """)
        #expect(await first.waitForExit(timeout: .seconds(30)) == 0, "\(first.stderr.suffix(600))")
        #expect(first.stderr.contains("1 saved score(s) could not be read back and were moved to \(home.path)/watch/outbox-quarantine"))
        let quarantine = home.url.appendingPathComponent("watch/outbox-quarantine")
        #expect(try FileManager.default.contentsOfDirectory(atPath: quarantine.path).sorted() == [name, name + ".reason"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: outbox.path) == [])
        let second = try await Self.runWatch(home, """
            expect-text "1 unreadable"
            """)
        #expect(await second.waitForExit(timeout: .seconds(30)) == 0)
        #expect(!second.stderr.contains("could not be read back"), "reported once, not at every start")
    }
}

extension WristTests {
    @Test("The same script gives the same screenshots on every run (motion settles before a screenshot)")
    func reproducibleScreenshots() async throws {
        let home = try TemporaryHome()
        #expect(try await home.hub("round", "start", "--course", "Maple Hill", "--player", "Ann", "Ben").status == 0)
        #expect(try await home.hub("voice", "Ann 2, Ben 4").status == 0)
        let server = try await home.serve()
        defer { server.stop() }
        var shots: [[Data]] = []
        for run in 1...2 {
            let watch = try await Self.runWatch(home, """
                wait-snapshot
                tap Ann
                crown +2
                screenshot run\(run)/crown.png
                back
                screenshot run\(run)/board.png
                """)
            #expect(await watch.waitForExit(timeout: .seconds(30)) == 0, "\(watch.stderr.suffix(400))")
            shots.append(try ["crown", "board"].map { try Data(contentsOf: home.url.appendingPathComponent("run\(run)/\($0).png")) })
        }
        #expect(shots[0] == shots[1])
    }
}
