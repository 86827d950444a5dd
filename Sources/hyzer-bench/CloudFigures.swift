#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HubCloud
import HubCore
import HyzerKit
import HyzerHarness
import Logging
import NIOConcurrencyHelpers
import PostgresNIO
import WatchCore

/// The cloud's figures (docs/SYNC.md): several phones on one PostgreSQL server, each a real
/// `hyzer-hub serve`, measured next to PostgreSQL's own limits in the same run.
struct CloudBench {
    let context: BenchContext
    /// A URL whose user may create databases; each figure gets a database of its own.
    let adminURL: String
    let logger = Logger(label: "hyzer.bench.cloud")

    // MARK: PostgreSQL's limits

    /// A committed insert + pg_notify in one transaction on one connection, until a second,
    /// listening connection has the notification.
    func notifyRoundTrip(iterations: Int) throws -> Samples {
        let url = try makeDatabase("limits")
        return try awaitOnPool {
            let writer = try await self.connect(url), listener = try await self.connect(url)
            defer { Task { try? await writer.close(); try? await listener.close() } }
            try await writer.query("CREATE TABLE bench_notify (id bigserial PRIMARY KEY, payload text NOT NULL)", logger: self.logger)
            return try await listener.listen(on: "bench") { notifications in
                var iterator = notifications.makeAsyncIterator()
                var samples = Samples()
                for index in 0..<(iterations + 3) {
                    let start = ContinuousClock.now
                    _ = try await writer.withTransaction(logger: self.logger) { connection in
                        try await connection.query("INSERT INTO bench_notify (payload) VALUES ('x')", logger: self.logger)
                        try await connection.query("SELECT pg_notify('bench', 'x')", logger: self.logger)
                        return 0
                    }
                    guard try await iterator.next() != nil else { throw BenchError("the notification never came") }
                    if index >= 3 { samples.add(start.duration(to: .now)) }
                }
                return samples
            }
        }
    }

    /// Rows per second inserted in one transaction with `unnest`, in a table shaped like the
    /// cloud's events but with no trigger, check or foreign key: the server's bulk rate. The
    /// median of `runs` inserts, each into a new table (one insert's rate moved by half between
    /// runs of the bench on a busy machine), as `PhysicalLimits.sqliteBatchRowsPerSecond` does.
    func bulkInsertRate(rows: Int, runs: Int) throws -> Double {
        let url = try makeDatabase("bulk")
        return try awaitOnPool {
            let connection = try await self.connect(url)
            defer { Task { try? await connection.close() } }
            var rates = Samples()
            for run in 0..<runs {
                try await connection.query("""
                    CREATE TABLE bench_event_\(unescaped: String(run)) (id uuid PRIMARY KEY, round_id uuid, round_seq bigint, player_id text, hole int, strokes int,
                                              supersedes uuid, reported_by text, device_id text, source text, created_at text, uploaded_by text)
                    """, logger: self.logger)
                let ids = (0..<rows).map { _ in UUID() }, texts = (0..<rows).map { "p\($0 % 500)" }, numbers = (0..<rows).map { $0 % 18 + 1 }
                let round = UUID()
                let start = ContinuousClock.now
                _ = try await connection.withTransaction(logger: self.logger) { connection in
                    try await connection.query("""
                        INSERT INTO bench_event_\(unescaped: String(run)) SELECT e.id, \(round), e.ord, e.player, e.hole, e.hole % 5 + 1, NULL, e.player, 'bench', 'crown', 'now', 'bench'
                        FROM unnest(\(ids)::uuid[], \(texts)::text[], \(numbers)::bigint[]) WITH ORDINALITY AS e(id, player, hole, ord)
                        """, logger: self.logger)
                    return 0
                }
                rates.add(Double(rows) / start.duration(to: .now).seconds)
            }
            return rates.p50
        }
    }

    // MARK: Figures

