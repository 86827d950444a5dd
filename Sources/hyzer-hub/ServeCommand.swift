import ArgumentParser
import Foundation
import HubCloud
import HubCore
import HubWeb
import HyzerCLI
import HyzerKit
import HyzerLink
import HyzerStorage
import Logging
import NIOCore
import NIOSSL
import ServiceLifecycle

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
            connection: every score still lands exactly once. --latency plus --jitter stays under \
            1000 ms (a watch waits 2 s for the phone's welcome to its hello).

            With a cloud set (hyzer-hub cloud set, or --cloud), serve also keeps the phone in step \
            with the other phones: uploads what waits, downloads their scores as they land, and \
            joins rounds naming this phone's owner. Offline, scores keep committing here and upload \
            later. See docs/SYNC.md.
            """
    )

    @ParentCommand var root: HyzerHub
    @Option(help: ArgumentHelp("unix:PATH or tcp:HOST:PORT (default: unix:<home>/hub/link.sock).", valueName: "ADDRESS"),
            transform: LinkAddress.parseArgument)
    var listen: LinkAddress?
    @Option(help: ArgumentHelp("Delay added to every frame, in milliseconds.", valueName: "MS")) var latency = 0
    @Option(help: ArgumentHelp("Random variation of the delay, ± milliseconds.", valueName: "MS")) var jitter = 0
    @Option(help: ArgumentHelp("Probability (0...1) that a frame is dropped, each direction.", valueName: "P")) var drop = 0.0
    @Option(help: ArgumentHelp("Heartbeat interval in milliseconds.", valueName: "MS")) var heartbeat = 1000
    @Flag(help: "With --listen tcp: plain TCP, no TLS. The pairing token then travels in clear: only on a network you trust.")
    var insecure = false
    @Option(help: ArgumentHelp("Set this phone's cloud first (as hyzer-hub cloud set URL does) and keep in step with it. A password here shows in ps: prefer cloud set.", valueName: "URL"))
    var cloud: String?
    @Option(help: ArgumentHelp("With --cloud: whose phone this is (as cloud set --player).", valueName: "NAME"))
    var player: String?
    @Option(name: .customLong("hello-timeout"), help: ArgumentHelp("How long a new connection may take to say hello, in milliseconds.", valueName: "MS"))
    var helloTimeout = 5000
    @Option(name: .customLong("complication-updates"),
            help: ArgumentHelp("When a watch whose face shows Hyzer's complications is sent one of its complication transfers (50 a day on a real watch): worthwhile (the wearer's place, the hole, the finish; docs/HANDOFF.md), every-change (the naive app, to rehearse running out) or off.", valueName: "POLICY"))
    var complicationUpdates = ComplicationPolicy.Mode.worthwhile
    @Option(name: .customLong("background-seconds"),
            help: ArgumentHelp("How long the phone app runs after it is sent to the background (hyzer-hub app background) before iOS suspends it, as it does an app without a background mode (0.1 to 86400; a large value for an app whose background mode keeps it running).", valueName: "S"))
    var backgroundSeconds = 5.0

    @Option(help: ArgumentHelp("Where the phone's face (a web page, live) listens: HOST:PORT. By default on loopback, on the port this home's last serve used (written in hub/web-address) when it is free, else a free one; on loopback it needs nothing, on any other address it is served over TLS with the hub's certificate and asks for the pairing token once.", valueName: "HOST:PORT"))
    var web: String?
    @Flag(name: .customLong("no-web"), help: "Do not serve the phone's face.")
    var noWeb = false

    func validate() throws {
        if let web {
            do { _ = try PhoneWebConfiguration.parseAddress(web) } catch { throw ValidationError("--web: \(error.description)") }
        }
        guard latency >= 0 else { throw ValidationError("--latency must be 0 or more milliseconds; got \(latency).") }
        guard jitter >= 0 else { throw ValidationError("--jitter must be 0 or more milliseconds; got \(jitter).") }
        // The hello and the welcome are each delayed by up to latency + jitter, and a watch waits
        // this long for the welcome: beyond it, no watch ever pairs.
        let pairable = LinkProtocol.handshakeTimeout.nanoseconds / 2_000_000
        guard Int64(latency) + Int64(jitter) < pairable else {
            throw ValidationError("--latency plus --jitter must stay under \(pairable) ms: a watch waits \(pairable * 2 / 1000) s for the phone's welcome, and its hello and the welcome are each delayed by up to that much; got \(latency) + \(jitter) ms.")
        }
        guard (0...1).contains(drop) else { throw ValidationError("--drop is a probability between 0 and 1; got \(drop).") }
        guard backgroundSeconds.isFinite, (0.1...86_400).contains(backgroundSeconds) else {
            throw ValidationError("--background-seconds must be 0.1 to 86400 seconds; got \(backgroundSeconds).")
        }
        guard helloTimeout >= 10 else { throw ValidationError("--hello-timeout must be at least 10 milliseconds; got \(helloTimeout).") }
        if insecure, case .unix = listen ?? .unix(path: "") {
            throw ValidationError("--insecure applies only to --listen tcp:HOST:PORT; the Unix socket is private to this user already.")
        }
        guard heartbeat >= LinkProtocol.minimumHeartbeatMillis else {
            throw ValidationError("--heartbeat must be at least \(LinkProtocol.minimumHeartbeatMillis) milliseconds; got \(heartbeat).")
        }
        if let cloud {
            do { _ = try CloudAddress(parsing: cloud) } catch { throw ValidationError("--cloud: \(error.description)") }
        }
        if player != nil, cloud == nil {
            throw ValidationError("--player goes with --cloud URL; to name this phone's owner for the cloud already set: hyzer-hub cloud set URL --player NAME")
        }
    }

    /// Whether a serve holds this home's lock right now.
    static func isServing(_ paths: HyzerPaths) -> Bool {
        HeldFileLock.isHeld(paths.hubDirectory.appendingPathComponent("serve.lock"))
    }

    func run() async throws {
        Allocator.useOneArena()
        root.logging.bootstrap(defaultLevel: .info)
        let logger = Logger(label: "hyzer.hub.serve")
        let paths = root.paths
        try FileManager.default.createDirectory(at: paths.hubDirectory, withIntermediateDirectories: true)
        // One serve per home: a second would take over the first one's socket.
        let serveLock = paths.hubDirectory.appendingPathComponent("serve.lock")
        guard let held = try HeldFileLock.acquire(serveLock) else {
            let pid = HeldFileLock.holder(serveLock).map { " (pid \($0))" } ?? ""
            throw CommandMessage("Another hyzer-hub serve\(pid) is already serving \(paths.home.path); stop it first, or use another --home.")
        }
        defer { withExtendedLifetime(held) {} }
        let hub = try Hub.open(paths: paths, forServe: true)
        if let cloud { try hub.setCloud(CloudConfiguration(url: cloud, player: player ?? (try hub.cloudConfiguration()?.player))) }
        let address = listen ?? .unix(path: paths.linkSocket.path)
        let service = HubLinkService(hub: hub, complicationMode: complicationUpdates, appStatusFile: paths.appState,
                                      backgroundDuration: backgroundSeconds)
        service.app.follow(request: paths.appRequest)
        let server = LinkServer(
            configuration: LinkServerConfiguration(
                address: address,
                token: try PairingToken.loadOrCreate(at: paths.pairingToken),
                hubID: try hub.hubID,
                heartbeatInterval: .milliseconds(Int64(heartbeat)),
                helloTimeout: .milliseconds(Int64(helloTimeout)),
                conditions: LinkConditions(latency: .milliseconds(Int64(latency)), jitter: .milliseconds(Int64(jitter)), dropProbability: drop),
                tls: try tls(for: address, paths: paths)
            ),
            delegate: service
        )
        service.attach(server)
        let publisher = noWeb ? nil : PagePublisher(hub: hub, snapshot: { try hub.snapshot() }, appState: { service.app.state.rawValue })
        let sync = try cloudSync(hub: hub, service: service, paths: paths, statusChanged: { publisher?.changed() })
        // A watch's score or a page's write goes up at once (its commit signals nothing to this process).
        service.observeOwnWrites { sync.kick() }
        publisher?.showSync {
            guard let summary = try? hub.cloudSummary(), summary.configuration != nil else { return nil }
            let status = sync.currentStatus
            return PageSync(state: status.state.rawValue, detail: status.detail, lastSyncAt: status.lastSyncAt, eventsWaiting: summary.eventsWaiting)
        }
        // The ready line comes first (scripts wait for it), then the page starts and says where.
        let (linkReady, announceLinkReady) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let page = try publisher.map { try phoneWeb(hub: hub, service: service, publisher: $0, paths: paths, after: linkReady) }
        let serving = HubServeService(server: server, service: service, database: paths.database, appRequest: paths.appRequest, logger: logger,
                                      storeChanged: { sync.kick(); publisher?.changed() }) { bound in
            // Unbuffered, so a script waiting for this line sees it at once.
            FileHandle.standardOutput.write(Data("hyzer-hub serving on \(bound) (home \(paths.home.path))\n".utf8))
            // A state asked for earlier (`hyzer-hub app suspended`, kept in hub/app-request) is how
            // this serve starts: said, or a phone that sends nothing looks broken.
            let state = service.app.state
            if state != .foreground {
                let home = "'" + paths.home.path.replacingOccurrences(of: "'", with: "'\\''") + "'"
                FileHandle.standardError.write(Data("hyzer-hub: the phone app starts \(state.phrase), as `hyzer-hub app \(state.rawValue)` asked earlier: it \(state.runs ? "runs in the background" : "sends the watches nothing until it runs (their scores are still kept and acked, as the system completes a user-info transfer, but not the standings they change)"); `hyzer-hub --home \(home) app foreground` brings it to the front\n".utf8))
            }
            announceLinkReady.yield()
        }
        // The group traps SIGINT and SIGTERM before any service runs, so a signal sent the moment
        // the ready line appears is never lost; either one shuts down gracefully.
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: ([serving, sync] + (page.map { [$0] } ?? []) as [any Service]).map { ServiceGroupConfiguration.ServiceConfiguration(service: $0, successTerminationBehavior: .gracefullyShutdownGroup) },
            gracefulShutdownSignals: [.sigint, .sigterm], logger: logger))
        try await group.run()
    }
}

extension ServeCommand {
    /// The sync engine: it follows the home's cloud configuration (none set: it waits for one).
    func cloudSync(hub: Hub, service: HubLinkService, paths: HyzerPaths, statusChanged: @escaping @Sendable () -> Void) throws -> CloudSync {
        try? FileManager.default.removeItem(at: paths.cloudStatus)
        return CloudSync(hub: hub, statusFile: paths.cloudStatus, logger: Logger(label: "hyzer.hub.cloud"), onChange: { service.storeChanged(to: $0) },
                         onStatusChange: { _ in statusChanged() })
    }

    /// The phone's face, following every change the watches are pushed.
    func phoneWeb(hub: Hub, service: HubLinkService, publisher: PagePublisher, paths: HyzerPaths, after linkReady: AsyncStream<Void>) throws -> PhoneWeb {
        // Without --web: loopback, on the port this home's page had last time (an open page then
        // finds its phone again after a restart), or a free one.
        let (host, port) = try web.map(PhoneWebConfiguration.parseAddress) ?? ("127.0.0.1", Self.lastWebPort(paths) ?? 0)
        let tls = PhoneWebConfiguration.isLoopback(host) ? nil : try HubIdentity.loadOrCreate(in: paths.hubDirectory).serverConfiguration()
        service.observePublished { _ in publisher.changed() }
        var configuration = PhoneWebConfiguration(host: host, port: port, tls: tls, token: try PairingToken.loadOrCreate(at: paths.pairingToken))
        configuration.anyPortIfTaken = web == nil
        return PhoneWeb(hub: hub, publisher: publisher, configuration: configuration,
                        logger: Self.webLogger, wrote: { service.wrote() }, linkReady: linkReady) { url in
            try? DurableFile.replace(paths.webAddress, with: Data((url + "\n").utf8), durable: false)
            // On every address: the one a phone on the network would open is the machine's name.
            let reachable = host == "0.0.0.0" || host == "::"
                ? " (all addresses: from another device, https://\(ProcessInfo.processInfo.hostName):\(url.split(separator: ":").last ?? ""))" : ""
            FileHandle.standardOutput.write(Data("hyzer-hub phone's face on \(url)\(reachable)\n".utf8))
        }
    }

    /// The port in `hub/web-address`, if a serve of this home wrote one on loopback.
    static func lastWebPort(_ paths: HyzerPaths) -> Int? {
        guard let text = try? String(contentsOf: paths.webAddress, encoding: .utf8),
              text.hasPrefix("http://127.0.0.1:"), let port = Int(text.dropFirst("http://127.0.0.1:".count).prefix { $0.isNumber }),
              (1...65535).contains(port) else { return nil }
        return port
    }

    /// The web server's own notices ("Server started and listening") are not the phone's: only
    /// its warnings and errors reach the log.
    static var webLogger: Logger {
        var logger = Logger(label: "hyzer.hub.web")
        logger.logLevel = max(logger.logLevel, .warning)
        return logger
    }

    /// Over TCP, TLS with the hub's own certificate (made on first start), unless --insecure.
    func tls(for address: LinkAddress, paths: HyzerPaths) throws -> NIOSSLContext? {
        guard case .tcp = address, !insecure else { return nil }
        let identity = try HubIdentity.loadOrCreate(in: paths.hubDirectory)
        Logger(label: "hyzer.hub.serve").info("TLS with certificate \(identity.fingerprint)")
        return try identity.serverContext()
    }
}

/// `serve` as a service: binds, announces itself, pushes every change, and on graceful shutdown
/// closes every connection and removes the socket file.
struct HubServeService: Service {
    let server: LinkServer
    let service: HubLinkService
    /// The hub's SQLite file: every commit, this process's or another's, writes its WAL.
    let database: URL
    /// `hyzer-hub app STATE` writes it: the phone app's lifecycle.
    let appRequest: URL
    let logger: Logger
    /// Also told of every change to the store (the cloud sync uploads it).
    let storeChanged: @Sendable () -> Void
    let ready: @Sendable (LinkAddress) -> Void

    func run() async throws {
        service.publish()
        try await server.start()
        ready(server.boundAddress ?? server.configuration.address)
        // Other hyzer-hub processes commit straight to the database and then touch the commit
        // signal: inotify on it tells at once. The database and its WAL are only polled (1 s), for
        // writers that do not signal and where inotify is missing: this process's own commits
        // write the WAL several times each, and waking for them would compete with its pushes.
        let watcher = FileChangeWatcher(files: [HubDatabase.commitSignal(for: database), appRequest],
                                        polledFiles: [database, URL(fileURLWithPath: database.path + "-wal")]) { [service, storeChanged, appRequest] in
            service.app.follow(request: appRequest)
            // Pushed if the store moved past the last push: asked first, and cheaply, on the push queue.
            service.storeChanged()
            // The poll also sees this process's own commits (a download applied, a watch's score),
            // each pushed and sent to the cloud as it was made: only another process's commit is
            // worth a cloud pass and a page update.
            guard service.hub.changedElsewhere() else { return }
            storeChanged()
        }
        watcher.start(name: "hyzer.hub.store-watcher")
        // A commit between the first publish and the watch being in place is published now.
        service.storeChanged()
        try? await gracefulShutdown()
        logger.info("shutting down")
        watcher.stop()
        await server.shutdown()
    }
}

extension ComplicationPolicy.Mode: ExpressibleByArgument {}
