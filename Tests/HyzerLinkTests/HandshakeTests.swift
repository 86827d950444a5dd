import Foundation
import HyzerKit
import HyzerLink
import HyzerTestSupport
import Testing

/// The hub's door, tested against the real `hyzer-hub serve` with a raw socket.
@Suite("Link handshake", .serialized)
struct HandshakeTests {
    static func scoreFrame(_ home: TemporaryHome) throws -> [UInt8] {
        let snapshot = try HyzerJSON.decoder().decode(StandingsSnapshot.self, from: Data(contentsOf: home.url.appendingPathComponent("shared/standings.json")))
        let round = try #require(snapshot.round)
        return try LinkFrame.encode(.score(try ScoreEvent(
            roundID: round.id, playerID: round.standings[0].playerID, hole: 1, strokes: 3,
            reportedByPlayerID: round.standings[0].playerID, deviceID: "intruder", source: .crown, createdAt: Date())))
    }

    @Test("The right token is welcomed and gets the standings at once")
    func welcome() async throws {
        let home = try TemporaryHome()
        try await home.startRound(players: 2)
        let server = try await home.serve()
        defer { server.stop() }
        let socket = try RawSocket(unixPath: home.socketPath)
        socket.send(try LinkFrame.encode(.hello(Hello(deviceID: "w1", token: home.token))))
        let received = try frames(in: await socket.receiveAll(timeout: .milliseconds(500)).bytes)
        guard case .welcome(let welcome) = received.first else { Issue.record("no welcome: \(received)"); return }
        #expect(welcome.protocolVersion == 1)
        #expect(welcome.heartbeatIntervalMillis == 1000)
        guard case .standings(let snapshot) = received.dropFirst().first else { Issue.record("no standings: \(received)"); return }
        #expect(snapshot.round?.standings.count == 2)
        #expect(welcome.hubID == snapshot.hubID)
    }

    @Test("A wrong token, an unsupported version, an invalid hello, or no hello is refused with the reason, and nothing is accepted",
          arguments: [
            ("wrong token", Refusal.Reason.wrongToken, "Wrong pairing token; use the hub's token (hyzer-hub token, or the file hub/token in its home)."),
            ("version 9", Refusal.Reason.unsupportedVersion, "Protocol version 9 is not supported; this hub speaks 1...1."),
            ("score first", Refusal.Reason.helloExpected, "The first frame must be a hello; got score."),
            ("device id of 200 bytes", Refusal.Reason.invalidHello,
             "deviceID must be 1 to 64 bytes with no control characters, and the token at most 256."),
          ])
    func refused(label: String, reason: Refusal.Reason, message: String) async throws {
        let home = try TemporaryHome()
        try await home.startRound(players: 2)
        let server = try await home.serve()
        defer { server.stop() }
        let socket = try RawSocket(unixPath: home.socketPath)
        let hello: [UInt8] = switch reason {
        case .wrongToken: try LinkFrame.encode(.hello(Hello(deviceID: "w1", token: "guess")))
        case .unsupportedVersion: try LinkFrame.encode(.hello(Hello(protocolVersion: 9, deviceID: "w1", token: home.token)))
        case .invalidHello: try LinkFrame.encode(.hello(Hello(deviceID: String(repeating: "w", count: 200), token: home.token)))
        case .helloExpected, .busy: []
        }
        // The score rides right behind the bad hello, in the same write.
        socket.send(hello + (try Self.scoreFrame(home)))
        let (bytes, closed) = await socket.receiveAll(timeout: .seconds(2))
        #expect(try frames(in: bytes) == [.refused(Refusal(reason: reason, message: message))])
        #expect(closed)
        #expect(try await home.events() == [])
        #expect(await eventually(timeout: .seconds(5)) { server.stderr.contains("refused a watch: \(message)") }, "stderr: \(server.stderr)")
    }

    @Test("A connection that never says hello is refused after the hello timeout")
    func silence() async throws {
        let home = try TemporaryHome()
        let server = try await home.serve(["--hello-timeout", "200"])
        defer { server.stop() }
        let socket = try RawSocket(unixPath: home.socketPath)
        let (bytes, closed) = await socket.receiveAll(timeout: .seconds(3))
        #expect(try frames(in: bytes) == [.refused(Refusal(reason: .helloExpected, message: "No hello within 200 ms; the first frame must be a hello."))])
        #expect(closed)
    }