    /// A score entered on phone A → the new standings on phone C's watch: A's commit, A's upload
    /// (PostgreSQL commit, NOTIFY), C's download and commit, C's push to its paired watch. Once with
    /// the watch app in front (the standings come as a live message), once with it in the
    /// background (the live message is dropped and the standings wait as the application context),
    /// and then how soon the app shows them when it comes to the front.
    func scoreToOtherWatch(limit: Double) throws -> [Figure] {
        let urls = try makeCloud("cross", phones: 2)
        // 16 players × 18 holes: a new {player, hole} for every score of the figure.
        let names = (1...16).map { "Player \($0)" }
        let organizer = try phone("cross-a", url: urls[0], player: names[0])
        try organizer.hub.startRound(course: "Maple Hill", players: names)
        let other = try phone("cross-c", url: urls[1], player: names[2])
        let servers = try [context.serve(organizer.home), context.serve(other.home)]
        defer { servers.forEach { $0.terminate() } }
        try wait("phone C to join the round") { try other.hub.roundInPlay() != nil }

        let watch = try WatchObserver(paths: other.paths, deviceID: "watch-c")
        defer { watch.stop() }
        try watch.waitUntilPaired()

        var index = 0
        func score() throws {
            try organizer.hub.score(player: names[index % names.count], strokes: 2 + index % 4, hole: index / names.count + 1)
            index += 1
        }
        let live = try measure(context.n(100, quick: 5), warmup: 3, pause: 0.05) {
            watch.expectNextChange()
            try score()
            try watch.wait(timeout: 10, "phone C's watch saw no new standings after a score on phone A")
        }
        // The watch app to the background (the watch face shows): what the phone sends is dropped
        // as a live message and kept as the application context.
        watch.expect { $0.appInBackground }
        watch.session.send(.app(foreground: false))
        try watch.wait(timeout: 5, "phone C's watch app did not go to the background")
        var toFront = Samples()
        let kept = try measure(context.n(50, quick: 3), warmup: 2, pause: 0.05) {
            watch.expectNextDrop()
            try score()
            try watch.wait(timeout: 10, "phone C's watch (in the background) was sent nothing after a score on phone A")
        } between: {
            // Not timed with the score: the app comes to the front and shows the standings it was
            // kept, then goes back.
            let start = ContinuousClock.now
            let kept = watch.session.current.snapshot?.sequence ?? 0
            watch.expect { !$0.appInBackground && ($0.snapshot?.sequence ?? 0) > kept }
            watch.session.send(.app(foreground: true))
            try watch.wait(timeout: 5, "phone C's watch app came to the front without the standings it was kept")
            toFront.add(start.duration(to: .now))
            watch.expect { $0.appInBackground }
            watch.session.send(.app(foreground: false))
            try watch.wait(timeout: 5, "phone C's watch app did not go to the background")
        }
        // The score saved on phone A's own watch instead: A's serve commits it itself (no other
        // process signals it) and must upload it at once. A's watch re-scores whoever leads.
        watch.expect { !$0.appInBackground }
        watch.session.send(.app(foreground: true))
        try watch.wait(timeout: 5, "phone C's watch app did not come to the front")
        let watchA = try WatchObserver(paths: organizer.paths, deviceID: "watch-a")
        defer { watchA.stop() }
        try watchA.waitUntilPaired()
        var saves = 0
        let fromWatch = try measure(context.n(50, quick: 3), warmup: 2, pause: 0.05) {
            watchA.session.send(.tap(WatchLayout.rowFrame(slot: 0, size: .mm45).center))
            watchA.session.send(.crown(detents: saves % 2 == 0 ? 1 : -1))
            saves += 1
            watch.expectNextChange()
            watchA.session.send(.save)
            try watch.wait(timeout: 10, "phone C's watch saw no new standings after a save on phone A's watch")
        }
        let limitName = "SQLite commit on A + PostgreSQL commit + NOTIFY round trip + SQLite commit without a sync on C, 50 ms apart + socket RTT"
        return [
            Figures.time("score on phone A → new standings on phone C's watch, app in front (a live message)", live,
                         limit: (limitName, limit), seeds: "—", target: "p50 < 50 ms", meets: live.p50 < 0.05,
                         note: "two real hyzer-hub serve processes, one cloud; scores 50 ms apart"),
            Figures.time("score on phone A → phone C's watch, app in the background, holds the new standings as its application context", kept,
                         limit: (limitName, limit), seeds: "—", target: "p50 < 50 ms", meets: kept.p50 < 0.05,
                         note: "the live message is dropped and its standings kept, as WatchConnectivity does"),
            Figures.time("phone C's watch app comes to the front → shows the standings its application context kept", toFront,
                         limit: nil, seeds: "—", target: "—", meets: true, note: "the watch session alone: no phone in the path"),
            Figures.time("a Save on phone A's watch → new standings on phone C's watch, app in front", fromWatch,
                         limit: nil, seeds: "—", target: "p50 < 50 ms", meets: fromWatch.p50 < 0.05,
                         note: "the chain above plus the Save (outbox append + fdatasync) and the watch's link to A; A's serve commits the score itself"),
        ]
    }

