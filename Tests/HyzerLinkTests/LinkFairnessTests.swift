import Foundation
import HyzerKit
@testable import HyzerFraming
@testable import HyzerLink
import HyzerHarness
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Testing

/// The link serves every watch fairly: a peer that pairs and leaves, guesses tokens, stalls, or
/// sends what no watch sends cannot hold what another watch needs. A `LinkServer` in this
/// process, so its bookkeeping can be looked at directly.
@Suite("Link fairness")
struct LinkFairnessTests {
    static let snapshot = StandingsSnapshot(hubID: "fairness", sequence: 1, lastUpdatedAt: Date(timeIntervalSince1970: 1_795_000_000), round: RoundSnapshot(
        id: UUID(), courseName: "Maple Hill", status: .active, currentHole: 1, holeCount: 18,
        holes: (1...18).map { Hole(number: $0, par: 3) },
        standings: [Standing(playerID: "p1", name: "Ann", position: nil, tied: false, totalStrokes: 0, holesPlayed: 0,
                             scoreRelativeToPar: 0, currentHoleStrokes: nil, discrepancy: false)]))

    /// Stores nothing: every score is acked, once `gate` lets it, or after `storing` seconds (a
    /// slow disk's commit); the order is recorded.
    final class AckingDelegate: LinkServerDelegate, @unchecked Sendable {
        let gate: DispatchSemaphore?
        let storing: TimeInterval
        private let lock = NSLock()
        private var order: [String] = []
        init(gated: Bool = false, storing: TimeInterval = 0) {
            gate = gated ? DispatchSemaphore(value: 0) : nil
            self.storing = storing
        }
        var devicesInOrder: [String] { lock.withLock { order } }
        func receive(score: ScoreEvent, deviceID: String, respond: @Sendable (ScoreVerdict) -> Void) {
            lock.withLock { order.append(deviceID) }
            gate?.wait()
            if storing > 0 { Thread.sleep(forTimeInterval: storing) }
            respond(.stored(alreadyStored: false, classification: .newScore))
        }
        func currentSnapshot() -> StandingsSnapshot? { LinkFairnessTests.snapshot }
    }

    static func server(
        _ home: TemporaryHome, delegate: AckingDelegate = AckingDelegate(), helloTimeout: TimeAmount = LinkProtocol.defaultHelloTimeout,
        heartbeatInterval: TimeAmount = .seconds(60)
    ) async throws -> LinkServer {
        // Heartbeats a minute apart: these peers are raw sockets that never send one, and at the
        // default second a paired one is called unreachable and closed after three, which a test
        // kept waiting for a core on a loaded machine can take between two of its steps (the
        // flood then went to a closed connection and its first score never arrived).
        // A thread of its own for each server: 64 guessers keep their hub's loop busy, which must
        // not starve the links, cloud clients and servers of the other tests in this process.
        let server = LinkServer(configuration: LinkServerConfiguration(
            address: .unix(path: home.url.appendingPathComponent("link.sock").path), token: "right-token", hubID: "fairness",
            heartbeatInterval: heartbeatInterval, helloTimeout: helloTimeout),
            delegate: delegate, group: MultiThreadedEventLoopGroup(numberOfThreads: 1))
        try await server.start()
        return server
    }

    static func stop(_ server: LinkServer) async {
        await server.shutdown()
        try? await server.group.shutdownGracefully()
    }

    static func score(device: String) -> [UInt8] {
        rawScoreFrame(scoreBody(snapshot, device: device, reporter: "p1"))
    }

    @Test("Watches that say hello and leave at once leave nothing registered behind them")
    func hitAndRunLeavesNothing() async throws {
        let home = try TemporaryHome()
        let server = try await Self.server(home)
        let path = home.url.appendingPathComponent("link.sock").path
        let hello = try LinkFrame.encode(.hello(Hello(deviceID: "flaky", token: "right-token")))
        for _ in 0..<3_000 {
            let socket = try RawSocket(unixPath: path)
            try await socket.send(hello)
        }
        let settled = await eventually(timeout: .seconds(20)) { server.connections == (0, 0) }
        #expect(settled, "still registered: \(server.connections)")
        let watch = try RawSocket(unixPath: path)
        _ = try await watch.frames(timeout: .seconds(5)) { _ in false }
        await Self.stop(server)
    }

