import Foundation
import HyzerKit

/// What `score`, `correct` and `resolve --json` print: the event as stored and what it was.
public struct RecordedReport: Encodable, Equatable, Sendable {
    /// `newScore`, `silentMerge`, `discrepancy`, `correction`, `resolution`, or `alreadyStored`
    /// when the hub already held this event id.
    public let outcome: String
    public let name: String
    public let event: ScoreEvent

    public init(_ result: AppendResult, round: Round) {
        switch result.outcome {
        case .stored(let classification): outcome = classification.rawValue
        case .alreadyStored: outcome = "alreadyStored"
        }
        name = round.player(result.event.playerID)?.name ?? result.event.playerID
        event = result.event
    }
}

/// What `voice --json` prints: what was recorded, what needs a person, what was refused.
public struct VoiceReport: Encodable, Equatable, Sendable {
    public struct Suggestion: Encodable, Equatable, Sendable {
        public let heard: String
        public let didYouMean: String
        public let strokes: Int
        public let confidence: Double
    }

    public struct Problem: Encodable, Equatable, Sendable {
        public let fragment: String
        public let reason: String
    }

    public let hole: Int
    /// Everything in the transcript was recorded.
    public let complete: Bool
    public let recorded: [RecordedReport]
    public let suggestions: [Suggestion]
    /// Fragments that could not be parsed, and clear entries the hub refused (with the reason).
    public let problems: [Problem]

    public init(_ outcome: VoiceOutcome, round: Round) {
        hole = outcome.hole
        complete = outcome.isComplete
        recorded = outcome.recorded.map { RecordedReport($0, round: round) }
        suggestions = outcome.parse.suggestions.map {
            Suggestion(heard: $0.heard, didYouMean: $0.player.name, strokes: $0.strokes, confidence: $0.confidence)
        }
        problems = outcome.parse.problems.map { Problem(fragment: $0.fragment, reason: $0.reason) }
            + outcome.refused.map { Problem(fragment: "\($0.entry.heard) \($0.entry.strokes)", reason: $0.reason) }
    }
}

/// A discrepancy as `discrepancies --json` prints it.
public struct DiscrepancyReport: Codable, Equatable, Sendable {
    public let playerID: PlayerID
    public let name: String
    public let hole: Int
    public let candidateStrokes: [Int]
    public let events: [ScoreEvent]

    public init(_ discrepancy: Discrepancy, round: Round) {
        playerID = discrepancy.playerID
        name = round.player(discrepancy.playerID)?.name ?? discrepancy.playerID
        hole = discrepancy.hole
        candidateStrokes = discrepancy.candidateStrokes
        events = discrepancy.events
    }
}
