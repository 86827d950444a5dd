import Foundation
import HyzerKit
import HyzerStorage
import Logging
import NIOConcurrencyHelpers

/// The watch's outbox (WCSession `transferUserInfo` semantics): an event is on disk before the
/// user is told "saved", leaves in FIFO order, and is removed only when the hub has acked it.
///
/// One journal file, `<outbox>/journal`, one line a record: `Q <crc32> <event JSON>` when a score
/// is queued (written and `fdatasync`ed before `enqueue` returns: one durable append a Save) and
/// `A <crc32> <event id>` when the hub has acked it (not synced: if a crash loses it, the event is
/// sent again and the hub, which deduplicates by id, acks it as already stored). The CRC-32 (8 hex
/// digits) is of what follows it. When the queue empties and the journal has grown past
/// `emptiesPast` bytes, the journal is emptied; on open it is rewritten to hold just what is still
/// queued. (Not truncated at every ack: that would make the link's thread wait on the file
/// system's journal just as the new standings arrive.)
///
/// A kill at any instant leaves every event either wholly queued or not queued at all: a last line
/// cut off mid-write was never confirmed to the user and is dropped. A whole line that does not
/// check out (the disk changed it) is moved to `<outbox>-quarantine/` with its reason, never
/// silently dropped. One file per event, `<sequence>-<event id>.json` (how earlier versions kept the
/// outbox), is still read and moved into the journal.
public final class DurableOutbox: Sendable {
    public let directory: URL
    /// The queue as it is in memory, for readers; a write holds `journal` and then this.
    private let state: NIOLockedValueBox<State>
    /// Held across each durable write, so records reach the journal in queue order.
    private let journal: NIOLockedValueBox<AppendOnlyFile>

    private struct State {
        var queue: [ScoreEvent]
        /// Acks not in the journal yet: an ack never waits for a Save's sync, whoever holds the
        /// journal next writes them (and one lost in a crash only means a resend).
        var unwrittenAcks: [UUID] = []
        /// Writers holding or waiting for `journal`. Each writes the unwritten acks before it
        /// leaves, so an ack made while one is there is left to it.
        var writers = 0
    }
    private let logger = Logger(label: "hyzer.watch.outbox")

    public static let journalName = "journal"

    /// Where unreadable outbox records go (`<outbox>-quarantine/`), each with a `.reason` beside it.
    public var quarantineDirectory: URL { Self.quarantineDirectory(for: directory) }

    static func quarantineDirectory(for directory: URL) -> URL {
        directory.deletingLastPathComponent().appendingPathComponent(directory.lastPathComponent + "-quarantine", isDirectory: true)
    }

