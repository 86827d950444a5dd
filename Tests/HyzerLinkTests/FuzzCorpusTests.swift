import Foundation
import HyzerFraming
import HyzerKit
import NIOCore
import Testing

/// The fuzzers' seeds (tools/fuzz/corpus/TARGET), fed to what each harness feeds them to. The
/// fuzzing itself is `tools/fuzz/run`'s (libFuzzer with sanitizers, a build of its own); here every
/// input committed there, the seeds and any crash input added after its fix, is a case of the suite.
@Suite("The fuzzers' corpus, replayed")
struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("tools/fuzz/corpus")

    static func inputs(_ target: String) throws -> [(name: String, bytes: [UInt8])] {
        let folder = corpus.appendingPathComponent(target)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        return try names.map { ($0, Array(try Data(contentsOf: folder.appendingPathComponent($0)))) }
    }

    @Test("FuzzFrames: each seed is one frame the watch side decodes, and it encodes to the same message")
    func frames() throws {
        let seeds = try Self.inputs("FuzzFrames")
        #expect(seeds.count >= 8, "one seed per message type")
        for seed in seeds {
            var buffer = ByteBuffer(bytes: seed.bytes)
            let message = try #require(try LinkFrame.decode(from: &buffer, maxFrameBytes: 64 * 1024), "\(seed.name)")
            #expect(buffer.readableBytes == 0, "\(seed.name): one frame")
            var again = ByteBuffer(bytes: try LinkFrame.encode(message))
            #expect(try LinkFrame.decode(from: &again, maxFrameBytes: 64 * 1024) == message, "\(seed.name)")
        }
    }

    @Test("FuzzHubFrames: each seed's body is read by the hub side as a message or a score, none refused")
    func hubFrames() throws {
        for seed in try Self.inputs("FuzzHubFrames") {
            let inbound = try HubFrameDecoder.inbound(in: ByteBuffer(bytes: seed.bytes))
            if case .unacceptableScore(_, let reason, let message) = inbound { Issue.record("\(seed.name): \(reason) \(message)") }
        }
    }

    @Test("FuzzSnapshot: the standings file, the score and the timestamp read, and a snapshot writes again as it was read")
    func snapshot() throws {
        let seeds = Dictionary(uniqueKeysWithValues: try Self.inputs("FuzzSnapshot").map { ($0.name, Data($0.bytes)) })
        let standings = try #require(seeds["standings.json"])
        let snapshot = try HyzerJSON.decoder().decode(StandingsSnapshot.self, from: standings)
        #expect(try HyzerJSON.decoder().decode(StandingsSnapshot.self, from: HyzerJSON.encoder().encode(snapshot)) == snapshot)
        _ = try HyzerJSON.decoder().decode(ScoreEvent.self, from: try #require(seeds["score.json"]))
        let timestamp = String(decoding: try #require(seeds["timestamp"]), as: UTF8.self)
        let date = try #require(HyzerJSON.parseTimestamp(timestamp))
        #expect(HyzerJSON.formatTimestamp(date) == timestamp)
    }
}
