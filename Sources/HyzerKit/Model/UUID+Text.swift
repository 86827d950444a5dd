import Foundation

extension UUID {
    /// The text `uuidString` writes (upper-case hex, 8-4-4-4-12), written directly: Foundation
    /// formats it through `snprintf`, and the hub writes three for every event it stores (its id,
    /// its round's, the one it supersedes).
    public var canonicalString: String {
        String(unsafeUninitializedCapacity: 36) { writeCanonical(into: $0) }
    }

    /// The same text's bytes, written on the stack and handed to `body` (valid only inside it):
    /// for a caller that copies them somewhere, without making a `String` first.
    public func withCanonicalUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 36) { text in
            try body(UnsafeBufferPointer(rebasing: text[..<writeCanonical(into: text)]))
        }
    }

    private func writeCanonical(into text: UnsafeMutableBufferPointer<UInt8>) -> Int {
        withUnsafeBytes(of: uuid) { bytes in
            var at = 0
            for (index, byte) in bytes.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    text[at] = UInt8(ascii: "-")
                    at += 1
                }
                text[at] = Self.hexDigit(byte >> 4)
                text[at + 1] = Self.hexDigit(byte & 0x0F)
                at += 2
            }
            return at
        }
    }

    /// The one UUID parser (every id the hub, a watch or a phone reads goes through it): the
    /// 8-4-4-4-12 hex text in either case, and nothing else (Foundation's `UUID(uuidString:)`
    /// takes a space, a sign or `0x` inside a group); nil for anything else.
    public init?(canonicalString text: String) {
        var text = text
        guard let parsed = text.withUTF8(Self.parse) else { return nil }
        self = parsed
    }

    /// The same from the text's UTF-8 bytes (a reader that has them without a `String`).
    public init?(canonicalUTF8 bytes: UnsafeRawBufferPointer) {
        guard let parsed = Self.parse(bytes.assumingMemoryBound(to: UInt8.self)) else { return nil }
        self = parsed
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> UUID? {
        guard bytes.count == 36 else { return nil }
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let valid = withUnsafeMutableBytes(of: &value) { out -> Bool in
            var at = 0
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    guard bytes[at] == UInt8(ascii: "-") else { return false }
                    at += 1
                }
                guard let high = nibble(bytes[at]), let low = nibble(bytes[at + 1]) else { return false }
                out[index] = high << 4 | low
                at += 2
            }
            return true
        }
        return valid ? UUID(uuid: value) : nil
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}

extension SingleValueDecodingContainer {
    /// A UUID as the schemas write one, 8-4-4-4-12 hex digits in either case, and nothing else.
    /// Foundation's `UUID` reads each pair of digits with `sscanf`, which takes a space, a sign or
    /// `0x` (`" 1111111-…"` read as `11111101-…`): an id sent one way would be kept as another.
    func decodeStrictUUID() throws -> UUID {
        let text = try decode(String.self)
        guard let value = UUID(canonicalString: text) else {
            throw DecodingError.dataCorruptedError(in: self, debugDescription: "\"\(text)\" is not a UUID (8-4-4-4-12 hex digits)")
        }
        return value
    }
}

extension KeyedDecodingContainer {
    /// The value at `key` read by `decodeStrictUUID`.
    func strictUUID(forKey key: Key) throws -> UUID {
        try superDecoder(forKey: key).singleValueContainer().decodeStrictUUID()
    }
}

