import Foundation

/// CRC-32 (IEEE 802.3, the polynomial PNG and zlib use): a record's checksum in the watch's
/// outbox journal and a chunk's in an animated PNG.
public enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    public static func checksum<Bytes: Sequence>(_ bytes: Bytes) -> UInt32 where Bytes.Element == UInt8 {
        if let crc = bytes.withContiguousStorageIfAvailable({ checksum(UnsafeRawBufferPointer($0)) }) { return crc }
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    /// Over memory: a generic called from another module runs unspecialized, a witness call per
    /// byte (an outbox record's checksum is on the Save chain).
    public static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        table.withUnsafeBufferPointer { table in
            for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        return crc ^ 0xFFFF_FFFF
    }

    /// `checksum` as the outbox journal writes it: 8 lower-case hex digits.
    public static func hex(_ crc: UInt32) -> [UInt8] {
        (0..<8).map { index in
            let digit = UInt8((crc >> (28 - 4 * UInt32(index))) & 0xF)
            return digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
        }
    }
}
