import Foundation

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
    public let value: Int?
    /// From the input event's timestamp to this haptic being recorded.
    public let latencyMicros: Int

    public init(at: Date, kind: HapticKind, value: Int?, latencyMicros: Int) {
        self.at = at
        self.kind = kind
        self.value = value
        self.latencyMicros = latencyMicros
    }

    private enum CodingKeys: String, CodingKey { case at, kind, value, latencyMicros }

    /// `value` is written as null when absent: every line has the same four fields.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(at, forKey: .at)
        try c.encode(kind, forKey: .kind)
        try c.encode(value, forKey: .value)
        try c.encode(latencyMicros, forKey: .latencyMicros)
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