    @Test("64 peers that never say hello cannot keep a real watch from pairing: it pairs on its first try, every time")
    func stallersCannotHoldThePlaces() async throws {
        let home = try TemporaryHome()
        // Stallers that outlive the hello timeout: only making room can let the watch in (and on
        // a loaded machine the 64 may take longer than the default timeout to be accepted).
        let server = try await Self.server(home, helloTimeout: .minutes(10))
        let path = home.url.appendingPathComponent("link.sock").path
        var stalling: [RawSocket] = []
        for _ in 0..<LinkProtocol.maxUnpairedConnections { stalling.append(try RawSocket(unixPath: path)) }
        #expect(await eventually { server.connections.unpaired == LinkProtocol.maxUnpairedConnections })
        for attempt in 1...5 {
            let watch = try RawSocket(unixPath: path)
            #expect(try await watch.pair(token: "right-token").round != nil, "attempt \(attempt)")
            // The stallers come back at once, as an attacker's would.
            stalling.append(try RawSocket(unixPath: path))
        }
        #expect(server.connections.unpaired <= LinkProtocol.maxUnpairedConnections)
        stalling.removeAll()
        await Self.stop(server)
    }

    @Test("64 peers guessing the token as fast as they can cannot keep a real watch from pairing on its first try")
    func guessersCannotHoldThePlaces() async throws {
        let home = try TemporaryHome()
        let server = try await Self.server(home)
        let path = home.url.appendingPathComponent("link.sock").path
        let guess = try LinkFrame.encode(.hello(Hello(deviceID: "guesser", token: "wrong")))
        let running = NIOLockedValueBox(true)
        // However the test ends (a throw too), the guessers stop: left running, they would spin
        // on a socket that is gone and the test process would never end.
        defer { running.withLockedValue { $0 = false } }
        let guesses = NIOLockedValueBox(0)
        let guessers = (0..<64).map { _ in
            Thread {
                while running.withLockedValue({ $0 }) {
                    guard let socket = try? RawSocket(unixPath: path) else { continue }
                    socket.sendBlocking(guess)
                    socket.receiveBlocking(timeoutMillis: 3_000)
                    guesses.withLockedValue { $0 += 1 }
                }
            }
        }
        guessers.forEach { $0.start() }
        #expect(await eventually { guesses.withLockedValue { $0 } >= 200 }, "the guessers are running")
        for attempt in 1...5 {
            let watch = try RawSocket(unixPath: path)
            #expect(try await watch.pair(token: "right-token").round != nil, "attempt \(attempt)")
        }
        running.withLockedValue { $0 = false }
        #expect(await eventually { server.connections.unpaired == 0 })
        await Self.stop(server)
    }

    @Test("After pairing a watch may send only what a watch sends: a 64 KiB frame closes that connection; a score at every bound fits")
    func pairedFrameLimit() async throws {
        let home = try TemporaryHome()
        let server = try await Self.server(home)
        let path = home.url.appendingPathComponent("link.sock").path
        let hostile = try RawSocket(unixPath: path)
        _ = try await hostile.pair(token: "right-token", deviceID: "hostile")
        try await hostile.send([0x00, 0x01, 0x00, 0x00])  // 64 KiB announced
        let (_, closed) = try await hostile.frames(timeout: .seconds(5)) { _ in false }
        #expect(closed)
        // The largest score a watch can send: every string at its bound, every character escaped.
        let escaped = { (text: String) in text.unicodeScalars.map { String(format: "\\u%04x", $0.value) }.joined() }
        let device = String(repeating: "d", count: LinkProtocol.maxDeviceIDLength)
        let body = #"{"createdAt":"2026-11-22T10:00:00.000Z","deviceID":"\#(escaped(device))","hole":1,"id":"\#(escaped(UUID().uuidString))","#
            + #""playerID":"\#(escaped(String(repeating: "p", count: ScoreEvent.maxPlayerIDLength)))","#
            + #""reportedByPlayerID":"\#(escaped(String(repeating: "r", count: ScoreEvent.maxPlayerIDLength)))","#
            + #""roundID":"\#(escaped(Self.snapshot.round!.id.uuidString))","source":"crown","strokes":3,"supersedesEventID":null}"#
        let frame = rawScoreFrame(body)
        #expect(frame.count < LinkProtocol.maxWatchFrameBytes / 3, "\(frame.count) bytes")
        let watch = try RawSocket(unixPath: path)
        _ = try await watch.pair(token: "right-token", deviceID: device)
        try await watch.send(frame)
        let (answers, _) = try await watch.frames { $0.contains { if case .ack = $0 { true } else { false } } }
        #expect(answers.contains { if case .ack = $0 { true } else { false } }, "\(answers)")
        await Self.stop(server)
    }

