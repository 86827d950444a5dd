import Foundation
import HyzerKit

/// The two frames on the Save chain read without Foundation's decoder: a watch's score (on the
/// hub) and the standings push (on the watch), when they are exactly as Hyzer's own encoder
/// writes them: compact, keys sorted, `{"body":…,"type":"…"}`, no escapes in any string.
///
/// Anything else, or anything these readers are unsure of (an escape, whitespace, an unknown or
/// repeated key, a number with a fraction or exponent, a value the model refuses), gives nil and
/// the frame is read by `JSONDecoder` as before, which then decides and explains. So for every
/// frame these accept, the result is the decoder's; a test holds them to that on random and
/// mutated frames. Foundation's decoder is slow on a cold core, and both frames are read on the
/// way from a Save to its standings.
enum CanonicalFrames {
    /// A score frame's event and its `id` as written (the ack echoes it).
    static func score(_ body: UnsafeRawBufferPointer) -> (event: ScoreEvent, idAsSent: String)? {
        var reader = CompactJSONReader(body)
        guard reader.endsWith(",\"type\":\"score\"}"), reader.literal("{\"body\":") else { return nil }
        var id: (UUID, String)?, roundID: UUID?, playerID: String?, hole: Int?, strokes: Int?, supersedes: UUID??
        var reporter: String?, deviceID: String?, source: ScoreSource?, createdAt: Date?
        let read = reader.object { reader, key in
            switch key {
            case "createdAt": return once(&createdAt, reader.string().flatMap(HyzerJSON.parseTimestamp))
            case "deviceID": return once(&deviceID, reader.string())
            case "hole": return once(&hole, reader.integer())
            case "id": return once(&id, reader.uuidAsWritten())
            case "playerID": return once(&playerID, reader.string())
            case "reportedByPlayerID": return once(&reporter, reader.string())
            case "roundID": return once(&roundID, reader.uuid())
            case "source": return once(&source, reader.string().flatMap(ScoreSource.init(rawValue:)))
            case "strokes": return once(&strokes, reader.integer())
            case "supersedesEventID": return once(&supersedes, reader.null() ? .some(nil) : reader.uuid().map { .some($0) })
            default: return false
            }
        }
        guard read, reader.literal(",\"type\":\"score\"}"), reader.atEnd,
              let (eventID, id) = id, let roundID, let playerID, let hole, let strokes, let supersedes, let reporter,
              let deviceID, let source, let createdAt else { return nil }
        guard let event = try? ScoreEvent(id: eventID, roundID: roundID, playerID: playerID, hole: hole, strokes: strokes,
                                          supersedesEventID: supersedes, reportedByPlayerID: reporter, deviceID: deviceID,
                                          source: source, createdAt: createdAt) else { return nil }
        return (event, id)
    }

    /// A standings frame's snapshot.
    static func standings(_ body: UnsafeRawBufferPointer) -> StandingsSnapshot? {
        var reader = CompactJSONReader(body)
        guard reader.endsWith(",\"type\":\"standings\"}"), reader.literal("{\"body\":") else { return nil }
        var hubID: String?, lastUpdatedAt: Date?, round: RoundSnapshot??, schemaVersion: Int?, sequence: Int?
        let read = reader.object { reader, key in
            switch key {
            case "hubID": return once(&hubID, reader.string())
            case "lastUpdatedAt": return once(&lastUpdatedAt, reader.string().flatMap(HyzerJSON.parseTimestamp))
            case "round": return once(&round, reader.null() ? .some(nil) : roundSnapshot(&reader).map { .some($0) })
            case "schemaVersion": return once(&schemaVersion, reader.integer())
            case "sequence": return once(&sequence, reader.integer())
            default: return false
            }
        }
        guard read, reader.literal(",\"type\":\"standings\"}"), reader.atEnd,
              let hubID, let lastUpdatedAt, let schemaVersion, let sequence else { return nil }
        return StandingsSnapshot(schemaVersion: schemaVersion, hubID: hubID, sequence: sequence, lastUpdatedAt: lastUpdatedAt, round: round ?? nil)
    }

    private static func roundSnapshot(_ reader: inout CompactJSONReader) -> RoundSnapshot? {
        var courseName: String?, currentHole: Int?, holeCount: Int?, holes: [Hole]?, id: UUID?, standings: [Standing]?, status: RoundStatus?
        let read = reader.object { reader, key in
            switch key {
            case "courseName": return once(&courseName, reader.string())
            case "currentHole": return once(&currentHole, reader.integer())
            case "holeCount": return once(&holeCount, reader.integer())
            case "holes": return once(&holes, reader.array(hole))
            case "id": return once(&id, reader.uuid())
            case "standings": return once(&standings, reader.array(standing))
            case "status": return once(&status, reader.string().flatMap(RoundStatus.init(rawValue:)))
            default: return false
            }
        }
        guard read, let courseName, let currentHole, let holeCount, let holes, let id, let standings, let status else { return nil }
        return RoundSnapshot(id: id, courseName: courseName, status: status, currentHole: currentHole, holeCount: holeCount,
                             holes: holes, standings: standings)
    }

