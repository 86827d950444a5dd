import Foundation
import HubCore
import NIOSSL
import PostgresNIO

/// A cloud URL, checked: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=MODE]`
/// (`postgresql://` too; `?host=/DIR` reaches a server on its Unix socket in DIR).
public struct CloudAddress: Sendable {
    public let url: String
    public let host: String
    public let port: Int
    public let socketDirectory: String?
    public let username: String
    public let password: String?
    public let database: String
    public let sslMode: SSLMode

    public enum SSLMode: String, Sendable, CaseIterable {
        /// Plain TCP.
        case disable
        /// TLS when the server offers it, its certificate not checked (libpq's default).
        case prefer
        /// TLS always, certificate not checked.
        case require
        /// TLS always, certificate checked against the system's trust store and the host name.
        case verifyFull = "verify-full"
    }

    /// Where the server is, for messages.
    var place: String { socketDirectory.map { "the Unix socket in \($0)" } ?? "\(host):\(port)" }

    /// The URL with any password replaced by `***`: what is printed and logged.
    public var redacted: String { CloudConfiguration.redact(url) }

    public init(parsing url: String) throws(CloudURLError) {
        let expected = "postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require|verify-full]"
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased() else {
            throw CloudURLError("\"\(CloudConfiguration.redact(url))\" is not a URL; expected \(expected).")
        }
        guard scheme == "postgres" || scheme == "postgresql" else {
            throw CloudURLError("The cloud is a PostgreSQL server: the URL starts with postgres://, not \(scheme)://; expected \(expected).")
        }
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
        for name in query.keys where !["sslmode", "host"].contains(name) {
            // Only a plain word is echoed: in a mangled URL the "option" may be a password.
            let plain = name.count <= 20 && name.allSatisfy { $0.isASCII && ($0.isLetter || $0 == "_") }
            throw CloudURLError("Unknown URL option\(plain ? " \"\(name)\"" : " (not shown: it may hold a password)"); the options are sslmode and host.")
        }
        guard let user = components.user, !user.isEmpty else {
            throw CloudURLError("The URL names no user (postgres://USER@HOST/DATABASE).")
        }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        guard !database.isEmpty else {
            throw CloudURLError("The URL names no database (postgres://USER@HOST/DATABASE).")
        }
        guard !database.contains("/") else {
            throw CloudURLError("The URL's database is \"\(database)\"; a database name is one path segment (postgres://USER@HOST/DATABASE).")
        }
        guard components.fragment == nil else {
            throw CloudURLError("The URL has a #fragment, which a PostgreSQL URL does not take; remove it.")
        }
        let socketDirectory = query["host"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        if let host = query["host"], socketDirectory == nil {
            throw CloudURLError("The host option is a directory holding the server's Unix socket (an absolute path); got \"\(host)\".")
        }
        let host = components.host ?? ""
        guard !host.isEmpty || socketDirectory != nil else {
            throw CloudURLError("The URL names no host (postgres://USER@HOST/DATABASE, or ?host=/DIR for a Unix socket).")
        }
        let mode = query["sslmode"] ?? "prefer"
        guard let sslMode = SSLMode(rawValue: mode) else {
            throw CloudURLError("sslmode=\(mode) is not one of \(SSLMode.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        if let port = components.port, !(1...65535).contains(port) {
            throw CloudURLError("Port \(port) is not a TCP port (1...65535).")
        }
        self.url = url
        self.host = host
        self.port = components.port ?? 5432
        self.socketDirectory = socketDirectory
        self.username = user
        self.password = components.password
        self.database = database
        self.sslMode = sslMode
    }

    /// The connection settings postgres-nio takes (10 s to connect), for tools that talk to the
    /// server directly (the bench's limits).
    public func benchConfiguration() throws -> PostgresConnection.Configuration {
        try connectionConfiguration(connectTimeout: .seconds(10))
    }

    /// This URL with another login: the same server, database and options.
    func url(user: String, password: String) -> String {
        guard var components = URLComponents(string: url) else { return url }
        components.user = user
        components.password = password
        return components.string ?? url
    }

    /// The connection settings postgres-nio takes.
    func connectionConfiguration(connectTimeout: TimeAmount, session: String? = nil) throws -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        if let socketDirectory {
            configuration = .init(unixSocketPath: "\(socketDirectory)/.s.PGSQL.\(port)", username: username, password: password, database: database)
        } else {
            let tls: PostgresConnection.Configuration.TLS
            switch sslMode {
            case .disable:
                tls = .disable
            case .prefer, .require:
                var settings = TLSConfiguration.makeClientConfiguration()
                settings.certificateVerification = .none
                let context = try NIOSSLContext(configuration: settings)
                tls = sslMode == .prefer ? .prefer(context) : .require(context)
            case .verifyFull:
                tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            }
            configuration = .init(host: host, port: port, username: username, password: password, database: database, tls: tls)
        }
        configuration.options.connectTimeout = connectTimeout
        if let session { configuration.options.additionalStartupParameters = [("application_name", session)] }
        return configuration
    }
}

/// A cloud URL that cannot be used, said as what was wrong and what is expected.
public struct CloudURLError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}
