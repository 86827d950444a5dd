import Foundation
import HyzerKit

/// The link's one JSON reader: a frame body read once, strictly, into a `JSONValue`, then decoded
/// into the message types with their own `Decodable` conformances (`LinkJSON.decode`).
///
/// Strict, as docs/PROTOCOL.md states it, wherever the fault is (a key no message reads
/// included): UTF-8 only (no byte order mark), no control character (U+0000–U+001F) written raw
/// inside a string, only the escapes `\" \\ \/ \b \f \n \r \t \uXXXX`, a `\u` escape of a surrogate
/// only as a high-low pair, numbers `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`, whitespace only
/// space, tab, line feed and carriage return, at most `maxDepth` arrays and objects inside each other.
///
/// Numbers are kept as written and read where a field decodes them: an integer field takes a whole
/// number that fits in 64 bits, read exactly (`3.0` and `30e-1` are 3; `3.000000000000000000001`
/// and `1e-400` are not whole), never rounded as a Double would round it.
public enum LinkJSON {
    /// The deepest nesting read. A score is two levels deep, standings five.
    public static let maxDepth = 64

    /// The value `bytes` hold, or why they are not one JSON text ("a raw control character (0x07)
    /// inside a string at byte 57").
    public static func parse(_ bytes: UnsafeRawBufferPointer) throws(SyntaxError) -> JSONValue {
        var reader = Reader(bytes: bytes)
        reader.skipWhitespace()
        let value = try reader.value(depth: 0)
        reader.skipWhitespace()
        guard reader.index == bytes.count else { throw SyntaxError("more after the end of the JSON value", at: reader.index) }
        return value
    }

    public static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> JSONValue {
        try bytes.withUnsafeBytes { buffer in Result { () throws(SyntaxError) in try parse(buffer) } }.get()
    }

    /// `T` from `value`, through `T`'s own `Decodable`. Errors are `DecodingError`s with the path
    /// of the value at fault, or `UnreadableNumber` for an integer field whose number is not one.
    public static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try ValueDecoder(value: value, parent: nil, key: nil).decodeValue(T.self)
    }

    public struct SyntaxError: Error, Equatable, CustomStringConvertible {
        public let what: String
        public let offset: Int
        init(_ what: String, at offset: Int) { (self.what, self.offset) = (what, offset) }
        public var description: String { "\(what) at byte \(offset)" }
    }

    /// An integer field whose number, as written, is not a whole one, or that no 64-bit integer holds.
    public struct UnreadableNumber: Error, Equatable, CustomStringConvertible {
        /// Where it is: "body.sequence", "body.round.standings[2].position".
        public let path: String
        public let text: String
        public let whole: Bool

        /// "body.sequence must be a whole number; got 1.5".
        public var description: String {
            !whole ? "\(path) must be a whole number; got \(text)"
                : text.hasPrefix("-") ? "\(path) is too small to read; got \(text)"
                : "\(path) is too large to read; got \(text)"
        }
    }

    /// Whether a JSON number's text (`3`, `3.0`, `30e-1`, `1e-400`) is a whole number, exactly:
    /// `3.000000000000000000001` is not, though a Double reads it as 3.
    public static func isWholeNumber(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var at = bytes.first == UInt8(ascii: "-") ? 1 : 0
        func digits() -> [UInt8] {
            let start = at
            while at < bytes.count, bytes[at] >= UInt8(ascii: "0"), bytes[at] <= UInt8(ascii: "9") { at += 1 }
            return Array(bytes[start..<at])
        }
        let whole = digits()
        var fraction: [UInt8] = []
        if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
            at += 1
            fraction = digits()
        }
        var exponent = 0
        if at < bytes.count, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") {
            at += 1
            let negative = at < bytes.count && bytes[at] == UInt8(ascii: "-")
            if at < bytes.count, bytes[at] == UInt8(ascii: "-") || bytes[at] == UInt8(ascii: "+") { at += 1 }
            for digit in digits() { exponent = min(exponent * 10 + Int(digit - UInt8(ascii: "0")), 1_000_000) }
            if negative { exponent = -exponent }
        }
        let all = whole + fraction
        // The digits at or after the point, once the exponent has moved it, must all be zeros.
        let point = whole.count + exponent
        return all.indices.allSatisfy { $0 < point || all[$0] == UInt8(ascii: "0") }
    }

    /// The integer a JSON number's text is, read exactly; nil with whether it is whole otherwise.
    static func integer(_ text: String) -> (value: Int?, whole: Bool) {
        if let value = Int(text) { return (value, true) }
        guard isWholeNumber(text) else { return (nil, false) }
        // Whole but written with a point or an exponent (3.0, 30e-1): within ±9.2e18 a Double holds it exactly.
        guard let double = Double(text), abs(double) < 9.2e18 else { return (nil, true) }
        return (Int(double), true)
    }
}

