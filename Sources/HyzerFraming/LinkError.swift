import Foundation
import HyzerKit

/// What goes wrong on the link, with the message a person reads.
public enum LinkError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidAddress(String)
    case portOutOfRange(String, port: String)
    case frameTooLarge(length: Int, max: Int)
    case emptyFrame
    case truncatedFrame(expected: Int, received: Int)
    case malformedFrame(String)
    case refused(Refusal)
    case noPairingToken(path: String)
    case unexpectedMessage(LinkMessage.MessageType, state: String)
    case handshakeTimeout
    case cannotListen(address: String, reason: String)
    case untrustedHub(presented: String, expected: String?)

    public var description: String {
        switch self {
        case .invalidAddress(let text):
            "\"\(text)\" is not a link address; use unix:PATH or tcp:HOST:PORT (e.g. unix:/tmp/hyzer/hub/link.sock, tcp:127.0.0.1:7420)."
        case .portOutOfRange(let text, let port):
            "\"\(text)\" has port \(port); a port is 0 to 65535 (0: any free port, printed when serve starts)."
        case .frameTooLarge(let length, let max):
            "frame of \(length) bytes exceeds the \(max)-byte limit"
        case .emptyFrame:
            "empty frame (length 0)"
        case .truncatedFrame(let expected, let received):
            "connection closed inside a frame: \(received) of \(expected) bytes received"
        case .malformedFrame(let reason):
            "malformed frame: \(reason)"
        case .refused(let refusal):
            "the hub refused the pairing (\(refusal.reason.rawValue)): \(refusal.message)"
        case .noPairingToken(let path):
            "no pairing token at \(path); start the hub once (hyzer-hub serve or hyzer-hub token) or pass --token-file"
        case .unexpectedMessage(let type, let state):
            "unexpected \(type.rawValue) message while \(state)"
        case .handshakeTimeout:
            "no hello/welcome in time"
        case .cannotListen(let address, let reason):
            "Cannot listen on \(address): \(reason)."
        case .untrustedHub(let presented, let expected?):
            "the hub presented certificate \(presented), not the pinned \(expected); if the hub was reset on purpose, pair again (--hub-fingerprint, from: hyzer-hub token --fingerprint)"
        case .untrustedHub(let presented, nil):
            "the hub presented \(presented)"
        }
    }
}
