import Foundation
import HyzerKit

/// The watch's reading of standings.json (and of any JSON the hub's formats use): a snapshot or
/// an error, never a crash; timestamps parse or are refused.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    if let snapshot = try? HyzerJSON.decoder().decode(StandingsSnapshot.self, from: data) {
        _ = try? HyzerJSON.encoder().encode(snapshot)
    }
    _ = try? HyzerJSON.decoder().decode(ScoreEvent.self, from: data)
    if let text = String(data: data, encoding: .utf8), let date = HyzerJSON.parseTimestamp(text) {
        _ = HyzerJSON.formatTimestamp(date)
    }
    return 0
}
