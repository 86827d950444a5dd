import Foundation
import HyzerKit
import HyzerLink
import HyzerHarness
import NIOConcurrencyHelpers
import Testing
@testable import WatchCore

/// The watch's shell on a temporary home, with no hub: files in, files out.
@Suite("Watch session")
struct WatchSessionTests {
    static func session(_ home: TemporaryHome) throws -> WatchSession {
        try WatchSession(configuration: WatchConfiguration(paths: HyzerPaths(home: home.url), deviceID: "watch-1"))
    }

    /// A started session on `home` that shows the fixture's standings, as kept from before.
    static func startedWithStandings(_ home: TemporaryHome) throws -> WatchSession {
        try write(Fixture.snapshot(), to: home)
        let session = try session(home)
        session.loadSnapshot()
        session.start()
        return session
    }

    /// Writes `snapshot` as standings that reached the watch before (its container,
    /// `watch/standings.json`), or with `phone` as the phone's own `shared/standings.json`.
    static func write(_ snapshot: StandingsSnapshot, to home: TemporaryHome, phone: Bool = false) throws {
        let url = home.url.appendingPathComponent(phone ? "shared/standings.json" : "watch/standings.json")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try HyzerJSON.encoder().encode(snapshot).write(to: url)
    }

    /// Runs `body` with a started session, and stops it (awaited) however `body` ends.
    static func running<T>(_ session: WatchSession, _ body: (WatchSession) async throws -> T) async throws -> T {
        do {
            let result = try await body(session)
            await session.stop()
            return result
        } catch {
            await session.stop()
            throw error
        }
    }

