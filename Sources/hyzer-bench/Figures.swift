#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GRDB
import HubCore
import HyzerKit
import HyzerLink
import HyzerHarness
import NIOConcurrencyHelpers
import NIOCore
import WatchCore

/// One row of the budget table.
struct Figure: Encodable {
    let name: String
    /// "seconds", "events/s", "% of a core", "MB".
    let unit: String
    let p50: Double
    let p99: Double?
    let iterations: Int
    let limitName: String?
    let limit: Double?
    /// How far from the physical limit: figure ÷ limit for times, limit ÷ figure for rates.
    let ratio: Double?
    let seedsBudget: String
    let target: String
    let meetsTarget: Bool
    let note: String?

    /// A physical limit measured in the run: a row of its own, next to nothing.
    static func limit(_ name: String, _ samples: Samples) -> Figure {
        Figure(name: "limit: \(name)", unit: "seconds", p50: samples.p50, p99: samples.p99, iterations: samples.count,
               limitName: nil, limit: nil, ratio: nil, seedsBudget: "—", target: "—", meetsTarget: true, note: nil)
    }

    static func limit(_ name: String, rate: Double, unit: String, iterations: Int) -> Figure {
        Figure(name: "limit: \(name)", unit: unit, p50: rate, p99: nil, iterations: iterations,
               limitName: nil, limit: nil, ratio: nil, seedsBudget: "—", target: "—", meetsTarget: true, note: nil)
    }
}

/// Where the bench works: a temporary folder, and the built executables next to this one.
struct BenchContext {
    let directory: URL
    let binDirectory: URL
    let quick: Bool

    func n(_ full: Int, quick small: Int) -> Int { quick ? small : full }

    /// Starts `hyzer-hub serve` (from the bench's build folder) on `home` and returns once it listens.
    func serve(_ home: URL) throws -> RunningProcess {
        let server = try RunningProcess.start(binDirectory.appendingPathComponent("hyzer-hub").path,
                                              ["--home", home.path, "serve", "--log-level", "error"])
        guard server.waitForOutput(containing: "serving on", timeout: .seconds(30)) else {
            server.terminate()
            throw BenchError("hyzer-hub serve did not start on \(home.path)")
        }
        return server
    }