/// One JSON value as the link read it: numbers as written, an object's members in order.
public indirect enum JSONValue: Sendable, Hashable {
    case object([(key: String, value: JSONValue)])
    case array([JSONValue])
    case string(String)
    case number(String)
    case bool(Bool)
    case null

    /// A member of an object (the first, where a key is repeated, as Foundation's decoder reads it).
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.object(let l), .object(let r)): l.count == r.count && zip(l, r).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.array(let l), .array(let r)): l == r
        case (.string(let l), .string(let r)), (.number(let l), .number(let r)): l == r
        case (.bool(let l), .bool(let r)): l == r
        case (.null, .null): true
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .object(let members): for member in members { hasher.combine(member.key); hasher.combine(member.value) }
        case .array(let elements): hasher.combine(elements)
        case .string(let text), .number(let text): hasher.combine(text)
        case .bool(let value): hasher.combine(value)
        case .null: hasher.combine(0)
        }
    }
}

// MARK: Reading

extension LinkJSON {
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        private var next: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipWhitespace() {
            while let byte = next, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        private func unexpected(_ expected: String) -> SyntaxError {
            guard let byte = next else { return SyntaxError("the text ends where \(expected) was expected", at: index) }
            let shown = byte >= 0x21 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(hex(byte))"
            return SyntaxError("\(shown) where \(expected) was expected", at: index)
        }

        mutating func value(depth: Int) throws(SyntaxError) -> JSONValue {
            guard let byte = next else { throw unexpected("a value") }
            switch byte {
            case UInt8(ascii: "{"): return try object(depth: depth + 1)
            case UInt8(ascii: "["): return try array(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
            default: throw unexpected("a value")
            }
        }

        private mutating func object(depth: Int) throws(SyntaxError) -> JSONValue {
            guard depth <= LinkJSON.maxDepth else { throw SyntaxError("arrays and objects nested deeper than \(LinkJSON.maxDepth) levels", at: index) }
            index += 1
            skipWhitespace()
            var members: [(key: String, value: JSONValue)] = []
            if next == UInt8(ascii: "}") { index += 1; return .object(members) }
            while true {
                guard next == UInt8(ascii: "\"") else { throw unexpected("a key (a string)") }
                let key = try string()
                skipWhitespace()
                guard next == UInt8(ascii: ":") else { throw unexpected("':' after a key") }
                index += 1
                skipWhitespace()
                members.append((key, try value(depth: depth)))
                skipWhitespace()
                if next == UInt8(ascii: ",") {
                    index += 1
                    skipWhitespace()
                    continue
                }
                guard next == UInt8(ascii: "}") else { throw unexpected("',' or '}' in an object") }
                index += 1
                return .object(members)
            }
        }

        private mutating func array(depth: Int) throws(SyntaxError) -> JSONValue {
            guard depth <= LinkJSON.maxDepth else { throw SyntaxError("arrays and objects nested deeper than \(LinkJSON.maxDepth) levels", at: index) }
            index += 1
            skipWhitespace()
            var elements: [JSONValue] = []
            if next == UInt8(ascii: "]") { index += 1; return .array(elements) }
            while true {
                elements.append(try value(depth: depth))
                skipWhitespace()
                if next == UInt8(ascii: ",") {
                    index += 1
                    skipWhitespace()
                    continue
                }
                guard next == UInt8(ascii: "]") else { throw unexpected("',' or ']' in an array") }
                index += 1
                return .array(elements)
            }
        }

        private mutating func literal(_ word: StaticString) throws(SyntaxError) {
            let count = word.utf8CodeUnitCount
            guard bytes.count - index >= count,
                  (0..<count).allSatisfy({ bytes[index + $0] == word.utf8Start[$0] }) else { throw unexpected("a value") }
            index += count
        }

        private mutating func digits() -> Int {
            let start = index
            while let byte = next, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { index += 1 }
            return index - start
        }

        private mutating func number() throws(SyntaxError) -> String {
            let start = index
            if next == UInt8(ascii: "-") { index += 1 }
            let first = index
            let whole = digits()
            guard whole > 0 else { throw SyntaxError("a '-' without digits after it", at: start) }
            guard !(whole > 1 && bytes[first] == UInt8(ascii: "0")) else { throw SyntaxError("a number with a leading zero", at: start) }
            if next == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { throw SyntaxError("a number with no digits after its '.'", at: start) }
            }
            if next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
                index += 1
                if next == UInt8(ascii: "+") || next == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { throw SyntaxError("a number with no digits in its exponent", at: start) }
            }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        }

