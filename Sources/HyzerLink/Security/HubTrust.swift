#if canImport(Glibc)
import Glibc
#endif
import Crypto
import Foundation
import HyzerStorage
import NIOSSL

/// How a watch trusts the hub over TCP: a fingerprint given up front, or the first one it sees
/// (kept in `store` and required from then on: trust on first use).
public enum HubTrust: Sendable, Hashable {
    case fingerprint(String)
    case trustOnFirstUse(store: URL)

    /// The client side's TLS context: the usual chain checks are off (the certificate is
    /// self-signed); the fingerprint check in `verify` is what authenticates the hub.
    public static func clientContext() throws -> NIOSSLContext {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .noHostnameVerification
        return try NIOSSLContext(configuration: configuration)
    }

    /// Whether the hub presenting `certificates` is the one this watch pairs with.
    public func verify(_ certificates: [NIOSSLCertificate]) -> Result<Void, LinkError> {
        guard let leaf = certificates.first, let der = try? leaf.toDERBytes() else {
            return .failure(.untrustedHub(presented: "no certificate", expected: nil))
        }
        let presented = Self.fingerprint(ofDER: der)
        switch self {
        case .fingerprint(let expected):
            return presented == Self.normalized(expected) ? .success(()) : .failure(.untrustedHub(presented: presented, expected: expected))
        case .trustOnFirstUse(let store):
            if let pinned = try? String(contentsOf: store, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines), !pinned.isEmpty {
                // The pin file may have been written by hand, in another case or with colons.
                return presented == Self.normalized(pinned) ? .success(()) : .failure(.untrustedHub(presented: presented, expected: pinned))
            }
            do {
                try FileManager.default.createDirectory(at: store.deletingLastPathComponent(), withIntermediateDirectories: true)
                try DurableFile.replace(store, with: Data((presented + "\n").utf8))
            } catch {
                return .failure(.untrustedHub(presented: presented, expected: "a pin that could not be saved (\(error))"))
            }
            return .success(())
        }
    }

    /// What a watch uses for `address`: TLS pinned to `fingerprint`, or to the first certificate
    /// seen (kept in `pinStore`); nothing over a Unix socket or when `insecure`.
    public static func forWatch(address: LinkAddress, fingerprint: String?, insecure: Bool, pinStore: URL) -> HubTrust? {
        guard case .tcp = address, !insecure else { return nil }
        return fingerprint.map { .fingerprint($0) } ?? .trustOnFirstUse(store: pinStore)
    }

    /// A certificate's fingerprint as the hub shows it and a watch pins it: the SHA-256 of its DER
    /// bytes, `sha256:` and 64 lowercase hex digits.
    public static func fingerprint(ofDER der: [UInt8]) -> String {
        "sha256:" + SHA256.hash(data: der).map { String(format: "%02x", $0) }.joined()
    }

    /// Whether `text` is a fingerprint `normalized` reads: 64 hex digits, any case, with or
    /// without `sha256:` in front and colons between the bytes. A watch told to pin anything else
    /// could never pair.
    public static func isFingerprint(_ text: String) -> Bool {
        var digits = Substring(text.lowercased())
        if digits.hasPrefix("sha256:") { digits = digits.dropFirst("sha256:".count) }
        let hex = digits.filter { $0 != ":" }
        return hex.count == 64 && hex.allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) }
    }

    /// `sha256:AB:CD…` or bare hex, any case, as `sha256:` and lowercase hex.
    public static func normalized(_ fingerprint: String) -> String {
        let hex = fingerprint.lowercased().replacingOccurrences(of: "sha256:", with: "").filter(\.isHexDigit)
        return "sha256:" + hex
    }
}
