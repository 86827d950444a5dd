import Foundation
import HyzerKit
@testable import HyzerFraming
@testable import HyzerLink
import HyzerStorage
import NIOConcurrencyHelpers
import HyzerHarness
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

    @Test("A Save's score is queued (ready to send) once its line is written, before the sync; an ack that comes during the sync is kept")
    func sendableWhileSyncing() throws {
        let home = try TemporaryHome()
        let directory = home.url.appendingPathComponent("outbox")
        let outbox = try DurableOutbox(directory: directory)
        let (first, second) = (try Self.event(1), try Self.event(2))
        let seen = NIOLockedValueBox<(head: ScoreEvent?, inFile: Bool)?>(nil)
        try outbox.enqueue(first) {
            // What the link finds when the Save tells it to send: the score, and its line in the file.
            let journal = (try? Data(contentsOf: directory.appendingPathComponent(DurableOutbox.journalName))) ?? Data()
            seen.withLockedValue { $0 = (outbox.head, String(decoding: journal, as: UTF8.self).contains(first.id.uuidString)) }
        }
        #expect(seen.withLockedValue { $0?.head } == first)
        #expect(seen.withLockedValue { $0?.inFile } == true)
        // The hub answers before the watch's own sync is done: the ack waits for the journal and is
        // written after the score's line, so a reopened outbox does not send it again.
        try outbox.enqueue(second) { try? outbox.remove(second.id) }
        #expect(outbox.pending == [first])
        #expect(try DurableOutbox(directory: directory).pending == [first])
    }

    @Test("A Save cut off mid-write (the journal's last line unfinished) leaves no event behind, and the journal is mended")
    func cutOffWrite() throws {
        let home = try TemporaryHome()
        let directory = home.url.appendingPathComponent("outbox")
        let outbox = try DurableOutbox(directory: directory)
        let kept = try Self.event(1)
        try outbox.enqueue(kept)
        let journal = directory.appendingPathComponent(DurableOutbox.journalName)
        let whole = DurableOutbox.record(queued: try Self.event(2))
        try Self.append(whole.prefix(whole.count - 9), to: journal)

        let reopened = try DurableOutbox(directory: directory)
        #expect(reopened.pending == [kept])
        #expect(try Data(contentsOf: journal) == DurableOutbox.record(queued: kept), "rewritten to what is queued")
        try reopened.enqueue(try Self.event(3))
        #expect(try DurableOutbox(directory: directory).pending.map(\.playerID) == ["p1", "p3"])
    }

    @Test("A whole journal line the disk changed is moved to the quarantine with its reason; the lines around it stay queued")
    func corruptLine() throws {
        let home = try TemporaryHome()
        let (directory, journal, events, _) = try Self.threeQueued(in: home)
        var bytes = try Data(contentsOf: journal)
        let second = DurableOutbox.record(queued: events[0]).count + 30
        bytes[second] = bytes[second] == 0x41 ? 0x42 : 0x41
        try bytes.write(to: journal)

        let reopened = try DurableOutbox(directory: directory)
        #expect(reopened.pending == [events[0], events[2]])
        #expect(reopened.quarantined == 1)
        let moved = try FileManager.default.contentsOfDirectory(atPath: reopened.quarantineDirectory.path).sorted()
        #expect(moved.count == 2 && moved[0].hasPrefix("journal-line-2-") && moved[0].hasSuffix(".json") && moved[1] == moved[0] + ".reason")
        let reason = try String(contentsOf: reopened.quarantineDirectory.appendingPathComponent(moved[1]), encoding: .utf8)
        #expect(reason == "checksum mismatch: the record was changed on disk\n")
        #expect(try DurableOutbox(directory: directory).quarantined == 1, "moved once, not at every start")
    }

    @Test("An outbox kept as one file per event (the earlier format) is moved into the journal in its order, and the files go")
    func earlierFormat() throws {
        let home = try TemporaryHome()
        let directory = home.url.appendingPathComponent("outbox")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let events = try (1...3).map(Self.event)
        for (index, event) in events.enumerated().reversed() {
            let name = String(format: "%020d-", index + 1) + event.id.uuidString + ".json"
            try HyzerJSON.encoder().encode(event).write(to: directory.appendingPathComponent(name))
        }
        try Data("{\"id\":".utf8).write(to: directory.appendingPathComponent(".00000000000000000004-x.json.123.tmp"))

        let outbox = try DurableOutbox(directory: directory)
        #expect(outbox.pending == events)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [DurableOutbox.journalName])
        #expect(try DurableOutbox.pendingEvents(in: directory) == events)
    }

    @Test("Acks are journalled without a sync; a small journal keeps its settled lines when the queue empties, and the next start tidies it")
    func acksAndEmptying() throws {
        let home = try TemporaryHome()
        let (directory, journal, events, outbox) = try Self.threeQueued(in: home)
        try outbox.remove(events[0].id)
        let lines = try String(contentsOf: journal, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 4 && lines[3].hasPrefix("A ") && lines[3].hasSuffix(events[0].id.uuidString))
        #expect(try DurableOutbox.pendingEvents(in: directory) == Array(events[1...]))
        try outbox.remove(events[2].id)
        try outbox.remove(events[1].id)
        #expect(try String(contentsOf: journal, encoding: .utf8).split(separator: "\n").count == 6)
        #expect(try DurableOutbox.pendingEvents(in: directory) == [])
        let reopened = try DurableOutbox(directory: directory)
        #expect(reopened.pending == [])
        #expect(!FileManager.default.fileExists(atPath: journal.path))
    }

    @Test("Once the queue is empty and the journal has grown past its bound, the journal is emptied")
    func emptiedPastBound() throws {
        let home = try TemporaryHome()
        let directory = home.url.appendingPathComponent("outbox")
        let outbox = try DurableOutbox(directory: directory, emptiesPast: 500)
        let journal = directory.appendingPathComponent(DurableOutbox.journalName)
        let events = try (1...3).map(Self.event)
        for event in events { try outbox.enqueue(event) }
        try outbox.remove(events[0].id)
        try outbox.remove(events[1].id)
        #expect(try Data(contentsOf: journal).count > 500)
        try outbox.remove(events[2].id)
        #expect(try Data(contentsOf: journal).isEmpty)
        try outbox.enqueue(events[0])
        #expect(try DurableOutbox.pendingEvents(in: directory) == [events[0]])
    }

    @Test("An event named twice (a kill while the earlier format was being moved in) is queued once; an ack anywhere settles it; empty and CRLF lines are no loss")
    func duplicatesAndOddLines() throws {
        let home = try TemporaryHome()
        let directory = home.url.appendingPathComponent("outbox")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let events = try (1...3).map(Self.event)
        for (index, event) in events.prefix(2).enumerated() {
            try HyzerJSON.encoder().encode(event).write(to: directory.appendingPathComponent(String(format: "%020d-", index + 1) + event.id.uuidString + ".json"))
        }
        var journal = Data()
        for event in events { journal.append(DurableOutbox.record(queued: event)) }
        journal.append(Data("\n".utf8))
        var crlf = DurableOutbox.record(acked: events[0].id)
        crlf.insert(0x0D, at: crlf.count - 1)
        journal.append(crlf)
        try journal.write(to: directory.appendingPathComponent(DurableOutbox.journalName))

        #expect(try DurableOutbox.pendingEvents(in: directory) == Array(events[1...]))
        let outbox = try DurableOutbox(directory: directory)
        #expect(outbox.pending == Array(events[1...]))
        #expect(outbox.quarantined == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [DurableOutbox.journalName])
    }

    @Test("A journal left ending mid-line gets its next record on a line of its own")
    func appendAfterCutOff() throws {
        let home = try TemporaryHome()
        let url = home.url.appendingPathComponent("lines")
        try Data("Q 0000 half a rec".utf8).write(to: url)
        var file = AppendOnlyFile(url: url)
        try file.append(Data("whole\n".utf8), sync: true)
        try file.append(Data("next\n".utf8), sync: false)
        #expect(try String(contentsOf: url, encoding: .utf8) == "Q 0000 half a rec\nwhole\nnext\n")
    }

    /// An outbox in `home` with three events queued, and its journal.
    static func threeQueued(in home: TemporaryHome) throws -> (directory: URL, journal: URL, events: [ScoreEvent], outbox: DurableOutbox) {
        let directory = home.url.appendingPathComponent("outbox")
        let events = try (1...3).map(Self.event)
        let outbox = try DurableOutbox(directory: directory)
        for event in events { try outbox.enqueue(event) }
        return (directory, directory.appendingPathComponent(DurableOutbox.journalName), events, outbox)
    }

    static func append(_ data: Data, to url: URL) throws {
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: data)
        try handle.close()
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

extension DurableOutboxTests {
    @Test("Saves and acks from many threads at once: a reopened outbox holds exactly the scores not acked, in order")
    func concurrentSavesAndAcks() async throws {
        let home = try TemporaryHome()
        let directory = home.url.appendingPathComponent("outbox")
        let outbox = try DurableOutbox(directory: directory)
        let threads = 4, each = 50
        let saved = NIOLockedValueBox<[ScoreEvent]>([])
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<threads {
                group.addTask {
                    for n in 0..<each {
                        let event = try! Self.event(thread * 1_000 + n)
                        try! outbox.enqueue(event)
                        saved.withLockedValue { $0.append(event) }
                        // Every other score, the last one included, is acked by another thread while Saves go on.
                        if n % 2 == 1 { Task.detached { try! outbox.remove(event.id) } }
                    }
                }
            }
        }
        let acked = Set(saved.withLockedValue { $0 }.filter { Int($0.playerID.dropFirst())! % 2 == 1 }.map(\.id))
        #expect(await eventually { outbox.count == threads * each - acked.count })
        let left = outbox.pending
        #expect(try DurableOutbox(directory: directory).pending == left)
        #expect(Set(left.map(\.id)).isDisjoint(with: acked))
    }
}