    @Test("A watch flooding scores holds at most 16 in the hub's queue: another watch's score is answered after at most those")
    func floodWaitsItsTurn() async throws {
        let home = try TemporaryHome()
        let delegate = AckingDelegate(gated: true)
        let server = try await Self.server(home, delegate: delegate)
        let path = home.url.appendingPathComponent("link.sock").path
        let flooder = try RawSocket(unixPath: path)
        _ = try await flooder.pair(token: "right-token", deviceID: "flooder")
        let other = try RawSocket(unixPath: path)
        _ = try await other.pair(token: "right-token", deviceID: "other")
        try await flooder.send((0..<200).flatMap { _ in Self.score(device: "flooder") })
        #expect(await eventually { delegate.devicesInOrder.count == 1 }, "the first score is in the (held) store")
        try await other.send(Self.score(device: "other"))
        // Held at the gate: the flooder's window of scores is queued, then the other watch's.
        #expect(await eventually(timeout: .seconds(10)) { server.scoresWaiting == LinkProtocol.maxScoresInFlightPerWatch + 1 })
        for _ in 0..<201 { delegate.gate?.signal() }
        #expect(await eventually { delegate.devicesInOrder.count == 201 })
        let position = delegate.devicesInOrder.firstIndex(of: "other")
        #expect(position.map { $0 <= LinkProtocol.maxScoresInFlightPerWatch } == true, "the other watch's score came \(position.map { "\($0 + 1)th" } ?? "never")")
        await Self.stop(server)
    }

    @Test("A flooding watch that hangs up leaves the hub no work behind it: only the 16 scores already in its queue are stored")
    func closedFloodLeavesNoWork() async throws {
        let home = try TemporaryHome()
        let delegate = AckingDelegate(gated: true)
        let server = try await Self.server(home, delegate: delegate)
        do {
            let flooder = try RawSocket(unixPath: home.url.appendingPathComponent("link.sock").path)
            _ = try await flooder.pair(token: "right-token", deviceID: "flooder")
            try await flooder.send((0..<200).flatMap { _ in Self.score(device: "flooder") })
            #expect(await eventually(timeout: .seconds(10)) { server.scoresWaiting == LinkProtocol.maxScoresInFlightPerWatch })
        }  // the flooder's socket closes here
        #expect(await eventually { server.connections == (0, 0) })
        for _ in 0..<200 { delegate.gate?.signal() }
        #expect(await eventually { server.scoresWaiting == 0 })
        #expect(delegate.devicesInOrder.count == LinkProtocol.maxScoresInFlightPerWatch, "\(delegate.devicesInOrder.count) of the flood's scores stored")
        await Self.stop(server)
    }

    @Test("A watch that sends scores and never reads their answers is closed once the hub holds 5 MiB for it, not kept growing")
    func unreadAnswersAreBounded() async throws {
        let home = try TemporaryHome()
        let server = try await Self.server(home)
        let flooder = try RawSocket(unixPath: home.url.appendingPathComponent("link.sock").path)
        _ = try await flooder.pair(token: "right-token", deviceID: "flooder")
        // One score sent again and again, each acked (~115 bytes), none read: 5 MiB of acks
        // takes ~46,000 of them, beyond what the sockets' buffers hold.
        let score = Self.score(device: "flooder")
        let burst = (0..<1_000).flatMap { _ in score }
        var sentBursts = 0
        while sentBursts < 100, server.connections.paired == 1 {
            try await flooder.send(burst)
            sentBursts += 1
        }
        #expect(await eventually { server.connections.paired == 0 }, "still paired after \(sentBursts * 1_000) scores left unread")
        let (_, closed) = await flooder.receiveAll(timeout: .seconds(30))
        #expect(closed)
        await Self.stop(server)
    }

