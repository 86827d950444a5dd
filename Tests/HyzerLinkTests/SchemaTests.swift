import Foundation
import HyzerKit
import HyzerLink
import HyzerHarness
import Testing

/// Debian's python3 (where tools/test installs python3-jsonschema), else whatever is on PATH.
let pythonWithJSONSchema = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") ? "/usr/bin/python3" : "python3"

/// The machine-readable contract (docs/schema) checked against what the hub and a watch really
/// send, with Python's jsonschema (installed by tools/test).
@Suite("JSON Schemas against real output", .serialized)
struct SchemaTests {
    static let schemaDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/schema")

    /// Runs docs/schema/validate.py; returns its exit status and what it printed.
    static func validate(_ schema: String, _ files: [URL]) async throws -> CLIProcess.Result {
        return try await CLIProcess.runTool(pythonWithJSONSchema, [schemaDirectory.appendingPathComponent("validate.py").path, schema] + files.map(\.path))
    }

    /// The JSON body of every whole frame in `bytes`.
    static func bodies(in bytes: [UInt8]) -> [Data] {
        var result: [Data] = []
        var offset = 0
        while offset + 4 <= bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            guard offset + 4 + length <= bytes.count else { break }
            result.append(Data(bytes[(offset + 4)..<(offset + 4 + length)]))
            offset += 4 + length
        }
        return result
    }

    @Test("Every link message the hub and the watch send, standings.json, and the event log match their schemas")
    func realOutputMatches() async throws {
        let home = try TemporaryHome()
        try await home.startRound(players: 2)
        // Heartbeats every 3 s: soon enough to capture one, and the raw socket, which sends
        // nothing between its hello and its score, is dropped only after 9 s of silence (three
        // missed). At 300 ms, and again at 1 s on a fresh clone's CI run, a test task kept waiting
        // for a core while the whole suite runs on two (more than three intervals between the
        // standings and the score) lost its connection, and the score was never answered.
        let server = try await home.serve(["--heartbeat", "3000"])
        defer { server.stop() }
        let out = home.url.appendingPathComponent("frames")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        var files: [URL] = []
        func keep(_ data: Data, _ name: String) throws {
            let url = out.appendingPathComponent("\(files.count)-\(name).json")
            try data.write(to: url)
            files.append(url)
        }

        // What a watch sends: hello, a score, a heartbeat.
        let socket = try RawSocket(unixPath: home.socketPath)
        let hello = try LinkFrame.encode(.hello(Hello(deviceID: "raw-watch", token: home.token)))
        try keep(Data(hello.dropFirst(4)), "hello")
        try await socket.send(hello)
        var received: [UInt8] = []
        #expect(await eventually(timeout: .seconds(30)) {
            received += await socket.receiveAll(timeout: .milliseconds(20)).bytes
            return (try? frames(in: received))?.contains { if case .standings = $0 { true } else { false } } == true
        })
        let snapshot = try #require(try frames(in: received).compactMap { if case .standings(let s) = $0 { s } else { nil } }.first)
        let round = try #require(snapshot.round)
        let event = try ScoreEvent(roundID: round.id, playerID: round.standings[0].playerID, hole: 1, strokes: 3,
                                   reportedByPlayerID: round.standings[0].playerID, deviceID: "raw-watch", source: .crown, createdAt: Date())
        let score = try LinkFrame.encode(.score(event))
        try keep(Data(score.dropFirst(4)), "score")
        let heartbeat = try LinkFrame.encode(.heartbeat(Heartbeat(sentAt: Date(), sequence: snapshot.sequence, appActive: true)))
        try keep(Data(heartbeat.dropFirst(4)), "heartbeat")
        try await socket.send(score + rawScoreFrame(scoreBody(snapshot, strokes: 11)) + heartbeat)

        // What the hub sends back: welcome, standings, ack, rejected, heartbeats; and a refusal.
        #expect(await eventually(timeout: .seconds(30)) {
            received += await socket.receiveAll(timeout: .milliseconds(20)).bytes
            let types = Set(Self.bodies(in: received).compactMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }.compactMap { $0["type"] as? String })
            return types.isSuperset(of: ["ack", "rejected", "standings", "heartbeat"])
        })
        // A watch whose face shows the complication is sent a complication transfer at pairing.
        let face = try RawSocket(unixPath: home.socketPath)
        let faceHello = try LinkFrame.encode(.hello(Hello(deviceID: "raw-face", token: home.token, complicationEnabled: true)))
        try keep(Data(faceHello.dropFirst(4)), "hello-complication")
        try await face.send(faceHello)
        var faceReceived: [UInt8] = []
        #expect(await eventually(timeout: .seconds(30)) {
            faceReceived += await face.receiveAll(timeout: .milliseconds(20)).bytes
            return (try? frames(in: faceReceived))?.contains { if case .complication = $0 { true } else { false } } == true
        })
        received += faceReceived
        let refusedSocket = try RawSocket(unixPath: home.socketPath)
        try await refusedSocket.send(try LinkFrame.encode(.hello(Hello(deviceID: "guesser", token: "guess"))))
        received += await refusedSocket.receiveAll(timeout: .seconds(2)).bytes
        for body in Self.bodies(in: received) { try keep(body, "from-hub") }
        let types = files.compactMap { try? JSONSerialization.jsonObject(with: Data(contentsOf: $0)) as? [String: Any] }.compactMap { $0["type"] as? String }
        #expect(Set(types) == ["hello", "score", "heartbeat", "welcome", "standings", "ack", "rejected", "refused", "complication"])

        let messages = try await Self.validate("link-message", files)
        #expect(messages.status == 0, "\(messages.stdout)\(messages.stderr)")
        let standings = try await Self.validate("standings", [home.url.appendingPathComponent("shared/standings.json")])
        #expect(standings.status == 0, "\(standings.stdout)\(standings.stderr)")
        let log = home.url.appendingPathComponent("events.json")
        try Data(try await home.hub("events", "--json").stdout.utf8).write(to: log)
        let events = try await Self.validate("score-event", [log])
        #expect(events.status == 0, "\(events.stdout)\(events.stderr)")
    }

    @Test("The schemas refuse what the hub refuses: strokes 11, a missing field, an unknown reason")
    func schemasCanFail() async throws {
        let home = try TemporaryHome()
        let cases = [
            #"{"type":"score","body":{"id":"00000000-0000-0000-0000-0000000000AA","roundID":"00000000-0000-0000-0000-0000000000AB","playerID":"p","hole":1,"strokes":11,"supersedesEventID":null,"reportedByPlayerID":"p","deviceID":"w","source":"crown","createdAt":"2026-11-21T10:00:00.000Z"}}"#,
            #"{"type":"hello","body":{"protocolVersion":1,"token":"t"}}"#,
            #"{"type":"rejected","body":{"eventID":"x","reason":"becauseISaidSo","message":"no"}}"#,
            #"{"type":"heartbeat","body":{"sentAt":"2026-11-21T10:00:00.000+01:00"}}"#,
            #"{"type":"complication","body":{"reason":"becauseISaidSo","sequence":1,"asOf":"2026-11-21T10:00:00.000Z","content":{"tied":false,"scoreRelativeToPar":0,"holesPlayed":0,"holeCount":18,"currentHole":1,"finished":false}}}"#,
        ]
        for (index, text) in cases.enumerated() {
            let file = home.url.appendingPathComponent("bad-\(index).json")
            try text.write(to: file, atomically: true, encoding: .utf8)
            let result = try await Self.validate("link-message", [file])
            #expect(result.status == 1, "accepted: \(text)")
        }
    }
}

