/// Whether bytes are one JSON text as RFC 8259 has it, checked before a frame is decoded.
///
/// Foundation's `JSONDecoder` reads lazily: bytes inside a value nothing asks for (a key the
/// model does not know) are never looked at, and some broken values it does read (a raw control
/// character or invalid UTF-8 in a string, `03`, `3.`) come back as a number error. So the link
/// checks the whole text first, and a frame that is not JSON is one, wherever the fault is.
///
/// Strict: UTF-8 only (no byte order mark), no control characters (U+0000–U+001F) written raw
/// inside a string, only the escapes `\" \\ \/ \b \f \n \r \t \uXXXX`, a `\u` escape of a
/// surrogate only as a high-low pair, numbers `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`,
/// whitespace only space, tab, line feed and carriage return, and at most `maxDepth` arrays and
/// objects inside each other.
public enum JSONSyntax {
    /// The deepest nesting read. A score is two levels deep, standings five.
    public static let maxDepth = 64

    /// Nil when `bytes` are one JSON text; else what is wrong and where ("a raw control character
    /// (0x07) inside a string at byte 57").
    public static func problem(in bytes: UnsafeRawBufferPointer) -> String? {
        var checker = Checker(bytes: bytes)
        do throws(Checker.Fault) {
            checker.skipWhitespace()
            try checker.value(depth: 0)
            checker.skipWhitespace()
            guard checker.index == bytes.count else { throw Checker.Fault("more after the end of the JSON value", at: checker.index) }
            return nil
        } catch {
            return "\(error.what) at byte \(error.offset)"
        }
    }

    public static func problem(in bytes: some Collection<UInt8>) -> String? {
        if let problem = bytes.withContiguousStorageIfAvailable({ problem(in: UnsafeRawBufferPointer($0)) }) { return problem }
        return Array(bytes).withUnsafeBytes { problem(in: $0) }
    }

