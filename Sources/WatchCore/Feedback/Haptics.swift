import Foundation
import HyzerKit

/// The Taptic Engine's vocabulary on the watch (seeds/001, "Haptics match platform").
public enum HapticKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// One crown detent.
    case tick
    /// The crown hit 1 or 10.
    case limit
    /// A score was saved.
    case success
    /// A save failed, or the hub refused a score.
    case failure
    /// Standings reshuffled.
    case notification
}

/// One line of `watch/haptics.jsonl`.
public struct HapticRecord: Sendable, Hashable, Codable {
    public let at: Date
    public let kind: HapticKind
    /// The crown value the haptic marks; written as null when there is none.
    @EncodedNull public private(set) var value: Int?
    /// From the input event's timestamp to this haptic being recorded.
    public let latencyMicros: Int

    public init(at: Date, kind: HapticKind, value: Int?, latencyMicros: Int) {
        self.at = at
        self.kind = kind
        self.value = value
        self.latencyMicros = latencyMicros
    }
}

/// One line of `watch/announcements.jsonl`: what VoiceOver would say.
public struct AnnouncementRecord: Sendable, Hashable, Codable {
    public let at: Date
    public let text: String

    public init(at: Date, text: String) {
        self.at = at
        self.text = text
    }
}

extension HapticRecord {
    /// The record's line as `HyzerJSON.encoder()` writes it, byte for byte, written directly: a
    /// push that reshuffles the standings logs a haptic on its way to the face.
    public func compactJSON() -> [UInt8] {
        var out = JSONBytes(capacity: 112)
        out.object(indent: 0) { out in
            out.key("at", first: true); out.string(HyzerJSON.formatTimestamp(at))
            out.key("kind"); out.string(kind.rawValue)
            out.key("latencyMicros"); out.integer(latencyMicros)
            out.key("value"); out.optionalInteger(value)
        }
        return out.bytes
    }
}

extension AnnouncementRecord {
    /// The record's line as `HyzerJSON.encoder()` writes it, byte for byte, written directly.
    public func compactJSON() -> [UInt8] {
        var out = JSONBytes(capacity: 48 + text.utf8.count)
        out.object(indent: 0) { out in
            out.key("at", first: true); out.string(HyzerJSON.formatTimestamp(at))
            out.key("text"); out.string(text)
        }
        return out.bytes
    }
}