    static func lines(_ home: TemporaryHome, _ file: String) throws -> [String] {
        try String(contentsOf: home.url.appendingPathComponent("watch/\(file)"), encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test("After link down, what the old link still hands over as it stops (standings, a heartbeat) is not taken: out of range nothing arrives, and the standings go stale")
    func nothingArrivesAfterLinkDown() async throws {
        let home = try TemporaryHome()
        let session = try Self.startedWithStandings(home)
        try await Self.running(session) { (session: WatchSession) async throws in
            // The link this watch had (made while its generation was 0) goes down, then the clock
            // passes the stale mark; frames that link read before its stop landed then arrive.
            session.setLink(up: false)
            session.advanceClock(by: 120)
            session.linkEvent(.heartbeat(Heartbeat(sentAt: Date(), sequence: 1)), from: 0)
            session.linkEvent(.standings(Fixture.snapshot(sequence: 5)), from: 0)
            #expect(session.current.snapshot?.sequence == 1)
            #expect(session.current.isStale(at: session.now()))
        }
    }

    @Test("Save logs a success haptic and writes the score to the outbox before anything else")
    func saveWritesOutbox() async throws {
        let home = try TemporaryHome()
        let session = try Self.startedWithStandings(home)
        try await Self.running(session) { (session: WatchSession) async throws in
            #expect(session.current.snapshot?.sequence == 1)
            session.send(.tap(WatchLayout.rowFrame(slot: 0, size: .mm45).center))
            session.send(.crown(detents: 0.5))
            session.send(.crown(detents: 0.5))
            session.send(.save)

            let queued = try DurableOutbox(directory: home.url.appendingPathComponent("watch/outbox")).pending
            #expect(queued.map(\.playerID) == ["id-Jake"])
            #expect(queued.map(\.strokes) == [4])
            #expect(queued.map(\.source) == [.crown])
            let haptics = try Self.lines(home, "haptics.jsonl").map { try HyzerJSON.decoder().decode(HapticRecord.self, from: Data($0.utf8)) }
            #expect(haptics.map(\.kind) == [.tick, .success])
            #expect(haptics.map(\.value) == [4, 4])
            #expect(haptics.allSatisfy { $0.latencyMicros >= 0 && $0.latencyMicros < 1_000_000 })
            let raw = try Self.lines(home, "haptics.jsonl")[0]
            let object = try JSONSerialization.jsonObject(with: Data(raw.utf8)) as! [String: Any]
            #expect(Set(object.keys) == ["at", "kind", "value", "latencyMicros"])
            let announcements = try Self.lines(home, "announcements.jsonl").map { try HyzerJSON.decoder().decode(AnnouncementRecord.self, from: Data($0.utf8)).text }
            #expect(announcements.contains("Score for Jake. Current value 3. Use Digital Crown to adjust. Double tap to save."))
            #expect(session.current.pendingTransfers == 1)
            #expect(session.frame(measurer: .estimate).texts.contains("Saved Jake 4"))
        }
    }

    @Test("Standings held as the application context while the app is in the background are as old on return as the clock says: advance-clock's time passed for them too")
    func contextAgesWithTheClock() throws {
        let home = try TemporaryHome()
        let session = try Self.session(home)
        session.send(.snapshot(Fixture.snapshot(sequence: 1, at: Date())))
        session.setApp(foreground: false)
        session.send(.pushed(Fixture.snapshot(sequence: 2, at: Date())))
        session.advanceClock(by: 600)
        session.setApp(foreground: true)
        #expect(session.current.snapshot?.sequence == 2)
        let age = try #require(session.current.age(at: session.now()))
        #expect(age >= 600 && age < 660, "the context delivered on return is \(age) s old")
        // Standings the phone stamps after the advance are as new as they are.
        session.send(.snapshot(Fixture.snapshot(sequence: 3, at: Date())))
        #expect(try #require(session.current.age(at: session.now())) < 60)
    }

    @Test("At launch the watch shows what reached it before, not the phone's own file: that is read only with --same-machine-file, and only while the phone is in reach")
    func launchShowsTheContainer() async throws {
        let home = try TemporaryHome()
        try Self.write(Fixture.snapshot(sequence: 1), to: home)
        try Self.write(Fixture.snapshot(sequence: 5), to: home, phone: true)
        for sameMachineFile in [false, true] {
            let session = try WatchSession(configuration: WatchConfiguration(paths: HyzerPaths(home: home.url), deviceID: "watch-1",
                                                                             sameMachineFile: sameMachineFile))
            session.loadSnapshot()
            session.start()
            try await Self.running(session) { (session: WatchSession) async throws in
                // No hub here: the phone is out of reach, so its file is not read, flag or not.
                #expect(await eventually { session.current.linkKnown })
                try Self.write(Fixture.snapshot(sequence: 6), to: home, phone: true)
                #expect(session.current.snapshot?.sequence == 1)
            }
        }
    }

    @Test("Back after turning the crown records nothing: no outbox file, no success haptic")
    func backRecordsNothing() async throws {
        let home = try TemporaryHome()
        let session = try Self.startedWithStandings(home)
        try await Self.running(session) { (session: WatchSession) async throws in
            session.send(.tap(WatchLayout.rowFrame(slot: 1, size: .mm45).center))
            session.send(.crown(detents: 2))
            session.send(.back)
            #expect(session.current.screenName == "leaderboard")
            // A Save after Back has no score input to save.
            session.send(.save)
            #expect(try DurableOutbox(directory: home.url.appendingPathComponent("watch/outbox")).count == 0)
            #expect(session.hapticCount(.success) == 0)
            #expect(session.hapticCount(.tick) == 2)
        }
    }

    @Test("The container's files end with the newest content asked of them, by threads taking turns as the session's do; a quit waits for the writes")
    func containerKeepsTheNewest() throws {
        let home = try TemporaryHome()
        let writer = ContainerWriter()
        let files = ["standings.json", "complication.json"].map { home.url.appendingPathComponent($0) }
        let asked = NIOLockedValueBox(0)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<500 {
                asked.withLockedValue { count in
                    count += 1
                    writer.replace(files[count % 2], with: Data("\(count)".utf8))
                }
            }
        }
        writer.flush()
        #expect(try files.map { try String(contentsOf: $0, encoding: .utf8) } == ["2000", "1999"])
    }

    @Test("A corrupt or half-written container is not shown: the watch says why and waits for the phone", arguments: [
        ("half-written", "{\"schemaVersion\": 1, \"hubID\": \"hub\", \"seq"),
        ("corrupt", "\u{0}\u{1}garbage"),
        ("empty", ""),
    ])
    func badContainer(label: String, content: String) async throws {
        let home = try TemporaryHome()
        let url = home.url.appendingPathComponent("watch/standings.json")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(content.utf8).write(to: url)
        let session = try Self.session(home)
        session.loadSnapshot()
        #expect(session.current.snapshot == nil)
        #expect(session.current.snapshotProblem?.contains("is partial or corrupt") == true)
        #expect(session.frame(measurer: .estimate).texts.contains("No standings yet"))
        await session.stop()
    }

    @Test("A missing file, a partial file, an unknown schema and values out of the schema's bounds each read as a reason, never a crash")
    func snapshotFileReasons() throws {
        let home = try TemporaryHome()
        let url = home.url.appendingPathComponent("standings.json")
        #expect(SnapshotFile.read(url) == .failure(.missing(path: url.path)))
        try Data("{\"schemaVersion\":".utf8).write(to: url)
        #expect(SnapshotFile.read(url) == .failure(.unreadable(path: url.path, reason: "17 bytes that are not a standings snapshot")))
        var future = try JSONSerialization.jsonObject(with: HyzerJSON.encoder().encode(Fixture.snapshot())) as! [String: Any]
        future["schemaVersion"] = 2
        try JSONSerialization.data(withJSONObject: future).write(to: url)
        #expect(SnapshotFile.read(url) == .failure(.unsupportedSchema(version: 2)))
        // JSON that breaks the schema's bounds is not shown either ("Zeroth" for a position 0).
        var zeroth = try JSONSerialization.jsonObject(with: HyzerJSON.encoder().encode(Fixture.snapshot())) as! [String: Any]
        zeroth["sequence"] = -1
        try JSONSerialization.data(withJSONObject: zeroth).write(to: url)
        #expect(SnapshotFile.read(url) == .failure(.unreadable(path: url.path, reason: "sequence is -1; it counts from 0")))
    }
}

@Suite("Scenario scripts")
struct ScenarioScriptTests {
    @Test("Every command of the language parses")
    func parsesAll() throws {
        let script = """
            # a comment
            wait-snapshot
            wait-snapshot 10s
            tap Holyn Handley
            crown +3
            crown -1
            save
            back
            hole +1
            hole -2
            wait 300ms
            advance-clock 2m
            link down
            link up
            screenshot face.png   # trailing comment
            expect-screen crown
            expect-text "Hole 7 of 18"
            expect-text "#1 fan"
            expect-stale true
            expect-reachable false
            expect-pending 2
            expect-haptics 3 tick
            wait-for stale
            wait-for unreachable
            wait-for screen crown
            wait-for delivered 3
            quit
            """
        let commands = try ScenarioScript.parse(script).map(\.command)
        #expect(commands == [
            .waitSnapshot(timeout: 5), .waitSnapshot(timeout: 10), .tap(name: "Holyn Handley"), .crown(3), .crown(-1), .save, .back,
            .hole(1), .hole(-2), .wait(0.3), .advanceClock(120), .link(up: false), .link(up: true), .screenshot(path: "face.png", chrome: nil),
            .expectScreen("crown"), .expectText("Hole 7 of 18"), .expectText("#1 fan"), .expectStale(true), .expectReachable(false),
            .expectPending(2), .expectHaptics(count: 3, kind: .tick), .waitFor(.stale(true)), .waitFor(.reachable(false)),
            .waitFor(.screen("crown")), .waitFor(.delivered(3)), .quit,
        ])
        #expect(try ScenarioScript.parse(script)[2].number == 4)
    }

    @Test("Mistakes name the line and what is allowed", arguments: [
        ("crown 3", "line 2: crown 3: crown takes +N or -N detents, e.g. crown +2"),
        ("wait soon", "line 2: wait soon: \"soon\" is not a duration; use e.g. 300ms, 2s, 1.5s, 2m, 1h"),
        ("advance-clock -5m", "line 2: advance-clock -5m: advance-clock moves the watch's clock forward; got -5m (to set it back: set-clock YYYY-MM-DDTHH:MM)"),
        ("set-clock 2026-13-01T00:00", "line 2: set-clock 2026-13-01T00:00: set-clock takes a local date and time, YYYY-MM-DDTHH:MM (e.g. 2026-03-07T10:09); got 2026-13-01T00:00"),
        ("set-clock 2026-02-30T10:00", "line 2: set-clock 2026-02-30T10:00: set-clock takes a local date and time, YYYY-MM-DDTHH:MM (e.g. 2026-03-07T10:09); got 2026-02-30T10:00"),
        ("set-clock 0000-01-01T00:00", "line 2: set-clock 0000-01-01T00:00: set-clock takes a local date and time, YYYY-MM-DDTHH:MM (e.g. 2026-03-07T10:09); got 0000-01-01T00:00"),
        ("set-clock 2026-03-07T24:00", "line 2: set-clock 2026-03-07T24:00: set-clock takes a local date and time, YYYY-MM-DDTHH:MM (e.g. 2026-03-07T10:09); got 2026-03-07T24:00"),
        ("expect-screen settings", "line 2: expect-screen settings: screens are leaderboard, crown, voice, final, no-round and watch-face; got settings"),
        ("expect-haptics 2 buzz", "line 2: expect-haptics 2 buzz: haptic kinds are tick, limit, success, failure, notification; got buzz"),
        ("screenshot face.jpg", "line 2: screenshot face.jpg: screenshots are PNG files: screenshot NAME.png"),
        ("link sideways", "line 2: link sideways: link takes up or down"),
        ("text-size huge", "line 2: text-size huge: text sizes are xs, s, m, l, xl, xxl, xxxl, ax1, ax2, ax3 (l is the default); got huge"),
        ("record start face.gif", "line 2: record start face.gif: recordings are animated PNG files (.png or .apng; browsers and image viewers play them); got face.gif"),
        ("dump face.txt", "line 2: dump face.txt: dump writes JSON: dump NAME.json"),
        ("wrist sideways", "line 2: wrist sideways: wrist takes up or down"),
        ("hole 3", "line 2: hole 3: hole takes +N or -N holes from the one on the crown screen, e.g. hole +1"),
        ("expect-pending some", "line 2: expect-pending some: expect-pending takes a count of scores, 0 or more; got some"),
        ("wait-for godot", "line 2: wait-for godot: wait-for takes stale, fresh, reachable, unreachable, screen NAME, delivered N, pending N, dropped N or complications N"),
        ("wait-for screen settings", "line 2: wait-for screen settings: screens are leaderboard, crown, voice, final, no-round and watch-face; got settings"),
        ("screenshot a.png sideways", "line 2: screenshot a.png sideways: screenshot takes a file and optionally chrome or no-chrome: screenshot NAME.png [chrome|no-chrome]"),
    ])
    func syntaxErrors(line: String, message: String) {
        #expect(throws: ScenarioError.self) { try ScenarioScript.parse("save\n\(line)") }
        do { _ = try ScenarioScript.parse("save\n\(line)") } catch { #expect(error.description == message) }
    }

    @Test("An unknown command lists the language")
    func unknown() {
        do {
            _ = try ScenarioScript.parse("dance")
            Issue.record("parsed")
        } catch {
            #expect(error.description.hasPrefix("line 1: dance: unknown command \"dance\"; commands: wait-snapshot [TIMEOUT] | tap NAME"))
        }
    }
}