    @Test("A hub held up for four heartbeats (its event loop busy) does not call a watch that kept beating unreachable")
    func heldUpHubDoesNotBlameTheWatch() async throws {
        let home = try TemporaryHome()
        // Heartbeats 600 ms apart (a watch thread on a busy machine can take a second to beat).
        let server = try await Self.server(home, heartbeatInterval: .milliseconds(600))
        let path = home.url.appendingPathComponent("link.sock").path
        // What the watch has seen: the hub's heartbeats, and whether the hub hung up.
        let seen = NIOLockedValueBox<(hubBeats: Int, closed: Bool, paired: Bool)>((0, false, false))
        let running = NIOLockedValueBox(true)
        defer { running.withLockedValue { $0 = false } }
        // The watch beats every 50 ms, on a thread of its own, until the test is done.
        Thread {
            let heartbeat = (try? LinkFrame.encode(.heartbeat(Heartbeat(sentAt: Date())))) ?? []
            guard let socket = try? RawSocket(unixPath: path),
                  let hello = try? LinkFrame.encode(.hello(Hello(deviceID: "steady", token: "right-token"))) else {
                return seen.withLockedValue { $0.closed = true }
            }
            socket.sendBlocking(hello)
            var received = ByteBuffer()
            while running.withLockedValue({ $0 }), !seen.withLockedValue({ $0.closed }) {
                socket.sendBlocking(heartbeat)
                let chunk = socket.receiveBlocking(timeoutMillis: 50)
                received.writeBytes(chunk.bytes)
                while let message = try? LinkFrame.decode(from: &received, maxFrameBytes: LinkProtocol.maxFrameBytes) {
                    seen.withLockedValue {
                        if case .welcome = message { $0.paired = true }
                        if case .heartbeat = message { $0.hubBeats += 1 }
                    }
                }
                if chunk.closed { seen.withLockedValue { $0.closed = true } }
            }
        }.start()
        #expect(await eventually { seen.withLockedValue { $0.paired } })
        // The hub's one event loop held for 2.5 s: four of its heartbeats fall due meanwhile, and
        // the watch's beats wait unread in the socket. The hold runs on the loop, so it has ended
        // once a task queued behind it runs.
        let loop = server.group.next()
        loop.execute { Thread.sleep(forTimeInterval: 2.5) }
        try await loop.submit {}.get()
        // Three more of the hub's beats after the hold: with the clock as the rule, the first
        // check after the hold hung up; counted in beats, the watch is heard before the third.
        let beatsAfterHold = seen.withLockedValue { $0.hubBeats }
        #expect(await eventually(timeout: .seconds(60)) {
            seen.withLockedValue { $0.closed || $0.hubBeats >= beatsAfterHold + 3 }
        })
        #expect(!seen.withLockedValue { $0.closed }, "the hub hung up on a watch that kept beating")
        await Self.stop(server)
    }

    @Test("A watch whose scores the hub is slow to answer is not called unreachable: what it sent meanwhile waits unread behind them")
    func slowAnswersAreNotSilence() async throws {
        let home = try TemporaryHome()
        // Heartbeats 600 ms apart: three missed take 1.8 s. A store that takes 150 ms a score
        // answers 32 in 4.8 s, and the hub stops reading this watch (16 wait) for 2.4 s of them.
        let delegate = AckingDelegate(storing: 0.15)
        let server = try await Self.server(home, delegate: delegate, heartbeatInterval: .milliseconds(600))
        let path = home.url.appendingPathComponent("link.sock").path
        let outcome = Self.watchBackInRange(path: path, device: "burst", scores: 32)
        #expect(await eventually(timeout: .seconds(90)) { outcome.withLockedValue { $0 } != nil })
        let (acks, closed) = outcome.withLockedValue { $0 } ?? (0, false)
        #expect(!closed && acks == 32, "\(acks) of 32 scores acked before the hub \(closed ? "hung up" : "stopped answering")")
        await Self.stop(server)
    }

    /// A watch back in range, on a thread of its own as a real one runs beside the hub, so it
    /// beats on time however busy the test's tasks are. It says hello and sends its queue, a
    /// heartbeat after each score; then it reads, beating back each time the hub beats, until
    /// every score is acked, the hub hangs up, or a minute passes. The outcome is set then.
    static func watchBackInRange(path: String, device: String, scores: Int) -> NIOLockedValueBox<(acks: Int, closed: Bool)?> {
        let outcome = NIOLockedValueBox<(acks: Int, closed: Bool)?>(nil)
        Thread {
            let heartbeat = (try? LinkFrame.encode(.heartbeat(Heartbeat(sentAt: Date())))) ?? []
            guard let socket = try? RawSocket(unixPath: path),
                  let hello = try? LinkFrame.encode(.hello(Hello(deviceID: device, token: "right-token"))) else {
                return outcome.withLockedValue { $0 = (0, true) }
            }
            socket.sendBlocking(hello + (0..<scores).flatMap { _ in Self.score(device: device) + heartbeat })
            var received = ByteBuffer(), acks = 0, closed = false
            let deadline = ContinuousClock.now + .seconds(60)
            while acks < scores, !closed, ContinuousClock.now < deadline {
                let chunk = socket.receiveBlocking(timeoutMillis: 100)
                received.writeBytes(chunk.bytes)
                closed = chunk.closed
                while let message = try? LinkFrame.decode(from: &received, maxFrameBytes: LinkProtocol.maxFrameBytes) {
                    if case .ack = message { acks += 1 }
                    if case .heartbeat = message { socket.sendBlocking(heartbeat) }
                }
            }
            outcome.withLockedValue { $0 = (acks, closed) }
        }.start()
        return outcome
    }

    @Test("Watches back in range together: the one whose queue waits behind the others' is not hung up on while the hub works through them")
    func queueBehindOthersIsNotSilence() async throws {
        let home = try TemporaryHome()
        // Heartbeats 600 ms apart: three missed take 1.8 s (a watch thread on a machine busy with
        // the other tests' can take more than a second to beat back). A store that takes 100 ms a
        // score answers eighteen in that time, but the last watch's first score waits behind the
        // other two's 32 (3.2 s), and the hub stops reading it (16 wait) all that while.
        let delegate = AckingDelegate(storing: 0.1)
        let server = try await Self.server(home, delegate: delegate, heartbeatInterval: .milliseconds(600))
        let path = home.url.appendingPathComponent("link.sock").path
        let outcomes = NIOLockedValueBox<[String: NIOLockedValueBox<(acks: Int, closed: Bool)?>]>([:])
        // Ordered on a thread too: the first two fill the queue (16 each; 16 more each wait
        // unread, keeping it full for 3.2 s), and only then does the last one come in range.
        Thread {
            for device in ["first", "second"] {
                let outcome = Self.watchBackInRange(path: path, device: device, scores: 32)
                outcomes.withLockedValue { $0[device] = outcome }
            }
            let deadline = ContinuousClock.now + .seconds(30)
            while server.scoresWaiting < 2 * LinkProtocol.maxScoresInFlightPerWatch, ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: 0.002)
            }
            let outcome = Self.watchBackInRange(path: path, device: "last", scores: 32)
            outcomes.withLockedValue { $0["last"] = outcome }
        }.start()
        let finished = await eventually(timeout: .seconds(90)) {
            let watches = outcomes.withLockedValue { $0 }
            return watches.count == 3 && watches.values.allSatisfy { $0.withLockedValue { $0 } != nil }
        }
        #expect(finished)
        for (device, outcome) in outcomes.withLockedValue({ $0 }).sorted(by: { $0.key < $1.key }) {
            let (acks, closed) = outcome.withLockedValue { $0 } ?? (0, false)
            #expect(!closed && acks == 32, "\(device): \(acks) of 32 scores acked before the hub \(closed ? "hung up" : "stopped answering")")
        }
        #expect(delegate.devicesInOrder.prefix(32).allSatisfy { $0 != "last" }, "the last watch's scores were not behind the others': \(delegate.devicesInOrder.prefix(40))")
        await Self.stop(server)
    }
}

