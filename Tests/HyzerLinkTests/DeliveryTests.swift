import Foundation
import HyzerKit
import HyzerLink
import HyzerHarness
import Testing

/// Zero-loss delivery with real processes: `hyzer-hub serve` and the watch-side link client, each
/// killed at awkward moments. Every score lands exactly once, in order per device.
@Suite("Link delivery end to end", .serialized)
struct DeliveryTests {
    /// The hub's ids for `device`, in commit order.
    static func committedIDs(_ home: TemporaryHome, device: String) async throws -> [String] {
        try await home.events().filter { $0.deviceID == device }.map(\.id.uuidString)
    }

    @Test("300 scores while the hub is SIGKILLed and restarted 6 times: exactly 300 events, no duplicates, in order")
    func hubKilledRepeatedly() async throws {
        let home = try TemporaryHome()
        try await home.startRound(players: 20)
        // When the hub dies and for how long it stays down are drawn from a seed, printed, and named
        // by every assertion below, so a failing run can be replayed.
        var random = try SeededRandom.fromEnvironment(for: "hubKilledRepeatedly")
        let replay = random.replay(filter: "DeliveryTests/hubKilledRepeatedly")
        var server = try await home.serve()
        let client = try await home.linkClient(["--device", "watch-1", "--enqueue", "300", "--interval", "8", "--until-drained", "--timeout", "150"])
        // The kills start once the client is at work: a client slow to start (a loaded machine)
        // would otherwise see only the hub that survived them all.
        #expect(await client.waitForLine(timeout: .seconds(30)) { $0 == "reachable true" }, "\(client.stderr)")
        var restarts = 0
        while restarts < 6 {
            try await Task.sleep(for: .milliseconds(Int.random(in: 150...500, using: &random)))
            await server.kill(SIGKILL)
            restarts += 1
            try await Task.sleep(for: .milliseconds(Int.random(in: 20...300, using: &random)))
            server = try await home.serve()
        }
        defer { server.stop() }
        #expect(await client.waitForExit(timeout: .seconds(150)) == 0, "client: \(client.lines.suffix(5)) \(client.stderr); \(replay)")
        #expect(client.queuedIDs.count == 300, "\(replay)")
        let committed = try await Self.committedIDs(home, device: "watch-1")
        #expect(committed.count == 300, "\(replay)")
        #expect(Set(committed).count == 300, "\(replay)")
        #expect(committed == client.queuedIDs, "\(replay)")
        // The kills landed while the client was working: it saw the phone go away.
        #expect(client.lines.contains("reachable false"), "\(replay)")
        #expect(try DurableOutbox.pendingEvents(in: home.url.appendingPathComponent("watch/outbox")) == [], "\(replay)")
    }

