import Foundation
import HyzerKit
import HyzerLink
import HyzerHarness
import Testing
import WatchCore

/// `hyzer-watch --headless --script` against a real `hyzer-hub serve`, as CI and users run it.
@Suite("Headless watch end to end", .serialized)
struct WatchHeadlessTests {
    /// Copies the phone's `shared/standings.json` into the watch's container, as if those
    /// standings had reached the watch over the link before: for tests of the face, with no hub
    /// serving.
    static func watchHasSeenThePhonesStandings(_ home: TemporaryHome) throws {
        let container = home.url.appendingPathComponent("watch/standings.json")
        try FileManager.default.createDirectory(at: container.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: container)
        try FileManager.default.copyItem(at: home.url.appendingPathComponent("shared/standings.json"), to: container)
    }

    static func script(_ home: TemporaryHome, _ text: String) throws -> String {
        let url = home.url.appendingPathComponent("scenario-\(UUID().uuidString.prefix(6)).txt")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    static func watch(_ home: TemporaryHome, script: String, _ extra: [String] = []) async throws -> CLIProcess.Result {
        try await CLIProcess.run("hyzer-watch", ["--home", home.path, "--headless", "--script", script, "--screenshot-dir", home.path] + extra)
    }

    static func standings(_ home: TemporaryHome) async throws -> [String] {
        let snapshot = try HyzerJSON.decoder().decode(StandingsSnapshot.self, from: Data(try await home.hub("standings", "--json").stdout.utf8))
        return (snapshot.round?.standings ?? []).map { "\(ScoreFormat.position(of: $0)) \($0.name) \(ScoreFormat.relativeToPar($0.scoreRelativeToPar))" }
    }

    /// Width and height from a PNG's IHDR chunk.
    static func pngSize(_ url: URL) throws -> (Int, Int)? {
        let bytes = [UInt8](try Data(contentsOf: url))
        guard bytes.count > 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], bytes[12..<16] == [0x49, 0x48, 0x44, 0x52] else { return nil }
        let int = { (o: Int) in Int(bytes[o]) << 24 | Int(bytes[o + 1]) << 16 | Int(bytes[o + 2]) << 8 | Int(bytes[o + 3]) }
        return (int(16), int(20))
    }

