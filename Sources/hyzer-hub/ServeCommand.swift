import ArgumentParser
import Foundation
import HubCore
import HyzerKit
import HyzerLink
import Logging
import NIOCore

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the phone: the link server, standings pushes and snapshot export.",
        discussion: """
            Listens on unix:<home>/hub/link.sock (mode 0600) unless --listen says otherwise. Watches \
            pair with the token in <home>/hub/token (created on first start). Scores from a watch are \
            acked only after they are committed; standings are pushed on every change, including \
            changes made by other hyzer-hub commands while serve runs. Stops cleanly on SIGINT or SIGTERM.

            --latency, --jitter and --drop condition the link in both directions, to rehearse a bad \
            connection: every score still lands exactly once.
            """
    )

    @ParentCommand var root: HyzerHub
    @Option(help: ArgumentHelp("unix:PATH or tcp:HOST:PORT.", valueName: "ADDRESS")) var listen: String?
    @Option(help: ArgumentHelp("Delay added to every frame, in milliseconds.", valueName: "MS")) var latency = 0
    @Option(help: ArgumentHelp("Random variation of the delay, ± milliseconds.", valueName: "MS")) var jitter = 0
    @Option(help: ArgumentHelp("Probability (0...1) that a frame is dropped, each direction.", valueName: "P")) var drop = 0.0
    @Option(help: ArgumentHelp("Heartbeat interval in milliseconds.", valueName: "MS")) var heartbeat = 1000
    @Option(name: .customLong("hello-timeout"), help: ArgumentHelp("How long a new connection may take to say hello, in milliseconds.", valueName: "MS"))
    var helloTimeout = 5000
    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    func validate() throws {
        if let listen { _ = try Self.address(listen) }
        guard latency >= 0 else { throw ValidationError("--latency must be 0 or more milliseconds; got \(latency).") }
        guard jitter >= 0 else { throw ValidationError("--jitter must be 0 or more milliseconds; got \(jitter).") }
        guard (0...1).contains(drop) else { throw ValidationError("--drop is a probability between 0 and 1; got \(drop).") }
        guard helloTimeout >= 10 else { throw ValidationError("--hello-timeout must be at least 10 milliseconds; got \(helloTimeout).") }
        guard heartbeat >= 50 else { throw ValidationError("--heartbeat must be at least 50 milliseconds; got \(heartbeat).") }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical; got \(logLevel).")
        }
    }

    static func address(_ text: String) throws -> LinkAddress {
        do { return try LinkAddress(parsing: text) } catch { throw ValidationError(error.description) }
    }

    func run() async throws {
        let signals = TerminationSignals()
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let paths = root.paths
        let hub = try Hub.open(paths: paths)
        let address = try listen.map(Self.address) ?? .unix(path: paths.linkSocket.path)
        let service = HubLinkService(hub: hub)
        let server = LinkServer(
            configuration: LinkServerConfiguration(
                address: address,
                token: try PairingToken.loadOrCreate(at: paths.pairingToken),
                hubID: try hub.hubID,
                heartbeatInterval: .milliseconds(Int64(heartbeat)),
                helloTimeout: .milliseconds(Int64(helloTimeout)),
                conditions: LinkConditions(latency: .milliseconds(Int64(latency)), jitter: .milliseconds(Int64(jitter)), dropProbability: drop)
            ),
            delegate: service
        )
        service.attach(server)
        service.publish()
        try await server.start()
        // Unbuffered, so a script waiting for this line sees it at once.
        FileHandle.standardOutput.write(Data("hyzer-hub serving on \(server.boundAddress ?? address) (home \(paths.home.path))\n".utf8))

        let watcher = Task {
            // Other hyzer-hub processes commit straight to the database; notice within 20 ms.
            while !Task.isCancelled {
                service.publishIfChanged()
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
        let signal = await signals.wait()
        Logger(label: "hyzer.hub.serve").info("received \(signal); shutting down")
        watcher.cancel()
        await server.shutdown()
    }
}

/// SIGINT and SIGTERM, caught from the moment this is created (before the ready line is printed,
/// so a signal sent as soon as the server says it is ready is never lost).
final class TerminationSignals: @unchecked Sendable {
    private let lock = NSLock()
    private var received: String?
    private var waiter: CheckedContinuation<String, Never>?
    private var sources: [any DispatchSourceSignal] = []

    init() {
        for (number, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
            signal(number, SIG_IGN)  // first: the default action would end the process
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.deliver(name) }
            source.resume()
            sources.append(source)
        }
    }

    private func deliver(_ name: String) {
        let waiter = lock.withLock { () -> CheckedContinuation<String, Never>? in
            guard received == nil else { return nil }
            received = name
            defer { self.waiter = nil }
            return self.waiter
        }
        waiter?.resume(returning: name)
    }

    /// Suspends until a signal has arrived; returns its name.
    func wait() async -> String {
        await withCheckedContinuation { continuation in
            let already = lock.withLock { () -> String? in
                if let received { return received }
                waiter = continuation
                return nil
            }
            if let already { continuation.resume(returning: already) }
        }
    }
}