    /// 10,000 events scored on a phone with no cloud in reach, then uploaded in one pass; and a
    /// phone that was away for the whole round catching up in one pass. The median of `runs`
    /// catch-ups, each on a cloud of its own: one pass is one sample, and one moved by a fifth
    /// between runs of the bench.
    func catchUp(bulkRate: Double, runs: Int) throws -> [Figure] {
        // A round has at most 50 players and a phone may upload 20 scores per player and hole:
        // 28 players × 18 holes, each hole scored then corrected (a chain) 2 or 20 times.
        let players = 28, passes = context.quick ? 2 : 20  // 1,008 or 10,080 events
        let eventCount = players * 18 * passes
        var uploads = Samples(), downloads = Samples()
        for run in 0..<runs {
            let urls = try makeCloud("catchup\(run)", phones: 2)
            let offline = try phone("catchup\(run)-a", url: urls[0], player: "Player 1")
            let round = try offline.hub.startRound(course: "Maple Hill", players: (1...players).map { "Player \($0)" })
            var previous: [Int: UUID] = [:]
            let events = (0..<eventCount).map { index in
                let slot = index % (players * 18), player = round.players[slot % players]
                let event = try! ScoreEvent(roundID: round.id, playerID: player.id, hole: slot / players + 1, strokes: 2 + index % 4,
                                            supersedesEventID: previous[slot], reportedByPlayerID: player.id, deviceID: "phone-bench",
                                            source: .tap, createdAt: Date())
                previous[slot] = event.id
                return event
            }
            try offline.hub.append(batch: events)
            let late = try phone("catchup\(run)-b", url: urls[1], player: "Player 2")
            let (upload, download) = try awaitOnPool { () async throws -> (Double, Double) in
                let cloud = try await CloudConnection.connect(to: try CloudAddress(parsing: urls[0]), logger: self.logger)
                let lateCloud = try await CloudConnection.connect(to: try CloudAddress(parsing: urls[1]), logger: self.logger)
                defer { Task { await cloud.close(); await lateCloud.close() } }
                var start = ContinuousClock.now
                let uploaded = try await CloudSync.syncOnce(hub: offline.hub, cloud: cloud, player: nil, logger: self.logger).uploaded
                let upload = Double(uploaded) / start.duration(to: .now).seconds
                guard uploaded == events.count else { throw BenchError("uploaded \(uploaded) of \(events.count) events") }
                start = ContinuousClock.now
                let downloaded = try await CloudSync.syncOnce(hub: late.hub, cloud: lateCloud, player: "Player 2", autoJoin: true, logger: self.logger).downloaded
                let download = Double(downloaded) / start.duration(to: .now).seconds
                guard downloaded == events.count else { throw BenchError("downloaded \(downloaded) of \(events.count) events") }
                return (upload, download)
            }
            uploads.add(upload)
            downloads.add(download)
        }
        let which = runs == 1 ? "one catch-up" : "the median of \(runs) catch-ups, each on a new cloud"
        func figure(_ name: String, _ rate: Double, note: String) -> Figure {
            Figure(name: name, unit: "events/s", p50: rate, p99: nil, iterations: eventCount * runs, limitName: "PostgreSQL rows/s, one unnest insert",
                   limit: bulkRate, ratio: bulkRate / rate, seedsBudget: "4-hour offline recovery", target: "≥ 10,000 events/s",
                   meetsTarget: rate >= 10_000, note: note)
        }
        return [
            figure("catch-up: \(eventCount.formatted()) events scored offline, uploaded in one pass", uploads.p50,
                   note: "1,000 per call of hyzer.upload_events, each checked and numbered by the server under its round's row lock; includes reading the queue (the next call's while one is on its way) and recording each acknowledgement; \(which)"),
            figure("catch-up: a phone away for the whole round downloads \(eventCount.formatted()) events", downloads.p50,
                   note: "joins, then 2,000 per read (hyzer.events_after), each batch checked and applied in one SQLite transaction; \(which)"),
        ]
    }

