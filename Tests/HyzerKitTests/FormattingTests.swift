import Foundation
import Testing
@testable import HyzerKit

@Suite("Formatting")
struct FormattingTests {
    @Test("Short names: first names; a shared first name takes the last initial; the whole name where that is not enough")
    func shortNames() {
        #expect(NameText.shortNames(["Jake Thompson", "Sam Kim", "Sam Lee", "山田太郎", "Holyn Handley-Montgomery", "Ann Lo", "Ann Li", "Ann"])
                == ["Jake", "Sam K.", "Sam L.", "山田太郎", "Holyn", "Ann Lo", "Ann Li", "Ann"])
        #expect(NameText.shortNames(["Mike", "Mike Rivera"]) == ["Mike", "Mike R."])
    }

    @Test("Relative scores read E for even, with a sign otherwise")
    func relative() {
        #expect(ScoreFormat.relativeToPar(0) == "E")
        #expect(ScoreFormat.relativeToPar(3) == "+3")
        #expect(ScoreFormat.relativeToPar(-2) == "-2")
    }

    @Test("Positions read 1, T2 for a tie, nothing without a position")
    func positions() {
        #expect(ScoreFormat.position(1, tied: false) == "1")
        #expect(ScoreFormat.position(2, tied: true) == "T2")
        #expect(ScoreFormat.position(nil, tied: false) == "")
    }

    @Test("Hole progress reads Hole 7 of 18")
    func holeProgress() {
        #expect(ScoreFormat.holeProgress(current: 7, of: 18) == "Hole 7 of 18")
    }

    @Test("Relative age", arguments: [
        (0.4, "just now"), (-30, "just now"), (1, "just now"), (9.9, "just now"), (10, "10s ago"), (12, "12s ago"), (59.9, "59s ago"), (60, "1m ago"),
        (120, "2m ago"), (3_599, "59m ago"), (3_600, "1h ago"), (90_000, "1d ago"),
    ])
    func relativeAge(seconds: Double, expected: String) {
        #expect(ScoreFormat.relativeAge(seconds: seconds) == expected)
    }

    @Test("Spoken forms for announcements")
    func spoken() {
        #expect(ScoreFormat.spokenRelativeToPar(-2) == "minus two")
        #expect(ScoreFormat.spokenRelativeToPar(0) == "even")
        #expect(ScoreFormat.spokenRelativeToPar(3) == "plus three")
        #expect(ScoreFormat.spokenOrdinal(1) == "first")
    }
}

@Suite("Timestamps")
struct TimestampTests {
    @Test("The documented timestamp format")
    func documented() {
        #expect(HyzerJSON.formatTimestamp(Date(timeIntervalSince1970: 1_795_000_000.5)) == "2026-11-18T11:06:40.500Z")
        #expect(HyzerJSON.formatTimestamp(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        #expect(HyzerJSON.formatTimestamp(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00.000Z")
        // Years no score has, written whole by the same writer: five digits, and a sign.
        #expect(HyzerJSON.formatTimestamp(Date(timeIntervalSince1970: 253_402_300_799)) == "9999-12-31T23:59:59.000Z")
        #expect(HyzerJSON.formatTimestamp(Date(timeIntervalSince1970: 253_402_300_800)) == "10000-01-01T00:00:00.000Z")
        #expect(HyzerJSON.formatTimestamp(Date(timeIntervalSince1970: -62_167_219_200)) == "0000-01-01T00:00:00.000Z")
        #expect(HyzerJSON.formatTimestamp(Date(timeIntervalSince1970: -62_167_305_600.25)) == "-0001-12-30T23:59:59.750Z")
    }

    @Test("Fraction digits past the third are dropped, never rounded up: what is read prints back as read, to the millisecond, up to the last millisecond of 9999")
    func extraDigitsDropped() throws {
        for (text, stored) in [("2026-12-31T23:59:59.9999999Z", "2026-12-31T23:59:59.999Z"),
                               ("9999-12-31T23:59:59.999999999Z", "9999-12-31T23:59:59.999Z"),
                               ("2026-11-24T12:00:59.99999999Z", "2026-11-24T12:00:59.999Z"),
                               ("9999-12-31T23:59:59.9995Z", "9999-12-31T23:59:59.999Z"),
                               ("2026-11-24T12:00:00.1Z", "2026-11-24T12:00:00.100Z"),
                               ("2026-11-24T12:00:00.12Z", "2026-11-24T12:00:00.120Z"),
                               ("2026-11-24T12:00:00Z", "2026-11-24T12:00:00.000Z")] {
            #expect(HyzerJSON.formatTimestamp(try #require(HyzerJSON.parseTimestamp(text))) == stored, "\(text)")
        }
        #expect(HyzerJSON.parseTimestamp("2026-11-24T12:00:00.12x4Z") == nil, "every digit is still checked")
        // Every millisecond of the last second there is, where a Double's step is ~60 µs.
        for millis in 0..<1000 {
            let text = "9999-12-31T23:59:59.\(String(millis + 1000).dropFirst())Z"
            #expect(HyzerJSON.formatTimestamp(try #require(HyzerJSON.parseTimestamp(text))) == text)
        }
    }

    @Test("2,000 random times from 1583 (Foundation is Julian before the Gregorian reform; ISO 8601 is not) to 9999 format as Foundation does, to the second, and parse back")
    func randomTimes() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let seconds = Double(Int64.random(in: -12_212_553_600...253_402_300_799, using: &generator)) + Double(Int.random(in: 0...999)) / 1000
            let date = Date(timeIntervalSince1970: seconds)
            let text = HyzerJSON.formatTimestamp(date)
            #expect(text.prefix(20) == date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)).prefix(20), "\(seconds)")
            #expect(text.count == 24)
            let parsed = try #require(HyzerJSON.parseTimestamp(text), "\(text)")
            #expect(abs(parsed.timeIntervalSince1970 - seconds) < 0.0011, "\(text)")
        }
    }

    @Test("Timestamps format as ISO-8601 UTC with milliseconds and parse back, across eras", arguments: [
        0.0, 1_795_000_000.123, 951_782_400.5, 4_102_444_799.999, -1.0, 1_709_164_800,
    ])
    func roundTrip(seconds: Double) throws {
        let date = Date(timeIntervalSince1970: seconds)
        let text = HyzerJSON.formatTimestamp(date)
        let reference = date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt))
        // Foundation truncates binary fractions (.123 can print .122); ours rounds to the nearest
        // representable millisecond first. Everything up to the milliseconds must agree.
        #expect(text.prefix(20) == reference.prefix(20))
        #expect(abs(Int(text.dropFirst(20).prefix(3))! - Int(reference.dropFirst(20).prefix(3))!) <= 1)
        #expect(text.count == 24 && text.hasSuffix("Z"))
        let parsed = try #require(HyzerJSON.parseTimestamp(text))
        #expect(abs(parsed.timeIntervalSince1970 - (seconds * 1000).rounded(.down) / 1000) < 0.0005)
    }
}
