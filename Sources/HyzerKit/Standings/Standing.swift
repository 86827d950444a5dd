/// One player's line in the standings.
public struct Standing: Sendable, Hashable, Codable, Identifiable {
    public let playerID: PlayerID
    public let name: String
    /// Competition rank (1, 2, 2, 4); nil while the player has no holes.
    public let position: Int?
    /// True when another player shares this position.
    public let tied: Bool
    public let totalStrokes: Int
    /// Distinct holes with a current score.
    public let holesPlayed: Int
    /// totalStrokes − par of the holes played.
    public let scoreRelativeToPar: Int
    /// The current score on the round's current hole, if any.
    public let currentHoleStrokes: Int?
    /// True while any of this player's holes has an open discrepancy.
    public let discrepancy: Bool

    public var id: PlayerID { playerID }

    public init(
        playerID: PlayerID, name: String, position: Int?, tied: Bool, totalStrokes: Int,
        holesPlayed: Int, scoreRelativeToPar: Int, currentHoleStrokes: Int?, discrepancy: Bool
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
    }

    private enum CodingKeys: String, CodingKey {
        case playerID, name, position, tied, totalStrokes, holesPlayed, scoreRelativeToPar, currentHoleStrokes, discrepancy
    }

    /// Optional fields are written as `null`, never left out: the snapshot's field names are a contract.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(playerID, forKey: .playerID)
        try c.encode(name, forKey: .name)
        try c.encode(position, forKey: .position)
        try c.encode(tied, forKey: .tied)
        try c.encode(totalStrokes, forKey: .totalStrokes)
        try c.encode(holesPlayed, forKey: .holesPlayed)
        try c.encode(scoreRelativeToPar, forKey: .scoreRelativeToPar)
        try c.encode(currentHoleStrokes, forKey: .currentHoleStrokes)
        try c.encode(discrepancy, forKey: .discrepancy)
    }
}
