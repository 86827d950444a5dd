import Foundation

/// A round as it was played, hole by hole (`hyzer-hub replay FILE`; Assets/rounds has real ones):
///
/// ```json
/// {"source": "…", "event": "…", "round": 1, "course": "Brazos Park East", "layout": "…",
///  "date": "2024-03-07", "pars": [3, 4, …], "players": [{"name": "Kristin Tattar", "strokes": [3, 4, …]}, …]}
/// ```
///
/// `source`, `event`, `round`, `layout` and `date` say where the scores come from; `course`,
/// `pars` and `players` are what is replayed.
public struct RecordedRound: Sendable, Hashable, Codable {
    public struct Card: Sendable, Hashable, Codable {
        public var name: String
        public var strokes: [Int]
    }

    public var source: String?
    public var event: String?
    public var round: Int?
    public var course: String
    public var layout: String?
    public var date: String?
    public var pars: [Int]
    public var players: [Card]

    /// Reads and checks a recorded round: a message naming what is wrong and what is allowed.
    public static func read(_ data: Data, from path: String) throws(RecordedRoundError) -> RecordedRound {
        let round: RecordedRound
        do {
            round = try HyzerJSON.decoder().decode(RecordedRound.self, from: data)
        } catch let error as DecodingError {
            throw RecordedRoundError(path: path, problem: fractionalNumber(in: data) ?? HyzerJSON.explain(error))
        } catch {
            throw RecordedRoundError(path: path, problem: "\(error)")
        }
        if let problem = round.problem { throw RecordedRoundError(path: path, problem: problem) }
        return round
    }

    /// Foundation's decoder says "not valid JSON" of valid JSON with a number that is not whole
    /// where a whole one belongs (`3.5` strokes): the file is read once more to say where.
    private static func fractionalNumber(in data: Data) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        func fractional(_ list: Any?) -> (index: Int, value: Double)? {
            for (index, item) in ((list as? [Any]) ?? []).enumerated() {
                if let number = item as? NSNumber, !(item is Bool), number.doubleValue.rounded() != number.doubleValue { return (index, number.doubleValue) }
            }
            return nil
        }
        if let (index, value) = fractional(object["pars"]) { return "pars[\(index)] is \(value); a par is a whole number" }
        for (index, card) in ((object["players"] as? [Any]) ?? []).enumerated() {
            if let (hole, value) = fractional((card as? [String: Any])?["strokes"]) {
                return "players[\(index)].strokes[\(hole)] is \(value); strokes are whole numbers"
            }
        }
        return nil
    }

    /// What makes this round unplayable, if anything.
    public var problem: String? {
        guard Course.allowedHoleCount.contains(pars.count) else { return "pars lists \(pars.count) holes; a course has \(CourseError.holeRange)" }
        if let (index, par) = pars.enumerated().first(where: { !Hole.allowedPar.contains($0.element) }) {
            return "hole \(index + 1) has par \(par); par must be between \(Hole.allowedPar.lowerBound) and \(Hole.allowedPar.upperBound)"
        }
        guard !players.isEmpty else { return "players is empty; a round needs at least one" }
        guard players.count <= Round.maxPlayers else { return "players lists \(players.count); a round has at most \(Round.maxPlayers.formatted())" }
        var seen: [String: String] = [:]
        for card in players {
            let skeleton = NameText.skeleton(card.name)
            if let other = seen[skeleton] {
                return other.lowercased() == card.name.lowercased() ? "\(card.name) is listed twice"
                    : "\(card.name) reads like \(other), listed before it; give two players names that read differently"
            }
            seen[skeleton] = card.name
            guard card.strokes.count == pars.count else {
                return "\(card.name) has \(ListText.count(card.strokes.count, "score")) for \(ListText.count(pars.count, "hole")); strokes lists one score a hole, \(pars.count) in all"
            }
            if let (index, strokes) = card.strokes.enumerated().first(where: { !Strokes.allowed.contains($0.element) }) {
                return "\(card.name) has \(strokes) strokes on hole \(index + 1); strokes are \(Strokes.allowed.lowerBound) to \(Strokes.allowed.upperBound)"
            }
        }
        return nil
    }

    public var holes: [Hole] { pars.enumerated().map { Hole(number: $0.offset + 1, par: $0.element) } }

    /// The scores in the order they are played: hole by hole, each hole in the players' order.
    public var plays: [(hole: Int, player: String, strokes: Int)] {
        pars.indices.flatMap { index in players.map { (hole: index + 1, player: $0.name, strokes: $0.strokes[index]) } }
    }

    /// The complication transfers `mode` spends on this round for a watch worn by `wearer` (the
    /// leader's watch when nil): the standings after each score, then the finish, through the
    /// policy, as the phone does.
    public func complicationTransfers(_ mode: ComplicationPolicy.Mode, wearer: String?) throws -> [ComplicationPolicy.Reason] {
        let course = try Course(name: self.course, holes: holes)
        let roster = players.map { Player.guest(name: $0.name) }
        let round = Round(course: course, players: roster, status: .active, createdAt: Date(timeIntervalSince1970: 0))
        let wearerID = wearer.flatMap { name in roster.first { $0.name.lowercased() == name.lowercased() }?.id }
        var policy = ComplicationPolicy(mode: mode)
        var events: [ScoreEvent] = []
        var spent: [ComplicationPolicy.Reason] = []
        for (index, play) in plays.enumerated() {
            let player = roster.first { $0.name == play.player }!
            events.append(try ScoreEvent(roundID: round.id, playerID: player.id, hole: play.hole, strokes: play.strokes,
                                         reportedByPlayerID: player.id, deviceID: "phone", source: .tap,
                                         createdAt: Date(timeIntervalSince1970: Double(index))))
            let snapshot = RoundSnapshot(round: round, events: events)
            if let sent = policy.consider(ComplicationContent(round: snapshot, wearer: wearerID)) { spent.append(sent.reason) }
        }
        if let sent = policy.consider(.noRound) { spent.append(sent.reason) }  // the round finished
        return spent
    }
}

public struct RecordedRoundError: Error, Sendable, Hashable, CustomStringConvertible {
    public let path: String
    public let problem: String

    public var description: String { "\(path): not a recorded round: \(problem)." }
}
