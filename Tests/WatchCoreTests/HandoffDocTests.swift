import Foundation
import HyzerHarness
import Testing

/// docs/HANDOFF.md is run as written: its setup, then each case's commands, in bash with the
/// built `hyzer-hub` and `hyzer-watch` first on PATH. A case whose command fails (an expectation
/// not met, a score not delivered) fails here, so the catalogue cannot drift from what Hyzer does.
/// One case at a time: each starts a phone and a watch, and eight at once starved other suites'
/// timing on two cores.
@Suite("docs/HANDOFF.md, run as written", .serialized)
struct HandoffDocTests {
    static let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/HANDOFF.md")

    /// The first ```sh block under each `## ` heading, by heading.
    static func blocks() throws -> [(heading: String, code: String)] {
        var found: [(String, String)] = []
        var heading: String?
        var code: [String]?
        for line in try String(contentsOf: page, encoding: .utf8).components(separatedBy: "\n") {
            if line.hasPrefix("## ") { heading = String(line.dropFirst(3)); code = nil; continue }
            if line == "```sh", let heading, !found.contains(where: { $0.0 == heading }) { code = []; continue }
            if line == "```", let body = code, let heading {
                found.append((heading, body.joined(separator: "\n")))
                code = nil
                continue
            }
            code?.append(line)
        }
        return found
    }

    static var cases: [String] { ((try? blocks()) ?? []).map(\.heading).filter { $0.first?.isNumber == true } }

    @Test("Every case runs end to end as written", arguments: cases)
    func runs(heading: String) async throws {
        let blocks = try Self.blocks()
        let setup = try #require(blocks.first { $0.heading == "Setup" }?.code, "docs/HANDOFF.md has no Setup block")
        let steps = try #require(blocks.first { $0.heading == heading }?.code)
        // Whatever the case started (the phone, the watch) ends with it.
        let script = """
            set -euo pipefail
            trap 'kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "${H:-}"' EXIT
            \(setup)
            \(steps)
            """
        let bin = CLIProcess.productsDirectory.path
        let result = try await CLIProcess.runTool("bash", ["-c", script], environment: [
            "PATH": "\(bin):\(ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")", "DISPLAY": "", "WAYLAND_DISPLAY": "",
        ])
        #expect(result.status == 0, "\(heading) failed (exit \(result.status)):\n\(result.stderr.suffix(1_500))")
    }

    @Test("The catalogue has its setup and every case the issue names a command block for")
    func catalogue() throws {
        let headings = try Self.blocks().map(\.heading)
        #expect(headings.first == "Setup")
        #expect(Self.cases.count >= 8, "\(headings)")
    }
}
