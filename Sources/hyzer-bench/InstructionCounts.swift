import Foundation
import HubCore
import HyzerKit
import HyzerLink
import NIOCore
import HyzerHarness
import WatchCore

/// Instruction counts for the CPU-bound figures, from valgrind's callgrind: unlike a time, the
/// same binary and input count the same whatever else the machine is doing, so a change can be
/// compared across runs. Each kernel runs in a child `hyzer-bench --kernel NAME` under callgrind
/// twice, with two iteration counts; the difference over the difference in iterations is the cost
/// of one iteration, without the process's start and the kernel's setup.
enum Kernel: String, CaseIterable {
    case standings6 = "standings-6"
    case standings1000 = "standings-1000"
    case crownFrame = "crown-frame"
    case ledgerAppend = "ledger-append"
    case ingestBatch = "ingest-batch"
    case ingestSingle = "ingest-single"
    case appendOne = "append-one"
    case pushReceive = "push-receive"

    /// The figure whose work one iteration is.
    var figure: String {
        switch self {
        case .standings6: "standings recompute, 6 players × 18 holes"
        case .standings1000: "standings recompute, 1000 players × 18 holes, 3 corrections each"
        case .crownFrame: "crown detent → next frame's display list (reducer, haptic log line, layout)"
        case .ledgerAppend: "one event appended to a 20,000-event round's ledger in memory (the hub's per-score update)"
        case .ingestBatch: "one event of a batch the hub ingests in one transaction (checks, classification, the SQLite insert)"
        case .ingestSingle: "one event the hub ingests in a transaction of its own (checks, classification, the insert, the change sequence, the commit)"
        case .appendOne: "a watch's score as serve stores it (4 players; past 72 scores, corrections): its own transaction, committed, and the standings built for the push"
        case .pushReceive: "a standings push on the watch (4 players, two trading places each time): the frame read, the reducer, the haptic logged"
        }
    }

    /// Iterations for the two runs: enough that the difference dwarfs noise in the setup.
    var iterations: (Int, Int) {
        switch self {
        case .standings6: (200, 1_200)
        case .standings1000: (1, 4)
        case .crownFrame: (100, 600)
        case .ledgerAppend: (1_000, 6_000)
        case .ingestBatch: (1_800, 9_000)
        case .ingestSingle: (300, 1_500)
        case .appendOne: (100, 500)
        case .pushReceive: (100, 600)
        }
    }