        /// A string's text, its escapes read; the bytes between escapes are checked as UTF-8.
        private mutating func string() throws(SyntaxError) -> String {
            index += 1
            var text = ""
            var runStart = index
            func flush(_ end: Int) {
                if end > runStart { text += String(decoding: UnsafeRawBufferPointer(rebasing: bytes[runStart..<end]), as: UTF8.self) }
            }
            while true {
                guard let byte = next else { throw SyntaxError("a string that is not closed", at: index) }
                switch byte {
                case UInt8(ascii: "\""):
                    flush(index)
                    index += 1
                    return text
                case UInt8(ascii: "\\"):
                    flush(index)
                    text.unicodeScalars.append(try escape())
                    runStart = index
                case 0x00..<0x20:
                    throw SyntaxError("a raw control character (0x\(hex(byte))) inside a string (write it as \\u00\(hex(byte)))", at: index)
                case 0x20..<0x80:
                    index += 1
                default:
                    try scalar()
                }
            }
        }

        private mutating func escape() throws(SyntaxError) -> Unicode.Scalar {
            let start = index
            index += 1
            guard let kind = next else { throw SyntaxError("a string that is not closed", at: index) }
            switch kind {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
                index += 1
                return Unicode.Scalar(kind)
            case UInt8(ascii: "b"): index += 1; return "\u{8}"
            case UInt8(ascii: "f"): index += 1; return "\u{C}"
            case UInt8(ascii: "n"): index += 1; return "\n"
            case UInt8(ascii: "r"): index += 1; return "\r"
            case UInt8(ascii: "t"): index += 1; return "\t"
            case UInt8(ascii: "u"):
                let unit = try hexEscape(at: start)
                if (0xDC00...0xDFFF).contains(unit) { throw SyntaxError("a low surrogate (\\u\(hex16(unit))) with no high surrogate before it", at: start) }
                guard (0xD800...0xDBFF).contains(unit) else { return Unicode.Scalar(unit)! }
                guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw SyntaxError("a high surrogate (\\u\(hex16(unit))) not followed by a low one", at: start)
                }
                let low = try hexEscape(at: index)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw SyntaxError("a high surrogate (\\u\(hex16(unit))) not followed by a low one", at: start)
                }
                return Unicode.Scalar(0x10000 + (UInt32(unit) - 0xD800) << 10 + (UInt32(low) - 0xDC00))!
            default:
                throw SyntaxError("an unknown escape '\\\(Character(Unicode.Scalar(kind)))' (allowed: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)", at: start)
            }
        }

        /// `\uXXXX` starting at `start` (the backslash): its code unit.
        private mutating func hexEscape(at start: Int) throws(SyntaxError) -> UInt16 {
            index = start + 2
            guard bytes.count - index >= 4 else { throw SyntaxError("a \\u escape without four hex digits", at: start) }
            var unit: UInt16 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw SyntaxError("a \\u escape without four hex digits", at: start)
                }
                unit = unit << 4 | UInt16(digit)
                index += 1
            }
            return unit
        }

        /// One multi-byte UTF-8 scalar (the shortest form, no surrogates, at most U+10FFFF).
        private mutating func scalar() throws(SyntaxError) {
            let lead = bytes[index]
            let (count, secondRange): (Int, ClosedRange<UInt8>) =
                switch lead {
                case 0xC2...0xDF: (2, 0x80...0xBF)
                case 0xE0: (3, 0xA0...0xBF)
                case 0xE1...0xEC, 0xEE...0xEF: (3, 0x80...0xBF)
                case 0xED: (3, 0x80...0x9F)
                case 0xF0: (4, 0x90...0xBF)
                case 0xF1...0xF3: (4, 0x80...0xBF)
                case 0xF4: (4, 0x80...0x8F)
                default: (0, 0...0)
                }
            guard count > 0, bytes.count - index >= count, secondRange.contains(bytes[index + 1]),
                  (2..<count).allSatisfy({ (0x80...0xBF).contains(bytes[index + $0]) }) else {
                throw SyntaxError("bytes that are not UTF-8 inside a string", at: index)
            }
            index += count
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }

    private static func hex16(_ unit: UInt16) -> String { hex(UInt8(unit >> 8)) + hex(UInt8(unit & 0xFF)) }
}

