import Foundation

extension UUID {
    /// A version 7 UUID (RFC 9562): the Unix time of `date` in milliseconds in the first 48 bits,
    /// then the version, 74 random bits and the variant.
    ///
    /// Score events get these ids. Ids made later sort later, in bytes and in `canonicalString`
    /// text, so the log's unique index on `score_event.id` grows at its end as the round goes on
    /// instead of at a random place for every event (a random version 4 id touches a different
    /// index page each time). Ids made in the same millisecond differ in their random bits only;
    /// nothing relies on their order, only on their being distinct.
    public static func timeOrdered(at date: Date) -> UUID {
        var generator = SystemRandomNumberGenerator()
        let seconds = date.timeIntervalSince1970
        // Before 1970 or past the 48 bits (the year 10889) the time is clamped: still a valid id.
        let milliseconds = seconds.isFinite ? UInt64(max(0, min((seconds * 1000).rounded(.down), Double(UInt64(1) << 48 - 1)))) : 0
        let high = generator.next() as UInt64, low = generator.next() as UInt64
        // Bytes 0–5: the time; 6: version 7 and 4 random bits; 7: random; 8: variant 10 and 6 random bits; 9–15: random.
        let first = milliseconds << 16 | 0x7000 | (high & 0x0FFF)
        let second = 0x8000_0000_0000_0000 | (low & 0x3FFF_FFFF_FFFF_FFFF)
        let a = first.bigEndian, b = second.bigEndian
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &value) { out in
            withUnsafeBytes(of: a) { out.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: 8) }
            withUnsafeBytes(of: b) { (out.baseAddress! + 8).copyMemory(from: $0.baseAddress!, byteCount: 8) }
        }
        return UUID(uuid: value)
    }
}
