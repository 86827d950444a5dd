import Foundation

/// Where a score came from.
public enum ScoreSource: String, Sendable, Hashable, Codable, CaseIterable {
    case tap, voice, crown, resolution
}

/// Strokes on one hole; every input path accepts 1...10 only.
public enum Strokes {
    public static let allowed: ClosedRange<Int> = 1...10

    public static func validate(_ strokes: Int) throws(ScoreError) {
        guard allowed.contains(strokes) else { throw .strokesOutOfRange(strokes) }
    }
}

/// One score as it was reported: immutable and append-only.
///
/// A correction is a new event whose `supersedesEventID` names the event it replaces; the current
/// score of {player, hole} is the leaf of that chain (see `ScoreRule`), never the latest timestamp.
public struct ScoreEvent: Sendable, Hashable, Codable, Identifiable {
    /// Every string an event carries is stored forever, so each has a bound: player ids are a
    /// UUID or `guest:<name>`, device ids a short name (a device names itself in up to 64 bytes;
    /// another phone's device in a shared round is stored as `DEVICE@PHONE`, docs/SYNC.md).
    public static let maxPlayerIDLength = 128
    public static let maxDeviceIDLength = 128

    public let id: UUID
    public let roundID: UUID
    public let playerID: PlayerID
    public let hole: Int
    public let strokes: Int
    /// The event this one replaces; written as null for a first score.
    @EncodedNull public private(set) var supersedesEventID: UUID?
    public let reportedByPlayerID: PlayerID
    public let deviceID: String
    public let source: ScoreSource
    public let createdAt: Date

    /// Without an `id`, the event gets a new time-ordered one (`UUID.timeOrdered(at: createdAt)`).
    public init(
        id: UUID? = nil,
        roundID: UUID,
        playerID: PlayerID,
        hole: Int,
        strokes: Int,
        supersedesEventID: UUID? = nil,
        reportedByPlayerID: PlayerID,
        deviceID: String,
        source: ScoreSource,
        createdAt: Date
    ) throws(ScoreError) {
        try Strokes.validate(strokes)
        guard hole >= 1 else { throw .holeOutOfRange(hole: hole, holeCount: nil) }
        for (field, value, bound) in [("playerID", playerID, Self.maxPlayerIDLength), ("reportedByPlayerID", reportedByPlayerID, Self.maxPlayerIDLength),
                                      ("deviceID", deviceID, Self.maxDeviceIDLength)] {
            guard !value.isEmpty, value.utf8.count <= bound, !value.containsControlCharacter else {
                throw .invalidField(field, maxLength: bound)
            }
        }
        self.id = id ?? UUID.timeOrdered(at: createdAt)
        self.roundID = roundID
        self.playerID = playerID
        self.hole = hole
        self.strokes = strokes
        self.supersedesEventID = supersedesEventID
        self.reportedByPlayerID = reportedByPlayerID
        self.deviceID = deviceID
        self.source = source
        self.createdAt = createdAt
    }

    private enum CodingKeys: String, CodingKey {
        case id, roundID, playerID, hole, strokes, supersedesEventID, reportedByPlayerID, deviceID, source, createdAt
    }

    /// Decoding validates like the initializer: a frame or file cannot smuggle in 11 strokes.
    ///
    /// Ids are read as the schema writes them (`strictUUID`: a space, a sign or `0x` in one is
    /// refused, not read as another id). `supersedesEventID` must be there, `null` for a first
    /// score (the schema requires it).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            id: c.strictUUID(forKey: .id),
            roundID: c.strictUUID(forKey: .roundID),
            playerID: c.decode(String.self, forKey: .playerID),
            hole: c.decode(Int.self, forKey: .hole),
            strokes: c.decode(Int.self, forKey: .strokes),
            supersedesEventID: c.decodeNil(forKey: .supersedesEventID) ? nil : c.strictUUID(forKey: .supersedesEventID),
            reportedByPlayerID: c.decode(String.self, forKey: .reportedByPlayerID),
            deviceID: c.decode(String.self, forKey: .deviceID),
            source: c.decode(ScoreSource.self, forKey: .source),
            createdAt: c.decode(Date.self, forKey: .createdAt)
        )
    }
}

/// Why a score cannot be accepted. `description` is the message a person reads.
public enum ScoreError: Error, Equatable, Sendable, CustomStringConvertible {
    case strokesOutOfRange(Int)
    case holeOutOfRange(hole: Int, holeCount: Int?)
    case unknownPlayer(PlayerID)
    case wrongRound(expected: UUID, got: UUID)
    case roundNotAcceptingScores(status: RoundStatus)
    case unknownSupersededEvent(UUID)
    case supersedesDifferentScore(UUID)
    /// The event it supersedes was already replaced; `current` is the score that counts now.
    case supersedesReplacedScore(UUID, current: UUID)
    case unknownReporter(PlayerID)
    case invalidField(String, maxLength: Int)

    public var description: String {
        switch self {
        case .strokesOutOfRange(let strokes):
            "Strokes must be between \(Strokes.allowed.lowerBound) and \(Strokes.allowed.upperBound); got \(strokes)."
        case .holeOutOfRange(let hole, let holeCount?):
            "Hole \(hole) is not on this course; holes are 1...\(holeCount)."
        case .holeOutOfRange(let hole, nil):
            "Hole \(hole) is not a hole number; holes are numbered from 1."
        case .unknownPlayer(let id):
            "Player \(Player.guestName(fromID: id).map { "guest \"\($0)\"" } ?? id) is not in this round."
        case .wrongRound(let expected, let got):
            "Score is for round \(got.uuidString), but the active round is \(expected.uuidString)."
        case .roundNotAcceptingScores(let status):
            "The round is \(status.displayName); scores are accepted only while it is active or awaiting finalization."
        case .unknownSupersededEvent(let id):
            "The score to correct (\(id.uuidString)) is not in this round's event log."
        case .supersedesDifferentScore(let id):
            "Event \(id.uuidString) is for a different player or hole; a correction must supersede a score of the same player and hole."
        case .supersedesReplacedScore(let id, let current):
            "Event \(id.uuidString) was already replaced; the score that counts now is \(current.uuidString): supersede that one."
        case .unknownReporter(let id):
            "The reporter \(Player.guestName(fromID: id).map { "guest \"\($0)\"" } ?? id) is not a player of this round."
        case .invalidField(let field, let maxLength):
            "\(field) must be 1 to \(maxLength) bytes with no control characters."
        }
    }
}

extension ScoreEvent {
    /// Whether `other` is this score again: everything that decides what counts is the same
    /// (the watch's `createdAt` never decides anything, and a resend may write it at another precision).
    public func isSameScore(as other: ScoreEvent) -> Bool {
        id == other.id && roundID == other.roundID && playerID.hasSameBytes(as: other.playerID) && hole == other.hole
            && strokes == other.strokes && supersedesEventID == other.supersedesEventID
            && reportedByPlayerID.hasSameBytes(as: other.reportedByPlayerID) && deviceID.hasSameBytes(as: other.deviceID)
            && source == other.source
    }
}