extension LinkFairnessTests {
    @Test("A watch may not pair under a device id that hides or reorders text")
    func hiddenCharactersInDeviceID() async throws {
        let home = try TemporaryHome()
        let server = try await Self.server(home)
        let socket = try RawSocket(unixPath: home.url.appendingPathComponent("link.sock").path)
        try await socket.send(try LinkFrame.encode(.hello(Hello(deviceID: "watch-\u{202E}ekaj", token: "right-token"))))
        let (messages, _) = try await socket.frames { !$0.isEmpty }
        guard case .refused(let refusal)? = messages.first else { Issue.record("\(messages)"); return }
        #expect(refusal.reason == .invalidHello && refusal.message.hasSuffix("with such a character."))
        for id in ["   ", "watch\u{2800}", "watch\u{FE0F}", "watch\u{34F}", "watch\u{F0000}"] {
            let other = try RawSocket(unixPath: home.url.appendingPathComponent("link.sock").path)
            try await other.send(try LinkFrame.encode(.hello(Hello(deviceID: id, token: "right-token"))))
            let (answer, _) = try await other.frames { !$0.isEmpty }
            guard case .refused(let refused)? = answer.first else { Issue.record("\(id.unicodeScalars.map(\.value)): \(answer)"); continue }
            #expect(refused.reason == .invalidHello, "\(id.unicodeScalars.map(\.value))")
        }
        await Self.stop(server)
    }
}
