import Foundation
import HyzerKit
@testable import HyzerLink
import HyzerTestSupport
import Testing

@Suite("Durable outbox")
struct DurableOutboxTests {
    static func event(_ n: Int) throws -> ScoreEvent {
        try ScoreEvent(roundID: UUID(), playerID: "p\(n)", hole: 1, strokes: 3, reportedByPlayerID: "p",
                       deviceID: "watch-1", source: .crown, createdAt: Date(timeIntervalSince1970: Double(n)))
    }

    @Test("Events leave in the order they were queued, and a reopened outbox holds exactly what was not removed")
    func fifoAcrossReopen() throws {
        let home = try TemporaryHome()
        let directory = home.url.appendingPathComponent("outbox")
        let events = try (1...12).map(Self.event)
        let outbox = try DurableOutbox(directory: directory)
        for event in events { try outbox.enqueue(event) }
        try outbox.remove(events[0].id)
        try outbox.remove(events[5].id)
        #expect(outbox.head == events[1])

        let reopened = try DurableOutbox(directory: directory)
        #expect(reopened.pending == events.enumerated().filter { ![0, 5].contains($0.offset) }.map(\.element))
        try reopened.enqueue(try Self.event(99))
        #expect(try DurableOutbox(directory: directory).pending.last?.playerID == "p99")
    }

    @Test("A write cut off before its rename leaves no event behind, and its temp file is cleaned up")
    func cutOffWrite() throws {
        let home = try TemporaryHome()
        let directory = home.url.appendingPathComponent("outbox")
        let outbox = try DurableOutbox(directory: directory)
        try outbox.enqueue(try Self.event(1))
        try Data("{\"id\":".utf8).write(to: directory.appendingPathComponent(".00000000000000000002-x.json.123.tmp"))
        let reopened = try DurableOutbox(directory: directory)
        #expect(reopened.count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).count == 1)
    }

    @Test("Removing an id that is not queued changes nothing")
    func removeUnknown() throws {
        let home = try TemporaryHome()
        let outbox = try DurableOutbox(directory: home.url.appendingPathComponent("outbox"))
        try outbox.enqueue(try Self.event(1))
        try outbox.remove(UUID())
        #expect(outbox.count == 1)
    }
}
