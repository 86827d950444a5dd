import Foundation
import HubCore
import HyzerKit
import HyzerLink
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import HummingbirdWebSocket
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOSSL
import ServiceLifecycle

/// Where the phone's face listens, and who may open it: on loopback anyone on this machine (as
/// the phone's own screen is its owner's); on any other address only over TLS with the hub's own
/// certificate, and only with the pairing token (entered once on the page, kept in a cookie).
public struct PhoneWebConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// Required when `host` is not loopback (`PhoneWeb` refuses to start without it).
    public var tls: TLSConfiguration?
    public var token: String
    /// When `port` is taken, take any free one instead of failing (the remembered port of a
    /// default run; never a port the user asked for).
    public var anyPortIfTaken = false

    public init(host: String, port: Int, tls: TLSConfiguration?, token: String) {
        self.host = host
        self.port = port
        self.tls = tls
        self.token = token
    }

    public var isLoopback: Bool { Self.isLoopback(host) }

    /// `localhost`, or an address of this machine's loopback written as an address: 127.0.0.0/8
    /// as four numbers (`127.0.0.1`), or `::1` in any of its spellings. Never a name that merely
    /// begins like one (`127.attacker.example` resolves wherever its owner says: DNS rebinding).
    public static func isLoopback(_ host: String) -> Bool {
        if host.lowercased() == "localhost" { return true }
        var v4 = in_addr(), v6 = in6_addr()
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count == 4, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
           inet_pton(AF_INET, host, &v4) == 1 {
            return UInt32(bigEndian: v4.s_addr) >> 24 == 127
        }
        guard inet_pton(AF_INET6, host, &v6) == 1 else { return false }
        return withUnsafeBytes(of: v6) { bytes in bytes.dropLast().allSatisfy { $0 == 0 } && bytes.last == 1 }
    }

    /// `HOST:PORT` (`[::1]:8080` for IPv6), as `serve --web` takes it: read as the link reads
    /// `--listen tcp:HOST:PORT`.
    public static func parseAddress(_ text: String) throws(PhoneWebError) -> (host: String, port: Int) {
        guard case .tcp(let host, let port)? = try? LinkAddress(parsing: "tcp:" + text) else { throw .badAddress(text) }
        return (host, port)
    }
}

public enum PhoneWebError: Error, CustomStringConvertible {
    case badAddress(String)

    public var description: String {
        switch self {
        case .badAddress(let text):
            "\"\(text)\" is not a web address to listen on: give HOST:PORT, as 127.0.0.1:8080 (port 0 picks a free one), or [::1]:8080."
        }
    }
}

/// `serve`'s web face as a service of its group: the page, its JSON API and the live WebSocket.
public struct PhoneWeb: Service {
    let configuration: PhoneWebConfiguration
    let api: PhoneWebAPI
    let logger: Logger
    let onRunning: @Sendable (String) async -> Void
    let linkReady: AsyncStream<Void>

    /// - wrote: told after each write the page made (serve has it pushed to the watches).
    /// - linkReady: yields once the link listens: the page starts after it (and not at all when
    ///   the link cannot start), so `serve`'s ready line comes first.
    public init(hub: Hub, publisher: PagePublisher, configuration: PhoneWebConfiguration, logger: Logger,
                wrote: @escaping @Sendable () -> Void, linkReady: AsyncStream<Void>, onRunning: @escaping @Sendable (String) async -> Void) {
        self.linkReady = linkReady
        self.configuration = configuration
        self.api = PhoneWebAPI(hub: hub, publisher: publisher, token: configuration.token, open: configuration.isLoopback, wrote: wrote)
        self.logger = logger
        self.onRunning = onRunning
    }

    public func run() async throws {
        var linkListens = false
        for await _ in linkReady {
            linkListens = true
            break
        }
        guard linkListens else { return }  // serve is stopping before it started
        let router = Router(context: PhoneWebContext.self)
        api.addRoutes(to: router)
        let live = Router(context: PhoneWebContext.self)
        api.addLiveRoute(to: live)
        let scheme = configuration.tls == nil ? "http" : "https"
        let shownHost = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        // A connection that sends nothing for 30 s is closed (a stalled or half-open peer holds
        // nothing for long); headers are bounded well below Hummingbird's defaults (80 KiB each):
        // the page sends a cookie and a few short headers.
        let http1 = HTTP1Channel.Configuration(idleTimeout: .seconds(30),
                                               httpDecoderConfiguration: .init(maxHeaderFieldSize: 8 * 1024, maxHeaderListSize: 16 * 1024, maxHeaderFieldCount: 64))
        let webSocketResponder = live.buildResponder()
        let upgrade = HTTPServerBuilder { responder in
            FirstAnswerDeadline(inner: HTTP1WebSocketUpgradeChannel(
                responder: responder, webSocketResponder: webSocketResponder,
                configuration: .init(http1: http1, ws: .init(maxFrameSize: PhoneWebAPI.maxBodyBytes))))
        }
        let server: HTTPServerBuilder
        if let tls = configuration.tls {
            server = try .tls(upgrade, tlsConfiguration: tls)
        } else {
            precondition(configuration.isLoopback, "the phone's face off loopback needs TLS")
            server = upgrade
        }
        let onRunning = self.onRunning
        func application(port: Int) -> some ApplicationProtocol {
            Application(
                router: router,
                server: server,
                configuration: .init(address: .hostname(configuration.host, port: port), serverName: "hyzer-hub"),
                onServerRunning: { channel in await onRunning("\(scheme)://\(shownHost):\(channel.localAddress?.port ?? port)/") },
                logger: logger
            )
        }
        // Run inside serve's service group, which owns the signals and the graceful shutdown.
        do {
            try await application(port: configuration.port).run()
        } catch let error as IOError where error.errnoCode == EADDRINUSE && configuration.anyPortIfTaken && configuration.port != 0 {
            try await application(port: 0).run()
        }
    }
}
