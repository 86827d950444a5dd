import Foundation
import HyzerHarness
import Testing
import HyzerKit

/// Runs `voice-corpus.txt`: every transcript parses to exactly the scores written beside it,
/// except the lines marked `# miss:`, which must still miss (so the README's share stays true).
@Suite("Voice corpus")
struct VoiceCorpusTests {
    struct Line: CustomStringConvertible {
        let number: Int
        let transcript: String
        let players: [Player]
        let par: Int
        let expected: [String]
        let complete: Bool
        let miss: String?

        var description: String { "line \(number): \(transcript)" }
    }

    static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("voice-corpus.txt")

    static func lines() throws -> [Line] {
        let text = try String(contentsOf: url, encoding: .utf8)
        var players: [Player] = [], par = 3, lines: [Line] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[players:") {
                let body = line.dropFirst("[players:".count).dropLast()
                let parts = body.split(separator: "|")
                players = parts[0].split(separator: ",").map { name in
                    let name = name.trimmingCharacters(in: .whitespaces)
                    return Player(id: name, name: name)
                }
                par = Int(parts[1].trimmingCharacters(in: .whitespaces).dropFirst("par ".count))!
                continue
            }
            let (content, miss) = line.range(of: "# miss:").map { (String(line[..<$0.lowerBound]), String(line[$0.upperBound...]).trimmingCharacters(in: .whitespaces)) } ?? (line, nil)
            let halves = content.components(separatedBy: "=>")
            precondition(halves.count == 2, "line \(index + 1) has no =>")
            var expected = halves[1].trimmingCharacters(in: .whitespaces)
            let complete = !expected.hasSuffix("!")
            if !complete { expected = String(expected.dropLast()).trimmingCharacters(in: .whitespaces) }
            lines.append(Line(number: index + 1, transcript: halves[0].trimmingCharacters(in: .whitespaces), players: players, par: par,
                              expected: expected.isEmpty ? [] : expected.components(separatedBy: ", ").sorted(), complete: complete, miss: miss))
        }
        return lines
    }

    static func parsedRight(_ line: Line) -> Bool {
        let result = VoiceTranscriptParser.parse(line.transcript, players: line.players, par: line.par)
        return result.entries.map { "\($0.player.name) \($0.strokes)" }.sorted() == line.expected && result.isComplete == line.complete
    }

    @Test("The corpus holds at least 150 transcripts, and every one parses as written (known misses still miss)")
    func corpus() async throws {
        try await offThePool {
            let lines = try Self.lines()
            #expect(lines.count >= 150)
            for line in lines {
                let result = VoiceTranscriptParser.parse(line.transcript, players: line.players, par: line.par)
                let got = result.entries.map { "\($0.player.name) \($0.strokes)" }.sorted()
                if line.miss == nil {
                    #expect(Self.parsedRight(line), "\(line): expected \(line.expected)\(line.complete ? "" : " !"), got \(got)\(result.isComplete ? "" : " !") \(result.problems.map(\.reason))")
                } else {
                    #expect(!Self.parsedRight(line), "\(line) is marked as a miss but parses right now: take the marker off")
                }
            }
            let right = lines.filter(Self.parsedRight).count
            print("voice corpus: \(right) of \(lines.count) parsed right (\(Int((Double(right) / Double(lines.count) * 100).rounded())) %)")
        }
    }
}
