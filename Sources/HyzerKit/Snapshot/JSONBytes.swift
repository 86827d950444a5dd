import Foundation

/// A JSON document being written in Foundation's layout (`HyzerJSON.encoder`'s: sorted keys,
/// slashes unescaped): pretty-printed, or compact (no whitespace at all). For what is written on
/// the Save chain (standings, score events, the watch's feedback logs), where `JSONEncoder` would
/// stand between a Save and its standings; the caller writes keys in sorted order, and a test holds
/// each writer to the encoder's bytes.
public struct JSONBytes {
    public private(set) var bytes: [UInt8] = []
    let pretty: Bool
    /// The indent of the object being written (its keys are one level deeper).
    private var depth = 0

    public init(capacity: Int, pretty: Bool = false) {
        self.pretty = pretty
        bytes.reserveCapacity(capacity)
    }

    public mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private mutating func newline(indent: Int) {
        guard pretty else { return }
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    public mutating func object(indent: Int, _ body: (inout JSONBytes) -> Void) {
        let outer = depth
        depth = indent
        bytes.append(UInt8(ascii: "{"))
        body(&self)
        newline(indent: indent)
        bytes.append(UInt8(ascii: "}"))
        depth = outer
    }

    /// Foundation writes an empty array as `[\n\n<indent>]` pretty, `[]` compact.
    public mutating func array<Element>(_ elements: [Element], indent: Int, _ write: (inout JSONBytes, Element) -> Void) {
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
    public mutating func key(_ name: StaticString, first: Bool = false) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        newline(indent: depth + 1)
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        if pretty { raw("\" : ") } else { raw("\":") }
    }

    public mutating func integer(_ value: Int) {
        var text = value.description
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    public mutating func optionalInteger(_ value: Int?) {
        if let value { integer(value) } else { raw("null") }
    }

    public mutating func bool(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    /// A UUID as `uuidString` writes it, without making a `String` (Foundation formats one
    /// through `snprintf`).
    public mutating func uuid(_ value: UUID) {
        bytes.append(UInt8(ascii: "\""))
        value.withCanonicalUTF8 { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
    }

    public mutating func optionalUUID(_ value: UUID?) {
        if let value { uuid(value) } else { raw("null") }
    }

    public mutating func optionalString(_ value: String?) {
        if let value { string(value) } else { raw("null") }
    }

    /// Escaped as Foundation escapes: the quote, the backslash, and control characters (`\b`,
    /// `\f`, `\n`, `\r`, `\t`, the rest as `\u00XX`); everything else, slashes and non-ASCII
    /// included, as it is.
    public mutating func string(_ value: String) {
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