    func scratch(_ name: String) throws -> URL {
        let url = directory.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

enum Figures {
    // MARK: Watch

    /// Crown detent → haptic recorded, through WatchSession (reducer, effects, haptic log writer).
    static func crownToHaptic(_ context: BenchContext, lineWrite: Samples) throws -> Figure {
        let home = try context.scratch("crown")
        let session = try WatchSession(configuration: WatchConfiguration(paths: HyzerPaths(home: home), deviceID: "bench"))
        session.send(.snapshot(sampleSnapshot(players: 6)))
        session.send(.tap(WatchLayout.rowFrame(slot: 0, size: .mm45).center))
        // From the input's timestamp to the haptic's line written to haptics.jsonl (the log's own
        // latencyMicros stops just before the write).
        var up = true
        let samples = measure(context.n(20_000, quick: 500), warmup: 100) {
            session.send(.crown(detents: up ? 1 : -1), inputTime: .now)
            up.toggle()
        }
        return time("crown detent → haptic logged", samples, limit: ("write() of a 100-byte line", lineWrite.p50),
                     seeds: "< 50 ms", target: "p99 < 250 µs", meets: samples.p99 < 250e-6)
    }

    /// Crown detent → a frame showing the new value: the reducer plus the layout of the next frame.
    static func crownToFrame(_ context: BenchContext) throws -> Figure {
        let home = try context.scratch("frame")
        let session = try WatchSession(configuration: WatchConfiguration(paths: HyzerPaths(home: home), deviceID: "bench"))
        session.send(.snapshot(sampleSnapshot(players: 6)))
        session.send(.tap(WatchLayout.rowFrame(slot: 0, size: .mm45).center))
        var up = true
        let samples = measure(context.n(5_000, quick: 200)) {
            session.send(.crown(detents: up ? 1 : -1))
            up.toggle()
            _ = session.frame(measurer: .estimate)
        }
        return time("crown detent → next frame's display list", samples, limit: ("one display refresh (60 Hz)", 1.0 / 60),
                     seeds: "—", target: "next frame, p99 < 17 ms", meets: samples.p99 < 0.017,
                     note: "display list only; SDL draws it in ~0.1–0.4 ms (not measured here); frames are paced at 60 Hz")
    }

    /// Save → outbox fsync → hub commit → ack → new standings.json seen by the watch.
    ///
    /// Scored as on a course: four players in turn, hole after hole (each score a new {player,
    /// hole}); after 18 holes the bench starts a fresh round, untimed.
    ///
    /// The limit's two syncs are measured in blocks between the saves' (50 saves, then 35 pairs
    /// of syncs, and so on; every sync 20 ms after the one before, as the saves are), so both fall
    /// on the same minutes, as the first-frame figure takes turns with its C programs: this disk's
    /// sync time moves from one minute to the next, and measured once before the figure it would
    /// fall on another minute than the saves. (Taking turns one by one would space each kind's
    /// syncs 40 ms apart, and a sync after a longer idle costs more.)
    ///
    /// The phone's face follows the same chain: a page connected to `serve`'s `/live` WebSocket
    /// (`PageObserver`) is timed from the same Save to the state carrying those standings.
    static func saveToSnapshot(_ context: BenchContext, socketRoundTrip: Double) throws -> [Figure] {
        let syncs = try PhysicalLimits.ChainSyncs(in: try context.scratch("save-limit"))
        let home = try context.scratch("save")
        let paths = HyzerPaths(home: home)
        let hub = try Hub.open(paths: paths)
        let names = ["Ann", "Ben", "Cat", "Dan"]
        try hub.startRound(course: "Maple Hill", players: names)
        _ = try PairingToken.loadOrCreate(at: paths.pairingToken)
        let server = try context.serve(home)
        defer { server.terminate() }
        guard server.waitForOutput(containing: "phone's face on ", timeout: .seconds(30)),
              let url = server.lines.first(where: { $0.hasPrefix("hyzer-hub phone's face on ") })?.split(separator: " ").dropFirst(4).first else {
            throw BenchError("hyzer-hub serve did not say where the phone's face is")
        }
        let page = PageObserver(url: String(url))
        defer { page.stop() }

        let watch = try WatchObserver(paths: paths, deviceID: "bench-watch")
        let session = watch.session
        func waitUntil(_ what: String, _ condition: () -> Bool) throws {
            let deadline = ContinuousClock.now + .seconds(15)
            while !condition() {
                if ContinuousClock.now > deadline { throw BenchError("timed out waiting for \(what)") }
                usleep(1_000)
            }
        }
        try watch.waitUntilPaired()

        var saves = 0
        // The figure is timed from the Save to the standings shown, not around the whole
        // iteration: starting the next round (every 72 saves) is not part of the chain.
        var chain = Samples(), enqueued = Samples(), toAck = Samples(), toSeen = Samples(), limitSyncs = Samples(), toPage = Samples()
        let warmup = 3
        _ = try measure(context.n(300, quick: 20), warmup: warmup, pause: 0.02) {
            if saves > 0 && saves % (names.count * 18) == 0 {
                try hub.finishRound(force: true)
                let round = try hub.startRound(course: "Maple Hill", players: names)
                try waitUntil("the new round on the watch") { session.current.round?.id == round.id }
                usleep(20_000)
            }
            let name = names[saves % names.count]
            saves += 1
            guard let row = session.current.round?.standings.firstIndex(where: { $0.name == name }) else { throw BenchError("\(name) is not on the watch") }
            session.send(.tap(WatchLayout.rowFrame(slot: Double(row), size: .mm45).center))
            watch.expectNextChange()
            // The timed part starts here in spirit; tapping costs microseconds.
            let before = ContinuousClock.now
            session.send(.save)
            let saved = ContinuousClock.now
            enqueued.add(before.duration(to: saved))
            try watch.wait(timeout: 5, "no new snapshot after a save")
            let seen = ContinuousClock.now
            chain.add(before.duration(to: seen))
            toSeen.add(saved.duration(to: seen))
            guard let sequence = session.current.snapshot?.sequence, let shown = page.shown(atLeast: sequence, timeout: .seconds(5)) else {
                throw BenchError("the phone's page did not show the standings the watch saw")
            }
            toPage.add(before.duration(to: shown))
            // From the Save's start: the hub can ack before the Save's own sync has returned.
            if let acked = watch.lastAck, acked >= before { toAck.add(before.duration(to: acked)) }
            // The limit's turn after every 50 saves (the warm-up's too): 35 pairs, 20 ms apart.
            if saves % context.n(50, quick: 10) == 0 {
                for _ in 0..<(context.quick ? 3 : 35) {
                    usleep(20_000)
                    let syncStart = ContinuousClock.now
                    try syncs.once()
                    limitSyncs.add(syncStart.duration(to: .now))
                }
            }
        }
        watch.stop()
        let samples = Samples(values: Array(chain.values.dropFirst(warmup)))
        let limitSamples = limitSyncs
        let limit = limitSamples.p50 + 2 * socketRoundTrip
        let pageSamples = Samples(values: Array(toPage.values.dropFirst(warmup)))
        let onPage = time("watch Save → the phone's page shows the new standings (over /live)", pageSamples,
                          limit: ("as the Save chain's: outbox append+fdatasync then SQLite commit, + socket RTT ×2", limit),
                          seeds: "< 5 s (cross-device)", target: "—", meets: true,
                          note: "the same saves; the page's state is rebuilt from the store (standings, scores, discrepancies, history) "
                              + "and sent after the watches' push; the same Save to the watch: \(formatDuration(samples.p50)) (\(formatDuration(samples.p99)))")
        return [time("watch Save → outbox fsync → hub commit → ack → new snapshot seen", samples,
                    limit: ("outbox append+fdatasync then SQLite commit, 20 ms apart, in blocks between the saves, + socket RTT ×2", limit),
                    seeds: "< 5 s", target: "p50 < 2 ms, p99 < 5 ms", meets: samples.p50 < 0.002 && samples.p99 < 0.005,
                    note: "saves 20 ms apart, 4 players hole by hole, real hyzer-hub serve over the Unix socket; p50 (p99) of its parts: "
                        + "the Save (outbox append + fdatasync) \(formatDuration(enqueued.p50)) (\(formatDuration(enqueued.p99))), "
                        + "saved → the new standings shown (send, commit with its sync, push) \(formatDuration(toSeen.p50)) (\(formatDuration(toSeen.p99))), "
                        + "the Save → the ack back (the hub sends it after the push) \(formatDuration(toAck.p50)) (\(formatDuration(toAck.p99))); "
                        + "the limit's two syncs \(formatDuration(limitSamples.p50)) (\(formatDuration(limitSamples.p99))), \(limitSamples.count) pairs in all, \(context.quick ? 3 : 35) after every \(context.n(50, quick: 10)) saves"),
                onPage]
    }

    /// Spawn → first frame of a headless watch, against a C SDL program's first frame (the
    /// physical limit of starting SDL), and against a C program drawing a leaderboard's text
    /// with the same fonts (the limit for a face).
    static func startToFirstFrame(_ context: BenchContext) throws -> [Figure] {
        let home = try context.scratch("start")
        let watch = [context.binDirectory.appendingPathComponent("hyzer-watch").path, "--home", home.path, "--headless", "--report-first-frame"]
        let iterations = context.n(21, quick: 3)
        let scratch = try context.scratch("c-sdl")
        let fonts = ["DejaVu Sans", "DejaVu Sans:bold", "DejaVu Sans Mono:bold"].compactMap(CReference.fontFile)
        let reference = try CReference.compileFirstFrame(in: scratch)
        let referenceWithText = fonts.count == 3 ? try CReference.compileFirstFrame(in: scratch, withText: fonts) : nil
        // The first start of a new home asks fontconfig (and keeps the answer): not timed.
        let first = try RunningProcess.start(watch[0], Array(watch.dropFirst()))
        guard first.firstFrameTime(timeout: .seconds(20)) != nil else { throw BenchError("hyzer-watch drew no first frame") }
        let sharedRuntime = ProcStat.loadsSharedSwiftRuntime(pid: first.pid)
        first.terminate()
        // The three programs take turns, start after start, so a busier moment of this shared
        // machine falls on all three alike rather than on one program's whole series.
        var samples = Samples(), limit = Samples(), limitWithText = Samples()
        for _ in 0..<iterations {
            guard let drawn = try CReference.firstFrame(watch) else { throw BenchError("hyzer-watch drew no first frame") }
            samples.add(drawn)
            if let reference, let seconds = try CReference.firstFrame(reference) { limit.add(seconds) }
            if let referenceWithText, let seconds = try CReference.firstFrame(referenceWithText) { limitWithText.add(seconds) }
        }
        let build = switch sharedRuntime {
        case false?: "; the Swift runtime linked in (--static-swift-stdlib)"
        case true?: "; the Swift runtime loaded as shared objects: build with swift build -c release --static-swift-stdlib for the release figure (about 10 ms less)"
        case nil: ""
        }
        let limitP50 = limit.isEmpty ? nil : limit.p50
        return [
            time("headless watch start → first frame", samples, limit: limitP50.map { ("a C SDL program's first frame", $0) },
                 seeds: "< 2 s", target: "< 100 ms; ≤ 2× C SDL", meets: samples.p99 < 0.1 && samples.p50 <= 2 * (limitP50 ?? .infinity),
                 note: (limitP50 == nil ? "no C compiler: limit not measured" : "\(iterations) starts of a home that has started once, taking turns with the C programs'") + build),
            time("the same against a C SDL program drawing a leaderboard's text", samples,
                 limit: limitWithText.isEmpty ? nil : ("C: SDL_ttf, the 3 fonts, 13 text runs", limitWithText.p50), seeds: "—", target: "—", meets: true,
                 note: limitWithText.isEmpty ? "no C compiler or fonts: limit not measured" : nil),
        ]
    }

    /// Idle CPU of a serving hub and of the headless watch paired with it (a round in play,
    /// heartbeats on), and the watch's resident memory.
    static func idle(_ context: BenchContext) throws -> [Figure] {
        let home = try context.scratch("idle")
        let paths = HyzerPaths(home: home)
        let hub = try Hub.open(paths: paths)
        try hub.startRound(course: "Maple Hill", players: ["Ann", "Ben", "Cat", "Dan"])
        let server = try context.serve(home)
        defer { server.terminate() }
        let watch = try RunningProcess.start(context.binDirectory.appendingPathComponent("hyzer-watch").path,
                                             ["--home", home.path, "--headless", "--report-first-frame"])
        defer { watch.terminate() }
        guard watch.waitForOutput(containing: "first-frame", timeout: .seconds(20)) else { throw BenchError("hyzer-watch drew no first frame") }
        usleep(1_000_000)
        let window = context.quick ? 1.0 : 10.0
        let before = (watch: ProcStat.cpuSeconds(pid: watch.pid), hub: ProcStat.cpuSeconds(pid: server.pid))
        let started = ContinuousClock.now
        usleep(UInt32(window * 1e6))
        let elapsed = started.duration(to: .now).seconds
        let cpu = (ProcStat.cpuSeconds(pid: watch.pid) - before.watch) / elapsed * 100
        let hubCPU = (ProcStat.cpuSeconds(pid: server.pid) - before.hub) / elapsed * 100
        let rss = ProcStat.residentMegabytes(pid: watch.pid)
        return [
            Figure(name: "hub idle CPU (\(Int(window)) s, serve, a round in play, one watch paired, heartbeats every 1 s)",
                   unit: "% of a core", p50: hubCPU, p99: nil, iterations: 1, limitName: "nothing to do", limit: 0, ratio: nil,
                   seedsBudget: "—", target: "< 0.5 %", meetsTarget: hubCPU < 0.5, note: nil),
            Figure(name: "watch idle CPU (\(Int(window)) s, paired, heartbeats every 1 s)", unit: "% of a core", p50: cpu, p99: nil,
                   iterations: 1, limitName: "nothing to do", limit: 0, ratio: nil, seedsBudget: "—", target: "< 1 %",
                   meetsTarget: cpu < 1, note: nil),
            Figure(name: "watch resident memory", unit: "MB", p50: rss, p99: nil, iterations: 1, limitName: nil, limit: nil, ratio: nil,
                   seedsBudget: "—", target: "< 60 MB", meetsTarget: rss < 60, note: nil),
        ]
    }

    // MARK: Standings

    /// A finished round's log: `count` players × 18 holes, and `correctionsPerPlayer` corrections each.
    static func standingsInput(players count: Int, correctionsPerPlayer: Int) -> (events: [ScoreEvent], holes: [Hole], players: [Player]) {
        let players = (0..<count).map { Player(id: "p\($0)", name: "Player \($0)") }
        let holes = (1...18).map { Hole(number: $0, par: [3, 3, 4, 3, 5][$0 % 5]) }
        var events: [ScoreEvent] = []
        let round = UUID()
        for player in players {
            var byHole: [Int: ScoreEvent] = [:]
            for hole in holes {
                let event = try! ScoreEvent(roundID: round, playerID: player.id, hole: hole.number, strokes: 2 + (hole.number + player.id.count) % 4,
                                            reportedByPlayerID: player.id, deviceID: "phone", source: .tap, createdAt: Date())
                byHole[hole.number] = event
                events.append(event)
            }
            for correction in 0..<correctionsPerPlayer {
                let hole = correction * 5 + 1
                let event = try! ScoreEvent(roundID: round, playerID: player.id, hole: hole, strokes: 3, supersedesEventID: byHole[hole]!.id,
                                            reportedByPlayerID: player.id, deviceID: "phone", source: .tap, createdAt: Date())
                events.append(event)
            }
        }
        return (events, holes, players)
    }

    static func standings(_ context: BenchContext, players count: Int, correctionsPerPlayer: Int) -> Figure {
        let (events, holes, players) = standingsInput(players: count, correctionsPerPlayer: correctionsPerPlayer)
        let iterations = count > 100 ? context.n(40, quick: 5) : context.n(20_000, quick: 500)
        let samples = measure(iterations) {
            let standings = StandingsEngine.standings(events: events, holes: holes, players: players, currentHole: 7)
            precondition(standings.count == count)
        }
        let big = count > 100
        return time("standings recompute, \(count) players × 18 holes\(correctionsPerPlayer > 0 ? ", \(correctionsPerPlayer) corrections each" : "")",
                    samples, limit: nil, seeds: big ? "—" : "~20 ms", target: big ? "< 20 ms" : "< 50 µs",
                    meets: big ? samples.p50 < 0.020 : samples.p50 < 50e-6, note: "\(events.count) events")
    }

    /// The standings push as the link carries it: one frame of JSON for a round of 4 players
    /// halfway through 18 holes, encoded as the hub sends it and decoded as the watch reads it.
    /// Both sit on the Save chain once each (the hub encodes a change once for all its watches).
    static func pushFrame(_ context: BenchContext) throws -> [Figure] {
        let (events, holes, players) = standingsInput(players: 4, correctionsPerPlayer: 0)
        let round = Round(id: events[0].roundID, course: try Course(name: "Maple Hill", holes: holes), players: players,
                          status: .active, createdAt: Date())
        let halfway = events.filter { $0.hole <= 9 }
        let snapshot = StandingsSnapshot(hubID: UUID().uuidString, sequence: 1_000, lastUpdatedAt: Date(),
                                         round: RoundSnapshot(round: round, events: halfway))
        let message = LinkMessage.standings(snapshot)
        let frame = try LinkFrame.encode(message)
        let iterations = context.n(5_000, quick: 200)
        let encoding = try measure(iterations) { _ = try LinkFrame.encode(message) }
        let decoding = try measure(iterations) {
            var buffer = ByteBuffer(bytes: frame)
            guard case .standings = try LinkFrame.decode(from: &buffer, maxFrameBytes: LinkProtocol.maxFrameBytes) else {
                throw BenchError("the standings frame did not decode")
            }
        }
        let note = "\(frame.count) bytes; 4 players, 9 of 18 holes scored"
        return [
            time("standings push frame → JSON (the hub, once a change, for every paired watch)", encoding, limit: nil, seeds: "—", target: "—", meets: true, note: note),
            time("standings push frame ← JSON (the watch)", decoding, limit: nil, seeds: "—", target: "—", meets: true, note: note),
        ]
    }

    // MARK: Hub ingest

    static func ingestOnePerCommit(_ context: BenchContext, commit: Samples) throws -> Figure {
        let count = context.n(3_000, quick: 200)
        let (hub, round) = try ingestHub(context, name: "ingest-single", players: count / 18 + 1)
        let events = ingestEvents(round, count: count)
        var index = 0
        let start = ContinuousClock.now
        let samples = try measure(events.count, warmup: 0) {
            try hub.append(events[index], exportingSnapshot: false)
            index += 1
        }
        let rate = Double(events.count) / start.duration(to: .now).seconds
        // Rate against rate: the commits' sustained rate over their whole run, checkpoints included,
        // as the hub's own is measured.
        let limitRate = 1 / commit.mean
        let schemaFloor = try scoreEventCommitsPerSecond(context, count: count)
        return Figure(name: "durable hub ingest, one event per commit", unit: "events/s", p50: rate, p99: nil, iterations: events.count,
                      limitName: "SQLite WAL commits/s (synchronous=FULL), 1 ÷ the mean back-to-back commit", limit: limitRate, ratio: limitRate / rate,
                      seedsBudget: "—", target: "≥ 5,000 events/s", meetsTarget: rate >= 5_000,
                      note: "\(round.players.count) players; per event p50 \(formatDuration(samples.p50)), p99 \(formatDuration(samples.p99)) "
                          + "against a bare commit's p50 \(formatDuration(commit.p50)) (\(String(format: "%.1f", samples.p50 / commit.p50))×). "
                          + "SQLite alone committing the same rows one per commit into the hub's own tables (the row and the change sequence's bump; "
                          + "values prepared): \(Int(schemaFloor.rounded()).formatted())/s, so the hub runs at \(Int((rate / schemaFloor * 100).rounded())) % of it")
    }

    static func ingestBatched(_ context: BenchContext, rowsPerSecond: Double) throws -> Figure {
        let count = context.n(18_000, quick: 1_800)
        // One batch is short: the median of three, each into a new hub.
        var rates: [Double] = [], cpus: [Double] = [], elapsed: [Double] = []
        var players = 0
        for run in 0..<context.n(3, quick: 1) {
            let (hub, round) = try ingestHub(context, name: "ingest-batch-\(run)", players: count / 18)
            let events = ingestEvents(round, count: count)
            let cpuBefore = ProcStat.cpuSeconds(pid: getpid())
            let start = ContinuousClock.now
            try hub.append(batch: events)
            elapsed.append(start.duration(to: .now).seconds)
            cpus.append(ProcStat.cpuSeconds(pid: getpid()) - cpuBefore)
            rates.append(Double(events.count) / elapsed.last!)
            players = round.players.count
        }
        let median = rates.indices.sorted { rates[$0] < rates[$1] }[rates.count / 2]
        let rate = rates[median]
        let schemaFloor = try scoreEventRowsPerSecond(context, count: count)
        return Figure(name: "durable hub ingest, batched (one transaction)", unit: "events/s", p50: rate, p99: nil, iterations: count,
                      limitName: "SQLite rows/s in one transaction, the median of 3", limit: rowsPerSecond, ratio: rowsPerSecond / rate,
                      seedsBudget: "—", target: "≥ 100,000 events/s", meetsTarget: rate >= 100_000,
                      note: "\(players) players × 18 holes, the median of \(rates.count) batch\(rates.count == 1 ? "" : "es") (\(rates.map { Int($0.rounded()).formatted() }.joined(separator: ", ")) events/s), "
                          + "each into a new hub; includes validation, classification and one snapshot export; "
                          + "CPU \(String(format: "%.2f", cpus[median])) s of \(String(format: "%.2f", elapsed[median])) s elapsed (the rest waits on the disk). "
                          + "SQLite alone inserting the same rows into the hub's own score_event table (its unique id and its one secondary index, "
                          + "time-ordered UUID ids as the hub makes them; values prepared, bound through GRDB): \(Int(schemaFloor.rounded()).formatted()) rows/s, "
                          + "so the hub runs at \(Int((rate / schemaFloor * 100).rounded())) % of its schema's own floor")
    }

    /// Rows per second SQLite inserts into the hub's own `score_event` table in one transaction,
    /// every value made before the clock starts: the real schema (the unique id, one secondary
    /// index, time-ordered UUID ids as the hub makes them) through a second connection to a real hub's
    /// file. What these rows cost SQLite itself, as the bare-table limit is for rows in general.
    static func scoreEventRowsPerSecond(_ context: BenchContext, count: Int) throws -> Double {
        let (queue, rows) = try scoreEventRows(context, name: "limit-score-rows", players: count / 18, count: count)
        let start = ContinuousClock.now
        try queue.write { db in
            let statement = try db.makeStatement(sql: insertScoreEvent)
            for row in rows { try statement.execute(arguments: row) }
        }
        return Double(rows.count) / start.duration(to: .now).seconds
    }

    /// The same rows, one per synced commit with the change sequence's bump (what every hub
    /// commit holds): what SQLite itself sustains on the hub's tables, one event at a time.
    static func scoreEventCommitsPerSecond(_ context: BenchContext, count: Int) throws -> Double {
        let (queue, rows) = try scoreEventRows(context, name: "limit-score-commits", players: count / 18 + 1, count: count)
        let start = ContinuousClock.now
        for row in rows {
            try queue.write { db in
                try db.cachedStatement(sql: insertScoreEvent).execute(arguments: row)
                try db.cachedStatement(sql: "UPDATE hub_meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'sequence'").execute()
            }
        }
        return Double(rows.count) / start.duration(to: .now).seconds
    }

    private static let insertScoreEvent = """
        INSERT INTO score_event (id, roundID, playerID, hole, strokes, supersedesEventID, reportedByPlayerID, deviceID, source, createdAt, receivedAt)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// A real hub's file with a round of `players` in play, opened through a second connection
    /// (synced commits), and `count` score rows for it, every value made: the rows the ingest
    /// figures append, for the same number of players.
    private static func scoreEventRows(_ context: BenchContext, name: String, players: Int, count: Int) throws -> (DatabaseQueue, [StatementArguments]) {
        let (hub, round) = try ingestHub(context, name: name, players: players)
        let received = HyzerJSON.formatTimestamp(Date())
        let rows: [StatementArguments] = ingestEvents(round, count: count).map { event in
            [event.id.uuidString, event.roundID.uuidString, event.playerID, event.hole, event.strokes, nil as String?,
             event.reportedByPlayerID, event.deviceID, event.source.rawValue, HyzerJSON.formatTimestamp(event.createdAt), received]
        }
        guard let path = hub.paths?.database.path else { throw BenchError("the bench's hub has no database file") }
        let queue = try DatabaseQueue(path: path)
        try HubDatabase.syncEveryCommit(queue)
        return (queue, rows)
    }

    static func ingestHub(_ context: BenchContext, name: String, players: Int) throws -> (Hub, Round) {
        let hub = try Hub.open(paths: HyzerPaths(home: try context.scratch(name)))
        let round = try hub.startRound(course: "Maple Hill", players: (1...players).map { "Player \($0)" })
        return (hub, round)
    }

    /// One score for each {player, hole}, hole by hole, as a league night's scores arrive.
    static func ingestEvents(_ round: Round, count: Int) -> [ScoreEvent] {
        (0..<count).map { index in
            let player = round.players[index % round.players.count]
            let hole = (index / round.players.count) % round.holeCount + 1
            return try! ScoreEvent(roundID: round.id, playerID: player.id, hole: hole, strokes: 2 + index % 4,
                                   reportedByPlayerID: player.id, deviceID: "bench", source: .crown, createdAt: Date())
        }
    }

    // MARK: Helpers

    static func time(_ name: String, _ samples: Samples, limit: (String, Double)?, seeds: String, target: String, meets: Bool, note: String? = nil) -> Figure {
        Figure(name: name, unit: "seconds", p50: samples.p50, p99: samples.p99, iterations: samples.count, limitName: limit?.0,
               limit: limit?.1, ratio: limit.map { samples.p50 / $0.1 }, seedsBudget: seeds, target: target, meetsTarget: meets, note: note)
    }

    static func sampleSnapshot(players: Int) -> StandingsSnapshot {
        let holes = (1...18).map { Hole(number: $0, par: 3) }
        let standings = (0..<players).map {
            Standing(playerID: "p\($0)", name: "Player \($0)", position: $0 + 1, tied: false, totalStrokes: 10 + $0, holesPlayed: 3,
                     scoreRelativeToPar: $0 + 1, currentHoleStrokes: nil, discrepancy: false)
        }
        return StandingsSnapshot(hubID: "bench", sequence: 1, lastUpdatedAt: Date(), round: RoundSnapshot(
            id: UUID(), courseName: "Bench", status: .active, currentHole: 4, holeCount: 18, holes: holes, standings: standings))
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
