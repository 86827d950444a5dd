import ArgumentParser
import Foundation
import HyzerKit
import HyzerLink
import HyzerStorage
import Logging
import NIOConcurrencyHelpers
import WatchCore

/// A watch without a face, for the link's end-to-end tests: the real watch-side link code (durable
/// outbox, client, rejected log) in its own process, so a test can SIGKILL it at any moment.
/// Prints one line per happening: `queued ID`, `acked ID stored|already`, `rejected ID REASON`,
/// `reachable true|false`, `standings SEQUENCE push|file` (only when newer than what it shows), `drained`,
/// and with `--print-heartbeats` `heartbeat SEQUENCE|-` for each heartbeat heard from the hub.
@main
struct HyzerLinkClient: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hyzer-link-client",
        abstract: "Queue scores in a watch outbox and deliver them to a hub over the link."
    )

    @Option(help: "Watch home: outbox in <home>/watch; hub socket, token and snapshot found here too.") var home: String
    @Option(help: "unix:PATH or tcp:HOST:PORT (default: unix:<home>/hub/link.sock).") var connect: String?
    @Option(name: .customLong("token-file")) var tokenFile: String?
    @Option(name: .customLong("hub-fingerprint"), help: "Over TCP: the hub certificate's fingerprint (default: trust on first use).") var hubFingerprint: String?
    @Flag(help: "Over TCP: plain bytes, no TLS.") var insecure = false
    @Option var device = "link-client"
    @Option(help: "Queue this many generated scores for the round in <home>/shared/standings.json.") var enqueue = 0
    @Option(help: "Milliseconds between queued scores (they are delivered while more are queued).") var interval = 0
    @Option(name: .customLong("round-id"), help: "Use this round id instead of the snapshot's (to provoke rejections).")
    var roundID: String?
    @Flag(name: .customLong("until-drained"), help: "Exit once every queued score is acked or rejected.") var untilDrained = false
    @Flag(name: .customLong("print-heartbeats"), help: "Print a line for each heartbeat heard from the hub (proof the link is up).")
    var printHeartbeats = false
    @Option var timeout: Double = 120

    func run() async throws {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = ProcessInfo.processInfo.environment["HYZER_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .warning
            return handler
        }
        let paths = HyzerPaths(home: URL(fileURLWithPath: home))
        let outbox = try DurableOutbox(directory: paths.outbox)
        let token = try PairingToken.read(at: tokenFile.map { URL(fileURLWithPath: $0) } ?? paths.pairingToken)
        let address = try connect.map { try LinkAddress(parsing: $0) } ?? .unix(path: paths.linkSocket.path)
        let shown = NIOLockedValueBox<StandingsSnapshot?>(nil)
        @Sendable func show(_ snapshot: StandingsSnapshot, via source: String) {
            let newer = shown.withLockedValue { current in
                guard snapshot.supersedes(current), snapshot.sequence != current?.sequence || snapshot.hubID != current?.hubID else { return false }
                current = snapshot
                return true
            }
            if newer { emit("standings \(snapshot.sequence) \(source)") }
        }
        let printHeartbeats = self.printHeartbeats
        let client = LinkClient(
            configuration: LinkClientConfiguration(
                address: address, token: token, deviceID: device,
                trust: HubTrust.forWatch(address: address, fingerprint: hubFingerprint, insecure: insecure, pinStore: paths.hubPin)),
            outbox: outbox, rejectedLog: RejectedLog(url: paths.rejectedLog)
        ) { event in
            switch event {
            case .acked(let score, let already, _): emit("acked \(score.id.uuidString) \(already ? "already" : "stored")")
            case .rejected(let score, let rejection): emit("rejected \(score.id.uuidString) \(rejection.reason.rawValue)")
            case .reachability(let reachable): emit("reachable \(reachable)")
            case .standings(let snapshot): show(snapshot, via: "push")
            case .refused(let refusal): emit("refused \(refusal.reason.rawValue)")
            case .heartbeat(let heartbeat): if printHeartbeats { emit("heartbeat \(heartbeat.sequence.map(String.init) ?? "-")") }
            case .complication(let transfer): emit("complication \(transfer.sequence) \(transfer.reason.rawValue)")
            }
        }
        client.start()
        let watcher = FileChangeWatcher(files: [paths.standingsSnapshot]) {
            if case .success(let snapshot) = SnapshotFile.read(paths.standingsSnapshot) { show(snapshot, via: "file") }
        }
        watcher.start()
        if case .success(let snapshot) = SnapshotFile.read(paths.standingsSnapshot) { show(snapshot, via: "file") }

        if enqueue > 0 {
            let snapshot = try HyzerJSON.decoder().decode(StandingsSnapshot.self, from: Data(contentsOf: paths.standingsSnapshot))
            guard let round = snapshot.round, !round.standings.isEmpty else { throw ValidationError("no round in \(paths.standingsSnapshot.path)") }
            let players = round.standings.map(\.playerID).sorted()
            let id = try roundID.map { guard let id = UUID(uuidString: $0) else { throw ValidationError("bad --round-id") }; return id } ?? round.id
            for index in 0..<enqueue {
                let event = try ScoreEvent(
                    roundID: id, playerID: players[index % players.count],
                    hole: (index / players.count) % round.holeCount + 1, strokes: 2 + index % 5,
                    reportedByPlayerID: players[0], deviceID: device, source: .crown, createdAt: Date())
                try outbox.enqueue(event)
                emit("queued \(event.id.uuidString)")
                client.outboxChanged()
                if interval > 0 { try await Task.sleep(for: .milliseconds(interval)) }
            }
        }

        let deadline = ContinuousClock.now + .seconds(timeout)
        while ContinuousClock.now < deadline {
            if untilDrained && outbox.count == 0 {
                emit("drained")
                await client.stop()
                return
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        emit("timeout with \(outbox.count) queued")
        throw ExitCode(3)
    }
}

func emit(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