    @Test("Four players scored with the crown show on the face and in hyzer-hub standings; the screenshot is a 396×484 PNG")
    func scoreFourWithTheCrown() async throws {
        let home = try TemporaryHome()
        #expect(try await home.hub("round", "start", "--course", "Maple Hill", "--player", "Ann", "Ben", "Cat", "Dan").status == 0)
        let server = try await home.serve()
        defer { server.stop() }
        let script = try Self.script(home, """
            wait-snapshot
            expect-screen leaderboard
            expect-reachable true
            expect-text "Hole 1 of 18"
            tap Ann
            expect-screen crown
            expect-text "Par 3"
            crown +1
            save
            tap Ben
            crown -1
            save
            tap Cat
            save
            tap Dan
            crown +3
            crown +1
            crown -1
            save
            expect-haptics 4 success
            expect-haptics 7 tick
            expect-text "1 Ben -1 2 Cat E 3 Ann +1 4 Dan +3"
            expect-text "Hole 2 of 18"
            screenshot leaderboard.png
            quit
            """)
        let result = try await Self.watch(home, script: script)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try await Self.standings(home) == ["1 Ben -1", "2 Cat E", "3 Ann +1", "4 Dan +3"])
        let events = try HyzerJSON.decoder().decode([ScoreEvent].self, from: Data(try await home.hub("events", "--json").stdout.utf8))
        #expect(events.map(\.source) == [.crown, .crown, .crown, .crown])
        #expect(events.allSatisfy { $0.deviceID == "watch" })
        let png = home.url.appendingPathComponent("leaderboard.png")
        let size = try Self.pngSize(png)
        #expect(size?.0 == 396 && size?.1 == 484)
    }

    @Test("Hub stopped: the phone is unreachable and scores queue; hub back: they land")
    func hubStoppedThenBack() async throws {
        let home = try TemporaryHome()
        #expect(try await home.hub("round", "start", "--course", "Willow Creek", "--player", "Ann", "Ben").status == 0)
        var server = try await home.serve()
        let script = try Self.script(home, """
            wait-snapshot
            expect-reachable true
            wait 200ms
            expect-reachable false
            expect-text "No phone"
            tap Ann
            crown -1
            save
            tap Ben
            save
            expect-pending 2
            expect-reachable true
            expect-text "1 Ann -1 2 Ben E"
            expect-haptics 2 success
            """)
        let watch = try await RunningProcess("hyzer-watch", ["--home", home.path, "--headless", "--script", script, "--log-level", "info", "--expect-timeout", "15"])
        // Stop the hub once the watch has seen it, restart it once both scores are queued.
        #expect(await eventually(timeout: .seconds(10)) { watch.stderr.contains("line 3: wait 200ms") })
        await server.kill(SIGTERM)
        let outbox = home.url.appendingPathComponent("watch/outbox")
        #expect(await eventually(timeout: .seconds(15)) { ((try? DurableOutbox.pendingEvents(in: outbox)) ?? []).count == 2 })
        #expect(try await home.events().isEmpty)
        server = try await home.serve()
        defer { server.stop() }
        #expect(await watch.waitForExit(timeout: .seconds(30)) == 0, "\(watch.stderr.suffix(600))")
        #expect(try await Self.standings(home) == ["1 Ann -1", "2 Ben E"])
    }

    @Test("Out of range is out of range: with one shared home, a phone score reaches the watch only once the link is back")
    func outOfRangeDeliversNothing() async throws {
        let home = try TemporaryHome()
        let server = try await Self.servedRound(home, ["Ann", "Ben"])
        defer { server.stop() }
        let watch = try await Self.controlledWatch(home, ["--screenshot-dir", home.path])
        defer { watch.stop() }
        func steps(_ steps: [[String]]) async throws {
            for step in steps {
                let result = try await CLIProcess.run("hyzer-watch", ["ctl", "--home", home.path, "--timeout", "20"] + step)
                #expect(result.status == 0, "\(step): \(result.stderr)")
            }
        }
        try await steps([["wait-snapshot"], ["link", "down"], ["wait-for", "unreachable"]])
        // Ann scores on the phone while the link is down; the phone writes its standings.json in the
        // home the watch shares. Watched for 3 s after the command returned: the watch shows neither
        // Ann nor Ben with a score until the link is back.
        #expect(try await home.hub("score", "Ann", "2", "--hole", "1").status == 0)
        try await steps([["wait", "3s"], ["expect-text", "Ann - Ben -"],
                         ["advance-clock", "2m"], ["expect-stale", "true"], ["expect-text", "2m ago"], ["screenshot", "stale.png"],
                         ["link", "up"], ["wait-for", "reachable"], ["expect-stale", "false"], ["expect-text", "1 Ann -1"]])
        #expect(try Self.pngSize(home.url.appendingPathComponent("stale.png"))?.0 == 396)
    }

    @Test("A watch that cannot pair says why, at the default log level and on the face: no hub at a mistyped home, no token, a corrupt container")
    func saysWhyItWaits() async throws {
        let home = try TemporaryHome()
        let typo = home.url.appendingPathComponent("typo")
        let script = try Self.script(home, "expect-text \"No hub at this home\"\nquit\n")
        let noHub = try await CLIProcess.run("hyzer-watch", ["--home", typo.path, "--headless", "--script", script])
        #expect(noHub.status == 0, "\(noHub.stderr)")
        #expect(noHub.stderr.contains("warning") && noHub.stderr.contains("not paired: no hub at \(typo.path)"), "\(noHub.stderr)")

        try FileManager.default.createDirectory(at: home.url.appendingPathComponent("hub"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: home.url.appendingPathComponent("watch"), withIntermediateDirectories: true)
        try Data("{\"schemaVersion\": 1, \"hub".utf8).write(to: home.url.appendingPathComponent("watch/standings.json"))
        let noToken = try await CLIProcess.run("hyzer-watch", ["--home", home.path, "--headless", "--script",
                                                               try Self.script(home, "expect-text \"No pairing token yet\"\nquit\n")])
        #expect(noToken.status == 0, "\(noToken.stderr)")
        #expect(noToken.stderr.contains("warning") && noToken.stderr.contains("no pairing token at"), "\(noToken.stderr)")
        #expect(noToken.stderr.contains("standings.json is partial or corrupt"), "\(noToken.stderr)")
    }

    @Test("A failed expectation exits 1 naming the line and what was seen instead")
    func failedExpectation() async throws {
        let home = try TemporaryHome()
        let script = try Self.script(home, """
            # no hub, no round
            expect-screen no-round
            expect-text "Jake"
            save
            """)
        let result = try await Self.watch(home, script: script, ["--expect-timeout", "0.2"])
        #expect(result.status == 1)
        #expect(result.stderr.hasSuffix("""
            line 3: expect-text "Jake": expectation not met; visible text: "No standings yet", "No hub at this home", "No phone"

            """))
    }

    @Test("A recording or screenshot that cannot be written fails its own line, naming the file or folder in plain words")
    func unwritableOutput() async throws {
        let home = try TemporaryHome()
        // A file where the folder should be: nothing can be created under it (even as root).
        let blocker = home.url.appendingPathComponent("blocker")
        try Data("x".utf8).write(to: blocker)
        let record = try await Self.watch(home, script: try Self.script(home, "expect-screen no-round\nrecord start \(blocker.path)/r.png\nrecord stop\n"))
        #expect(record.status == 1)
        #expect(record.stderr.contains("line 2: record start \(blocker.path)/r.png: Could not create the folder \(blocker.path): Not a directory."))
        let shot = try await Self.watch(home, script: try Self.script(home, "screenshot a.png\n"), ["--screenshot-dir", blocker.appendingPathComponent("shots").path])
        #expect(shot.status == 1)
        #expect(shot.stderr.contains("line 1: screenshot a.png: Could not create the folder \(blocker.path)/shots: Not a directory."))
        #expect(!(record.stderr + shot.stderr).contains("NSCocoaErrorDomain"))
    }

    @Test("A script with a mistake is refused before anything runs (exit 2), naming the line")
    func badScript() async throws {
        let home = try TemporaryHome()
        let script = try Self.script(home, "wait-snapshot\ncrown 2\n")
        let result = try await Self.watch(home, script: script)
        #expect(result.status == 2)
        #expect(result.stderr.contains("line 2: crown 2: crown takes +N or -N detents, e.g. crown +2"))
    }

    @Test("A script that cannot be read is refused too (exit 2), naming the file")
    func unreadableScript() async throws {
        let home = try TemporaryHome()
        let missing = home.url.appendingPathComponent("no-such-script.txt").path
        let result = try await Self.watch(home, script: missing)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("hyzer-watch: cannot read the script \(missing): "), "\(result.stderr)")
    }

    @Test("--help lists the input mapping; a bad --size is refused with what is allowed")
    func help() async throws {
        let help = try await CLIProcess.run("hyzer-watch", ["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("mouse wheel, Up/Down"))
        #expect(help.stdout.contains("right click, Escape"))
        #expect(help.stdout.contains("(values: 41, 45, 49; default: 45)"))
        let bad = try await CLIProcess.run("hyzer-watch", ["--size", "44", "--headless"])
        #expect(bad.status == 64)
        #expect(bad.stderr.hasPrefix("Error: The value '44' is invalid for '--size <MM>'. Please provide one of '41', '45' or '49'."))
    }
}

extension TemporaryHome {
    func events() async throws -> [ScoreEvent] {
        try HyzerJSON.decoder().decode([ScoreEvent].self, from: Data(try await hub("events", "--json").stdout.utf8))
    }
}

extension WatchHeadlessTests {
    /// Scores on the hub as (hole, strokes, superseding another) per player name, in log order.
    static func events(_ home: TemporaryHome) async throws -> [(player: String, hole: Int, strokes: Int, correction: Bool)] {
        let events = try HyzerJSON.decoder().decode([ScoreEvent].self, from: Data(try await home.hub("events", "--json").stdout.utf8))
        let names = try HyzerJSON.decoder().decode(StandingsSnapshot.self, from: Data(try await home.hub("standings", "--json").stdout.utf8))
            .round?.standings.reduce(into: [String: String]()) { $0[$1.playerID] = $1.name } ?? [:]
        return events.map { (names[$0.playerID] ?? $0.playerID, $0.hole, $0.strokes, $0.supersedesEventID != nil) }
    }

    @Test("With the phone in the bag the watch scores on: it moves to the next hole when everyone has a score, the crown screen picks another hole, and every score lands in order once the phone is back")
    func scoresThreeHolesAway() async throws {
        let home = try TemporaryHome()
        let server = try await Self.servedRound(home, ["Ann", "Ben"])
        defer { server.stop() }
        let script = try Self.script(home, """
            wait-snapshot
            link down
            expect-reachable false
            expect-text "Hole 1 of 9"
            tap Ann
            save
            tap Ben
            crown +1
            save
            expect-text "Hole 2 of 9"
            tap Ann
            crown -1
            save
            tap Ben
            save
            expect-text "Hole 3 of 9"
            tap Ann
            expect-text "Hole 3"
            hole +1
            expect-text "Hole 4"
            hole -1
            save
            tap Ben
            save
            expect-text "Hole 4 of 9"
            screenshot away.png
            link up
            expect-reachable true
            wait-for delivered 6
            expect-text "1 Ann -1"
            """)
        let result = try await Self.watch(home, script: script, ["--expect-timeout", "15"])
        #expect(result.status == 0, "\(result.stderr.suffix(600))")
        #expect(await eventually { (try? await Self.events(home).count) == 6 })
        let landed = try await Self.events(home)
        #expect(landed.map { "\($0.player) \($0.hole) \($0.strokes)\($0.correction ? " correction" : "")" }
                == ["Ann 1 3", "Ben 1 4", "Ann 2 2", "Ben 2 3", "Ann 3 3", "Ben 3 3"])
    }
}

extension WatchHeadlessTests {
    @Test("A score saved while the phone was away, for a round the phone finished meanwhile, is refused saying whose, which hole and why, on the face and in the log")
    func roundFinishedWhileAway() async throws {
        let home = try TemporaryHome()
        let server = try await Self.servedRound(home, ["Ann", "Ben"])
        defer { server.stop() }
        let script = try Self.script(home, """
            wait-snapshot
            set-clock 2026-06-01T09:00
            link down
            expect-reachable false
            tap Ann
            crown +1
            save
            dump saved.json
            wait 5s
            link up
            expect-text "Ann · hole 1"
            expect-text "round is over"
            screenshot refused.png
            """)
        let watch = try await RunningProcess("hyzer-watch", [
            "--home", home.path, "--headless", "--script", script, "--screenshot-dir", home.path, "--expect-timeout", "15", "--size", "41",
        ])
        defer { watch.stop() }
        // The phone finishes the round while the watch is away with Ann's score.
        #expect(await eventually(timeout: .seconds(15)) { FileManager.default.fileExists(atPath: home.url.appendingPathComponent("saved.json").path) })
        #expect(try await home.hub("round", "finish", "--force").status == 0)
        #expect(await watch.waitForExit(timeout: .seconds(60)) == 0, "\(watch.stderr.suffix(800))")
        #expect(watch.stderr.contains("the phone did not accept the score for Ann, 4 on hole 1"), "\(watch.stderr.suffix(800))")
        let rejected = try String(contentsOf: home.url.appendingPathComponent("watch/rejected.jsonl"), encoding: .utf8)
        #expect(rejected.contains("roundNotAcceptingScores"), "\(rejected)")
        // Dated by the watch's clock, as the score it refuses is.
        #expect(rejected.contains("\"at\":\"2026-0") && rejected.contains("\"createdAt\":\"2026-0"), "\(rejected)")
    }
}

extension WatchHeadlessTests {
    @Test("Scores queued while the phone was away drain on reconnecting as one change: one notification haptic, one announcement of the net change")
    func reconnectBurstIsOneChange() async throws {
        let home = try TemporaryHome()
        let server = try await Self.servedRound(home, ["Ann", "Ben", "Cat"], holeOne: "Ann 2, Ben 3, Cat 4")
        defer { server.stop() }
        // Hole 2 away: Cat and Ben both ace it, each passing Ann, in two scores the phone gets at once.
        let script = try Self.script(home, """
            wait-snapshot
            expect-text "1 Ann -1"
            link down
            expect-reachable false
            tap Cat
            crown -2
            save
            tap Ben
            crown -2
            save
            link up
            expect-pending 0
            expect-haptics 1 notification
            wait 1s
            expect-haptics 1 notification
            """)
        let result = try await Self.watch(home, script: script, ["--expect-timeout", "15"])
        #expect(result.status == 0, "\(result.stderr.suffix(600))")
        let said = try String(contentsOf: home.url.appendingPathComponent("watch/announcements.jsonl"), encoding: .utf8)
            .split(separator: "\n").compactMap { try? HyzerJSON.decoder().decode(AnnouncementRecord.self, from: Data($0.utf8)).text }
        let afterReconnect = said.drop { $0 != "Phone connected." }.dropFirst()
        let moves = afterReconnect.filter { $0.contains("moves up") || $0.contains("drops") }
        #expect(moves.count == 1, "one announcement of the net change: \(afterReconnect)")
        #expect(moves.first?.hasPrefix("Ben moves up to first") == true, "\(moves)")
    }
}

extension WatchHeadlessTests {
    static func ctl(_ home: TemporaryHome, _ command: String...) async throws -> CLIProcess.Result {
        try await CLIProcess.run("hyzer-watch", ["ctl", "--home", home.path, "--timeout", "20"] + command)
    }

    @Test("hyzer-watch ctl drives a running watch between phone steps, without sleeps: out of range, a phone score, back, delivered")
    func liveControl() async throws {
        let home = try TemporaryHome()
        let server = try await Self.servedRound(home, ["Ann", "Ben"])
        defer { server.stop() }
        let watch = try await Self.controlledWatch(home, ["--screenshot-dir", home.path])
        defer { watch.stop() }
        #expect(try await Self.ctl(home, "link", "down").status == 0)
        #expect(try await Self.ctl(home, "wait-for", "unreachable").status == 0)
        // The phone scores out of range: the watch does not see it.
        #expect(try await home.hub("score", "Ann", "2").status == 0)
        let unseen = try await CLIProcess.run("hyzer-watch", ["ctl", "--home", home.path, "--timeout", "2", "expect-text", "1 Ann -1"])
        #expect(unseen.status == 1 && unseen.stderr.contains("expectation not met"), "\(unseen.stderr)")
        // The watch scores Ben away, then the phone comes back: both land.
        for step in [["tap", "Ben"], ["crown", "-1"], ["save"], ["wait-for", "pending", "1"], ["link", "up"], ["wait-for", "delivered", "1"],
                     ["expect-text", "1 Ann -1"], ["screenshot", "back.png"]] {
            let result = try await CLIProcess.run("hyzer-watch", ["ctl", "--home", home.path, "--timeout", "20"] + step)
            #expect(result.status == 0, "\(step): \(result.stderr)")
        }
        #expect(try Self.pngSize(home.url.appendingPathComponent("back.png")) != nil)
        let wrong = try await Self.ctl(home, "dance")
        #expect(wrong.status == 1 && wrong.stderr.contains("unknown command \"dance\""), "\(wrong.stderr)")
        // A control the screen does not show fails, so a script whose tap missed does not go on as
        // if it had saved (it answered ok and did nothing).
        for (step, reason) in [(["save"], "the screen is leaderboard: there is no Save on it"), (["hole", "+1"], "the screen is leaderboard: hole moves"),
                               (["back"], "the screen is leaderboard: there is nothing to go back from")] {
            let result = try await CLIProcess.run("hyzer-watch", ["ctl", "--home", home.path, "--timeout", "20"] + step)
            #expect(result.status == 1 && result.stderr.contains(reason), "\(step): \(result.stderr)")
        }
        #expect(try await Self.ctl(home, "expect-pending", "0").status == 0)
        #expect(try await Self.ctl(home, "quit").status == 0)
        #expect(await watch.waitForExit(timeout: .seconds(30)) == 0)
        let gone = try await Self.ctl(home, "link", "down")
        #expect(gone.status == 1 && gone.stderr.contains("no watch is running there"), "\(gone.stderr)")
    }
}

extension WatchHeadlessTests {
    @Test("With the watch app in the background, live standings are dropped (and the phone's file on a shared home is not read); in front again it gets only the latest, as the application context, felt once",
          arguments: [[], ["--same-machine-file"]])
    func backgroundDropsLiveMessages(extra: [String]) async throws {
        let home = try TemporaryHome()
        let server = try await Self.servedRound(home, ["Ann", "Ben"], holeOne: "Ann 3, Ben 3")
        defer { server.stop() }
        let watch = try await Self.controlledWatch(home, ["--log-level", "info"] + extra)
        defer { watch.stop() }
        #expect(try await Self.ctl(home, "expect-text", "T1 Ann E").status == 0)
        #expect(try await Self.ctl(home, "app", "background").status == 0)
        #expect(try await Self.ctl(home, "expect-screen", "watch-face").status == 0)
        // Two changes on the phone: two live messages, both dropped by the app in the background
        // (a third when the watch's heartbeat crossed one of them and the hub sent it again:
        // PROTOCOL.md, "Catching up").
        #expect(try await home.hub("score", "Ann", "2").status == 0)
        #expect(try await home.hub("score", "Ben", "5").status == 0)
        let newest = try HyzerJSON.decoder().decode(StandingsSnapshot.self, from: Data(try await home.hub("standings", "--json").stdout.utf8)).sequence
        #expect(await eventually { watch.stderr.contains("was dropped (standings \(newest))") }, "\(watch.stderr.suffix(800))")
        let drops = watch.stderr.components(separatedBy: "a live message to the app in the background was dropped").count - 1
        #expect((2...3).contains(drops), "\(watch.stderr.suffix(800))")
        if extra.contains("--same-machine-file") {
            // The phone's export of the newest standings is seen and left unread.
            #expect(await eventually { watch.stderr.contains("the phone's standings.json changed; the app is in the background") }, "\(watch.stderr.suffix(800))")
        }
        #expect(try await Self.ctl(home, "expect-haptics", "0", "notification").status == 0)
        // In front: the latest standings arrive once, as the application context.
        #expect(try await Self.ctl(home, "app", "foreground").status == 0)
        #expect(try await Self.ctl(home, "expect-text", "1 Ann -1 2 Ben +2").status == 0)
        #expect(watch.stderr.components(separatedBy: "application context delivered").count - 1 == 1, "\(watch.stderr.suffix(800))")
        #expect(try await Self.ctl(home, "expect-haptics", "1", "notification").status == 0)
        #expect(try await Self.ctl(home, "quit").status == 0)
        #expect(await watch.waitForExit(timeout: .seconds(30)) == 0)
    }
}

extension WatchHeadlessTests {
    @Test("A watch app in the background that pairs again gets the phone's standings as its application context: kept, shown in front, and not counted as a dropped live message")
    func pairingInTheBackgroundIsContext() async throws {
        let home = try TemporaryHome()
        let server = try await Self.servedRound(home, ["Ann", "Ben"], holeOne: "Ann 3, Ben 3")
        defer { server.stop() }
        let watch = try await Self.controlledWatch(home, ["--log-level", "info"])
        defer { watch.stop() }
        #expect(try await Self.ctl(home, "expect-text", "T1 Ann E").status == 0)
        #expect(try await Self.ctl(home, "app", "background").status == 0)
        #expect(try await Self.ctl(home, "link", "down").status == 0)
        #expect(try await home.hub("score", "Ann", "2").status == 0)
        let newest = try HyzerJSON.decoder().decode(StandingsSnapshot.self, from: Data(try await home.hub("standings", "--json").stdout.utf8)).sequence
        #expect(try await Self.ctl(home, "link", "up").status == 0)
        // The standings the phone sends as the watch pairs wait as the context.
        let contextFile = home.url.appendingPathComponent("watch/context.json")
        #expect(await eventually {
            (try? HyzerJSON.decoder().decode(StandingsSnapshot.self, from: Data(contentsOf: contextFile)))?.sequence == newest
        }, "\(watch.stderr.suffix(800))")
        let dropped = try await CLIProcess.run("hyzer-watch", ["ctl", "--home", home.path, "--timeout", "1", "wait-for", "dropped", "1"])
        #expect(dropped.status == 1, "the pairing's standings were counted as a dropped live message: \(watch.stderr.suffix(800))")
        #expect(!watch.stderr.contains("a live message to the app in the background was dropped"), "\(watch.stderr.suffix(800))")
        #expect(try await Self.ctl(home, "app", "foreground").status == 0)
        #expect(try await Self.ctl(home, "expect-text", "1 Ann -1").status == 0)
        #expect(try await Self.ctl(home, "quit").status == 0)
        #expect(await watch.waitForExit(timeout: .seconds(30)) == 0)
    }
}

extension WatchHeadlessTests {
    @Test("Relaunched, the watch shows what it kept, then gets only the phone's latest standings, and its queued scores land in one burst, felt as one change")
    func relaunch() async throws {
        let home = try TemporaryHome()
        let server = try await Self.servedRound(home, ["Ann", "Ben", "Cat"], holeOne: "Ann 3, Ben 3, Cat 3")
        defer { server.stop() }
        // First run: two scores saved away, then the app ends with them still queued.
        let away = try Self.script(home, """
            wait-snapshot
            expect-text "T1 Ann E"
            link down
            tap Cat
            crown -2
            save
            tap Ben
            crown -1
            save
            expect-pending 2
            quit
            """)
        let first = try await Self.watch(home, script: away)
        #expect(first.status == 0, "\(first.stderr.suffix(600))")
        // Meanwhile the phone changes the standings three times: a relaunch gets only the latest.
        #expect(try await home.hub("score", "Ann", "4", "--hole", "2").status == 0)
        for strokes in ["5", "6"] { #expect(try await home.hub("correct", "Ann", strokes, "--hole", "2").status == 0) }
        // Relaunched while the phone's app is not serving, so what it kept is seen before the
        // phone can answer (a phone in reach could beat the first look); then the phone is back.
        server.stop()
        let watch = try await RunningProcess("hyzer-watch", ["--home", home.path, "--headless", "--expect-timeout", "15", "--log-level", "info"])
        defer { watch.stop() }
        #expect(await eventually { FileManager.default.fileExists(atPath: home.url.appendingPathComponent("watch/ctl.sock").path) })
        #expect(try await Self.ctl(home, "expect-text", "T1 Ann E").status == 0, "\(watch.stderr.suffix(600))")
        let again = try await home.serve()
        defer { again.stop() }
        for line in [["wait-for", "reachable"], ["wait-for", "pending", "0"], ["expect-text", "1 Cat -2 2 Ben -1 3 Ann +3"],
                     ["expect-haptics", "1", "notification"], ["wait", "1s"], ["expect-haptics", "1", "notification"], ["quit"]] {
            let result = try await CLIProcess.run("hyzer-watch", ["ctl", "--home", home.path, "--timeout", "20"] + line)
            #expect(result.status == 0, "\(line.joined(separator: " ")): \(result.stderr)\n\(watch.stderr.suffix(600))")
        }
        #expect(await watch.waitForExit(timeout: .seconds(30)) == 0)
    }
}

extension WatchHeadlessTests {
    @Test("An application context left when the app ended in the background is delivered at the next launch, even out of range")
    func contextSurvivesAnExit() async throws {
        let home = try TemporaryHome()
        let server = try await Self.servedRound(home, ["Ann", "Ben"])
        let watch = try await Self.controlledWatch(home)
        defer { watch.stop() }
        #expect(try await Self.ctl(home, "app", "background").status == 0)
        #expect(try await home.hub("score", "Ann", "2").status == 0)
        #expect(try await Self.ctl(home, "wait-for", "dropped", "1").status == 0)
        #expect(try await Self.ctl(home, "quit").status == 0)
        #expect(await watch.waitForExit(timeout: .seconds(30)) == 0)
        server.stop()
        // Relaunched with the phone gone: the context the system kept is what the app shows.
        let script = try Self.script(home, "expect-text \"1 Ann -1\"\nexpect-reachable false\n")
        let relaunched = try await Self.watch(home, script: script, ["--expect-timeout", "10"])
        #expect(relaunched.status == 0, "\(relaunched.stderr.suffix(600))")
    }
}

extension WatchHeadlessTests {
    /// A round on Willow Creek with `players` (hole 1 scored by voice when `holeOne` says how), the
    /// phone serving it.
    static func servedRound(_ home: TemporaryHome, _ players: [String], holeOne: String? = nil) async throws -> RunningProcess {
        #expect(try await CLIProcess.run("hyzer-hub", ["--home", home.path, "round", "start", "--course", "Willow Creek", "--player"] + players).status == 0)
        if let holeOne { #expect(try await home.hub("voice", holeOne, "--hole", "1").status == 0) }
        return try await home.serve()
    }

    /// A headless watch on `home` with no script, once its live control answers and it has paired.
    static func controlledWatch(_ home: TemporaryHome, _ extra: [String] = []) async throws -> RunningProcess {
        let watch = try await RunningProcess("hyzer-watch", ["--home", home.path, "--headless"] + extra)
        #expect(await eventually { FileManager.default.fileExists(atPath: home.url.appendingPathComponent("watch/ctl.sock").path) })
        #expect(try await ctl(home, "wait-for", "reachable").stdout == "ok\n", "\(watch.stderr.suffix(600))")
        return watch
    }
}

extension WatchHeadlessTests {
    static let rounds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Assets/rounds")

    @Test("A real PDGA round replayed through the phone: the wearer's face in the background ends on the final place, within the policy's budget")
    func replayedRound() async throws {
        let home = try TemporaryHome()
        let server = try await home.serve()
        defer { server.stop() }
        let watch = try await Self.controlledWatch(home, ["--wearer", "Kristin Tattar", "--log-level", "error"])
        defer { watch.stop() }
        #expect(try await Self.ctl(home, "app", "background").status == 0)
        let replay = try await home.hub("replay", Self.rounds.appendingPathComponent("waco-2024-fpo-r1.json").path, "--speed", "2000",
                                        "--hole-minutes", "1")
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.contains("hole 18 · Ella Hansen 3 (one under par)") && replay.stdout.contains("1    Ella Hansen"), "\(replay.stdout.suffix(600))")
        // Kristin Tattar finished 2nd at -6 (60 on a par 66): the face says so without the app.
        #expect(try await Self.ctl(home, "expect-text", "Final · 2nd · -6").status == 0)
        #expect(try await Self.ctl(home, "expect-screen", "watch-face").status == 0)
        let lines = try String(contentsOf: home.url.appendingPathComponent("watch/complications.jsonl"), encoding: .utf8)
            .split(separator: "\n").map { try HyzerJSON.decoder().decode(ComplicationRecord.self, from: Data($0.utf8)) }
        // The pairing's first update, the round's start, then at most 2 a hole, the last hole and the finish.
        #expect(lines.count <= 40 && lines.allSatisfy { $0.delivered == .complication }, "\(lines.count) transfers")
        #expect(lines.last?.reason == .roundFinished && lines.last?.inline == "Final · 2nd · -6")
        #expect(try await Self.ctl(home, "quit").status == 0)
    }
}

extension WatchHeadlessTests {
    /// `hub/app-state.json` as a client reads it (docs/HUB.md).
    struct AppStatus: Decodable {
        struct Watch: Decodable { let deviceID: String, appActive: Bool?, reachable: Bool }
        let state: String
        let watches: [Watch]
    }

    static func appStatus(_ home: TemporaryHome) -> AppStatus? {
        guard let data = try? Data(contentsOf: home.url.appendingPathComponent("hub/app-state.json")) else { return nil }
        return try? JSONDecoder().decode(AppStatus.self, from: data)
    }

    @Test("The phone app suspended sends nothing; a watch's score (a user-info transfer) is acked with no verdict and wakes it not; in front it sends everything new; the phone reaches the watch app only in the foreground (and --same-machine-file reads nothing meanwhile)",
          arguments: [[], ["--same-machine-file", "--log-level", "info"]])
    func phoneAppSuspended(extra: [String]) async throws {
        let home = try TemporaryHome()
        #expect(try await CLIProcess.run("hyzer-hub", ["--home", home.path, "round", "start", "--course", "Willow Creek", "--player", "Ann", "Ben"]).status == 0)
        let server = try await home.serve(["--background-seconds", "0.5", "--log-level", "info"])
        defer { server.stop() }
        let watch = try await Self.controlledWatch(home, extra)
        defer { watch.stop() }
        #expect(await eventually { Self.appStatus(home)?.watches.first?.appActive == true })
        // Sent to the background, the app runs a moment more, then iOS suspends it.
        #expect(try await home.hub("app", "background").status == 0)
        #expect(await eventually { Self.appStatus(home)?.state == "suspended" }, "\(server.stderr.suffix(600))")
        #expect(await eventually { server.stderr.contains("the phone app is suspended (iOS suspended it 0.5 s after it went to the background)") },
                "\(server.stderr.suffix(600))")
        let suspended = try await home.hub("app", "suspended")
        #expect(suspended.status == 0 && suspended.stdout.contains("The phone app is suspended"), "\(suspended.stdout)\(suspended.stderr)")
        // A change on the phone's side: not sent while the app is suspended.
        #expect(try await home.hub("score", "Ann", "2").status == 0)
        let unseen = try await CLIProcess.run("hyzer-watch", ["ctl", "--home", home.path, "--timeout", "1", "expect-text", "1 Ann -1"])
        #expect(unseen.status == 1, "the suspended app sent standings: \(unseen.stdout)")
        if extra.contains("--same-machine-file") {
            // The phone's export is seen and left unread: the phone app is not running.
            #expect(await eventually { watch.stderr.contains("the phone app is suspended or not running") }, "\(watch.stderr.suffix(800))")
        }
        // The watch's score is a user-info transfer: the phone keeps it and acks it, but iOS does
        // not wake the app for it, so nothing new reaches the watch.
        for step in [["tap", "Ben"], ["crown", "+1"], ["save"], ["wait-for", "delivered", "1"]] {
            let result = try await CLIProcess.run("hyzer-watch", ["ctl", "--home", home.path, "--timeout", "20"] + step)
            #expect(result.status == 0, "\(step): \(result.stderr)")
        }
        // Against the phone's 2 for Ann, the watch's 4 is a discrepancy, but the app that would say
        // so is not running: the ack says only that the score was delivered.
        for step in [["tap", "Ann"], ["crown", "+1"], ["save"], ["wait-for", "delivered", "2"]] {
            let result = try await CLIProcess.run("hyzer-watch", ["ctl", "--home", home.path, "--timeout", "20"] + step)
            #expect(result.status == 0, "\(step): \(result.stderr)")
        }
        let untold = try await CLIProcess.run("hyzer-watch", ["ctl", "--home", home.path, "--timeout", "1", "expect-text", "disputed"])
        #expect(untold.status == 1, "the suspended app's verdict reached the watch: \(untold.stdout)")
        let kept = try await home.hub("events")
        #expect(kept.stdout.split(separator: "\n").contains { $0.contains("Ben") && $0.contains("crown") }, "the watch's score is kept: \(kept.stdout)")
        #expect(Self.appStatus(home)?.state == "suspended")
        let stillOld = try await CLIProcess.run("hyzer-watch", ["ctl", "--home", home.path, "--timeout", "1", "expect-text", "1 Ann -1"])
        #expect(stillOld.status == 1, "a watch's score woke the suspended app: \(stillOld.stdout)")
        // In front, the app sends everything new: the phone's score and the watch's.
        #expect(try await home.hub("app", "foreground").status == 0)
        // The discrepancy comes with them: Ann's row has its badge (!).
        #expect(try await Self.ctl(home, "expect-text", "1 Ann ! -1 2 Ben +1").status == 0)
        // The phone's side of reachability: the watch app in the background is not reachable.
        #expect(try await Self.ctl(home, "app", "background").status == 0)
        #expect(await eventually { Self.appStatus(home)?.watches.first.map { !$0.reachable && $0.appActive == false } == true })
        let shown = try await home.hub("app")
        #expect(shown.stdout.contains("watch: not reachable from the phone (its app is in the background)"), "\(shown.stdout)")
        #expect(try await Self.ctl(home, "quit").status == 0)
        #expect(await eventually { Self.appStatus(home)?.watches.isEmpty == true })
        // Asked while serve ran, the state is also how the next serve starts: it says so.
        #expect(try await home.hub("app", "suspended").status == 0)
        server.send(SIGTERM)
        #expect(await server.waitForExit() == 0)
        let next = try await home.serve()
        defer { next.stop() }
        #expect(await eventually { next.stderr.contains("the phone app starts suspended") }, "\(next.stderr.suffix(800))")
    }
}

extension WatchHeadlessTests {
    @Test("Complication transfers the phone makes while the watch is away wait in the system's queue and arrive in order when it is back, each spending its budget, as on a device")
    func complicationTransfersQueueWhileAway() async throws {
        let home = try TemporaryHome()
        #expect(try await CLIProcess.run("hyzer-hub", ["--home", home.path, "round", "start", "--course", "Willow Creek", "--player", "Ann", "Ben"]).status == 0)
        let server = try await home.serve(["--complication-updates", "every-change", "--log-level", "info"])
        defer { server.stop() }
        let watch = try await Self.controlledWatch(home, ["--complication-budget", "10", "--wearer", "Ann"])
        defer { watch.stop() }
        func ctl(_ step: [String]) async throws -> CLIProcess.Result {
            try await CLIProcess.run("hyzer-watch", ["ctl", "--home", home.path, "--timeout", "20"] + step)
        }
        for step in [["app", "background"], ["wait-for", "complications", "1"], ["link", "down"], ["wait-for", "unreachable"]] {
            #expect(try await ctl(step).status == 0, "\(step)")
        }
        // The phone has seen the watch go: what it sends now cannot reach it.
        #expect(await eventually { Self.appStatus(home)?.watches.isEmpty == true })
        for (player, strokes) in [("Ann", "2"), ("Ben", "4"), ("Ann", "3")] {
            #expect(try await home.hub("score", player, strokes, "--hole", player == "Ann" && strokes == "3" ? "2" : "1").status == 0)
        }
        #expect(await eventually { server.stderr.components(separatedBy: "queued: the watch is away").count - 1 == 3 }, "\(server.stderr.suffix(800))")
        // Back: the three arrive and nothing more (a reconnection is not a change); the budget
        // pays for each (with the queue dropped while away it paid for one).
        for step in [["link", "up"], ["wait-for", "complications", "4"], ["expect-complication-budget", "6"], ["expect-text", "1st · Ann"]] {
            let result = try await ctl(step)
            #expect(result.status == 0, "\(step): \(result.stdout)\(result.stderr)")
        }
    }

    @Test("A phone app launched from not-running sends each complication watch its first transfer as it launches, not at the next change")
    func launchSendsFirstComplication() async throws {
        let home = try TemporaryHome()
        let server = try await Self.servedRound(home, ["Ann", "Ben"], holeOne: "Ann 2, Ben 3")
        defer { server.stop() }
        let watch = try await Self.controlledWatch(home, ["--wearer", "Ann", "--log-level", "error"])
        defer { watch.stop() }
        func ctl(_ steps: [String]...) async throws {
            for step in steps {
                let result = try await CLIProcess.run("hyzer-watch", ["ctl", "--home", home.path, "--timeout", "20"] + step)
                #expect(result.status == 0, "\(step): \(result.stderr)")
            }
        }
        try await ctl(["wait-for", "complications", "1"], ["app", "background"], ["expect-complication-budget", "49"])
        for state in ["not-running", "foreground"] { #expect(try await home.hub("app", state).status == 0) }
        try await ctl(["wait-for", "complications", "2"], ["expect-complication-budget", "48"])
    }

    @Test("The complications show the hello's wearer whatever the device id; nothing is spent while the watch app is in front; the final place outlives a relaunch")
    func complicationsFollowTheWearer() async throws {
        let home = try TemporaryHome()
        let server = try await Self.servedRound(home, ["Ann", "Ben"], holeOne: "Ann 2, Ben 3")
        defer { server.stop() }
        let arguments = ["--device", "mywatch", "--wearer", "Ben", "--log-level", "error"]
        var watch = try await Self.controlledWatch(home, arguments)
        defer { watch.stop() }
        func ctl(_ steps: [String]...) async throws {
            for step in steps {
                let result = try await CLIProcess.run("hyzer-watch", ["ctl", "--home", home.path, "--timeout", "20"] + step)
                #expect(result.status == 0, "\(step): \(result.stderr)")
            }
        }
        // Paired: the phone does not know yet where the app is, and spends one.
        try await ctl(["wait-for", "complications", "1"], ["expect-complication-budget", "49"])
        // The app in front refreshes its complications itself: the phone spends nothing.
        #expect(try await home.hub("voice", "Ann 3, Ben 2", "--hole", "2").status == 0)
        try await ctl(["expect-text", "T1 Ann -1 T1 Ben -1"], ["expect-complication-budget", "49"])
        try await ctl(["app", "background"], ["expect-text", "T1 · -1 · thru 2"], ["expect-text", "T1 · Ben"])
        // Ben takes the lead mid-hole: worth one, and it shows Ben, not the leader by default.
        #expect(try await home.hub("score", "Ben", "2", "--hole", "3").status == 0)
        try await ctl(["wait-for", "complications", "2"], ["expect-text", "1st · Ben"], ["expect-complication-budget", "48"])
        #expect(try await home.hub("round", "finish", "--force").status == 0)
        try await ctl(["wait-for", "complications", "3"], ["expect-text", "Final · 1st · -2"], ["quit"])
        #expect(await watch.waitForExit(timeout: .seconds(30)) == 0)
        // Relaunched: the app learns the final standings it missed from the phone, and the face
        // keeps the final place (the system keeps complications across launches).
        watch = try await Self.controlledWatch(home, arguments)
        try await ctl(["expect-screen", "final"], ["expect-text", "1 Ben -2 2 Ann -1"], ["app", "background"], ["expect-text", "Final · 1st · -2"],
                      ["expect-complication-budget", "47"], ["quit"])
        #expect(await watch.waitForExit(timeout: .seconds(30)) == 0)
    }
}
