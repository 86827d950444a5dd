import Foundation
import HyzerKit

/// What `score`, `correct` and `resolve --json` print: the event as stored and what it was.
public struct RecordedReport: Encodable, Equatable, Sendable {
    /// `newScore`, `silentMerge`, `discrepancy`, `correction`, `resolution`; `alreadyStored` when
    /// the hub already held this event id; `unchanged` when nothing was recorded because the
    /// strokes were already said (`event` is the score that says them).
    public let outcome: String
    public let name: String
    public let event: ScoreEvent
    /// The strokes the standings count for this {player, hole} after the command.
    @EncodedNull public var counts: Int?
    /// Open when the scores in play for this {player, hole} disagree: each of them, the counted first.
    @EncodedNull public var discrepancy: [ScoreEvent]?

    public init(_ result: AppendResult, round: Round) {
        switch result.outcome {
        case .stored(let classification): outcome = classification.rawValue
        case .alreadyStored: outcome = "alreadyStored"
        case .unchanged: outcome = "unchanged"
        }
        name = round.player(result.event.playerID)?.name ?? result.event.playerID
        event = result.event
        counts = result.state?.counted?.strokes
        discrepancy = result.state.flatMap(Discrepancy.init)?.events
    }
}

/// What `voice --json` prints: what was recorded (or, with `--dry-run`, would be), what needs a
/// person, what was refused, and each thing heard with how its name was matched.
public struct VoiceReport: Encodable, Equatable, Sendable {
    public struct Suggestion: Encodable, Equatable, Sendable {
        public let heard: String
        public let didYouMean: String
        public let strokes: Int
        public let confidence: Double
        public let reason: String
    }

    public struct Problem: Encodable, Equatable, Sendable {
        public let fragment: String
        public let reason: String
    }

    /// How a heard name was matched: `name`, `initials`, `nickname`, `sounds like`, `spelling`.
    public struct Match: Codable, Hashable, Sendable {
        public let how: String
        /// The form of the player's name it matched ("Michael", "Sarah").
        public let form: String
        public let confidence: Double
        public let reason: String
    }

    /// One name + score as heard, in the order said.
    public struct Heard: Encodable, Equatable, Sendable {
        public let heard: String
        public let said: String
        @EncodedNull public var strokes: Int?
        /// `record` (clear: recorded, or would be in a dry run), `didYouMean`, `ambiguous`,
        /// `unknownName`, `noName`, `noScore`, `refused`.
        public let status: String
        @EncodedNull public var playerID: PlayerID?
        @EncodedNull public var name: String?
        /// The players an ambiguous or near name could be.
        public let candidates: [String]
        @EncodedNull public var match: Match?
        @EncodedNull public var problem: String?
    }

    public let transcript: String
    public let hole: Int
    @EncodedNull public var par: Int?
    public let dryRun: Bool
    /// Everything in the transcript was recorded (would be, in a dry run).
    public let complete: Bool
    public let recorded: [RecordedReport]
    /// With `--dry-run`: what would be recorded, as `heard` items.
    public let wouldRecord: [Heard]
    public let suggestions: [Suggestion]
    /// Fragments that could not be parsed, and clear entries the hub refused (with the reason).
    public let problems: [Problem]
    public let heard: [Heard]

    public init(_ outcome: VoiceOutcome, round: Round) {
        transcript = outcome.transcript
        hole = outcome.hole
        par = outcome.par
        dryRun = outcome.dryRun
        complete = outcome.isComplete
        recorded = outcome.recorded.map { RecordedReport($0, round: round) }
        suggestions = outcome.parse.suggestions.map {
            Suggestion(heard: $0.heard, didYouMean: $0.player.name, strokes: $0.strokes, confidence: ($0.confidence * 100).rounded() / 100,
                       reason: $0.evidence.description)
        }
        let nothingHeard = outcome.parse.items.isEmpty
            ? [Problem(fragment: outcome.transcript, reason: "heard no names or scores in \"\(outcome.transcript)\"; say it like: \"Mike 3, Jake four, Sarah birdie\"")]
            : []
        problems = nothingHeard + outcome.parse.problems.map { Problem(fragment: $0.fragment, reason: $0.reason) }
            + outcome.refused.map { Problem(fragment: "\($0.entry.heard) \($0.entry.said)", reason: $0.reason) }
        let refused = Dictionary(outcome.refused.map { ($0.entry.player.id, $0.reason) }, uniquingKeysWith: { a, _ in a })
        heard = outcome.parse.items.map { Self.heard($0, refused: refused) }
        let would = Set(outcome.wouldRecord.map(\.player.id))
        wouldRecord = heard.filter { $0.status == "record" && $0.playerID.map(would.contains) == true }
    }

    static func heard(_ item: VoiceParseResult.Item, refused: [PlayerID: String]) -> Heard {
        func match(_ evidence: NameEvidence) -> Match {
            Match(how: evidence.kind.rawValue, form: evidence.form, confidence: (evidence.confidence * 100).rounded() / 100, reason: evidence.description)
        }
        let status: String, player: Player?, candidates: [String], evidence: NameEvidence?
        switch item.resolution {
        case .player(let found, let matched):
            player = found; candidates = []; evidence = matched
            status = refused[found.id] != nil ? "refused" : item.problem == nil ? "record" : item.said.isEmpty ? "noScore" : "refused"
        case .suggestion(let found, let matched):
            player = nil; candidates = [found.name]; evidence = matched; status = "didYouMean"
        case .ambiguous(let players, let matched):
            player = nil; candidates = players.map(\.name); evidence = matched; status = "ambiguous"
        case .unknown:
            player = nil; candidates = []; evidence = nil; status = "unknownName"
        case .noName:
            player = nil; candidates = []; evidence = nil; status = "noName"
        }
        return Heard(heard: item.heard, said: item.said, strokes: item.strokes, status: status, playerID: player?.id, name: player?.name,
                     candidates: candidates, match: evidence.map(match), problem: player.flatMap { refused[$0.id] } ?? item.problem)
    }
}

/// A discrepancy as `discrepancies --json` prints it.
public struct DiscrepancyReport: Codable, Equatable, Sendable {
    /// The round it is open in (for `resolve --round`, when it is not the round in play).
    public let roundID: UUID
    public let playerID: PlayerID
    public let name: String
    public let hole: Int
    public let candidateStrokes: [Int]
    public let events: [ScoreEvent]

    public init(_ discrepancy: Discrepancy, round: Round) {
        roundID = round.id
        playerID = discrepancy.playerID
        name = round.player(discrepancy.playerID)?.name ?? discrepancy.playerID
        hole = discrepancy.hole
        candidateStrokes = discrepancy.candidateStrokes
        events = discrepancy.events
    }
}
