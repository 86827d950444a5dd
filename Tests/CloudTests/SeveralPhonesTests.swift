import Foundation
import Testing
import HyzerHarness
import HubCloud
import Logging

/// Several phones, one round, a real PostgreSQL server (docs/SYNC.md): real `hyzer-hub serve`
/// processes on temporary homes, each phone's cloud link cut and healed, phones killed -9; at the
/// end every phone and every watch shows the same round, and the cloud holds each event once.
///
/// The server is the one `tools/test` starts (`HYZER_TEST_POSTGRES_URL`, a superuser URL); each
/// test makes its own cloud in it (a database, `hyzer-hub cloud init`'s schema, a role per phone).
/// The test server's superuser URL, from tools/test.
let cloudTestServer = ProcessInfo.processInfo.environment["HYZER_TEST_POSTGRES_URL"]

@Suite("Several phones through a PostgreSQL cloud", .enabled(if: cloudTestServer != nil, "needs HYZER_TEST_POSTGRES_URL (tools/test starts a server)"))
struct SeveralPhonesTests {
    static var adminURL: String? { cloudTestServer }

    /// A cloud of its own on the test server, made as an administrator makes one.
    struct TestCloud {
        /// The superuser's URL of the cloud's database: what writes around every rule.
        let adminURL: String
        /// Each phone's URL (its own role and password), by the name given.
        let phones: [String: String]

        func url(_ phone: String) throws -> String { try #require(phones[phone], "no phone \(phone) in this cloud") }
    }

    /// A new database on the test server, with the cloud's schema and a role for each of `phones`
    /// (`hyzer-hub cloud init`); role names carry the database's suffix (roles belong to the server).
    static func makeCloud(phones: [String]) async throws -> TestCloud {
        let admin = try #require(adminURL)
        let suffix = UUID().uuidString.prefix(8).lowercased()
        let name = "hyzer_test_\(suffix)"
        let created = try await CLIProcess.runTool("psql", [admin, "-qc", "CREATE DATABASE \(name)"])
        guard created.status == 0 else { throw TestFailure("psql could not create \(name): \(created.stderr)") }
        var components = try #require(URLComponents(string: admin))
        components.path = "/\(name)"
        let databaseURL = try #require(components.string)
        let logins = try await CloudAdmin.initialize(databaseURL, phones: phones.map { "\($0)_\(suffix)" }, logger: Logger(label: "hyzer.test.cloud"))
        return TestCloud(adminURL: databaseURL, phones: Dictionary(uniqueKeysWithValues: zip(phones, logins.map(\.url))))
    }

