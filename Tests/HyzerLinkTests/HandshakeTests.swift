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
    func welcome() throws {
        let home = try TemporaryHome()
        try home.startRound(players: 2)
        let server = try home.serve()
        defer { server.kill() }
        let socket = try RawSocket(unixPath: home.socketPath)
        socket.send(try LinkFrame.encode(.hello(Hello(deviceID: "w1", token: home.token))))
        let received = try frames(in: socket.receiveAll(timeout: 0.5).bytes)
        guard case .welcome(let welcome) = received.first else { Issue.record("no welcome: \(received)"); return }
        #expect(welcome.protocolVersion == 1)
        #expect(welcome.heartbeatIntervalMillis == 1000)
        guard case .standings(let snapshot) = received.dropFirst().first else { Issue.record("no standings: \(received)"); return }
        #expect(snapshot.round?.standings.count == 2)
        #expect(welcome.hubID == snapshot.hubID)
    }

    @Test("A wrong token, an unsupported version, or no hello is refused with the reason, and nothing is accepted",
          arguments: [
            ("wrong token", Refusal.Reason.wrongToken, "Wrong pairing token; use the hub's token (hyzer-hub token, or the file hub/token in its home)."),
            ("version 9", Refusal.Reason.unsupportedVersion, "Protocol version 9 is not supported; this hub speaks 1...1."),
            ("score first", Refusal.Reason.helloExpected, "The first frame must be a hello; got score."),
          ])
    func refused(label: String, reason: Refusal.Reason, message: String) throws {
        let home = try TemporaryHome()
        try home.startRound(players: 2)
        let server = try home.serve()
        defer { server.kill() }
        let socket = try RawSocket(unixPath: home.socketPath)
        let hello: [UInt8] = switch reason {
        case .wrongToken: try LinkFrame.encode(.hello(Hello(deviceID: "w1", token: "guess")))
        case .unsupportedVersion: try LinkFrame.encode(.hello(Hello(protocolVersion: 9, deviceID: "w1", token: home.token)))
        case .helloExpected: []
        }
        // The score rides right behind the bad hello, in the same write.
        socket.send(hello + (try Self.scoreFrame(home)))
        let (bytes, closed) = socket.receiveAll(timeout: 2)
        #expect(try frames(in: bytes) == [.refused(Refusal(reason: reason, message: message))])
        #expect(closed)
        #expect(try home.events() == [])
        #expect(server.stderr.contains("refused a watch: \(message)"))
    }

    @Test("A connection that never says hello is refused after the hello timeout")
    func silence() throws {
        let home = try TemporaryHome()
        let server = try home.serve(["--hello-timeout", "200"])
        defer { server.kill() }
        let socket = try RawSocket(unixPath: home.socketPath)
        let (bytes, closed) = socket.receiveAll(timeout: 3)
        #expect(try frames(in: bytes) == [.refused(Refusal(reason: .helloExpected, message: "No hello within 200 ms; the first frame must be a hello."))])
        #expect(closed)
    }

    @Test("Oversized, truncated and garbage frames close only that connection, with a logged reason; a paired watch carries on",
          arguments: [
            ("oversized", [UInt8]([0x7F, 0, 0, 0, 0x7B]), "closing connection: frame of 2130706432 bytes exceeds the 4194304-byte limit"),
            ("garbage", [UInt8]([0, 0, 0, 5]) + Array("hello".utf8), "closing connection: malformed frame: not valid JSON"),
            ("truncated", [UInt8]([0, 0, 0, 50]) + Array("{\"type\":".utf8), "closing connection: connection closed inside a frame: 12 of 54 bytes received"),
          ])
    func hostileFrames(label: String, bytes: [UInt8], logged: String) throws {
        let home = try TemporaryHome()
        try home.startRound(players: 3)
        let server = try home.serve()
        defer { server.kill() }
        let watch = try home.linkClient(["--device", "watch-1"])
        defer { watch.kill() }
        #expect(watch.waitForLine(timeout: 10) { $0 == "reachable true" })

        let socket = try RawSocket(unixPath: home.socketPath)
        socket.send(try LinkFrame.encode(.hello(Hello(deviceID: "rogue", token: home.token))) + bytes)
        // A truncated frame is only known to be truncated when the sender hangs up.
        if label == "truncated" { socket.shutdownWrite() }
        #expect(socket.receiveAll(timeout: 3).closed)
        for _ in 0..<100 where !server.stderr.contains(logged) { usleep(10_000) }
        #expect(server.stderr.contains(logged), "stderr: \(server.stderr)")
        #expect(server.process.isRunning)
        // The paired watch is untouched: scores still land.
        let second = try home.linkClient(["--device", "watch-2", "--enqueue", "3", "--until-drained"])
        #expect(second.waitForExit(timeout: 30) == 0)
        #expect(try home.events().count == 3)
        #expect(!watch.lines.contains("reachable false"))
    }

}

@Suite("hyzer-hub serve lifecycle")
struct ServeLifecycleTests {
    @Test("SIGTERM and SIGINT stop serve cleanly: exit 0, socket file removed, token kept", arguments: [SIGTERM, SIGINT])
    func cleanShutdown(signal: Int32) throws {
        let home = try TemporaryHome()
        let server = try home.serve()
        #expect(FileManager.default.fileExists(atPath: home.socketPath))
        kill(server.process.processIdentifier, signal)
        #expect(server.waitForExit(timeout: 10) == 0)
        #expect(!FileManager.default.fileExists(atPath: home.socketPath))
        let attributes = try FileManager.default.attributesOfItem(atPath: home.url.appendingPathComponent("hub/token").path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test("The socket is created with mode 0600")
    func socketMode() throws {
        let home = try TemporaryHome()
        let server = try home.serve()
        defer { server.kill() }
        let attributes = try FileManager.default.attributesOfItem(atPath: home.socketPath)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }
}