    @Test("The watch client SIGKILLed with a non-empty outbox drains it in order when restarted")
    func clientKilled() async throws {
        let home = try TemporaryHome()
        try await home.startRound(players: 4)
        let server = try await home.serve(["--latency", "15"])
        defer { server.stop() }
        let first = try await home.linkClient(["--device", "watch-1", "--enqueue", "40", "--until-drained"])
        // Scores are delivered one at a time while more are queued, each waiting out the hub's 15 ms
        // latency: kill once all 40 are queued and some have landed, so the outbox still holds the rest.
        #expect(await first.waitForLine(timeout: .seconds(30)) { _ in
            first.queuedIDs.count == 40 && first.lines.contains { $0.hasPrefix("acked") }
        })
        await first.kill(SIGKILL)
        let queued = first.queuedIDs
        let left = try DurableOutbox.pendingEvents(in: home.url.appendingPathComponent("watch/outbox"))
        #expect(queued.count == 40)
        #expect(!left.isEmpty)

        let second = try await home.linkClient(["--device", "watch-1", "--until-drained"])
        #expect(await second.waitForExit(timeout: .seconds(60)) == 0)
        let committed = try await Self.committedIDs(home, device: "watch-1")
        #expect(committed == queued)
    }

    @Test("With --drop 0.3 every score still lands exactly once, in order")
    func lossyLink() async throws {
        let home = try TemporaryHome()
        try await home.startRound(players: 4)
        let server = try await home.serve(["--drop", "0.3", "--heartbeat", "200"])
        defer { server.stop() }
        let client = try await home.linkClient(["--device", "watch-1", "--enqueue", "40", "--until-drained", "--timeout", "120"])
        #expect(await client.waitForExit(timeout: .seconds(120)) == 0, "client: \(client.lines.suffix(5))")
        let committed = try await Self.committedIDs(home, device: "watch-1")
        #expect(committed == client.queuedIDs)
        #expect(committed.count == 40)
    }

    @Test("Hub down for a while: scores queue on the watch; hub back: the queue drains")
    func hubDownThenBack() async throws {
        let home = try TemporaryHome()
        try await home.startRound(players: 4)
        _ = try await home.hub("token")
        // At debug level the client logs each failed connect: the proof that it tried while the hub was down.
        let client = try await home.linkClient(["--device", "watch-1", "--enqueue", "20", "--until-drained", "--timeout", "60"],
                                                environment: ["HYZER_LOG_LEVEL": "debug"])
        #expect(await client.waitForLine(timeout: .seconds(30)) { _ in client.queuedIDs.count == 20 })
        // Not reachable is only worth asserting once the client has tried again with all 20 queued.
        let failedConnects = { client.stderr.components(separatedBy: "connect failed").count - 1 }
        let failedWhenQueued = failedConnects()
        #expect(await eventually(timeout: .seconds(15)) { failedConnects() >= failedWhenQueued + 2 }, "stderr: \(client.stderr.suffix(600))")
        #expect(!client.lines.contains("reachable true"))
        #expect(try await home.events() == [])
        #expect(try DurableOutbox.pendingEvents(in: home.url.appendingPathComponent("watch/outbox")).count == 20)

        let server = try await home.serve()
        defer { server.stop() }
        #expect(await client.waitForExit(timeout: .seconds(60)) == 0)
        #expect(try await Self.committedIDs(home, device: "watch-1") == client.queuedIDs)
        #expect(client.lines.contains("reachable true"))
    }

    @Test("With every push dropped, the watch side still converges on the newest standings through standings.json")
    func pushesDropped() async throws {
        let home = try TemporaryHome()
        try await home.startRound(players: 2)
        let server = try await home.serve(["--drop", "1"])
        defer { server.stop() }
        // At info level the client logs each handshake that got no welcome.
        let watch = try await home.linkClient(["--device", "watch-1", "--timeout", "60"], environment: ["HYZER_LOG_LEVEL": "info"])
        defer { watch.stop() }
        for hole in 1...5 {
            #expect(try await home.hub("score", "Player 01", "3", "--hole", "\(hole)").status == 0)
        }
        let newest = try await home.standingsSequence()
        #expect(await watch.waitForLine(timeout: .seconds(10)) { $0 == "standings \(newest) file" }, "watch: \(watch.lines)")
        // No push is only worth asserting once a handshake has failed after the newest standings
        // existed: the link was up to the hub then, and nothing came through it.
        let unanswered = { watch.stderr.components(separatedBy: "no welcome in time").count - 1 }
        let unansweredBefore = unanswered()
        #expect(await eventually(timeout: .seconds(15)) { unanswered() > unansweredBefore }, "stderr: \(watch.stderr.suffix(600))")
        #expect(!watch.lines.contains { $0.hasSuffix(" push") })
        #expect(!watch.lines.contains("reachable true"))
    }

    @Test("Changes made by other hyzer-hub commands reach a paired watch as a push")
    func pushesFromOtherProcesses() async throws {
        let home = try TemporaryHome()
        try await home.startRound(players: 2)
        let server = try await home.serve()
        defer { server.stop() }
        // The watch has a home of its own, so the only way the change can reach it is the push.
        let watchHome = try TemporaryHome()
        let watch = try await watchHome.linkClient([
            "--connect", "unix:\(home.socketPath)", "--token-file", home.url.appendingPathComponent("hub/token").path,
            "--device", "watch-1", "--timeout", "60",
        ])
        defer { watch.stop() }
        #expect(await watch.waitForLine(timeout: .seconds(10)) { $0 == "reachable true" })
        #expect(try await home.hub("score", "Player 02", "4").status == 0)
        let newest = try await home.standingsSequence()
        #expect(await watch.waitForLine(timeout: .seconds(5)) { $0 == "standings \(newest) push" }, "\(watch.lines)")
    }

    @Test("An event the hub refuses is answered with the reason and kept in rejected.jsonl, not retried")
    func rejected() async throws {
        let home = try TemporaryHome()
        try await home.startRound(players: 2)
        let server = try await home.serve()
        defer { server.stop() }
        let client = try await home.linkClient(["--device", "watch-1", "--enqueue", "2", "--round-id", UUID().uuidString, "--until-drained"])
        #expect(await client.waitForExit(timeout: .seconds(30)) == 0)
        #expect(client.lines.filter { $0.hasPrefix("rejected ") && $0.hasSuffix(" wrongRound") }.count == 2)
        let log = try RejectedLog(url: home.url.appendingPathComponent("watch/rejected.jsonl")).entries()
        #expect(log.map(\.event.id.uuidString) == client.queuedIDs)
        #expect(log.map(\.reason) == [.wrongRound, .wrongRound])
        #expect(log[0].message.hasPrefix("Score is for round "))
        #expect(try await home.events() == [])
    }
}