    static func psql(_ database: String, _ sql: String) async throws -> String {
        let result = try await CLIProcess.runTool("psql", [database, "-tAc", sql])
        guard result.status == 0 else { throw TestFailure("psql: \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The cloud URL through a proxy that can cut this one phone off; `bytesPerSecond` makes its
    /// link a slow one.
    static func proxy(to url: String, bytesPerSecond: Int? = nil) async throws -> (RunningProcess, String) {
        let database = try #require(URL(string: url))
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("cloud_proxy.py").path
        let proxy = try await RunningProcess(path: "/usr/bin/python3",
                                             [script, database.host ?? "127.0.0.1", String(database.port ?? 5432)] + (bytesPerSecond.map { [String($0)] } ?? []))
        guard await proxy.waitForLine(timeout: .seconds(30), { $0.hasPrefix("listening ") }),
              let port = proxy.lines.first(where: { $0.hasPrefix("listening ") })?.split(separator: " ").last else {
            throw TestFailure("the proxy did not start: \(proxy.stderr)")
        }
        var components = try #require(URLComponents(url: database, resolvingAgainstBaseURL: false))
        components.port = Int(port)
        return (proxy, try #require(components.string))
    }

    /// The round as a phone shows it, with other phones' devices (`DEVICE@PHONE`) named as
    /// their own phone names them: the one thing phones spell differently (docs/SYNC.md).
    static func roundJSON(_ home: TemporaryHome) async throws -> String {
        try await home.hub("round", "show", "--json").stdout.replacing(#/@[a-z][a-z0-9_]*"/#, with: "\"")
    }

    static func eventIDs(_ home: TemporaryHome) async throws -> Set<String> {
        let output = try await home.hub("events", "--json").stdout
        let events = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]] ?? []
        return Set(events.compactMap { $0["id"] as? String })
    }

    @discardableResult
    static func score(_ home: TemporaryHome, _ arguments: String...) async throws -> CLIProcess.Result {
        let result = try await CLIProcess.run("hyzer-hub", ["--home", home.path] + arguments)
        guard result.status == 0 else { throw TestFailure("hyzer-hub \(arguments.joined(separator: " ")) failed: \(result.stderr)") }
        return result
    }

    @Test("Another phone's score reaches this phone's web page live, through the cloud, without a reload")
    func anotherPhoneOnThePage() async throws {
        let cloud = try await Self.makeCloud(phones: ["jake", "sarah"])
        let (jake, sarah) = (try TemporaryHome(), try TemporaryHome())
        try await Self.score(jake, "cloud", "set", try cloud.url("jake"), "--player", "Jake")
        try await Self.score(jake, "round", "start", "--course", "Willow Creek", "--player", "Jake", "Sarah")
        try await Self.score(sarah, "cloud", "set", try cloud.url("sarah"), "--player", "Sarah", "--auto-join")
        let jakeServe = try await jake.serve()
        let sarahServe = try await sarah.serve()
        defer { jakeServe.stop(); sarahServe.stop() }
        #expect(try await eventually(timeout: .seconds(20)) { try await Self.roundJSON(sarah).contains("Willow Creek") })
        guard await jakeServe.waitForLine(timeout: .seconds(30), { $0.hasPrefix("hyzer-hub phone's face on ") }),
              let page = jakeServe.lines.first(where: { $0.hasPrefix("hyzer-hub phone's face on ") })?.split(separator: " ").dropFirst(4).first else {
            throw TestFailure("Jake's serve did not say where its page is: \(jakeServe.lines)")
        }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("HubWebTests/phone_face.py").path
        let follower = try await RunningProcess(path: "/usr/bin/python3", [script, "live", String(page), "Sarah", "2", "3"])
        defer { follower.stop() }
        #expect(await follower.waitForLine(timeout: .seconds(20)) { $0 == "following" }, "\(follower.stderr)")
        try await Self.score(sarah, "score", "Sarah", "2", "--hole", "3")
        #expect(await follower.waitForExit(timeout: .seconds(60)) == 0, "Jake's page never showed Sarah's 2: \(follower.stderr)")
    }

    @Test("Three phones score, one is cut off, two are killed -9; all converge, each event once in the cloud, every watch shows the same")
    func threePhonesConverge() async throws {
        let cloud = try await Self.makeCloud(phones: ["jake", "sarah", "mike"])
        let url = cloud.adminURL
        let (proxy, proxiedURL) = try await Self.proxy(to: try cloud.url("mike"))
        defer { proxy.stop() }
        let (jake, sarah, mike) = (try TemporaryHome(), try TemporaryHome(), try TemporaryHome())

        // Jake's phone organizes; the others join on their own (--auto-join) because they are players of it.
        try await Self.score(jake, "cloud", "set", try cloud.url("jake"), "--player", "Jake")
        try await Self.score(jake, "round", "start", "--course", "Willow Creek", "--player", "Jake", "Sarah", "Mike")
        try await Self.score(sarah, "cloud", "set", try cloud.url("sarah"), "--player", "Sarah", "--auto-join")
        try await Self.score(mike, "cloud", "set", proxiedURL, "--player", "Mike", "--auto-join")
        var jakeServe = try await jake.serve(["--log-level", "info"])
        var sarahServe = try await sarah.serve(["--log-level", "info"])
        let mikeServe = try await mike.serve(["--log-level", "debug"])
        defer { jakeServe.stop(); sarahServe.stop(); mikeServe.stop() }
        for (home, server) in [(sarah, sarahServe), (mike, mikeServe)] {
            let joined = try await eventually(timeout: .seconds(20)) { try await Self.roundJSON(home).contains("Willow Creek") }
            #expect(joined, "a player's phone discovers the round: \(joined ? "" : server.stderr + jakeServe.stderr)")
        }

        // Anyone scores anyone; two phones disagree about Jake's first hole.
        try await Self.score(jake, "score", "Jake", "3", "--hole", "1")
        try await Self.score(sarah, "score", "Sarah", "4", "--hole", "1")
        try await Self.score(sarah, "score", "Jake", "4", "--hole", "1")
        try await Self.score(mike, "score", "Mike", "5", "--hole", "1")
        for home in [jake, sarah, mike] {
            #expect(try await eventually(timeout: .seconds(20)) {
                try await home.hub("discrepancies").stdout.contains("Jake, hole 1")
            }, "the discrepancy opens on every phone")
        }

        // Mike's phone loses the cloud; it keeps scoring, and says it is offline with scores waiting.
        proxy.send(SIGUSR1)
        try await Self.score(mike, "score", "Mike", "3", "--hole", "2")
        try await Self.score(mike, "score", "Sarah", "2", "--hole", "2")
        try await Self.score(jake, "score", "Mike", "3", "--hole", "2")  // the same fact from two phones: a silent merge
        #expect(try await eventually(timeout: .seconds(20)) {
            let status = try await mike.hub("cloud", "status", "--json").stdout
            return status.contains("\"state\" : \"offline\"") && status.contains("\"eventsWaiting\" : 2")
        }, "the cut-off phone says offline, 2 scores waiting")

