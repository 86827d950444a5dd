import ArgumentParser
import Foundation
import HubCloud
import HyzerCLI
import Logging

/// The entry point: the parser's own `main`, after saying so when a negative number was read as an option.
@main
enum HyzerBenchMain {
    static func main() {
        HyzerBench.refuseSingleDashWords()
        HyzerBench.explainNegativeNumbers()
        HyzerBench.main()
    }
}

struct HyzerBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hyzer-bench",
        abstract: "Measure every budget of DESIGN.md next to the physical limit, measured in the same run.",
        discussion: """
            Run it in release, with the Swift runtime linked in as shipped builds are: \
            swift run -c release --static-swift-stdlib hyzer-bench. It starts real hyzer-hub and \
            hyzer-watch processes from its own build folder, on temporary homes. --quick runs few \
            iterations, only to prove every figure can be measured (CI does this; the numbers mean little).
            Progress and logs go to standard error, the figures to standard output.
            """,
        version: HyzerVersion.current
    )

    @Flag(help: "Few iterations: proves the bench runs, not a measurement.") var quick = false
    @Flag(help: "Print the figures as JSON.") var json = false
    @Option(help: ArgumentHelp("A PostgreSQL URL whose user may create databases and roles: adds the several-phones figures (each in a cloud of its own, made as hyzer-hub cloud init makes one, with a role per phone; the run drops them when it ends). tools/lib/postgres.sh starts a throwaway server.", valueName: "URL"))
    var cloud: String?
    @Option(help: ArgumentHelp("Only the figures of the groups whose name contains this text, in any case (limits are always measured). Groups: \(HyzerBench.groups.joined(separator: ", ")); cloud (with --cloud); the instruction counts \(Kernel.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "TEXT"))
    var only: String?
    @Flag(help: ArgumentHelp("Instead of the figures, the soak: scores on the phone at --soak-rate a second for --soak-minutes, each waited for on a paired watch; throughput and latency in the first and last minute, and the hub's memory growth."))
    var soak = false
    @Option(help: ArgumentHelp("How long the soak runs, in minutes.", valueName: "MINUTES")) var soakMinutes: Double = 10
    @Option(help: ArgumentHelp("Scores a second the soak offers.", valueName: "N")) var soakRate: Double = 10
    @Flag(inversion: .prefixedNo, help: ArgumentHelp("Count the instructions of the CPU-bound figures under valgrind's callgrind (on in a full run when valgrind is installed; off with --quick)."))
    var instructions: Bool?
    @Option(help: .hidden) var kernel: String?
    @Option(help: .hidden) var kernelIterations: Int = 1
    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        guard soakMinutes > 0, soakMinutes.isFinite else { throw ValidationError("--soak-minutes takes a positive number of minutes (e.g. 10 or 0.5); got \(soakMinutes)") }
        guard soakRate > 0, soakRate <= 1_000 else { throw ValidationError("--soak-rate takes scores a second from above 0 to 1000; got \(soakRate)") }
        if only != nil && soak { throw ValidationError("--only picks figures; --soak runs the soak instead of them: give one or the other") }
        if let only, !selects(only) {
            throw ValidationError("--only \"\(only)\" names no figure this run measures; give part of one of: \(Self.groups.joined(separator: ", ")); "
                                  + "cloud (with --cloud URL); the instruction counts \(Kernel.allCases.map(\.rawValue).joined(separator: ", ")) "
                                  + "(not with --no-instructions, nor with --quick unless --instructions)")
        }
        // The URL is read before anything is measured, so a mistyped one costs no waiting.
        if let cloud {
            do { _ = try CloudAddress(parsing: cloud) } catch { throw ValidationError("--cloud: \(error)") }
        }
        if let kernel, Kernel(rawValue: kernel) == nil {
            throw ValidationError("--kernel takes one of \(Kernel.allCases.map(\.rawValue).joined(separator: ", ")); got \(kernel)")
        }
    }

    /// The groups of figures, in the order they run: what --only picks from.
    static let groups = ["crown → haptic", "crown → frame", "save → snapshot", "push frame", "flatness", "fan-out", "standings 6", "standings 1000",
                         "ingest single", "ingest batch", "watch start", "watch idle"]

    /// Whether `only` picks at least one group, instruction count or the cloud figures that this
    /// run measures.
    func selects(_ only: String) -> Bool {
        guard !only.trimmingCharacters(in: .whitespaces).isEmpty else { return false }
        return Self.groups.contains { Self.matches($0, only) } || (cloud != nil && Self.matches("cloud", only))
            || (countsInstructions && Kernel.allCases.contains { Self.matches($0.figure, only) || Self.matches($0.rawValue, only) })
    }

    /// --only's test: the text anywhere in the name, whatever the case.
    static func matches(_ name: String, _ only: String) -> Bool { name.localizedCaseInsensitiveContains(only) }

    /// Instruction counts: on in a full run unless --no-instructions, off with --quick unless --instructions.
    var countsInstructions: Bool { !soak && (instructions ?? !quick) }

    func run() throws {
        logging.bootstrap(defaultLevel: .error)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-bench-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // A child run under callgrind (a stripped copy, away from the build folder): the kernel alone, nothing printed.
        if let kernel = kernel.flatMap(Kernel.init(rawValue:)) {
            try kernel.run(iterations: kernelIterations, in: directory)
            return
        }
        Interruption.cleanUpOnSignal(removing: directory, left: cloud.map { _ in
            "on the --cloud server, the databases named \(CloudBench.databasePrefix)* and the roles named \(CloudBench.rolePrefix)* this run made "
                + "(DROP DATABASE … WITH (FORCE), then DROP ROLE …)"
        })
        let bin = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for tool in ["hyzer-hub", "hyzer-watch"] where !FileManager.default.isExecutableFile(atPath: bin.appendingPathComponent(tool).path) {
            throw ValidationError("\(tool) is not built next to hyzer-bench in \(bin.path); build everything first: swift build -c release --static-swift-stdlib")
        }
        let context = BenchContext(directory: directory, binDirectory: bin, quick: quick)
        func progress(_ text: String) { if !json { FileHandle.standardError.write(Data("… \(text)\n".utf8)) } }

        progress("physical limits")
        let limits = try context.scratch("limits")
        let socket = PhysicalLimits.unixSocketRoundTrip(iterations: context.n(20_000, quick: 500))
        let replaceBackToBack = try PhysicalLimits.durableReplace(iterations: context.n(300, quick: 20), spacing: 0, in: limits)
        let replaceSpaced = try PhysicalLimits.durableReplace(iterations: context.n(200, quick: 10), spacing: 0.02, in: limits)
        let commit = try PhysicalLimits.sqliteCommit(iterations: context.n(2_000, quick: 100), in: limits)
        let batchRows = try PhysicalLimits.sqliteBatchRowsPerSecond(rows: context.n(200_000, quick: 10_000), runs: context.n(3, quick: 1), in: limits)
        let lineWrite = try PhysicalLimits.lineAppend(iterations: context.n(20_000, quick: 500), bytes: 100, sync: false, in: limits)

        let appendSpaced = try PhysicalLimits.lineAppend(iterations: context.n(200, quick: 10), bytes: 400, sync: true, spacing: 0.02, in: limits)

        let chainSyncs = try PhysicalLimits.appendThenCommit(iterations: context.n(200, quick: 10), spacing: 0.02, in: limits)

        // The chain from Save to the new standings on the watch is bounded by the outbox append and
        // one commit, spaced out as scoring is and one after the other (as the chain makes them),
        // and the event to the hub and its standings back (two socket round trips cover both
        // ways). The Save figure measures the two syncs again, taking turns with its saves; this
        // row is the same measured on its own, up front.
        let runs: [(String, () throws -> [Figure])] = [
            ("crown → haptic", { [try Figures.crownToHaptic(context, lineWrite: lineWrite)] }),
            ("crown → frame", { [try Figures.crownToFrame(context)] }),
            ("save → snapshot", { try Figures.saveToSnapshot(context, socketRoundTrip: socket.p50) }),
            ("push frame", { try Figures.pushFrame(context) }),
            ("flatness", { try Figures.flatness(context) }),
            ("fan-out", { try Figures.fanOut(context) }),
            ("standings 6", { [Figures.standings(context, players: 6, correctionsPerPlayer: 0)] }),
            ("standings 1000", { [Figures.standings(context, players: 1_000, correctionsPerPlayer: 3)] }),
            ("ingest single", { [try Figures.ingestOnePerCommit(context, commit: commit)] }),
            ("ingest batch", { [try Figures.ingestBatched(context, rowsPerSecond: batchRows)] }),
            ("watch start", { try Figures.startToFirstFrame(context) }),
            ("watch idle", { try Figures.idle(context) }),
        ]
        precondition(runs.map(\.0) == Self.groups, "the groups --only names are the runs")
        var figures: [Figure] = []
        if soak {
            progress("soak: \(String(format: "%g", soakMinutes)) min at \(String(format: "%g", soakRate)) scores/s")
            figures = try Figures.soak(context, duration: soakMinutes * 60, rate: soakRate, progress: progress)
        }
        for (label, run) in runs where !soak && (only.map({ Self.matches(label, $0) }) ?? true) {
            progress(label)
            figures.append(contentsOf: try run())
        }
        if countsInstructions { figures += try instructionCounts(bin: bin, in: directory, progress: progress) }
        var cloudLimits: [Figure] = []
        if let cloud, !soak, only.map({ Self.matches("cloud", $0) }) ?? true {
            let (cloudFigures, limits) = try cloudFigures(cloud, context, commit: commit, socket: socket, progress: progress)
            figures += cloudFigures
            cloudLimits = limits
        } else if cloud == nil && !json && !soak {
            progress("cloud figures skipped: give --cloud URL (a PostgreSQL user that may create databases and roles)")
        }

        let limitFigures: [Figure] = [
            .limit("Unix socket round trip, 200 bytes", socket),
            .limit("fsync + rename of a 2 KB file, back to back", replaceBackToBack),
            .limit("fsync + rename of a 2 KB file, 20 ms apart", replaceSpaced),
            .limit("append + fdatasync of a 400-byte line, 20 ms apart", appendSpaced),
            .limit("SQLite WAL commit (synchronous=FULL), back to back", commit),
            .limit("append + fdatasync of a 400-byte line, then a SQLite commit, 20 ms apart (the Save chain's two syncs)", chainSyncs),
        ] + cloudLimits
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(["figures": figures, "limits": limitFigures]), as: UTF8.self))
        } else {
            print(Report.table(figures + limitFigures, quick: quick))
        }
    }
}

