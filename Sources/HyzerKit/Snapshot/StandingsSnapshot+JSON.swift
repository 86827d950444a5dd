import Foundation

extension StandingsSnapshot {
    /// `standings.json` as `HyzerJSON.encoder(pretty: true)` writes it, byte for byte (sorted
    /// keys, two-space indent, `"key" : value`, slashes unescaped), written directly.
    ///
    /// The hub writes the file after every change, and Foundation's encoder (keyed containers,
    /// boxing, sorting each object's keys) pays for every player: a large round would take longer
    /// to export than a batch of its scores takes to store. A test compares this with
    /// the encoder for random snapshots, names with quotes, backslashes and control characters
    /// included, so the two cannot drift apart.
    public func prettyJSON() -> Data { Data(jsonBytes(pretty: true)) }

    /// The snapshot as `HyzerJSON.encoder()` writes it (sorted keys, no whitespace, slashes
    /// unescaped), byte for byte: the body of the link's standings push.
    public func compactJSON() -> [UInt8] { jsonBytes(pretty: false) }

    private func jsonBytes(pretty: Bool) -> [UInt8] {
        let shown = round ?? finishedRound
        var out = JSONBytes(capacity: (pretty ? 512 : 256) + (shown?.standings.count ?? 0) * (pretty ? 420 : 300) + (shown?.holes.count ?? 0) * 50,
                            pretty: pretty)
        out.object(indent: 0) { out in
            // Keys in sorted order, as the encoder writes them; `finishedRound` only when there is one.
            if let finishedRound {
                out.key("finishedRound", first: true)
                finishedRound.write(to: &out)
                out.key("hubID")
            } else {
                out.key("hubID", first: true)
            }
            out.string(hubID)
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
                    out.key("disputes")
                    out.array(standing.disputes, indent: 5) { out, dispute in
                        out.object(indent: 5) { out in
                            out.key("claims", first: true)
                            out.array(dispute.claims, indent: 7) { out, claim in
                                out.object(indent: 7) { out in
                                    out.key("deviceID", first: true); out.string(claim.deviceID)
                                    out.key("eventID"); out.uuid(claim.eventID)
                                    out.key("reportedByPlayerID"); out.string(claim.reportedByPlayerID)
                                    out.key("strokes"); out.integer(claim.strokes)
                                }
                            }
                            out.key("hole"); out.integer(dispute.hole)
                        }
                    }
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
