import Foundation

extension StandingsSnapshot {
    /// `standings.json` as `HyzerJSON.encoder(pretty: true)` writes it, byte for byte (sorted
    /// keys, two-space indent, `"key" : value`, slashes unescaped), written directly.
    ///
    /// The hub writes the file after every change, and Foundation's encoder (keyed containers,
    /// boxing, sorting each object's keys) took ~150 k instructions a player: a 1,000-player round
    /// took longer to export than a batch of its scores took to store. A test compares this with
    /// the encoder for random snapshots, names with quotes, backslashes and control characters
    /// included, so the two cannot drift apart.
    public func prettyJSON() -> Data { Data(jsonBytes(pretty: true)) }

    /// The snapshot as `HyzerJSON.encoder()` writes it (sorted keys, no whitespace, slashes
    /// unescaped), byte for byte: the body of the link's standings push.
    public func compactJSON() -> [UInt8] { jsonBytes(pretty: false) }

    private func jsonBytes(pretty: Bool) -> [UInt8] {
        var out = JSONBytes(capacity: (pretty ? 512 : 256) + (round?.standings.count ?? 0) * (pretty ? 420 : 300) + (round?.holes.count ?? 0) * 50,
                            pretty: pretty)
        out.object(indent: 0) { out in
            out.key("hubID", first: true); out.string(hubID)
            out.key("lastUpdatedAt"); out.string(HyzerJSON.formatTimestamp(lastUpdatedAt))
            out.key("round")
            if let round { round.write(to: &out) } else { out.raw("null") }
            out.key("schemaVersion"); out.integer(schemaVersion)
            out.key("sequence"); out.integer(sequence)
        }
        return out.bytes
    }
}

extension RoundSnapshot {
    fileprivate func write(to out: inout JSONBytes) {
        out.object(indent: 1) { out in
            out.key("courseName", first: true); out.string(courseName)
            out.key("currentHole"); out.integer(currentHole)
            out.key("holeCount"); out.integer(holeCount)
            out.key("holes")
            out.array(holes, indent: 3) { out, hole in
                out.object(indent: 3) { out in
                    out.key("number", first: true); out.integer(hole.number)
                    out.key("par"); out.integer(hole.par)
                }
            }
            out.key("id"); out.uuid(id)
            out.key("standings")
            out.array(standings, indent: 3) { out, standing in
                out.object(indent: 3) { out in
                    out.key("currentHoleDeviceID", first: true); out.optionalString(standing.currentHoleDeviceID)
                    out.key("currentHoleEventID"); out.optionalUUID(standing.currentHoleEventID)
                    out.key("currentHoleStrokes"); out.optionalInteger(standing.currentHoleStrokes)
                    out.key("discrepancy"); out.bool(standing.discrepancy)
                    out.key("holesPlayed"); out.integer(standing.holesPlayed)
                    out.key("name"); out.string(standing.name)
                    out.key("playerID"); out.string(standing.playerID)
                    out.key("position"); out.optionalInteger(standing.position)
                    out.key("scoreRelativeToPar"); out.integer(standing.scoreRelativeToPar)
                    out.key("tied"); out.bool(standing.tied)
                    out.key("totalStrokes"); out.integer(standing.totalStrokes)
                }
            }
            out.key("status"); out.string(status.rawValue)
        }
    }
}

/// A JSON document being written in Foundation's layout: pretty-printed, or compact (no
/// whitespace at all). Used for what is on the Save chain: standings and score events.
struct JSONBytes {
    var bytes: [UInt8] = []
    let pretty: Bool
    /// The indent of the object being written (its keys are one level deeper).
    private var depth = 0

    init(capacity: Int, pretty: Bool) {
        self.pretty = pretty
        bytes.reserveCapacity(capacity)
    }

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private mutating func newline(indent: Int) {
        guard pretty else { return }
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    mutating func object(indent: Int, _ body: (inout JSONBytes) -> Void) {
        let outer = depth
        depth = indent
        bytes.append(UInt8(ascii: "{"))
        body(&self)
        newline(indent: indent)
        bytes.append(UInt8(ascii: "}"))
        depth = outer
    }

    /// Foundation writes an empty array as `[\n\n<indent>]` pretty, `[]` compact.
    mutating func array<Element>(_ elements: [Element], indent: Int, _ write: (inout JSONBytes, Element) -> Void) {
        bytes.append(UInt8(ascii: "["))
        if elements.isEmpty && pretty { bytes.append(UInt8(ascii: "\n")) }
        for (index, element) in elements.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            newline(indent: indent)
            write(&self, element)
        }
        newline(indent: indent - 1)
        bytes.append(UInt8(ascii: "]"))
    }

    /// `"key" : ` on a new line one level in (`"key":` compact); every key but an object's first
    /// follows a comma.
    mutating func key(_ name: StaticString, first: Bool = false) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        newline(indent: depth + 1)
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        if pretty { raw("\" : ") } else { raw("\":") }
    }

    mutating func integer(_ value: Int) {
        var text = value.description
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func optionalInteger(_ value: Int?) {
        if let value { integer(value) } else { raw("null") }
    }

    mutating func bool(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    /// A UUID as `uuidString` writes it, without making a `String` (Foundation formats one
    /// through `snprintf`, ~6,000 instructions).
    mutating func uuid(_ value: UUID) {
        bytes.append(UInt8(ascii: "\""))
        value.withCanonicalUTF8 { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func optionalUUID(_ value: UUID?) {
        if let value { uuid(value) } else { raw("null") }
    }

    mutating func optionalString(_ value: String?) {
        if let value { string(value) } else { raw("null") }
    }

    /// Escaped as Foundation escapes: the quote, the backslash, and control characters (`\b`,
    /// `\f`, `\n`, `\r`, `\t`, the rest as `\u00XX`); everything else, slashes and non-ASCII
    /// included, as it is.
    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { text in
            var start = 0
            for (index, byte) in text.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: text[start..<index])
                start = index + 1
                switch byte {
                case UInt8(ascii: "\""): raw("\\\"")
                case UInt8(ascii: "\\"): raw("\\\\")
                case 0x08: raw("\\b")
                case 0x0C: raw("\\f")
                case UInt8(ascii: "\n"): raw("\\n")
                case UInt8(ascii: "\r"): raw("\\r")
                case UInt8(ascii: "\t"): raw("\\t")
                default:
                    raw("\\u00")
                    bytes.append(Self.hex(byte >> 4))
                    bytes.append(Self.hex(byte & 0x0F))
                }
            }
            bytes.append(contentsOf: text[start...])
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func hex(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