@Suite("Link over TCP")
struct TCPLinkTests {
    @Test("serve --listen tcp:127.0.0.1:0 pairs a watch over TLS that connects with --connect and --token-file, pinning the hub on first use")
    func tcp() async throws {
        let home = try TemporaryHome()
        try await home.startRound(players: 2)
        let server = try await home.serve(["--listen", "tcp:127.0.0.1:0"])
        defer { server.stop() }
        let ready = try #require(server.lines.first { $0.hasPrefix("hyzer-hub serving on tcp:127.0.0.1:") })
        let address = String(ready.split(separator: " ")[3])
        #expect(!address.hasSuffix(":0"))

        // The watch lives in its own home, as on another machine; it only shares the token file.
        let watchHome = try TemporaryHome()
        try FileManager.default.createDirectory(at: watchHome.url.appendingPathComponent("shared"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: home.url.appendingPathComponent("shared/standings.json"),
                                         to: watchHome.url.appendingPathComponent("shared/standings.json"))
        let client = try await watchHome.linkClient(["--connect", address, "--token-file", home.url.appendingPathComponent("hub/token").path,
                                               "--device", "watch-tcp", "--enqueue", "5", "--until-drained"])
        #expect(await client.waitForExit(timeout: .seconds(30)) == 0)
        #expect(try await home.events().map(\.id.uuidString) == client.queuedIDs)
        let fingerprint = try await home.hub("token", "--fingerprint").stdout
        #expect(try String(contentsOf: watchHome.url.appendingPathComponent("watch/hub-fingerprint"), encoding: .utf8) == fingerprint)
    }

    @Test("Over TCP a watch pinned to another certificate does not pair, a plain client gets nothing from a TLS hub, and --insecure is plain on both ends")
    func tcpTrust() async throws {
        let home = try TemporaryHome()
        try await home.startRound(players: 2)
        let server = try await home.serve(["--listen", "tcp:127.0.0.1:0"])
        defer { server.stop() }
        let address = String(try #require(server.lines.first { $0.hasPrefix("hyzer-hub serving on tcp:") }).split(separator: " ")[3])
        let token = home.url.appendingPathComponent("hub/token").path
        let watchHome = try TemporaryHome()
        try FileManager.default.createDirectory(at: watchHome.url.appendingPathComponent("shared"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: home.url.appendingPathComponent("shared/standings.json"),
                                         to: watchHome.url.appendingPathComponent("shared/standings.json"))

        let impostor = try await watchHome.linkClient(["--connect", address, "--token-file", token, "--device", "pinned-elsewhere",
                                                       "--hub-fingerprint", "sha256:" + String(repeating: "ab", count: 32), "--enqueue", "1", "--timeout", "8"])
        #expect(await impostor.waitForExit(timeout: .seconds(30)) != 0)
        #expect(impostor.stderr.contains("not pairing: the hub presented certificate sha256:"), "\(impostor.stderr)")
        let plain = try await watchHome.linkClient(["--connect", address, "--token-file", token, "--device", "plain", "--insecure",
                                                    "--enqueue", "1", "--timeout", "3"])
        #expect(await plain.waitForExit(timeout: .seconds(30)) != 0)
        #expect(try await home.events().isEmpty)

        let insecureHome = try TemporaryHome()
        try await insecureHome.startRound(players: 2)
        let insecure = try await insecureHome.serve(["--listen", "tcp:127.0.0.1:0", "--insecure"])
        defer { insecure.stop() }
        let plainAddress = String(try #require(insecure.lines.first { $0.hasPrefix("hyzer-hub serving on tcp:") }).split(separator: " ")[3])
        let ok = try await insecureHome.linkClient(["--connect", plainAddress, "--insecure", "--device", "plain", "--enqueue", "2", "--until-drained"])
        #expect(await ok.waitForExit(timeout: .seconds(30)) == 0)
        #expect(try await insecureHome.events().count == 2)
    }

    @Test("Over TLS a connection that never starts its handshake is closed at the hello timeout and gives back its place: 64 of them lock no watch out")
    func tlsSilentPeersClosed() async throws {
        let home = try TemporaryHome()
        try await home.startRound(players: 2)
        let server = try await home.serve(["--listen", "tcp:127.0.0.1:0", "--hello-timeout", "500"])
        defer { server.stop() }
        let address = String(try #require(server.lines.first { $0.hasPrefix("hyzer-hub serving on tcp:") }).split(separator: " ")[3])
        let port = try #require(UInt16(address.split(separator: ":").last ?? ""))
        // Every place among those waiting to pair, taken by peers that open TCP and say nothing,
        // or only the start of a TLS record.
        var silent: [RawSocket] = []
        for index in 0..<LinkProtocol.maxUnpairedConnections {
            let socket = try RawSocket(tcpHost: "127.0.0.1", port: port)
            if index % 2 == 0 { try await socket.send([0x16, 0x03, 0x01]) }
            silent.append(socket)
        }
        var closed = 0
        for socket in silent where await socket.receiveAll(timeout: .seconds(5)).closed { closed += 1 }
        #expect(closed == silent.count, "the hub closes every connection that did not pair within the hello timeout")

        // The peers are still there (they never close their ends), yet a watch pairs.
        let watchHome = try TemporaryHome()
        try FileManager.default.createDirectory(at: watchHome.url.appendingPathComponent("shared"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: home.url.appendingPathComponent("shared/standings.json"),
                                         to: watchHome.url.appendingPathComponent("shared/standings.json"))
        let watch = try await watchHome.linkClient(["--connect", address, "--token-file", home.url.appendingPathComponent("hub/token").path,
                                                    "--device", "watch-tcp", "--enqueue", "1", "--until-drained"])
        #expect(await watch.waitForExit(timeout: .seconds(30)) == 0, "\(watch.stderr.suffix(600))")
        #expect(try await home.events().count == 1)
        silent.removeAll()
    }

    @Test("A second serve on the same home refuses, naming the first; the first keeps its socket")
    func secondServeRefused() async throws {
        let home = try TemporaryHome()
        let first = try await home.serve()
        defer { first.stop() }
        let second = try await CLIProcess.run("hyzer-hub", ["--home", home.path, "serve"])
        #expect(second.status == 1)
        #expect(second.stderr == "Error: Another hyzer-hub serve (pid \(first.processIdentifier ?? -1)) is already serving \(home.path); stop it first, or use another --home.\n")
        #expect(FileManager.default.fileExists(atPath: home.socketPath))
        let watch = try await home.linkClient(["--device", "watch-1", "--timeout", "30"])
        defer { watch.stop() }
        #expect(await watch.waitForLine(timeout: .seconds(10)) { $0 == "reachable true" })
    }

    @Test("A listen address that cannot be bound is refused naming the address and why")
    func cannotListen() async throws {
        let home = try TemporaryHome()
        let file = home.url.appendingPathComponent("not-a-socket")
        try Data("keep me".utf8).write(to: file)
        let result = try await CLIProcess.run("hyzer-hub", ["--home", home.path, "serve", "--listen", "unix:\(file.path)"])
        #expect(result.status == 1)
        #expect(result.stderr == "Error: Cannot listen on unix:\(file.path): the path exists and is not a socket.\n")
        #expect(try String(contentsOf: file, encoding: .utf8) == "keep me")
    }

    @Test("serve refuses a bad --listen, --drop or --latency with what is allowed (exit 64)")
    func badOptions() async throws {
        let home = try TemporaryHome()
        let cases: [([String], String)] = [
            (["--listen", "tcp:127.0.0.1:99999"], "Error: The value 'tcp:127.0.0.1:99999' is invalid for '--listen <ADDRESS>': \"tcp:127.0.0.1:99999\" has port 99999; a port is 0 to 65535 (0: any free port, printed when serve starts)."),
            (["--listen", "http://x"], "Error: The value 'http://x' is invalid for '--listen <ADDRESS>': \"http://x\" is not a link address; use unix:PATH or tcp:HOST:PORT (e.g. unix:/tmp/hyzer/hub/link.sock, tcp:127.0.0.1:7420)."),
            (["--drop", "1.5"], "Error: --drop is a probability between 0 and 1; got 1.5."),
            (["--latency=-5"], "Error: --latency must be 0 or more milliseconds; got -5."),
            (["--latency", "800", "--jitter", "200"], "Error: --latency plus --jitter must stay under 1000 ms: a watch waits 2 s for the phone's welcome, and its hello and the welcome are each delayed by up to that much; got 800 + 200 ms."),
        ]
        for (arguments, message) in cases {
            let result = try await CLIProcess.run("hyzer-hub", ["--home", home.path, "serve"] + arguments)
            #expect(result.status == 64)
            #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
        }
    }
}
