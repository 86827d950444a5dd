import Foundation
import HubCore
import HyzerKit
import HyzerLink
import HyzerHarness

extension Figures {
    /// A correction entered on the phone → the new standings pushed to a paired watch, in a round
    /// that already holds `events` events (4 players × 18 holes, the rest earlier corrections).
    /// The ratio of the figure at 20,000 events to the one at 100 is how flat a score's cost is.
    static func scoreToPush(_ context: BenchContext, events: Int) throws -> Samples {
        let home = try context.scratch("flat-\(events)")
        let paths = HyzerPaths(home: home)
        let hub = try Hub.open(paths: paths)
        let names = ["Ann", "Ben", "Cat", "Dan"]
        let round = try hub.startRound(course: "Maple Hill", players: names)
        var leaf: [ScoreKey: UUID] = [:]
        var log: [ScoreEvent] = []
        log.reserveCapacity(events)
        for index in 0..<events {
            let player = round.players[index % names.count], hole = (index / names.count) % 18 + 1
            let key = ScoreKey(playerID: player.id, hole: hole)
            let event = try ScoreEvent(roundID: round.id, playerID: player.id, hole: hole, strokes: 2 + index % 4, supersedesEventID: leaf[key],
                                       reportedByPlayerID: round.players[0].id, deviceID: Hub.phoneDeviceID, source: .tap, createdAt: Date())
            leaf[key] = event.id
            log.append(event)
        }
        for start in stride(from: 0, to: log.count, by: 5_000) { try hub.append(batch: Array(log[start..<min(start + 5_000, log.count)])) }
        _ = try PairingToken.loadOrCreate(at: paths.pairingToken)
        let server = try context.serve(home)
        defer { server.terminate() }
        let watch = try WatchObserver(paths: paths, deviceID: "bench-watch")
        defer { watch.stop() }
        try watch.waitUntilPaired()
        var index = 0
        return try measure(context.n(200, quick: 10), warmup: 5, pause: 0.02) {
            watch.expectNextChange()
            // Each key's value moves on by one at every visit, so every correction changes what counts
            // (one to the strokes that already count records nothing, and pushes nothing).
            let keys = names.count * 18
            try hub.correct(player: names[index % names.count], strokes: 2 + (index % names.count + 1 + index / keys) % 4,
                            hole: (index / names.count) % 18 + 1)
            index += 1
            try watch.wait(timeout: 5, "no push after a correction on the phone")
        }
    }

    static func flatness(_ context: BenchContext) throws -> [Figure] {
        let small = try scoreToPush(context, events: 100)
        let large = try scoreToPush(context, events: context.n(20_000, quick: 2_000))
        let ratio = large.p50 / small.p50
        return [
            time("score on the phone → push seen by a paired watch, round at 100 events", small, limit: nil, seeds: "< 5 s", target: "—", meets: true,
                 note: "4 players × 18 holes and corrections; real hyzer-hub serve, a watch session over the Unix socket; 20 ms apart"),
            Figure(name: "the same, round at \(context.n(20_000, quick: 2_000).formatted()) events (flatness: ÷ the figure at 100)", unit: "seconds",
                   p50: large.p50, p99: large.p99, iterations: large.count, limitName: "the same at 100 events", limit: small.p50, ratio: ratio,
                   seedsBudget: "—", target: "≤ 1.3×", meetsTarget: ratio <= 1.3, note: nil),
        ]
    }
}

extension Figures {
    /// A score committed on the phone → the last of `watches` paired watches shows it.
    static func fanOut(_ context: BenchContext, watches count: Int) throws -> Samples {
        let home = try context.scratch("fanout-\(count)")
        let paths = HyzerPaths(home: home)
        let hub = try Hub.open(paths: paths)
        let names = ["Ann", "Ben", "Cat", "Dan"]
        try hub.startRound(course: "Maple Hill", players: names)
        for name in names { try hub.score(player: name, strokes: 3, hole: 1) }  // the scores the measured corrections replace
        _ = try PairingToken.loadOrCreate(at: paths.pairingToken)
        let server = try context.serve(home)
        defer { server.terminate() }
        let observers = try (0..<count).map { index in
            try WatchObserver(paths: HyzerPaths(home: try context.scratch("fanout-\(count)-watch-\(index)")), deviceID: "watch-\(index)", hub: paths)
        }
        defer { observers.forEach { $0.stop() } }
        for observer in observers { try observer.waitUntilPaired() }
        var index = 0
        return try measure(context.n(100, quick: 5), warmup: 3, pause: 0.05) {
            observers.forEach { $0.expectNextChange() }
            // 3, then 2 and 4 in turn: every correction changes what counts.
            try hub.correct(player: names[index % names.count], strokes: 2 + 2 * (index / names.count % 2), hole: 1)
            index += 1
            for observer in observers { try observer.wait(timeout: 10, "a paired watch saw no push after a score") }
        }
    }

    static func fanOut(_ context: BenchContext) throws -> [Figure] {
        let one = try fanOut(context, watches: 1)
        let many = context.n(50, quick: 5)
        let fifty = try fanOut(context, watches: many)
        let ratio = fifty.p50 / one.p50
        return [
            time("fan-out: score on the phone → one paired watch shows it", one, limit: nil, seeds: "—", target: "—", meets: true,
                 note: "real hyzer-hub serve, watch sessions over the Unix socket, 50 ms apart"),
            Figure(name: "fan-out: the same → the last of \(many) paired watches shows it", unit: "seconds", p50: fifty.p50, p99: fifty.p99,
                   iterations: fifty.count, limitName: "one watch", limit: one.p50, ratio: ratio, seedsBudget: "—", target: "≤ 3× one watch",
                   meetsTarget: ratio <= 3, note: "the \(many) watch sessions run in the bench's own process"),
        ]
    }
}