@Suite("A third-party watch written from the docs")
struct ThirdPartyClientTests {
    static let client = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("ThirdPartyClient/hyzer_link_client.py")

    @Test("A Python watch pairs, scores, corrects, gets every rejection reason a watch can cause, and catches up after a lost push")
    func pythonClient() async throws {
        let home = try TemporaryHome()
        try await home.startRound(players: 2)
        let server = try await home.serve()
        defer { server.stop() }
        let python = pythonWithJSONSchema
        let result = try await CLIProcess.runTool(python, [
            Self.client.path, "--socket", home.socketPath, "--token-file", home.url.appendingPathComponent("hub/token").path,
        ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasSuffix("all checks passed\n"))
        #expect(result.stdout.components(separatedBy: "rejected with reason").count - 1 == 8)
    }

    @Test("The same Python watch over TCP with TLS, pinning the hub's certificate by fingerprint")
    func pythonClientOverTLS() async throws {
        let home = try TemporaryHome()
        try await home.startRound(players: 2)
        let server = try await home.serve(["--listen", "tcp:127.0.0.1:0"])
        defer { server.stop() }
        let ready = try #require(server.lines.first { $0.hasPrefix("hyzer-hub serving on tcp:127.0.0.1:") })
        let address = try #require(ready.split(separator: " ").first { $0.hasPrefix("tcp:") }).dropFirst(4)
        let fingerprint = try await home.hub("token", "--fingerprint").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(fingerprint.hasPrefix("sha256:") && fingerprint.count == 71)
        let python = pythonWithJSONSchema
        let result = try await CLIProcess.runTool(python, [
            Self.client.path, "--tcp", String(address), "--fingerprint", fingerprint,
            "--token-file", home.url.appendingPathComponent("hub/token").path,
        ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasPrefix("ok  TLS to the hub pinned by \(fingerprint)\n"))
        #expect(result.stdout.hasSuffix("all checks passed\n"))
        let wrong = try await CLIProcess.runTool(python, [
            Self.client.path, "--tcp", String(address), "--fingerprint", "sha256:" + String(repeating: "0", count: 64),
            "--token-file", home.url.appendingPathComponent("hub/token").path,
        ])
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("the hub presented \(fingerprint), not the pinned sha256:0000"))
    }
}

extension ThirdPartyClientTests {
    static let hangupHub = client.deletingLastPathComponent().appendingPathComponent("hangup_hub.py")