    private static func hole(_ reader: inout CompactJSONReader) -> Hole? {
        var number: Int?, par: Int?
        let read = reader.object { reader, key in
            switch key {
            case "number": return once(&number, reader.integer())
            case "par": return once(&par, reader.integer())
            default: return false
            }
        }
        guard read, let number, let par else { return nil }
        return Hole(number: number, par: par)
    }

    private static func standing(_ reader: inout CompactJSONReader) -> Standing? {
        var deviceID: String??, eventID: UUID??, strokes: Int??, discrepancy: Bool?, holesPlayed: Int?, name: String?
        var playerID: String?, position: Int??, relative: Int?, tied: Bool?, total: Int?, disputes: [HoleDispute]?
        let read = reader.object { reader, key in
            switch key {
            case "disputes": return once(&disputes, reader.array(dispute))
            case "currentHoleDeviceID": return once(&deviceID, reader.null() ? .some(nil) : reader.string().map { .some($0) })
            case "currentHoleEventID": return once(&eventID, reader.null() ? .some(nil) : reader.uuid().map { .some($0) })
            case "currentHoleStrokes": return once(&strokes, reader.null() ? .some(nil) : reader.integer().map { .some($0) })
            case "discrepancy": return once(&discrepancy, reader.bool())
            case "holesPlayed": return once(&holesPlayed, reader.integer())
            case "name": return once(&name, reader.string())
            case "playerID": return once(&playerID, reader.string())
            case "position": return once(&position, reader.null() ? .some(nil) : reader.integer().map { .some($0) })
            case "scoreRelativeToPar": return once(&relative, reader.integer())
            case "tied": return once(&tied, reader.bool())
            case "totalStrokes": return once(&total, reader.integer())
            default: return false
            }
        }
        guard read, let discrepancy, let holesPlayed, let name, let playerID, let relative, let tied, let total else { return nil }
        return Standing(playerID: playerID, name: name, position: position ?? nil, tied: tied, totalStrokes: total, holesPlayed: holesPlayed,
                        scoreRelativeToPar: relative, currentHoleStrokes: strokes ?? nil, discrepancy: discrepancy,
                        currentHoleEventID: eventID ?? nil, currentHoleDeviceID: deviceID ?? nil, disputes: disputes ?? [])
    }

    private static func dispute(_ reader: inout CompactJSONReader) -> HoleDispute? {
        var claims: [ScoreClaim]?, hole: Int?
        let read = reader.object { reader, key in
            switch key {
            case "claims": return once(&claims, reader.array(claim))
            case "hole": return once(&hole, reader.integer())
            default: return false
            }
        }
        guard read, let claims, let hole else { return nil }
        return HoleDispute(hole: hole, claims: claims)
    }

    private static func claim(_ reader: inout CompactJSONReader) -> ScoreClaim? {
        var deviceID: String?, eventID: UUID?, reporter: String?, strokes: Int?
        let read = reader.object { reader, key in
            switch key {
            case "deviceID": return once(&deviceID, reader.string())
            case "eventID": return once(&eventID, reader.uuid())
            case "reportedByPlayerID": return once(&reporter, reader.string())
            case "strokes": return once(&strokes, reader.integer())
            default: return false
            }
        }
        guard read, let deviceID, let eventID, let reporter, let strokes else { return nil }
        return ScoreClaim(eventID: eventID, strokes: strokes, deviceID: deviceID, reportedByPlayerID: reporter)
    }

    /// Sets a field read for the first time; false for a repeated key or a value not read.
    private static func once<Value>(_ field: inout Value?, _ value: Value?) -> Bool {
        guard field == nil, let value else { return false }
        field = value
        return true
    }
}

