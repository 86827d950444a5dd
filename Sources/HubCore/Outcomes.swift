import Foundation
import HyzerKit

/// What happened to an event handed to the hub.
public struct AppendResult: Equatable, Sendable {
    public enum Outcome: Equatable, Sendable {
        /// Committed, classified against what the log held for its {player, hole}.
        case stored(ScoreClassification)
        /// The log already held this event id: nothing written (a resend after a lost ack).
        case alreadyStored
    }

    public let event: ScoreEvent
    public let outcome: Outcome
}

/// What `voice` did with a transcript.
public struct VoiceOutcome: Equatable, Sendable {
    public struct Refused: Equatable, Sendable {
        public let entry: VoiceParseResult.Entry
        public let reason: String
    }

    public let hole: Int
    public let parse: VoiceParseResult
    public var recorded: [AppendResult] = []
    public var refused: [Refused] = []

    public init(hole: Int, parse: VoiceParseResult) {
        self.hole = hole
        self.parse = parse
    }

    /// Everything in the transcript was recorded.
    public var isComplete: Bool { parse.isComplete && refused.isEmpty }
}
