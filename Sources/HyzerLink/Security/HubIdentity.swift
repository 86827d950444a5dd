#if canImport(Glibc)
import Glibc
#endif
import Crypto
import Foundation
import HyzerStorage
import NIOSSL
import SwiftASN1
import X509

/// The hub's TLS identity for `--listen tcp:`: a self-signed certificate made on first start and
/// kept in `<home>/hub/` (`tls-key.pem` mode 0600, `tls-cert.pem`). A watch pins it by its
/// fingerprint, the SHA-256 of the certificate's DER bytes (`sha256:` and 64 hex digits).
public struct HubIdentity: Sendable {
    public let certificateDER: [UInt8]
    public let privateKeyPEM: String

    public var fingerprint: String { Self.fingerprint(ofDER: certificateDER) }

    public static func fingerprint(ofDER der: [UInt8]) -> String {
        "sha256:" + SHA256.hash(data: der).map { String(format: "%02x", $0) }.joined()
    }

    /// Loads the identity in `directory`, or makes and stores a new one.
    public static func loadOrCreate(in directory: URL) throws -> HubIdentity {
        let keyURL = directory.appendingPathComponent("tls-key.pem")
        let certificateURL = directory.appendingPathComponent("tls-cert.pem")
        if let key = try? String(contentsOf: keyURL, encoding: .utf8),
           let certificate = try? String(contentsOf: certificateURL, encoding: .utf8) {
            let document = try PEMDocument(pemString: certificate)
            return HubIdentity(certificateDER: document.derBytes, privateKeyPEM: key)
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let identity = try make()
        // The key first, private from the start; the certificate names it, so it goes second.
        try DurableFile.replace(keyURL, with: Data(identity.privateKeyPEM.utf8), mode: 0o600)
        let pem = PEMDocument(type: "CERTIFICATE", derBytes: identity.certificateDER).pemString
        try DurableFile.replace(certificateURL, with: Data(pem.utf8))
        return identity
    }

    static func make() throws -> HubIdentity {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName("hyzer-hub") }
        let now = Date()
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(20 * 365 * 86_400),
            issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                SubjectAlternativeNames([.dnsName("hyzer-hub")])
            },
            issuerPrivateKey: .init(key))
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return HubIdentity(certificateDER: serializer.serializedBytes, privateKeyPEM: key.pemRepresentation)
    }

    /// The server side's TLS context.
    public func serverContext() throws -> NIOSSLContext {
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(try NIOSSLCertificate(bytes: certificateDER, format: .der))],
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem)))
        return try NIOSSLContext(configuration: configuration)
    }
}

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
        let presented = HubIdentity.fingerprint(ofDER: der)
        switch self {
        case .fingerprint(let expected):
            return presented == Self.normalized(expected) ? .success(()) : .failure(.untrustedHub(presented: presented, expected: expected))
        case .trustOnFirstUse(let store):
            if let pinned = try? String(contentsOf: store, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines), !pinned.isEmpty {
                return presented == pinned ? .success(()) : .failure(.untrustedHub(presented: presented, expected: pinned))
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

    /// `sha256:AB:CD…` or bare hex, any case, as `sha256:` and lowercase hex.
    public static func normalized(_ fingerprint: String) -> String {
        let hex = fingerprint.lowercased().replacingOccurrences(of: "sha256:", with: "").filter(\.isHexDigit)
        return "sha256:" + hex
    }
}