// MARK: Decoding

extension LinkJSON {
    /// A `Decoder` over a `JSONValue`: what `Decodable` types read the link's values through.
    struct ValueDecoder: Decoder {
        let value: JSONValue
        /// Where the value is: its container's place and its own key (the path is spelled out
        /// only for an error; a value read whole, such as a number, allocates nothing for it).
        let parent: PathNode?
        let key: (any CodingKey)?
        var codingPath: [any CodingKey] { (parent?.path ?? []) + (key.map { [$0] } ?? []) }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        /// This value's place, for the values inside it.
        private var node: PathNode? { key.map { PathNode(parent: parent, key: $0) } ?? parent }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            guard case .object(let members) = value else { throw mismatch([String: Any].self, value, codingPath) }
            return KeyedDecodingContainer(Keyed<Key>(members: members, node: node))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            guard case .array(let elements) = value else { throw mismatch([Any].self, value, codingPath) }
            return Unkeyed(elements: elements, node: node)
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(decoder: self) }

        /// `T` from this value: a date from its timestamp text, an integer read exactly, anything
        /// else through its own `init(from:)`.
        func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
            if T.self == Date.self { return try date() as! T }
            if T.self == Int.self { return try integer() as! T }
            if T.self == String.self { return try string() as! T }
            if T.self == Bool.self { return try bool() as! T }
            return try T(from: self)
        }

        func string() throws -> String {
            guard case .string(let text) = value else { throw mismatch(String.self, value, codingPath) }
            return text
        }

        func bool() throws -> Bool {
            guard case .bool(let flag) = value else { throw mismatch(Bool.self, value, codingPath) }
            return flag
        }

        func integer() throws -> Int {
            guard case .number(let text) = value else { throw mismatch(Int.self, value, codingPath) }
            let (integer, whole) = LinkJSON.integer(text)
            guard let integer else { throw UnreadableNumber(path: LinkJSON.path(codingPath), text: text, whole: whole) }
            return integer
        }

        func double() throws -> Double {
            guard case .number(let text) = value, let double = Double(text), double.isFinite else { throw mismatch(Double.self, value, codingPath) }
            return double
        }

        func date() throws -> Date {
            let text = try string()
            guard let date = HyzerJSON.parseTimestamp(text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath,
                                                        debugDescription: "\"\(text)\" is not an ISO-8601 timestamp like 2026-11-21T10:00:00.123Z"))
            }
            return date
        }

        func fixedWidth<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
            let value = try integer()
            guard let fitting = T(exactly: value) else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "\(value) does not fit in \(T.self)"))
            }
            return fitting
        }
    }

    static func mismatch(_ type: Any.Type, _ value: JSONValue, _ path: [any CodingKey]) -> DecodingError {
        if case .null = value { return .valueNotFound(type, .init(codingPath: path, debugDescription: "null where \(type) was expected")) }
        return .typeMismatch(type, .init(codingPath: path, debugDescription: "not a \(type)"))
    }

    /// A container's place in the value being decoded: a key and the place of its container.
    final class PathNode {
        let parent: PathNode?
        let key: any CodingKey
        init(parent: PathNode?, key: any CodingKey) { (self.parent, self.key) = (parent, key) }
        var path: [any CodingKey] { (parent?.path ?? []) + [key] }
    }

    /// "body.round.standings[2].position".
    static func path(_ codingPath: [any CodingKey]) -> String {
        var path = ""
        for key in codingPath {
            if let index = key.intValue { path += "[\(index)]" } else { path += (path.isEmpty ? "" : ".") + key.stringValue }
        }
        return path
    }

    private struct Index: CodingKey {
        let intValue: Int?
        var stringValue: String { "Index \(intValue!)" }
        init(_ index: Int) { intValue = index }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { self.intValue = intValue }
    }

    private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let members: [(key: String, value: JSONValue)]
        let node: PathNode?
        var codingPath: [any CodingKey] { node?.path ?? [] }
        var allKeys: [Key] { members.compactMap { Key(stringValue: $0.key) } }

        /// The first of a repeated key, as Foundation's decoder reads it.
        func member(_ key: Key) -> JSONValue? { members.first { $0.key == key.stringValue }?.value }

        func contains(_ key: Key) -> Bool { member(key) != nil }

        func decoder(_ key: Key) throws -> ValueDecoder {
            guard let value = member(key) else {
                throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no \"\(key.stringValue)\""))
            }
            return ValueDecoder(value: value, parent: node, key: key)
        }

        func decodeNil(forKey key: Key) throws -> Bool {
            if case .null = try decoder(key).value { return true }
            return false
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decoder(key).decodeValue(T.self) }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder(key).bool() }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder(key).string() }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder(key).integer() }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder(key).double() }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try decoder(key).double()) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder(key).fixedWidth(Int8.self) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder(key).fixedWidth(Int16.self) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder(key).fixedWidth(Int32.self) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder(key).fixedWidth(Int64.self) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder(key).fixedWidth(UInt.self) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder(key).fixedWidth(UInt8.self) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoder(key).fixedWidth(UInt16.self) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoder(key).fixedWidth(UInt32.self) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder(key).fixedWidth(UInt64.self) }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            try decoder(key).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try decoder(key).unkeyedContainer() }
        func superDecoder() throws -> any Decoder { ValueDecoder(value: .object(members), parent: node, key: nil) }
        func superDecoder(forKey key: Key) throws -> any Decoder { try decoder(key) }
    }

    private struct Unkeyed: UnkeyedDecodingContainer {
        let elements: [JSONValue]
        let node: PathNode?
        var codingPath: [any CodingKey] { node?.path ?? [] }
        var currentIndex = 0
        var count: Int? { elements.count }
        var isAtEnd: Bool { currentIndex >= elements.count }

        init(elements: [JSONValue], node: PathNode?) {
            self.elements = elements
            self.node = node
        }

        mutating func next() throws -> ValueDecoder {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath + [Index(currentIndex)], debugDescription: "the array has ended"))
            }
            defer { currentIndex += 1 }
            return ValueDecoder(value: elements[currentIndex], parent: node, key: Index(currentIndex))
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, case .null = elements[currentIndex] else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decodeValue(T.self) }
        mutating func decode(_ type: Bool.Type) throws -> Bool { try next().bool() }
        mutating func decode(_ type: String.Type) throws -> String { try next().string() }
        mutating func decode(_ type: Int.Type) throws -> Int { try next().integer() }
        mutating func decode(_ type: Double.Type) throws -> Double { try next().double() }
        mutating func decode(_ type: Float.Type) throws -> Float { Float(try next().double()) }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { try next().fixedWidth(Int8.self) }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { try next().fixedWidth(Int16.self) }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { try next().fixedWidth(Int32.self) }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { try next().fixedWidth(Int64.self) }
        mutating func decode(_ type: UInt.Type) throws -> UInt { try next().fixedWidth(UInt.self) }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next().fixedWidth(UInt8.self) }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next().fixedWidth(UInt16.self) }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next().fixedWidth(UInt32.self) }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next().fixedWidth(UInt64.self) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            try next().container(keyedBy: type)
        }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
        mutating func superDecoder() throws -> any Decoder { try next() }
    }

    private struct Single: SingleValueDecodingContainer {
        let decoder: ValueDecoder
        var codingPath: [any CodingKey] { decoder.codingPath }

        func decodeNil() -> Bool {
            if case .null = decoder.value { return true }
            return false
        }

        func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(T.self) }
        func decode(_ type: Bool.Type) throws -> Bool { try decoder.bool() }
        func decode(_ type: String.Type) throws -> String { try decoder.string() }
        func decode(_ type: Int.Type) throws -> Int { try decoder.integer() }
        func decode(_ type: Double.Type) throws -> Double { try decoder.double() }
        func decode(_ type: Float.Type) throws -> Float { Float(try decoder.double()) }
        func decode(_ type: Int8.Type) throws -> Int8 { try decoder.fixedWidth(Int8.self) }
        func decode(_ type: Int16.Type) throws -> Int16 { try decoder.fixedWidth(Int16.self) }
        func decode(_ type: Int32.Type) throws -> Int32 { try decoder.fixedWidth(Int32.self) }
        func decode(_ type: Int64.Type) throws -> Int64 { try decoder.fixedWidth(Int64.self) }
        func decode(_ type: UInt.Type) throws -> UInt { try decoder.fixedWidth(UInt.self) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.fixedWidth(UInt8.self) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.fixedWidth(UInt16.self) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.fixedWidth(UInt32.self) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.fixedWidth(UInt64.self) }
    }
}
