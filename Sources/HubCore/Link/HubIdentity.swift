import Crypto
import Foundation
import HyzerLink
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

    public var fingerprint: String { HubTrust.fingerprint(ofDER: certificateDER) }


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
        try NIOSSLContext(configuration: serverConfiguration())
    }

    /// The server side's TLS configuration (the link and the phone's web face present the same
    /// certificate, the one a watch pins).
    public func serverConfiguration() throws -> TLSConfiguration {
        TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(try NIOSSLCertificate(bytes: certificateDER, format: .der))],
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem)))
    }
}
