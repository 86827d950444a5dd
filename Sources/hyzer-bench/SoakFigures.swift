import Foundation
import HubCore
import HyzerKit
import HyzerLink
import HyzerHarness

extension Figures {
    /// `--soak`: scores entered on the phone at `rate` a second for `duration` seconds (6 players ×
    /// 18 holes, then corrections), each waited for on a paired watch, against a real `hyzer-hub
    /// serve`. Reports what got through and how long a score took to reach the watch in the first
    /// and the last minute, and how much the serving hub's memory grew.
    static func soak(_ context: BenchContext, duration: TimeInterval, rate: Double, progress: (String) -> Void) throws -> [Figure] {
        let home = try context.scratch("soak")
        let paths = HyzerPaths(home: home)
        let hub = try Hub.open(paths: paths)
        let names = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
        try hub.startRound(course: "Maple Hill", players: names)
        _ = try PairingToken.loadOrCreate(at: paths.pairingToken)
        let server = try context.serve(home)
        defer { server.terminate() }
        let watch = try WatchObserver(paths: HyzerPaths(home: try context.scratch("soak-watch")), deviceID: "soak-watch", hub: paths)
        defer { watch.stop() }
        try watch.waitUntilPaired()

        // The first minute is the start; a shorter soak compares its first and last sixths.
        let window = min(60, duration / 6)
        var done: [(at: Double, latency: Double)] = []
        var memory: (start: Double, end: Double) = (0, 0)
        var cpu: (start: Double, end: Double) = (0, 0)
        let period = 1 / rate
        let started = ContinuousClock.now
        var next = 0.0, index = 0, lastReport = 0.0
        while true {
            let elapsed = started.duration(to: .now).seconds
            if elapsed >= duration { break }
            if next > elapsed { usleep(UInt32((next - elapsed) * 1e6)) }
            let keys = names.count * 18
            let name = names[index % names.count], hole = (index / names.count) % 18 + 1
            watch.expectNextChange()
            let before = ContinuousClock.now
            if index < keys {
                try hub.score(player: name, strokes: 2 + index % 4, hole: hole)
            } else {
                try hub.correct(player: name, strokes: 2 + (index / keys + index) % 4, hole: hole)
            }
            try watch.wait(timeout: 10, "no push after a score on the phone")
            let at = started.duration(to: .now).seconds
            done.append((at, before.duration(to: .now).seconds))
            index += 1
            // Behind schedule: the next score goes at once, so a slower hub shows as lower throughput.
            next = max(next + period, at - period)
            if memory.start == 0 && at >= window {
                memory.start = ProcStat.residentMegabytes(pid: server.pid)
                cpu.start = ProcStat.cpuSeconds(pid: server.pid)
            }
            if at - lastReport >= 60 {
                lastReport = at
                progress("soak: \(Int(at)) s, \(index) scores, hub \(String(format: "%.1f", ProcStat.residentMegabytes(pid: server.pid))) MB")
            }
        }
        let total = started.duration(to: .now).seconds
        memory.end = ProcStat.residentMegabytes(pid: server.pid)
        cpu.end = ProcStat.cpuSeconds(pid: server.pid)

        func samples(_ range: ClosedRange<Double>) -> Samples {
            var samples = Samples()
            for score in done where range.contains(score.at) { samples.add(score.latency) }
            return samples
        }
        let first = samples(0...window), last = samples((total - window)...total)
        let firstRate = Double(first.count) / window, lastRate = Double(last.count) / window
        let growth = memory.end - memory.start
        let cpuShare = (cpu.end - cpu.start) / max(total - window, 1) * 100
        let minutes = String(format: "%.0f", duration / 60)
        let setting = "\(minutes) min at \(String(format: "%g", rate)) scores/s offered, \(done.count) scores (\(names.count) players × 18 holes, then corrections), real hyzer-hub serve"
        return [
            Figure(name: "soak: scores through in the first \(Int(window)) s", unit: "events/s", p50: firstRate, p99: nil, iterations: first.count,
                   limitName: "offered", limit: rate, ratio: rate / firstRate, seedsBudget: "—", target: "\(String(format: "%g", rate))/s",
                   meetsTarget: firstRate >= rate * 0.95, note: setting),
            Figure(name: "soak: scores through in the last \(Int(window)) s", unit: "events/s", p50: lastRate, p99: nil, iterations: last.count,
                   limitName: "the first \(Int(window)) s", limit: firstRate, ratio: firstRate / lastRate, seedsBudget: "—", target: "flat (≥ 95 % of the start)",
                   meetsTarget: lastRate >= firstRate * 0.95, note: nil),
            time("soak: score on the phone → push seen, first \(Int(window)) s", first, limit: nil, seeds: "< 5 s", target: "—", meets: true),
            time("soak: the same, last \(Int(window)) s", last, limit: ("the first \(Int(window)) s", first.p50), seeds: "< 5 s", target: "≤ 1.3× the start",
                 meets: last.p50 <= first.p50 * 1.3),
            Figure(name: "soak: hub resident memory growth after the first \(Int(window)) s", unit: "MB", p50: growth, p99: nil, iterations: 1,
                   limitName: nil, limit: nil, ratio: nil, seedsBudget: "—", target: "< 5 MB", meetsTarget: growth < 5,
                   note: String(format: "%.1f MB → %.1f MB; hub CPU %.1f %% of a core", memory.start, memory.end, cpuShare)),
        ]
    }
}