    /// Saved scores that could not be read back and were moved to the quarantine, ever.
    public var quarantined: Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: quarantineDirectory.path)) ?? []).filter { $0.hasSuffix(".json") }.count
    }

    /// The journal is emptied once the queue is empty and it holds more than this many bytes.
    public let emptiesPast: Int

    public static let defaultEmptiesPast = 64 * 1024

    public init(directory: URL, emptiesPast: Int = DurableOutbox.defaultEmptiesPast) throws {
        self.directory = directory
        self.emptiesPast = emptiesPast
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let contents = try Self.read(directory)
        var movedAside: [String] = []
        var allMoved = true
        for unreadable in contents.unreadable {
            do {
                try Self.quarantine(unreadable, in: directory)
                movedAside.append(unreadable.name)
            } catch {
                allMoved = false
                logger.error("an unreadable outbox record could not be moved aside; it stays in the outbox", metadata: ["record": "\(unreadable.name)", "error": "\(error)"])
            }
        }
        if contents.cutOff {
            logger.notice("the outbox journal ended in a record cut off mid-write (a Save that never finished); it was not queued")
        }
        let journalURL = directory.appendingPathComponent(Self.journalName)
        // The journal is rewritten to hold just the queue whenever it holds anything else (acks, a
        // cut-off or unreadable line, files of the earlier format), then the old files go. Only
        // when every unreadable line is safe in the quarantine, and only as housekeeping: a full or
        // read-only disk leaves the journal as it is (its reading above is what counts) and the
        // watch still starts, shows the standings and delivers.
        if contents.needsRewrite && allMoved {
            do {
                if contents.events.isEmpty {
                    if unlink(journalURL.path) != 0 && errno != ENOENT { throw DurableFileError.failed("remove", journalURL.path, errno) }
                } else {
                    try DurableFile.replace(journalURL, with: contents.events.reduce(into: Data()) { $0.append(Self.record(queued: $1)) })
                }
                for name in contents.legacyFiles {
                    if unlink(directory.appendingPathComponent(name).path) != 0 && errno != ENOENT {
                        throw DurableFileError.failed("remove", directory.appendingPathComponent(name).path, errno)
                    }
                }
                try DurableFile.syncDirectory(directory)
            } catch {
                logger.error("the outbox journal could not be tidied; it is used as it is", metadata: ["error": "\(error)"])
            }
        }
        self.state = NIOLockedValueBox(State(queue: contents.events))
        self.journal = NIOLockedValueBox(AppendOnlyFile(url: journalURL))
        if !movedAside.isEmpty {
            logger.error("\(movedAside.count) saved score(s) could not be read back and were moved to \(Self.quarantineDirectory(for: directory).path)",
                         metadata: ["records": "\(movedAside.joined(separator: ", "))"])
        }
    }

    deinit { journal.withLockedValue { $0.close() } }

    /// Writes the event durably; when this returns, the event survives a crash.
    ///
    /// Readers of the queue never wait for the disk: only writers take the journal's lock.
    public func enqueue(_ event: ScoreEvent, whenWritten: @Sendable () -> Void = {}) throws {
        let record = Self.record(queued: event)
        state.withLockedValue { $0.writers += 1 }
        try journal.withLockedValue { journal in
            defer { writeAcks(&journal) }
            do {
                try journal.append(record, sync: true) {
                    state.withLockedValue { $0.queue.append(event) }
                    whenWritten()
                }
            } catch {
                // The record is cut back off the journal. Acked while it synced, the hub holds it
                // committed: saved after all. Otherwise it leaves the queue, not saved.
                let acked = state.withLockedValue { state -> Bool in
                    guard let index = state.queue.firstIndex(where: { $0.id == event.id }) else { return state.unwrittenAcks.contains(event.id) }
                    state.queue.remove(at: index)
                    return false
                }
                if !acked { throw error }
            }
        }
    }

    /// The oldest event not yet acked.
    public var head: ScoreEvent? { state.withLockedValue { $0.queue.first } }

    public var pending: [ScoreEvent] { state.withLockedValue { $0.queue } }

    public var count: Int { state.withLockedValue { $0.queue.count } }

    /// Removes an acked (or rejected and logged) event. Nothing is synced: see the type's comment.
    /// Never waits for a Save's sync: while one holds the journal, it writes this ack after.
    public func remove(_ id: UUID) throws {
        let writeNow = state.withLockedValue { state -> Bool in
            guard let index = state.queue.firstIndex(where: { $0.id == id }) else { return false }
            state.queue.remove(at: index)
            state.unwrittenAcks.append(id)
            guard state.writers == 0 else { return false }
            state.writers += 1
            return true
        }
        if writeNow { journal.withLockedValue { writeAcks(&$0) } }
    }

    /// Writes the acks not yet in the journal, or empties it when the queue is empty and the
    /// journal has grown past `emptiesPast`, until none is left; then this writer leaves. Under
    /// the journal's lock, so the queue cannot hold less than the journal's queued records say.
    /// Failures are logged: an ack the journal lacks only means a resend the hub recognises.
    private func writeAcks(_ journal: inout AppendOnlyFile) {
        while true {
            let next = state.withLockedValue { state -> (acks: [UUID], empty: Bool)? in
                guard !state.unwrittenAcks.isEmpty else {
                    state.writers -= 1
                    return nil
                }
                defer { state.unwrittenAcks = [] }
                return (state.unwrittenAcks, state.queue.isEmpty)
            }
            guard let (acks, empty) = next else { return }
            do {
                if empty, journal.length > emptiesPast {
                    try journal.removeAll()
                } else {
                    for id in acks { try journal.append(Self.record(acked: id), sync: false) }
                }
            } catch {
                logger.error("an ack could not be written to the outbox journal; that score will be sent again and recognised", metadata: ["error": "\(error)"])
            }
        }
    }

    /// What an outbox directory holds, read without changing anything: for tools and tests that
    /// look at a watch's outbox from outside (another process may be writing it).
    public static func pendingEvents(in directory: URL) throws -> [ScoreEvent] {
        try read(directory).events
    }

    // MARK: The journal's records

    /// The event's JSON as the link sends it (`ScoreEvent.compactJSON`, what `HyzerJSON.encoder()`
    /// writes): written directly, as the record is made on the Save chain.
    static func record(queued event: ScoreEvent) -> Data {
        line(UInt8(ascii: "Q"), event.compactJSON())
    }

    static func record(acked id: UUID) -> Data {
        line(UInt8(ascii: "A"), Array(id.canonicalString.utf8))
    }

    private static func line(_ kind: UInt8, _ payload: [UInt8]) -> Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(payload.count + 12)
        bytes.append(kind)
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: CRC32.hex(CRC32.checksum(payload)))
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: payload)
        bytes.append(0x0A)
        return Data(bytes)
    }

    struct Unreadable {
        /// What it is called in the quarantine (`<name>` and `<name>.reason`).
        let name: String
        let bytes: Data
        let reason: String
        /// An earlier format's file, moved rather than copied.
        let legacyFile: Bool
    }

    struct Contents {
        var events: [ScoreEvent] = []
        var unreadable: [Unreadable] = []
        var legacyFiles: [String] = []
        var cutOff = false
        var needsRewrite = false
    }

    /// Reads the earlier format's files (in sequence order), then the journal.
    static func read(_ directory: URL) throws -> Contents {
        var contents = Contents()
        // An event is queued once, however many records name it (a kill while the earlier
        // format's files were being moved in leaves them in both).
        var seen = Set<UUID>()
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        for name in names {
            let url = directory.appendingPathComponent(name)
            if name.hasPrefix(".") {
                // A temp file from a write that was cut off (a DurableFile.replace, or the earlier format's): never queued.
                if name.hasSuffix(".tmp") {
                    contents.needsRewrite = true
                    contents.legacyFiles.append(name)
                }
                continue
            }
            guard name.hasSuffix(".json"), Int(name.prefix { $0 != "-" }) != nil else { continue }
            contents.needsRewrite = true
            // Gone since the listing (a watch moving it into the journal while a tool looks): not here.
            guard let data = FileManager.default.contents(atPath: url.path) else { continue }
            do {
                let event = try HyzerJSON.decoder().decode(ScoreEvent.self, from: data)
                if seen.insert(event.id).inserted { contents.events.append(event) }
                contents.legacyFiles.append(name)
            } catch {
                contents.unreadable.append(Unreadable(name: name, bytes: data, reason: "\(error)", legacyFile: true))
            }
        }
        let journalURL = directory.appendingPathComponent(journalName)
        guard let data = FileManager.default.contents(atPath: journalURL.path) else { return contents }
        var acked = Set<UUID>()
        var queued: [ScoreEvent] = []
        var lines = data.split(separator: 0x0A, omittingEmptySubsequences: false)
        // The piece after the last newline: empty, or a record cut off mid-write.
        if let last = lines.popLast(), !last.isEmpty { contents.cutOff = true }
        for (number, line) in lines.enumerated() {
            // An empty line holds nothing (a newline started after a write that was taken back).
            guard !line.isEmpty else { contents.needsRewrite = true; continue }
            let record = line.last == 0x0D ? line.dropLast() : line
            switch parse(Data(record)) {
            case .queued(let event):
                if seen.insert(event.id).inserted { queued.append(event) } else { contents.needsRewrite = true }
            case .acked(let id): acked.insert(id); contents.needsRewrite = true
            case .unreadable(let reason):
                // Named by its bytes: a line quarantined again (a start that could not tidy the
                // journal) lands on its own copy instead of counting twice.
                let name = "journal-line-\(number + 1)-\(String(decoding: CRC32.hex(CRC32.checksum(line)), as: UTF8.self)).json"
                contents.unreadable.append(Unreadable(name: name, bytes: Data(line), reason: reason, legacyFile: false))
            }
        }
        contents.events = (contents.events + queued).filter { !acked.contains($0.id) }
        if contents.cutOff || !contents.unreadable.isEmpty { contents.needsRewrite = true }
        return contents
    }

    enum Record: Equatable {
        case queued(ScoreEvent)
        case acked(UUID)
        case unreadable(String)
    }

    static func parse(_ line: Data) -> Record {
        // "K xxxxxxxx payload"
        let bytes = [UInt8](line)
        guard bytes.count > 11, bytes[1] == 0x20, bytes[10] == 0x20,
              let stored = UInt32(String(decoding: bytes[2..<10], as: UTF8.self), radix: 16) else {
            return .unreadable("not an outbox record (expected \"Q|A <crc32> <payload>\")")
        }
        let payload = Data(bytes[11...])
        guard CRC32.checksum(payload) == stored else {
            return .unreadable("checksum mismatch: the record was changed on disk")
        }
        switch bytes[0] {
        case UInt8(ascii: "Q"):
            do { return .queued(try HyzerJSON.decoder().decode(ScoreEvent.self, from: payload)) } catch { return .unreadable("\(error)") }
        case UInt8(ascii: "A"):
            guard let id = UUID(canonicalString: String(decoding: payload, as: UTF8.self)) else { return .unreadable("an ack without an event id") }
            return .acked(id)
        default:
            return .unreadable("unknown record kind \(String(decoding: bytes[0..<1], as: UTF8.self))")
        }
    }

    private static func quarantine(_ record: Unreadable, in directory: URL) throws {
        let quarantineDirectory = quarantineDirectory(for: directory)
        try FileManager.default.createDirectory(at: quarantineDirectory, withIntermediateDirectories: true)
        try DurableFile.replace(quarantineDirectory.appendingPathComponent(record.name + ".reason"), with: Data((record.reason + "\n").utf8))
        if record.legacyFile {
            guard rename(directory.appendingPathComponent(record.name).path, quarantineDirectory.appendingPathComponent(record.name).path) == 0 else {
                throw DurableFileError.failed("move aside", directory.appendingPathComponent(record.name).path, errno)
            }
        } else {
            try DurableFile.replace(quarantineDirectory.appendingPathComponent(record.name), with: record.bytes)
        }
    }
}

/// `watch/rejected.jsonl`: every event the hub refused, with its reason. Nothing is dropped silently.
public struct RejectedLog: Sendable {
    public struct Entry: Codable, Equatable, Sendable {
        public let at: Date
        public let reason: Rejection.Reason
        public let message: String
        public let event: ScoreEvent
    }

    public let url: URL
    /// The device's clock (`at`): a watch whose clock was set (`hyzer-watch ctl set-clock`) dates
    /// a refusal as it dates its scores.
    let clock: @Sendable () -> Date

    public init(url: URL, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.url = url
        self.clock = clock
    }

    public func append(_ event: ScoreEvent, _ rejection: Rejection) throws {
        var line = try HyzerJSON.encoder().encode(Entry(at: clock(), reason: rejection.reason, message: rejection.message, event: event))
        line.append(0x0A)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try DurableFile.append(url, line)
    }

    public func entries() throws -> [Entry] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map {
            try HyzerJSON.decoder().decode(Entry.self, from: Data($0.utf8))
        }
    }
}
