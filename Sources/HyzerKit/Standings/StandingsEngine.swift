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
        let maxHole = holes.map(\.number).max() ?? 0
        var parByHole = [Int?](repeating: nil, count: maxHole + 1)
        for hole in holes { parByHole[hole.number] = hole.par }

        /// `currentHole`: the index in the ledger's keys of the player's score on the current hole.
        struct Tally { var strokes = 0, par = 0, holes = 0, discrepancy = false, currentHole: Int?, disputes: [HoleDispute] = [] }
        var slot: [PlayerID: Int] = [:]
        slot.reserveCapacity(players.count)
        for (index, player) in players.enumerated() where slot[player.id] == nil { slot[player.id] = index }
        var tallies = [Tally](repeating: Tally(), count: players.count)

        func par(_ hole: Int) -> Int? { hole >= 1 && hole <= maxHole ? parByHole[hole] : nil }
        // Each player of the log looked up once, then every key by index.
        let playerOfLedgerPlayer = ledger.playerIDs.map { slot[$0] }
        for (keyIndex, key) in ledger.keys.enumerated() {
            guard let index = playerOfLedgerPlayer[ledger.playerOfKey[keyIndex]], let par = par(key.hole),
                  let strokes = ledger.current[keyIndex]?.strokes else { continue }
            tallies[index].strokes += strokes
            tallies[index].par += par
            tallies[index].holes += 1
            if key.hole == currentHole { tallies[index].currentHole = keyIndex }
        }
        for (key, open) in ledger.openDiscrepancies {
            guard let index = slot[key.playerID], par(key.hole) != nil else { continue }
            tallies[index].discrepancy = true
            tallies[index].disputes.append(HoleDispute(hole: key.hole, claims: open.events.map(ScoreClaim.init)))
        }

        // Sort indices on precomputed keys: played first, then relative score, then name.
        let sortNames = players.map { NameText.sortKey($0.name) }
        let order = players.indices.sorted { l, r in
            let a = tallies[l], b = tallies[r]
            if (a.holes > 0) != (b.holes > 0) { return a.holes > 0 }
            if a.holes > 0, a.strokes - a.par != b.strokes - b.par { return a.strokes - a.par < b.strokes - b.par }
            if sortNames[l] != sortNames[r] { return sortNames[l] < sortNames[r] }
            if players[l].name.lowercased() != players[r].name.lowercased() { return players[l].name.lowercased() < players[r].name.lowercased() }
            if players[l].name != players[r].name { return players[l].name < players[r].name }
            return players[l].id < players[r].id
        }

        var countByScore: [Int: Int] = [:]
        for tally in tallies where tally.holes > 0 { countByScore[tally.strokes - tally.par, default: 0] += 1 }

        var result: [Standing] = []
        result.reserveCapacity(order.count)
        var position = 0
        var previousScore: Int?
        for (rank, index) in order.enumerated() {
            let tally = tallies[index]
            let current = tally.currentHole.flatMap { ledger.current[$0] }
            let relative = tally.strokes - tally.par
            var shown: Int?
            if tally.holes > 0 {
                if relative != previousScore { position = rank + 1 }
                previousScore = relative
                shown = position
            }
            result.append(Standing(
                playerID: players[index].id,
                name: players[index].name,
                position: shown,
                tied: tally.holes > 0 && countByScore[relative, default: 0] > 1,
                totalStrokes: tally.strokes,
                holesPlayed: tally.holes,
                scoreRelativeToPar: relative,
                currentHoleStrokes: current?.strokes,
                discrepancy: tally.discrepancy,
                currentHoleEventID: current?.id,
                currentHoleDeviceID: current?.deviceID,
                disputes: tally.disputes.sorted { $0.hole < $1.hole }
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
}