extension HyzerBench {
    /// Each kernel's instructions per iteration, counted under callgrind (with `--only`, those it names).
    func instructionCounts(bin: URL, in directory: URL, progress: (String) -> Void) throws -> [Figure] {
        var figures: [Figure] = []
        for kernel in Kernel.allCases where only.map({ Self.matches(kernel.figure, $0) || Self.matches(kernel.rawValue, $0) }) ?? true {
            progress("instructions: \(kernel.rawValue) under callgrind")
            guard let count = try Kernel.count(kernel, bench: bin.appendingPathComponent("hyzer-bench").path, in: directory) else {
                progress("instruction counts skipped: valgrind or objcopy is not installed (apt-get install valgrind binutils)")
                break
            }
            let (few, many) = kernel.iterations
            figures.append(Figure(name: "instructions: \(kernel.figure)", unit: "instructions", p50: count, p99: nil, iterations: many - few,
                                  limitName: nil, limit: nil, ratio: nil, seedsBudget: "—", target: "—", meetsTarget: true,
                                  note: "callgrind, per iteration: (count at \(many) − count at \(few)) ÷ \(many - few)"))
        }
        return figures
    }

    /// The several-phones figures and PostgreSQL's own limits, against the server at `adminURL`.
    func cloudFigures(_ adminURL: String, _ context: BenchContext, commit: Samples, socket: Samples,
                      progress: (String) -> Void) throws -> (figures: [Figure], limits: [Figure]) {
        let bench = CloudBench(context: context, adminURL: adminURL)
        // Dropped however the run ends; a failure to drop is said only after a run that got to
        // the end (one that failed says why, and dropping fails for the same reason).
        var finished = false
        defer {
            do { try bench.dropWhatThisRunMade() } catch where finished { progress("cloud: could not drop this run's databases and roles: \(error)") } catch {}
        }
        progress("cloud: PostgreSQL limits")
        let notify = try bench.notifyRoundTrip(iterations: context.n(300, quick: 10))
        let bulkRows = context.n(10_000, quick: 1_000), bulkRuns = context.n(5, quick: 1)
        let bulk = try bench.bulkInsertRate(rows: bulkRows, runs: bulkRuns)
        progress("cloud: score on phone A → phone C's watch")
        // The chain's two SQLite commits are as far apart as its scores (50 ms): measured so, they
        // cost more than back to back (the disk sleeps between them). A's score is synced; C's
        // download is not (docs/SYNC.md): the cloud holds what it applies.
        let spacedCommit = try PhysicalLimits.sqliteCommit(iterations: context.n(100, quick: 5), spacing: 0.05,
                                                           in: try context.scratch("cloud-limits"))
        let unsyncedCommit = try PhysicalLimits.sqliteCommit(iterations: context.n(100, quick: 5), spacing: 0.05, synced: false,
                                                             in: try context.scratch("cloud-limits"))
        var figures = try bench.scoreToOtherWatch(limit: spacedCommit.p50 + notify.p50 + unsyncedCommit.p50 + socket.p50)
        progress("cloud: catch-up")
        figures += try bench.catchUp(bulkRate: bulk, runs: context.n(3, quick: 1))
        progress("cloud: phones on one cloud")
        figures += try bench.convergenceByPhones()
        finished = true
        return (figures, [
            .limit("SQLite WAL commit (synchronous=FULL), 50 ms apart", spacedCommit),
            .limit("SQLite WAL commit without a sync (synchronous=NORMAL), 50 ms apart", unsyncedCommit),
            .limit("PostgreSQL insert + NOTIFY committed → heard on a second connection", notify),
            .limit("PostgreSQL rows/s in one unnest insert (no triggers), \(bulkRuns == 1 ? "one insert" : "the median of \(bulkRuns)")", rate: bulk, unit: "events/s",
                   iterations: bulkRows * bulkRuns),
        ])
    }
}

