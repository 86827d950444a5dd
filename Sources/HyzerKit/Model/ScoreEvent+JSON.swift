import Foundation

extension ScoreEvent {
    /// The event as `HyzerJSON.encoder()` writes it (sorted keys, no whitespace, slashes
    /// unescaped), byte for byte, written directly: the watch's outbox record and the link's
    /// `score` body.
    ///
    /// Both are on the Save chain, one after the other (the record is written before the score is
    /// sent, and the score's frame is encoded before it leaves), and Foundation's encoder is slow
    /// on a cold core. A test compares this with the encoder for random events,
    /// ids with quotes, backslashes and non-ASCII text included, so the two cannot drift apart.
    public func compactJSON() -> [UInt8] {
        var out = JSONBytes(capacity: 320 + playerID.utf8.count + reportedByPlayerID.utf8.count + deviceID.utf8.count, pretty: false)
        out.object(indent: 0) { out in
            out.key("createdAt", first: true); out.string(HyzerJSON.formatTimestamp(createdAt))
            out.key("deviceID"); out.string(deviceID)
            out.key("hole"); out.integer(hole)
            out.key("id"); out.uuid(id)
            out.key("playerID"); out.string(playerID)
            out.key("reportedByPlayerID"); out.string(reportedByPlayerID)
            out.key("roundID"); out.uuid(roundID)
            out.key("source"); out.string(source.rawValue)
            out.key("strokes"); out.integer(strokes)
            out.key("supersedesEventID"); out.optionalUUID(supersedesEventID)
        }
        return out.bytes
    }
}
