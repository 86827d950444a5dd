import Foundation

/// Where the hub listens: a Unix domain socket (the default) or TCP to pair across machines.
public enum LinkAddress: Sendable, Hashable, CustomStringConvertible {
    case unix(path: String)
    case tcp(host: String, port: Int)

    /// Parses `unix:PATH` or `tcp:HOST:PORT` (`tcp:[::1]:7420` for IPv6).
    public init(parsing text: String) throws(LinkError) {
        if text.hasPrefix("unix:") {
            let path = String(text.dropFirst(5))
            guard !path.isEmpty else { throw .invalidAddress(text) }
            self = .unix(path: path)
        } else if text.hasPrefix("tcp:") {
            let rest = text.dropFirst(4)
            guard let colon = rest.lastIndex(of: ":"), let port = Int(rest[rest.index(after: colon)...]) else { throw .invalidAddress(text) }
            guard (0...65_535).contains(port) else { throw .portOutOfRange(text, port: String(rest[rest.index(after: colon)...])) }
            var host = String(rest[..<colon])
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            guard !host.isEmpty else { throw .invalidAddress(text) }
            self = .tcp(host: host, port: port)
        } else {
            throw .invalidAddress(text)
        }
    }

    public var description: String {
        switch self {
        case .unix(let path): "unix:\(path)"
        case .tcp(let host, let port): host.contains(":") ? "tcp:[\(host)]:\(port)" : "tcp:\(host):\(port)"
        }
    }
}
