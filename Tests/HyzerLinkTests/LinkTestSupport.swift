import Foundation
import HyzerKit
import HyzerLink
import HyzerTestSupport
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