    /// Sets up, then runs the kernel `iterations` times.
    func run(iterations: Int, in directory: URL) throws {
        switch self {
        case .standings6, .standings1000:
            let (events, holes, players) = self == .standings6
                ? Figures.standingsInput(players: 6, correctionsPerPlayer: 0) : Figures.standingsInput(players: 1_000, correctionsPerPlayer: 3)
            for _ in 0..<iterations {
                let standings = StandingsEngine.standings(events: events, holes: holes, players: players, currentHole: 7)
                precondition(standings.count == players.count)
            }
        case .crownFrame:
            let session = try WatchSession(configuration: WatchConfiguration(paths: HyzerPaths(home: directory), deviceID: "bench"))
            session.send(.snapshot(Figures.sampleSnapshot(players: 6)))
            session.send(.tap(WatchLayout.rowFrame(slot: 0, size: .mm45).center))
            for index in 0..<iterations {
                session.send(.crown(detents: index % 2 == 0 ? 1 : -1))
                _ = session.frame(measurer: .estimate)
            }
        case .ledgerAppend:
            let (events, _, _) = Figures.standingsInput(players: 1_112, correctionsPerPlayer: 0)
            // New scores of players the round had not heard from yet (the same count in both runs).
            let extra = (0..<7_200).map { index in
                try! ScoreEvent(roundID: events[0].roundID, playerID: "late\(index / 18)", hole: index % 18 + 1, strokes: 3,
                                reportedByPlayerID: "late\(index / 18)", deviceID: "phone", source: .tap, createdAt: Date())
            }
            var ledger = ScoreLedger(events: Array(events.prefix(20_000)))
            for index in 0..<iterations { ledger.append(extra[index % extra.count]) }
            precondition(ledger.eventCount == 20_000 + iterations)
        case .ingestBatch:
            // As the batched-ingest figure: a league night's scores, hole by hole, into a round of 500 players.
            let (hub, round) = try Figures.ingestHub(BenchContext(directory: directory, binDirectory: directory, quick: false), name: "kernel", players: 500)
            // The same events made in both runs, so only appending them differs.
            let events = Figures.ingestEvents(round, count: Kernel.ingestBatch.iterations.1)
            let results = try hub.append(batch: Array(events.prefix(iterations)))
            precondition(results.count == iterations)
        case .ingestSingle:
            // As the one-event-per-commit figure: each a first score, in a round of 167 players.
            let (hub, round) = try Figures.ingestHub(BenchContext(directory: directory, binDirectory: directory, quick: false), name: "kernel", players: 167)
            let events = Figures.ingestEvents(round, count: Kernel.ingestSingle.iterations.1)
            for event in events.prefix(iterations) { try hub.append(event, exportingSnapshot: false) }
        case .appendOne:
            // Four players, as the Save chain: the round's 72 scores, then corrections of them in
            // turn, each superseding the score that counts (one round for both runs, so no round
            // is started between scores and only appending them differs).
            let hub = try Hub.open(paths: HyzerPaths(home: directory.appendingPathComponent("append-one")))
            let round = try hub.startRound(course: "Maple Hill", players: ["Ann", "Ben", "Cat", "Dan"])
            var latest = Figures.ingestEvents(round, count: 72)
            for index in 0..<iterations {
                let slot = index % 72
                let event = index < 72 ? latest[slot] : try ScoreEvent(
                    roundID: round.id, playerID: latest[slot].playerID, hole: latest[slot].hole, strokes: 2 + (index / 72) % 4,
                    supersedesEventID: latest[slot].id, reportedByPlayerID: latest[slot].playerID, deviceID: "bench", source: .crown,
                    createdAt: Date())
                latest[slot] = event
                let (_, snapshot) = try hub.appendForPush(event)
                precondition(snapshot != nil)
            }
        case .pushReceive:
            // The frames made before the loop, the same in both runs: each a newer sequence, the
            // first two players trading places (a reshuffle: the notification haptic is logged).
            let session = try WatchSession(configuration: WatchConfiguration(paths: HyzerPaths(home: directory), deviceID: "bench"))
            let base = Figures.sampleSnapshot(players: 4)
            let frames = try (0..<Kernel.pushReceive.iterations.1).map { index -> ByteBuffer in
                let round = base.round!
                var standings = round.standings
                if index % 2 == 1 {
                    standings.swapAt(0, 1)
                    for slot in 0..<2 {
                        let standing = standings[slot]
                        standings[slot] = Standing(playerID: standing.playerID, name: standing.name, position: slot + 1, tied: false,
                                                   totalStrokes: standing.totalStrokes, holesPlayed: standing.holesPlayed,
                                                   scoreRelativeToPar: slot + 1, currentHoleStrokes: nil, discrepancy: false)
                    }
                }
                let snapshot = StandingsSnapshot(hubID: base.hubID, sequence: index + 2, lastUpdatedAt: Date(), round: RoundSnapshot(
                    id: round.id, courseName: round.courseName, status: round.status, currentHole: round.currentHole,
                    holeCount: round.holeCount, holes: round.holes, standings: standings))
                return ByteBuffer(bytes: try LinkFrame.encode(.standings(snapshot)))
            }
            for index in 0..<iterations {
                var buffer = frames[index]
                guard case .standings(let snapshot)? = try LinkFrame.decode(from: &buffer, maxFrameBytes: LinkProtocol.maxFrameBytes) else {
                    preconditionFailure("not a standings frame")
                }
                session.send(.pushed(snapshot))
            }
            precondition(session.current.snapshot?.sequence == iterations + 1)
        }
    }

    static func tool(_ name: String) -> String? {
        ["/usr/bin/\(name)", "/usr/local/bin/\(name)", "/bin/\(name)"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A copy of `bench` without its debug information, in `directory`: valgrind 3.19 gives up on
    /// the DWARF Swift 6 writes ("Possibly corrupted debuginfo file"), and counting needs none.
    static func countableCopy(of bench: String, in directory: URL) throws -> String? {
        guard let objcopy = tool("objcopy") else { return nil }
        let copy = directory.appendingPathComponent("hyzer-bench-stripped").path
        if FileManager.default.isExecutableFile(atPath: copy) { return copy }
        let result = try awaitOnPool { try await CLIProcess.runTool(objcopy, ["--strip-debug", bench, copy]) }
        guard result.status == 0 else { throw BenchError("objcopy --strip-debug \(bench) failed: \(result.stderr)") }
        return copy
    }

    /// Instructions one iteration costs, or nil when valgrind (or objcopy) is not installed.
    static func count(_ kernel: Kernel, bench: String, in directory: URL) throws -> Double? {
        guard let valgrind = tool("valgrind"), let bench = try countableCopy(of: bench, in: directory) else { return nil }
        func collected(_ iterations: Int) throws -> Double {
            let result = try awaitOnPool {
                try await CLIProcess.runTool(valgrind, ["--tool=callgrind", "--callgrind-out-file=/dev/null", bench,
                                                        "--kernel", kernel.rawValue, "--kernel-iterations", "\(iterations)"])
            }
            guard result.status == 0, let line = result.stderr.split(separator: "\n").first(where: { $0.contains("Collected :") }),
                  let total = Double(line.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") else {
                throw BenchError("callgrind gave no count for \(kernel.rawValue): \(result.stderr.suffix(400))")
            }
            return total
        }
        let (few, many) = kernel.iterations
        return (try collected(many) - collected(few)) / Double(many - few)
    }
}
