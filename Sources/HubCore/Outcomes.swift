import Foundation
import HyzerKit

/// What happened to an event handed to the hub.
public struct AppendResult: Equatable, Sendable {
    public enum Outcome: Equatable, Sendable {
        /// Committed, classified against what the log held for its {player, hole}.
        case stored(ScoreClassification)
        /// The log already held this event id: nothing written (a resend after a lost ack).
        case alreadyStored
        /// Nothing to record: the device already says these strokes, or they already count
        /// (`ScoreWrite.unchanged`). `event` is the score that says them.
        case unchanged
    }

    public let event: ScoreEvent
    public let outcome: Outcome
    /// The {player, hole} as the write left it (what counts, what is disputed); nil for a resend.
    public let state: ScoreState?

    public init(event: ScoreEvent, outcome: Outcome, state: ScoreState? = nil) {
        self.event = event
        self.outcome = outcome
        self.state = state
    }
}

/// What `voice` did with a transcript.
public struct VoiceOutcome: Equatable, Sendable {
    public struct Refused: Equatable, Sendable {
        public let entry: VoiceParseResult.Entry
        public let reason: String
    }

    public let transcript: String
    public let hole: Int
    /// The hole's par (what golf words were counted from).
    public let par: Int?
    public let parse: VoiceParseResult
    /// True when nothing was to be recorded (`voice --dry-run`).
    public let dryRun: Bool
    public var recorded: [AppendResult] = []
    /// With `dryRun`: what would have been recorded.
    public var wouldRecord: [VoiceParseResult.Entry] = []
    public var refused: [Refused] = []

    public init(transcript: String = "", hole: Int, par: Int? = nil, parse: VoiceParseResult, dryRun: Bool = false) {
        self.transcript = transcript
        self.hole = hole
        self.par = par
        self.parse = parse
        self.dryRun = dryRun
    }

    /// Everything in the transcript was (or, in a dry run, would be) recorded.
    public var isComplete: Bool { parse.isComplete && refused.isEmpty }

    /// Nothing was (or would be) recorded.
    public var recordedNothing: Bool { recorded.isEmpty && wouldRecord.isEmpty }
}

/// A finished round as the phone's history holds it: its final standings, when it was started,
/// this phone's owner in it and who organized it (a shared round's organizer as their phone named
/// them; else this phone's owner).
public struct FinishedRound: Encodable, Sendable {
    public let round: RoundSnapshot
    public let createdAt: Date
    public let you: PlayerID
    public let organizer: String
}