    @Test("Oversized, truncated and garbage frames close only that connection, with a logged reason; a paired watch carries on",
          arguments: [
            ("oversized", [UInt8]([0x7F, 0, 0, 0, 0x7B]), "closing connection: frame of 2130706432 bytes exceeds the 4194304-byte limit"),
            ("garbage", [UInt8]([0, 0, 0, 5]) + Array("hello".utf8), "closing connection: malformed frame: not valid JSON"),
            ("truncated", [UInt8]([0, 0, 0, 50]) + Array("{\"type\":".utf8), "closing connection: connection closed inside a frame: 12 of 54 bytes received"),
          ])
    func hostileFrames(label: String, bytes: [UInt8], logged: String) async throws {
        let home = try TemporaryHome()
        try await home.startRound(players: 3)
        let server = try await home.serve()
        defer { server.stop() }
        let watch = try await home.linkClient(["--device", "watch-1", "--print-heartbeats"])
        defer { watch.stop() }
        #expect(await watch.waitForLine(timeout: .seconds(10)) { $0 == "reachable true" })

        let socket = try RawSocket(unixPath: home.socketPath)
        socket.send(try LinkFrame.encode(.hello(Hello(deviceID: "rogue", token: home.token))) + bytes)
        // A truncated frame is only known to be truncated when the sender hangs up.
        if label == "truncated" { socket.shutdownWrite() }
        #expect(await socket.receiveAll(timeout: .seconds(3)).closed)
        #expect(await eventually(timeout: .seconds(1)) { server.stderr.contains(logged) }, "stderr: \(server.stderr)")
        #expect(server.isRunning)
        // The paired watch is untouched: scores still land.
        let second = try await home.linkClient(["--device", "watch-2", "--enqueue", "3", "--until-drained"])
        #expect(await second.waitForExit(timeout: .seconds(30)) == 0)
        #expect(try await home.events().count == 3)
        // "Never unreachable" is only worth asserting once the watch has heard the hub since: a
        // heartbeat printed after this point came over a link that was up after the rogue frames.
        let heardBefore = watch.lines.count
        #expect(await eventually(timeout: .seconds(5)) { watch.lines.dropFirst(heardBefore).contains { $0.hasPrefix("heartbeat ") } },
                "watch: \(watch.lines.suffix(5))")
        #expect(!watch.lines.contains("reachable false"))
    }

}

@Suite("hyzer-hub serve lifecycle")
struct ServeLifecycleTests {
    @Test("SIGTERM and SIGINT stop serve cleanly: exit 0, socket file removed, token kept", arguments: [SIGTERM, SIGINT])
    func cleanShutdown(signal: Int32) async throws {
        let home = try TemporaryHome()
        let server = try await home.serve()
        #expect(FileManager.default.fileExists(atPath: home.socketPath))
        server.send(signal)
        #expect(await server.waitForExit(timeout: .seconds(10)) == 0)
        #expect(!FileManager.default.fileExists(atPath: home.socketPath))
        let attributes = try FileManager.default.attributesOfItem(atPath: home.url.appendingPathComponent("hub/token").path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test("The socket is created with mode 0600")
    func socketMode() async throws {
        let home = try TemporaryHome()
        let server = try await home.serve()
        defer { server.stop() }
        let attributes = try FileManager.default.attributesOfItem(atPath: home.socketPath)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }
}

/// Attacks a hostile or flaky peer made on the link, each fixed and kept fixed.
@Suite("Link hardening", .serialized)
struct LinkHardeningTests {
    @Test("300 watches that say hello and leave at once leave no heartbeat running behind them")
    func hitAndRunPairings() async throws {
        let home = try TemporaryHome()
        try await home.startRound(players: 2)
        let server = try await home.serve(["--log-level", "info", "--heartbeat", "50"])
        defer { server.stop() }
        let hello = try LinkFrame.encode(.hello(Hello(deviceID: "flaky", token: home.token)))
        for _ in 0..<300 {
            let socket = try RawSocket(unixPath: home.socketPath)
            socket.send(hello)
        }
        // A real watch pairs after all 300 have left and hears ten heartbeats: far longer than
        // the three intervals a leaked timer needs to complain.
        let watch = try await home.linkClient(["--device", "watch-1", "--print-heartbeats", "--timeout", "30"])
        defer { watch.stop() }
        #expect(await watch.waitForLine(timeout: .seconds(10)) { _ in watch.lines.filter { $0.hasPrefix("heartbeat") }.count >= 10 })
        #expect(!server.stderr.contains("nothing heard"), "\(server.stderr.components(separatedBy: "\n").filter { $0.contains("nothing heard") }.prefix(3))")
    }
}
