import Foundation

/// One player's line in the standings.
public struct Standing: Sendable, Hashable, Codable, Identifiable {
    public let playerID: PlayerID
    public let name: String
    /// Competition rank (1, 2, 2, 4); nil (written as null) while the player has no holes.
    @EncodedNull public private(set) var position: Int?
    /// True when another player shares this position.
    public let tied: Bool
    public let totalStrokes: Int
    /// Distinct holes with a current score.
    public let holesPlayed: Int
    /// totalStrokes − par of the holes played.
    public let scoreRelativeToPar: Int
    /// The current score on the round's current hole, if any (null when none).
    @EncodedNull public private(set) var currentHoleStrokes: Int?
    /// The event that holds that score (what a correction from the watch supersedes), and the
    /// device that reported it; null when the hole has no score yet.
    @EncodedNull public private(set) var currentHoleEventID: UUID?
    @EncodedNull public private(set) var currentHoleDeviceID: String?
    /// True while any of this player's holes has an open discrepancy.
    public let discrepancy: Bool
    /// Each hole of this player with an open discrepancy, and the scores in play there (the
    /// first counts): what a watch shows when the disputed row is tapped. Empty when none.
    public let disputes: [HoleDispute]

    public var id: PlayerID { playerID }

    private enum CodingKeys: String, CodingKey {
        case playerID, name, position, tied, totalStrokes, holesPlayed, scoreRelativeToPar, currentHoleStrokes
        case currentHoleEventID, currentHoleDeviceID, discrepancy, disputes
    }

    /// As synthesized, with `disputes` optional on reading (a snapshot from before it was written).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(playerID: try c.decode(String.self, forKey: .playerID), name: try c.decode(String.self, forKey: .name),
                  position: try c.decode(EncodedNull<Int>.self, forKey: .position).wrappedValue, tied: try c.decode(Bool.self, forKey: .tied),
                  totalStrokes: try c.decode(Int.self, forKey: .totalStrokes), holesPlayed: try c.decode(Int.self, forKey: .holesPlayed),
                  scoreRelativeToPar: try c.decode(Int.self, forKey: .scoreRelativeToPar),
                  currentHoleStrokes: try c.decode(EncodedNull<Int>.self, forKey: .currentHoleStrokes).wrappedValue,
                  discrepancy: try c.decode(Bool.self, forKey: .discrepancy),
                  currentHoleEventID: try c.decode(EncodedNull<UUID>.self, forKey: .currentHoleEventID).wrappedValue,
                  currentHoleDeviceID: try c.decode(EncodedNull<String>.self, forKey: .currentHoleDeviceID).wrappedValue,
                  disputes: try c.decodeIfPresent([HoleDispute].self, forKey: .disputes) ?? [])
    }

    public init(
        playerID: PlayerID, name: String, position: Int?, tied: Bool, totalStrokes: Int,
        holesPlayed: Int, scoreRelativeToPar: Int, currentHoleStrokes: Int?, discrepancy: Bool,
        currentHoleEventID: UUID? = nil, currentHoleDeviceID: String? = nil, disputes: [HoleDispute] = []
    ) {
        self.playerID = playerID
        self.name = name
        self.position = position
        self.tied = tied
        self.totalStrokes = totalStrokes
        self.holesPlayed = holesPlayed
        self.scoreRelativeToPar = scoreRelativeToPar
        self.currentHoleStrokes = currentHoleStrokes
        self.discrepancy = discrepancy
        self.currentHoleEventID = currentHoleEventID
        self.currentHoleDeviceID = currentHoleDeviceID
        self.disputes = disputes
    }
}

/// One disputed hole of a player: the scores in play, the counted one first.
public struct HoleDispute: Sendable, Hashable, Codable {
    public let hole: Int
    public let claims: [ScoreClaim]

    public init(hole: Int, claims: [ScoreClaim]) {
        self.hole = hole
        self.claims = claims
    }
}