/// A cursor over compact JSON that reads only the plain forms: strings without escapes or
/// control characters, integers without a fraction or exponent, no whitespace. Each read gives
/// nil (or false) for anything else, and the caller gives up on the frame.
struct CompactJSONReader {
    private let bytes: UnsafeRawBufferPointer
    private var index = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }

    /// Steps over `text` if the input continues with exactly it.
    mutating func literal(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard bytes.count - index >= count,
              memcmp(bytes.baseAddress! + index, text.utf8Start, count) == 0 else { return false }
        index += count
        return true
    }

    /// Whether the whole input ends with `text` (a frame's type, before reading its body).
    func endsWith(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        return bytes.count >= count && memcmp(bytes.baseAddress! + bytes.count - count, text.utf8Start, count) == 0
    }

    mutating func null() -> Bool { literal("null") }

    mutating func bool() -> Bool? {
        if literal("true") { return true }
        if literal("false") { return false }
        return nil
    }

    /// A string's UTF-8 bytes between its quotes, unescaped text only.
    mutating func stringBytes() -> UnsafeRawBufferPointer? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let base = bytes.baseAddress else { return nil }
        let start = index + 1
        // The closing quote found by memchr, then the text before it checked in one plain loop.
        guard let quote = memchr(base + start, Int32(UInt8(ascii: "\"")), bytes.count - start) else { return nil }
        let end = UnsafeRawPointer(quote) - base
        let text = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
        guard Self.isPlain(text) else { return nil }
        index = end + 1
        return text
    }

    /// No backslash and no control character (below 0x20) in `text`: eight bytes at a time (a
    /// byte is zero in `w ^ 0x5C…` where it is a backslash; `(w - 0x20…) & ~w & 0x80…` sets a
    /// byte's high bit where it is below 0x20), then the bytes left over one by one.
    static func isPlain(_ text: UnsafeRawBufferPointer) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        var at = 0
        while at + 8 <= text.count {
            let word = text.loadUnaligned(fromByteOffset: at, as: UInt64.self)
            let backslashes = word ^ (ones &* 0x5C)
            if ((backslashes &- ones) & ~backslashes | (word &- ones &* 0x20) & ~word) & highs != 0 { return false }
            at += 8
        }
        while at < text.count {
            if text[at] == UInt8(ascii: "\\") || text[at] < 0x20 { return false }
            at += 1
        }
        return true
    }

    /// Read by `String(decoding:)`, whose UTF-8 check is the standard library's fast one; text it
    /// had to repair (invalid UTF-8) reads back differently and gives nil, for the decoder to
    /// refuse. (`String(validating:as:)` ran unspecialized, a metadata lookup per character.)
    mutating func string() -> String? {
        guard let raw = stringBytes() else { return nil }
        guard let start = raw.baseAddress, !raw.isEmpty else { return "" }
        var text = String(decoding: raw, as: UTF8.self)
        let unrepaired = text.utf8.count == raw.count && text.withUTF8 { memcmp($0.baseAddress!, start, raw.count) == 0 }
        return unrepaired ? text : nil
    }

    /// A UUID written as 8-4-4-4-12 hex digits, in either case (Foundation's `UUID(uuidString:)`
    /// reads more forms; those are left to the decoder). Parsed by `UUID(canonicalUTF8:)`:
    /// Foundation's parse goes through `sscanf`, and a score holds several ids.
    mutating func uuid() -> UUID? {
        stringBytes().flatMap(UUID.init(canonicalUTF8:))
    }

    /// A UUID and its text as written (a score's id: the ack echoes it as sent).
    mutating func uuidAsWritten() -> (UUID, String)? {
        guard let text = stringBytes(), let uuid = UUID(canonicalUTF8: text) else { return nil }
        return (uuid, String(decoding: text, as: UTF8.self))
    }

    /// `-?(0|[1-9][0-9]*)` within `Int`, not followed by a fraction or an exponent.
    mutating func integer() -> Int? {
        var position = index
        let negative = position < bytes.count && bytes[position] == UInt8(ascii: "-")
        if negative { position += 1 }
        let first = position
        var magnitude: UInt64 = 0
        while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") {
            let (times10, over1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, over2) = times10.addingReportingOverflow(UInt64(bytes[position] - UInt8(ascii: "0")))
            guard !over1, !over2 else { return nil }
            magnitude = sum
            position += 1
        }
        let digits = position - first
        guard digits >= 1, !(digits > 1 && bytes[first] == UInt8(ascii: "0")), !(negative && magnitude == 0) else { return nil }
        if position < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[position]) { return nil }
        let value: Int
        if negative {
            guard magnitude <= UInt64(Int.max) + 1 else { return nil }
            value = magnitude == UInt64(Int.max) + 1 ? Int.min : -Int(magnitude)
        } else {
            guard magnitude <= UInt64(Int.max) else { return nil }
            value = Int(magnitude)
        }
        index = position
        return value
    }

    /// An object's key as written (no escapes), matched against the keys a reader knows by its
    /// bytes: `switch key { case "name": … }` with no `String` made for it (a key longer than 15
    /// bytes would be allocated) and no string comparison (Unicode-aware, case by case).
    struct Key {
        let bytes: UnsafeRawBufferPointer

        static func ~= (pattern: StaticString, key: Key) -> Bool {
            pattern.utf8CodeUnitCount == key.bytes.count
                && (key.bytes.isEmpty || memcmp(pattern.utf8Start, key.bytes.baseAddress!, key.bytes.count) == 0)
        }
    }

    /// `{"key":value,…}`: `member` reads each value after its key and says whether it could.
    mutating func object(_ member: (inout CompactJSONReader, Key) -> Bool) -> Bool {
        guard literal("{") else { return false }
        if literal("}") { return true }
        repeat {
            guard let key = stringBytes(), literal(":"), member(&self, Key(bytes: key)) else { return false }
        } while literal(",")
        return literal("}")
    }

    /// `[element,…]`.
    mutating func array<Element>(_ element: (inout CompactJSONReader) -> Element?) -> [Element]? {
        guard literal("[") else { return nil }
        var elements: [Element] = []
        if literal("]") { return elements }
        repeat {
            guard let next = element(&self) else { return nil }
            elements.append(next)
        } while literal(",")
        return literal("]") ? elements : nil
    }
}