    @Test("A hub that hangs up on a score every time cannot block the queue: after five tries the watch sets it aside in rejected.jsonl")
    func hostileHubCannotBlockTheQueue() async throws {
        let hubHome = try TemporaryHome()
        try await hubHome.startRound(players: 2)
        let watchHome = try TemporaryHome()
        try FileManager.default.createDirectory(at: watchHome.url.appendingPathComponent("shared"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: hubHome.url.appendingPathComponent("shared/standings.json"),
                                         to: watchHome.url.appendingPathComponent("shared/standings.json"))
        let socketPath = watchHome.url.appendingPathComponent("hangup.sock").path
        let python = pythonWithJSONSchema
        let hub = try await RunningProcess(path: python, [Self.hangupHub.path, "--socket", socketPath])
        defer { hub.stop() }
        #expect(await hub.waitForLine(timeout: .seconds(10)) { $0 == "listening" })
        let tokenFile = watchHome.url.appendingPathComponent("token")
        try "anything\n".write(to: tokenFile, atomically: true, encoding: .utf8)
        let client = try await watchHome.linkClient(["--connect", "unix:\(socketPath)", "--token-file", tokenFile.path,
                                                     "--device", "watch-1", "--enqueue", "2", "--until-drained", "--timeout", "60"])
        #expect(await client.waitForExit(timeout: .seconds(60)) == 0, "\(client.lines.suffix(4)) \(client.stderr.suffix(400))")
        let rejected = try String(contentsOf: watchHome.url.appendingPathComponent("watch/rejected.jsonl"), encoding: .utf8)
            .split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(rejected.map { ($0["event"] as? [String: Any])?["id"] as? String } == client.queuedIDs)
        #expect(rejected.allSatisfy { $0["reason"] as? String == "invalidScore" })
        #expect(rejected.first?["message"] as? String
                == "The hub closed the connection each of the 5 times this score was sent, without an answer; set aside so the scores behind it can go.")
        #expect(hub.lines.filter { $0.hasPrefix("hung up on") }.count == 10)
    }
}
