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

    public var id: PlayerID { playerID }

    public init(
        playerID: PlayerID, name: String, position: Int?, tied: Bool, totalStrokes: Int,
        holesPlayed: Int, scoreRelativeToPar: Int, currentHoleStrokes: Int?, discrepancy: Bool,
        currentHoleEventID: UUID? = nil, currentHoleDeviceID: String? = nil
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
    }
}
