#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HyzerStorage

/// The secret a watch presents in its hello. Created on first use, readable by its owner only.
public enum PairingToken {
    public static func loadOrCreate(at url: URL) throws -> String {
        if let existing = read(url) { return existing }
        try DurableFile.makeDirectory(url.deletingLastPathComponent(), mode: 0o700)
        var generator = SystemRandomNumberGenerator()
        let token = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
        if try DurableFile.createIfAbsent(url, with: Data((token + "\n").utf8), mode: 0o600) { return token }
        // A concurrent first start won: its token is the one.
        guard let winner = read(url) else { throw DurableFileError.failed("read", url.path, EIO) }
        return winner
    }

    /// The token in `url`, or a message saying why there is none.
    public static func read(at url: URL) throws(LinkError) -> String {
        guard let token = read(url) else { throw .noPairingToken(path: url.path) }
        return token
    }

    private static func read(_ url: URL) -> String? {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return token.isEmpty ? nil : token
    }
}