    /// Score on one phone → every other phone has it, for 2, 4, 8 and 16 phones on one cloud.
    func convergenceByPhones() throws -> [Figure] {
        let counts = context.quick ? [2, 3] : [2, 4, 8, 16]
        var figures: [Figure] = []
        var base: Double?
        for count in counts {
            let urls = try makeCloud("phones\(count)", phones: count)
            let names = (1...4).map { "Player \($0)" }
            let phones = try (0..<count).map { try phone("phones\(count)-\($0)", url: urls[$0], player: names[$0 % names.count]) }
            try phones[0].hub.startRound(course: "Maple Hill", players: names)
            let servers = try phones.map { try context.serve($0.home) }
            defer { servers.forEach { $0.terminate() } }
            try wait("\(count) phones to join") { try phones.allSatisfy { try $0.hub.roundInPlay() != nil } }
            var index = 0
            // The CPU every phone and the cloud spend on the scores: each serve, and the PostgreSQL
            // backends of this cloud's database (the phones' connections).
            let database = URLComponents(string: urls[0]).map { String($0.path.dropFirst()) } ?? ""
            let busy = try servers.map(\.pid) + backends(of: database)
            let cpuBefore = busy.map(ProcStat.onCPUSeconds).reduce(0, +)
            let warmup = 2
            let samples = try measure(context.n(20, quick: 3), warmup: warmup, pause: 0.1) {
                let before = try phones.dropFirst().map { try $0.hub.currentSequence() }
                try phones[0].hub.score(player: names[index % 4], strokes: 3, hole: index / 4 + 1)
                index += 1
                let deadline = ContinuousClock.now + .seconds(20)
                for (phone, sequence) in zip(phones.dropFirst(), before) {
                    while try phone.hub.currentSequence() <= sequence {
                        if ContinuousClock.now > deadline { throw BenchError("a phone of \(count) did not converge within 20 s") }
                        usleep(300)
                    }
                }
            }
            let cpuPerScore = (busy.map(ProcStat.onCPUSeconds).reduce(0, +) - cpuBefore) / Double(samples.count + warmup)
            base = base ?? samples.p50
            let ratio = samples.p50 / (base ?? samples.p50)
            let cores = ProcessInfo.processInfo.activeProcessorCount
            figures.append(Figures.time("convergence: score on one of \(count) phones → all \(count) hold it", samples,
                                        limit: ("the same with 2 phones", base ?? samples.p50), seeds: "—", target: "< 2× the 2-phone time",
                                        meets: ratio < 2, note: "\(count) real hyzer-hub serve processes on this machine's \(cores) cores"))
            figures.append(Figure(name: "convergence, \(count) phones: CPU a score costs every serve and the cloud's backends together",
                                  unit: "seconds", p50: cpuPerScore, p99: nil, iterations: samples.count + warmup,
                                  limitName: "the convergence time above × \(cores) cores", limit: samples.p50 * Double(cores),
                                  ratio: cpuPerScore / (samples.p50 * Double(cores)), seedsBudget: "—", target: "—", meetsTarget: true,
                                  note: "on-CPU time of every thread (/proc/PID/task/*/schedstat) over the scores and their 0.1-s pauses; "
                                      + "a ratio near 1 means the cores, not a wait, bound the figure"))
        }
        return figures
    }

    // MARK: Helpers

