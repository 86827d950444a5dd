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
        // Written whole under a private name, then linked into place: a concurrent first start
        // either wins or reads the winner's complete token.
        let temp = url.deletingLastPathComponent().appendingPathComponent(".token.\(getpid()).tmp")
        let fd = open(temp.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw DurableFileError.failed("create", temp.path, errno) }
        fchmod(fd, 0o600)
        close(fd)
        defer { unlink(temp.path) }
        try DurableFile.append(temp, Data((token + "\n").utf8))
        if link(temp.path, url.path) != 0 {
            let code = errno
            if code == EEXIST, let winner = read(url) { return winner }
            throw DurableFileError.failed("create", url.path, code)
        }
        try DurableFile.syncDirectory(url.deletingLastPathComponent())
        return token
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
