/// Standings from a round's event log: pure, deterministic, no clock or storage.
public enum StandingsEngine {
    /// - Parameters:
    ///   - events: the round's events in log order (the order they reached the hub).
    ///   - holes: the course's holes, for par.
    ///   - players: the round's players; events for anyone else are ignored.
    ///   - currentHole: fills `currentHoleStrokes` when given.
    /// - Returns: players ranked by `scoreRelativeToPar`, ties sharing a position (1, 2, 2, 4) and
    ///   listed by name, players with no holes last without a position.
    public static func standings(
        events: [ScoreEvent], holes: [Hole], players: [Player], currentHole: Int? = nil
    ) -> [Standing] {
        standings(ledger: ScoreLedger(events: events), holes: holes, players: players, currentHole: currentHole)
    }

    public static func standings(
        ledger: ScoreLedger, holes: [Hole], players: [Player], currentHole: Int? = nil
    ) -> [Standing] {
        var parByHole: [Int: Int] = [:]
        for hole in holes { parByHole[hole.number] = hole.par }

        struct Tally { var strokes = 0, par = 0, holes = 0, discrepancy = false, currentHoleStrokes: Int? }
        var tallies: [PlayerID: Tally] = [:]
        tallies.reserveCapacity(players.count)
        for player in players { tallies[player.id] = Tally() }

        for (key, event) in ledger.currentScores {
            guard var tally = tallies[key.playerID], let par = parByHole[key.hole] else { continue }
            tally.strokes += event.strokes
            tally.par += par
            tally.holes += 1
            if key.hole == currentHole { tally.currentHoleStrokes = event.strokes }
            tallies[key.playerID] = tally
        }
        for key in ledger.openDiscrepancies.keys where tallies[key.playerID] != nil && parByHole[key.hole] != nil {
            tallies[key.playerID]?.discrepancy = true
        }

        let ordered = players.sorted { lhs, rhs in
            let l = tallies[lhs.id]!, r = tallies[rhs.id]!
            if (l.holes > 0) != (r.holes > 0) { return l.holes > 0 }
            if l.holes > 0, l.strokes - l.par != r.strokes - r.par { return l.strokes - l.par < r.strokes - r.par }
            return nameOrder(lhs, rhs)
        }

        var countByScore: [Int: Int] = [:]
        for player in players {
            let tally = tallies[player.id]!
            if tally.holes > 0 { countByScore[tally.strokes - tally.par, default: 0] += 1 }
        }

        var result: [Standing] = []
        result.reserveCapacity(ordered.count)
        var position = 0
        var previousScore: Int?
        for (index, player) in ordered.enumerated() {
            let tally = tallies[player.id]!
            let relative = tally.strokes - tally.par
            var rank: Int?
            if tally.holes > 0 {
                if relative != previousScore { position = index + 1 }
                previousScore = relative
                rank = position
            }
            result.append(Standing(
                playerID: player.id,
                name: player.name,
                position: rank,
                tied: tally.holes > 0 && countByScore[relative, default: 0] > 1,
                totalStrokes: tally.strokes,
                holesPlayed: tally.holes,
                scoreRelativeToPar: relative,
                currentHoleStrokes: tally.currentHoleStrokes,
                discrepancy: tally.discrepancy
            ))
        }
        return result
    }

    /// Recomputes and says what changed and why.
    public static func recompute(
        previous: [Standing], events: [ScoreEvent], holes: [Hole], players: [Player],
        currentHole: Int? = nil, trigger: StandingsChangeTrigger
    ) -> StandingsChange {
        StandingsChange(
            previousStandings: previous,
            newStandings: standings(events: events, holes: holes, players: players, currentHole: currentHole),
            trigger: trigger
        )
    }

    /// Within a tie: by name, case-insensitively, then by ID so the order never depends on input order.
    private static func nameOrder(_ lhs: Player, _ rhs: Player) -> Bool {
        let l = lhs.name.lowercased(), r = rhs.name.lowercased()
        if l != r { return l < r }
        if lhs.name != rhs.name { return lhs.name < rhs.name }
        return lhs.id < rhs.id
    }
}
