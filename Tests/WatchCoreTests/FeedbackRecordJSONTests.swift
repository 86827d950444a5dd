import Foundation
import HyzerKit
import HyzerHarness
import Testing
import WatchCore

@Suite("The haptic and announcement logs' lines written directly")
struct FeedbackRecordJSONTests {
    static let texts = ["Score recorded, Ann, three, par. Hole 7.", "", "\"quoted\" back\\slash a/b", "tab\there\nnew line", "\u{01}\u{1F}\u{7F}",
                        "Zoë 李明 🥏", "\u{2028}"]

    static func date(_ random: inout some RandomNumberGenerator) -> Date {
        Date(timeIntervalSince1970: Double(Int.random(in: 0...4_102_444_800_000, using: &random)) / 1000)
    }

    @Test("Byte for byte what the encoder writes, for 500 random haptics and announcements")
    func sameAsEncoder() throws {
        var random = try SeededRandom.fromEnvironment(for: "FeedbackRecordJSONTests")
        let encoder = HyzerJSON.encoder()
        for _ in 0..<500 {
            let haptic = HapticRecord(at: Self.date(&random), kind: HapticKind.allCases.randomElement(using: &random)!,
                                      value: Bool.random(using: &random) ? Int.random(in: -5...Int.max, using: &random) : nil,
                                      latencyMicros: Int.random(in: 0...Int.max, using: &random))
            #expect(Data(haptic.compactJSON()) == (try encoder.encode(haptic)), "\(random.replay(filter: "FeedbackRecordJSONTests"))")
            let text = (0..<Int.random(in: 0...3, using: &random)).map { _ in Self.texts.randomElement(using: &random)! }.joined()
            let announcement = AnnouncementRecord(at: Self.date(&random), text: text)
            let written = Data(announcement.compactJSON()), expected = try encoder.encode(announcement)
            #expect(written == expected, "\(String(decoding: written, as: UTF8.self))\n---\n\(String(decoding: expected, as: UTF8.self))\n\(random.replay(filter: "FeedbackRecordJSONTests"))")
        }
    }
}
