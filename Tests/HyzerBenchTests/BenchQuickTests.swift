import Foundation
import HyzerHarness
import Testing

/// `hyzer-bench --quick` runs end to end and reports every figure. No figure is judged here:
/// performance is measured by the bench in release, never asserted against the wall clock in tests.
@Suite("hyzer-bench --quick")
struct BenchQuickTests {
    struct Report: Decodable {
        struct Figure: Decodable {
            let name: String
            let unit: String
            let p50: Double
            let iterations: Int
        }
        let figures: [Figure]
        let limits: [Figure]
    }

    @Test("Every figure of the budget table and every physical limit is measured")
    func quickRun() async throws {
        // With the test PostgreSQL server (tools/test starts one), the several-phones figures too.
        let cloud = ProcessInfo.processInfo.environment["HYZER_TEST_POSTGRES_URL"]
        let result = try await CLIProcess.run("hyzer-bench", ["--quick", "--json"] + (cloud.map { ["--cloud", $0] } ?? []))
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONDecoder().decode(Report.self, from: Data(result.stdout.utf8))
        let names = report.figures.map(\.name)
        for expected in [
            "crown detent → haptic logged", "crown detent → next frame", "watch Save → outbox fsync → hub commit → ack → new snapshot seen",
            "standings recompute, 6 players × 18 holes", "standings recompute, 1000 players × 18 holes, 3 corrections each",
            "durable hub ingest, one event per commit", "durable hub ingest, batched", "headless watch start → first frame",
            "watch idle CPU", "watch resident memory", "score on the phone → push seen by a paired watch, round at 100 events",
            "the same, round at 2,000 events (flatness", "fan-out: score on the phone → one paired watch shows it",
            "fan-out: the same → the last of 5 paired watches shows it",
            "standings push frame → JSON", "standings push frame ← JSON",
        ] {
            #expect(names.contains { $0.hasPrefix(expected) }, "missing \(expected)")
        }
        if cloud != nil {
            for expected in ["score on phone A → new standings on phone C's watch, app in front",
                             "score on phone A → phone C's watch, app in the background", "phone C's watch app comes to the front",
                             "a Save on phone A's watch → new standings on phone C's watch",
                             "catch-up: 1,008 events scored offline",
                             "catch-up: a phone away for the whole round", "convergence: score on one of 2 phones"] {
                #expect(names.contains { $0.hasPrefix(expected) }, "missing \(expected)")
            }
        }
        #expect(report.limits.count == (cloud == nil ? 6 : 10))
        #expect((report.figures + report.limits).allSatisfy { $0.p50.isFinite && $0.p50 >= 0 && $0.iterations > 0 })
    }
}