enum Report {
    static func table(_ figures: [Figure], quick: Bool) -> String {
        var lines = [
            quick ? "(--quick: few iterations; these numbers prove the bench runs, they are not a measurement)\n" : "",
            "| what | p50 | p99 | physical limit (same run) | ratio | seeds' budget | target | met |",
            "| --- | --- | --- | --- | --- | --- | --- | --- |",
        ]
        for figure in figures {
            let limit = figure.limit.map { "\(value($0, unit: figure.unit)) (\(figure.limitName ?? ""))" } ?? (figure.limitName ?? "—")
            let ratio = figure.ratio.map { String(format: "%.1f×", $0) } ?? "—"
            let met = figure.name.hasPrefix("limit:") ? "" : figure.meetsTarget ? "yes" : "**no**"
            var name = figure.name
            if let note = figure.note { name += " — \(note)" }
            lines.append("| \(name) | \(value(figure.p50, unit: figure.unit)) | \(figure.p99.map { value($0, unit: figure.unit) } ?? "—") | \(limit) | \(ratio) | \(figure.seedsBudget) | \(figure.target) | \(met) |")
        }
        return lines.joined(separator: "\n")
    }

    static func value(_ value: Double, unit: String) -> String {
        switch unit {
        case "seconds": formatDuration(value)
        case "events/s": value.isFinite ? "\(Int(value.rounded()).formatted()) /s" : "n/a"
        case "% of a core": String(format: "%.2f %%", value)
        case "MB": String(format: "%.1f MB", value)
        case "instructions": value >= 1e6 ? String(format: "%.2f M instr.", value / 1e6) : String(format: "%.1f k instr.", value / 1e3)
        default: "\(value)"
        }
    }
}
