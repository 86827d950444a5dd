import Foundation
import HyzerKit
import HyzerLink
import HyzerHarness
import NIOCore

extension TemporaryHome {
    var socketPath: String { url.appendingPathComponent("hub/link.sock").path }
    var token: String { (try? String(contentsOf: url.appendingPathComponent("hub/token"), encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "" }

    /// The hub's event log, in arrival order.
    func events() async throws -> [ScoreEvent] {
        try HyzerJSON.decoder().decode([ScoreEvent].self, from: Data(try await hub("events", "--json").stdout.utf8))
    }

    func standingsSequence() async throws -> Int {
        try HyzerJSON.decoder().decode(StandingsSnapshot.self, from: Data(try await hub("standings", "--json").stdout.utf8)).sequence
    }

    /// A round with `count` players, so generated scores never repeat a {player, hole} for 18 × count scores.
    func startRound(players count: Int, course: String = "Maple Hill") async throws {
        let names = (1...count).map { String(format: "Player %02d", $0) }
        let result = try await CLIProcess.run("hyzer-hub", ["--home", path, "round", "start", "--course", course, "--player"] + names)
        guard result.status == 0 else { throw TestFailure("round start failed: \(result.stderr)") }
    }

    /// Starts the faceless watch client on this home.
    func linkClient(_ arguments: [String], environment: [String: String] = [:]) async throws -> RunningProcess {
        try await RunningProcess("hyzer-link-client", ["--home", path] + arguments, environment: environment)
    }
}

extension RunningProcess {
    /// The event ids this client queued, in order.
    var queuedIDs: [String] { lines.filter { $0.hasPrefix("queued ") }.map { String($0.dropFirst(7)) } }
}

/// Decodes every whole frame in `bytes`.
func frames(in bytes: [UInt8]) throws -> [LinkMessage] {
    var buffer = ByteBuffer(bytes: bytes)
    var messages: [LinkMessage] = []
    while let message = try LinkFrame.decode(from: &buffer, maxFrameBytes: LinkProtocol.maxFrameBytes) { messages.append(message) }
    return messages
}

extension RawSocket {
    /// Reads until `done` holds for the frames received so far, the peer closes, or `timeout`
    /// passes; returns every whole frame received and whether the peer closed.
    func frames(timeout: Duration = .seconds(5), until done: ([LinkMessage]) -> Bool) async throws -> (messages: [LinkMessage], closed: Bool) {
        var bytes: [UInt8] = []
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            let chunk = await receiveAll(timeout: .milliseconds(20))
            bytes += chunk.bytes
            let messages = try HyzerLinkTests.frames(in: bytes)
            if chunk.closed || done(messages) || clock.now >= deadline { return (messages, chunk.closed) }
        }
    }

    /// Says hello with `token` as `deviceID` and waits for the welcome and the first standings.
    func pair(token: String, deviceID: String = "raw-watch") async throws -> StandingsSnapshot {
        try await send(try LinkFrame.encode(.hello(Hello(deviceID: deviceID, token: token))))
        let (messages, _) = try await frames { $0.contains { if case .standings = $0 { true } else { false } } }
        for case .standings(let snapshot) in messages { return snapshot }
        throw TestFailure("no welcome and standings after hello: \(messages)")
    }
}

/// A score frame from raw JSON text, for bodies the Swift types would refuse to build.
func rawScoreFrame(_ body: String) -> [UInt8] {
    let json = Array(#"{"type":"score","body":\#(body)}"#.utf8)
    return withUnsafeBytes(of: UInt32(json.count).bigEndian, Array.init) + json
}

/// The JSON body of a valid score in `snapshot`'s round, with fields to override.
func scoreBody(_ snapshot: StandingsSnapshot, player: Int = 0, hole: Any = 1, strokes: Any = 3, id: String = UUID().uuidString,
               device: String = "raw-watch", reporter: String? = nil, supersedes: String? = nil, source: String = "crown") -> String {
    let round = snapshot.round!
    let playerID = round.standings[player].playerID
    func json(_ value: Any) -> String { value is String ? "\"\(value)\"" : "\(value)" }
    return """
        {"id":"\(id)","roundID":"\(round.id.uuidString)","playerID":"\(playerID)","hole":\(json(hole)),"strokes":\(json(strokes)),\
        "supersedesEventID":\(supersedes.map { "\"\($0)\"" } ?? "null"),"reportedByPlayerID":"\(reporter ?? playerID)","deviceID":"\(device)",\
        "source":"\(source)","createdAt":"2026-11-22T10:00:00.000Z"}
        """
}