    /// Every number in `bytes` (one JSON text that `problem(in:)` passed), in document order,
    /// with where it is ("body.strokes", "body.round.standings[2].position") and its text.
    public static func numbers(in bytes: UnsafeRawBufferPointer) -> [(path: String, text: String)] {
        var walker = Walker(bytes: bytes)
        walker.value(path: "")
        return walker.found
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

    /// Reads through valid JSON only (`problem(in:)` passed), noting its numbers.
    private struct Walker {
        let bytes: UnsafeRawBufferPointer
        var index = 0
        var found: [(path: String, text: String)] = []

        init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        private mutating func skipWhitespace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D { index += 1 }
        }

        mutating func value(path: String) {
            skipWhitespace()
            guard index < bytes.count else { return }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                skipWhitespace()
                while index < bytes.count, bytes[index] != UInt8(ascii: "}") {
                    let key = string()
                    skipWhitespace()
                    index += 1  // ':'
                    value(path: path.isEmpty ? key : path + "." + key)
                    skipWhitespace()
                    if index < bytes.count, bytes[index] == UInt8(ascii: ",") { index += 1; skipWhitespace() }
                }
                index += 1
            case UInt8(ascii: "["):
                index += 1
                skipWhitespace()
                var element = 0
                while index < bytes.count, bytes[index] != UInt8(ascii: "]") {
                    value(path: path + "[\(element)]")
                    element += 1
                    skipWhitespace()
                    if index < bytes.count, bytes[index] == UInt8(ascii: ",") { index += 1; skipWhitespace() }
                }
                index += 1
            case UInt8(ascii: "\""):
                _ = string()
            case UInt8(ascii: "t"), UInt8(ascii: "n"): index += 4
            case UInt8(ascii: "f"): index += 5
            default:
                let start = index
                while index < bytes.count, !Self.ends(bytes[index]) { index += 1 }
                found.append((path, String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)))
            }
        }

        private static func ends(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
        }

        /// A string's text with its escapes read (a key's name, for the path).
        private mutating func string() -> String {
            index += 1
            var scalars = String.UnicodeScalarView()
            var pendingHigh: UInt32?
            var raw: [UInt8] = []
            func flush() {
                if !raw.isEmpty { scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars); raw.removeAll() }
            }
            while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                guard bytes[index] == UInt8(ascii: "\\") else {
                    raw.append(bytes[index])
                    index += 1
                    continue
                }
                flush()
                let kind = bytes[index + 1]
                index += 2
                switch kind {
                case UInt8(ascii: "b"): scalars.append("\u{8}")
                case UInt8(ascii: "f"): scalars.append("\u{C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    let hex = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[index..<index + 4]), as: UTF8.self)
                    index += 4
                    let unit = UInt32(hex, radix: 16) ?? 0xFFFD
                    if (0xD800...0xDBFF).contains(unit) {
                        pendingHigh = unit
                    } else if let high = pendingHigh, (0xDC00...0xDFFF).contains(unit) {
                        scalars.append(Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00)) ?? "\u{FFFD}")
                        pendingHigh = nil
                    } else {
                        scalars.append(Unicode.Scalar(unit) ?? "\u{FFFD}")
                    }
                default: scalars.append(Unicode.Scalar(kind))
                }
            }
            flush()
            index += 1
            return String(scalars)
        }
    }

    private struct Checker {
        struct Fault: Error {
            let what: String
            let offset: Int
            init(_ what: String, at offset: Int) { (self.what, self.offset) = (what, offset) }
        }

        let bytes: UnsafeRawBufferPointer
        var index = 0

        init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        private var next: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipWhitespace() {
            while let byte = next, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        private func unexpected(_ expected: String) -> Fault {
            guard let byte = next else { return Fault("the text ends where \(expected) was expected", at: index) }
            let shown = byte >= 0x21 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(hex(byte))"
            return Fault("\(shown) where \(expected) was expected", at: index)
        }

        mutating func value(depth: Int) throws(Fault) {
            guard let byte = next else { throw unexpected("a value") }
            switch byte {
            case UInt8(ascii: "{"): try object(depth: depth + 1)
            case UInt8(ascii: "["): try array(depth: depth + 1)
            case UInt8(ascii: "\""): try string()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
            default: throw unexpected("a value")
            }
        }

        private mutating func object(depth: Int) throws(Fault) {
            guard depth <= JSONSyntax.maxDepth else { throw Fault("arrays and objects nested deeper than \(JSONSyntax.maxDepth) levels", at: index) }
            index += 1
            skipWhitespace()
            if next == UInt8(ascii: "}") { index += 1; return }
            while true {
                guard next == UInt8(ascii: "\"") else { throw unexpected("a key (a string)") }
                try string()
                skipWhitespace()
                guard next == UInt8(ascii: ":") else { throw unexpected("':' after a key") }
                index += 1
                skipWhitespace()
                try value(depth: depth)
                skipWhitespace()
                if next == UInt8(ascii: ",") {
                    index += 1
                    skipWhitespace()
                    continue
                }
                guard next == UInt8(ascii: "}") else { throw unexpected("',' or '}' in an object") }
                index += 1
                return
            }
        }

        private mutating func array(depth: Int) throws(Fault) {
            guard depth <= JSONSyntax.maxDepth else { throw Fault("arrays and objects nested deeper than \(JSONSyntax.maxDepth) levels", at: index) }
            index += 1
            skipWhitespace()
            if next == UInt8(ascii: "]") { index += 1; return }
            while true {
                try value(depth: depth)
                skipWhitespace()
                if next == UInt8(ascii: ",") {
                    index += 1
                    skipWhitespace()
                    continue
                }
                guard next == UInt8(ascii: "]") else { throw unexpected("',' or ']' in an array") }
                index += 1
                return
            }
        }

        private mutating func literal(_ word: StaticString) throws(Fault) {
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

        private mutating func number() throws(Fault) {
            let start = index
            if next == UInt8(ascii: "-") { index += 1 }
            let first = index
            let whole = digits()
            guard whole > 0 else { throw Fault("a '-' without digits after it", at: start) }
            guard !(whole > 1 && bytes[first] == UInt8(ascii: "0")) else { throw Fault("a number with a leading zero", at: start) }
            if next == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { throw Fault("a number with no digits after its '.'", at: start) }
            }
            if next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
                index += 1
                if next == UInt8(ascii: "+") || next == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { throw Fault("a number with no digits in its exponent", at: start) }
            }
        }

        private mutating func string() throws(Fault) {
            index += 1
            while true {
                guard let byte = next else { throw Fault("a string that is not closed", at: index) }
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return
                case UInt8(ascii: "\\"):
                    try escape()
                case 0x00..<0x20:
                    throw Fault("a raw control character (0x\(hex(byte))) inside a string (write it as \\u00\(hex(byte)))", at: index)
                case 0x20..<0x80:
                    index += 1
                default:
                    try scalar()
                }
            }
        }

        private mutating func escape() throws(Fault) {
            let start = index
            index += 1
            guard let kind = next else { throw Fault("a string that is not closed", at: index) }
            switch kind {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                 UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                index += 1
            case UInt8(ascii: "u"):
                let unit = try hexEscape(at: start)
                if (0xDC00...0xDFFF).contains(unit) { throw Fault("a low surrogate (\\u\(hex16(unit))) with no high surrogate before it", at: start) }
                if (0xD800...0xDBFF).contains(unit) {
                    guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw Fault("a high surrogate (\\u\(hex16(unit))) not followed by a low one", at: start)
                    }
                    let low = try hexEscape(at: index)
                    guard (0xDC00...0xDFFF).contains(low) else {
                        throw Fault("a high surrogate (\\u\(hex16(unit))) not followed by a low one", at: start)
                    }
                }
            default:
                throw Fault("an unknown escape '\\\(Character(Unicode.Scalar(kind)))' (allowed: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)", at: start)
            }
        }

        /// `\uXXXX` starting at `start` (the backslash): its code unit.
        private mutating func hexEscape(at start: Int) throws(Fault) -> UInt16 {
            index = start + 2
            guard bytes.count - index >= 4 else { throw Fault("a \\u escape without four hex digits", at: start) }
            var unit: UInt16 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw Fault("a \\u escape without four hex digits", at: start)
                }
                unit = unit << 4 | UInt16(digit)
                index += 1
            }
            return unit
        }

        /// One multi-byte UTF-8 scalar (the shortest form, no surrogates, at most U+10FFFF).
        private mutating func scalar() throws(Fault) {
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
                throw Fault("bytes that are not UTF-8 inside a string", at: index)
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