    /// The PostgreSQL backends connected to `database` (the phones' connections), by pid.
    private func backends(of database: String) throws -> [Int32] {
        try awaitOnPool {
            let admin = try await self.connect(self.adminURL)
            defer { Task { try? await admin.close() } }
            var pids: [Int32] = []
            for try await pid in try await admin.query("SELECT pid FROM pg_stat_activity WHERE datname = \(database)", logger: self.logger).decode(Int32.self) {
                pids.append(pid)
            }
            return pids
        }
    }

    struct Phone {
        let home: URL
        let paths: HyzerPaths
        let hub: Hub
    }

    private func phone(_ name: String, url: String, player: String) throws -> Phone {
        let home = try context.scratch(name)
        let paths = HyzerPaths(home: home)
        let hub = try Hub.open(paths: paths)
        // The bench's phones trust each other: each joins the round naming its player without asking.
        try hub.setCloud(CloudConfiguration(url: url, player: player, autoJoin: true))
        return Phone(home: home, paths: paths, hub: hub)
    }

    private func wait(_ what: String, _ condition: () throws -> Bool) throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while try !condition() {
            if ContinuousClock.now > deadline { throw BenchError("timed out waiting for \(what)") }
            usleep(2_000)
        }
    }

    /// A new cloud (`hyzer-hub cloud init`) in a database of its own, with `phones` phone roles; their URLs.
    private func makeCloud(_ name: String, phones: Int) throws -> [String] {
        let url = try makeDatabase(name)
        let prefix = Self.rolePrefix + name
        let logins = try awaitOnPool {
            try await CloudAdmin.initialize(url, phones: (0..<phones).map { "\(prefix)_\($0)" }, logger: self.logger)
        }
        return logins.map(\.url)
    }

    /// Drops every database and phone role this run made (`makeDatabase`, `makeCloud`): left on
    /// the server, each run's dozen clouds slowed the next runs and filled its role list.
    func dropWhatThisRunMade() throws {
        try awaitOnPool {
            let admin = try await self.connect(self.adminURL)
            defer { Task { try? await admin.close() } }
            let databases = try await admin.query("SELECT datname FROM pg_database WHERE starts_with(datname, \(Self.databasePrefix))", logger: self.logger)
            for try await name in databases.decode(String.self) {
                try await admin.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \"\(name)\" WITH (FORCE)"), logger: self.logger)
            }
            let roles = try await admin.query("SELECT rolname::text FROM pg_roles WHERE starts_with(rolname, \(Self.rolePrefix))", logger: self.logger)
            for try await name in roles.decode(String.self) {
                try await admin.query(PostgresQuery(unsafeSQL: "DROP ROLE IF EXISTS \"\(name)\""), logger: self.logger)
            }
        }
    }

    /// The names this run gives its databases and phone roles begin with these (the process id
    /// tells two runs on one server apart).
    static let databasePrefix = "hyzer_bench_\(getpid())_", rolePrefix = "b\(getpid())_"

    /// A new database named after the bench run and `name`; its URL.
    private func makeDatabase(_ name: String) throws -> String {
        let database = Self.databasePrefix + name
        try awaitOnPool {
            let admin = try await self.connect(self.adminURL)
            defer { Task { try? await admin.close() } }
            do {
                try await admin.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(database)"), logger: self.logger)
                try await admin.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(database)"), logger: self.logger)
            } catch {
                // A role without CREATEDB, say: the server's words, not PostgresNIO's "Generic description".
                throw CloudError.describe(error, address: try CloudAddress(parsing: self.adminURL))
            }
        }
        guard var components = URLComponents(string: adminURL) else { throw BenchError("--cloud is not a URL") }
        components.path = "/\(database)"
        return components.string ?? adminURL
    }

    private func connect(_ url: String) async throws -> PostgresConnection {
        let address = try CloudAddress(parsing: url)
        do {
            return try await PostgresConnection.connect(configuration: address.benchConfiguration(), id: 1, logger: logger)
        } catch {
            // PostgresNIO's errors say nothing ("Generic description…"): said as the hub says them.
            throw CloudError.describe(error, address: address)
        }
    }
}