        // Sarah's phone is killed -9 right after a burst of scores; Jake resolves his hole meanwhile.
        for (player, strokes) in [("Jake", "3"), ("Sarah", "4"), ("Mike", "2")] {
            for hole in 3...4 { try await Self.score(sarah, "score", player, strokes, "--hole", String(hole)) }
        }
        await sarahServe.kill()
        try await Self.score(jake, "resolve", "Jake", "4", "--hole", "1")
        let refused = try await sarah.hub("resolve", "Jake", "3", "--hole", "1")
        #expect(refused.status != 0 && refused.stderr.contains("Only the organizer"), "only the organizer resolves: \(refused.stderr)")
        sarahServe = try await sarah.serve()

        // Jake's phone is killed -9 while Mike's comes back with what it scored offline.
        proxy.send(SIGUSR2)
        await jakeServe.kill()
        jakeServe = try await jake.serve()

        // Every phone holds every event; the cloud holds each once.
        let agreed = try await eventually(timeout: .seconds(45), pollingEvery: .milliseconds(200)) {
            let ids = try await [Self.eventIDs(jake), Self.eventIDs(sarah), Self.eventIDs(mike)]
            let rounds = try await [Self.roundJSON(jake), Self.roundJSON(sarah), Self.roundJSON(mike)]
            let cloudCount = try await Int(Self.psql(url, "SELECT count(*) FROM hyzer.score_event")) ?? -1
            return ids[0] == ids[1] && ids[1] == ids[2] && ids[0].count == cloudCount && cloudCount == 14 && Set(rounds).count == 1
        }
        var report = ""
        if !agreed {
            for home in [jake, sarah, mike] {
                report += "\n\(try await Self.eventIDs(home).count) events; " + (try await home.hub("cloud", "status").stdout)
            }
            report += "\ncloud: " + (try await Self.psql(url, "SELECT count(*) FROM hyzer.score_event"))
            let rounds = try await [Self.roundJSON(jake), Self.roundJSON(sarah), Self.roundJSON(mike)]
            for (index, line) in rounds[0].split(separator: "\n").enumerated() {
                let others = rounds.dropFirst().map { $0.split(separator: "\n") }
                if others.contains(where: { index >= $0.count || $0[index] != line }) {
                    report += "\nfirst difference in round show --json at line \(index): \(line) | \(others.map { index < $0.count ? String($0[index]) : "-" })"
                    break
                }
            }
            report += "\nserve logs: \(jakeServe.stderr)\n---\n\(sarahServe.stderr)\n---\n\(mikeServe.stderr)"
        }
        #expect(agreed, "every phone holds the cloud's 14 events and shows the same round\(report)")
        let distinct = try await Self.psql(url, "SELECT count(DISTINCT id) = count(*) AND count(*) = 14 FROM hyzer.score_event")
        #expect(distinct == "t", "14 events (4 on hole 1, 3 on hole 2, 6 in the burst, 1 resolution), each once in the cloud")
        let jakeRound = try await Self.roundJSON(jake)
        #expect(!jakeRound.contains("\"discrepancy\" : true"), "the resolution settled the discrepancy everywhere")
        let standings = try JSONSerialization.jsonObject(with: Data(jakeRound.utf8)) as? [String: Any]
        let jakeTotal = (standings?["standings"] as? [[String: Any]])?.first { $0["name"] as? String == "Jake" }?["totalStrokes"] as? Int
        #expect(jakeTotal == 10, "Jake: 4 (resolved) + 3 + 3")

        // Each phone's watch draws the same face.
        var faces: [Data] = []
        for home in [jake, sarah, mike] {
            let script = home.url.appendingPathComponent("board.script")
            try "wait-snapshot\nscreenshot board.png\nquit\n".write(to: script, atomically: true, encoding: .utf8)
            let watch = try await CLIProcess.run("hyzer-watch", ["--home", home.path, "--headless", "--script", script.path, "--screenshot-dir", home.path])
            #expect(watch.status == 0, "the headless watch failed: \(watch.stderr)")
            faces.append(try Data(contentsOf: home.url.appendingPathComponent("board.png")))
        }
        #expect(faces[0] == faces[1] && faces[1] == faces[2], "every watch shows the same standings")
    }
}
