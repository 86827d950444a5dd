import Foundation
import HyzerKit
import HyzerStorage
import Logging
import NIOConcurrencyHelpers

/// The watch's outbox (WCSession `transferUserInfo` semantics): an event is on disk before the
/// user is told "saved", leaves in FIFO order, and is removed only when the hub has acked it.
///
/// One file per event, `<sequence>-<event id>.json`, each written by temp file + fsync + rename +
/// directory fsync: a kill at any instant leaves every event either wholly there or not yet queued.
public final class DurableOutbox: Sendable {
    public let directory: URL
    private let state: NIOLockedValueBox<State>
    private let logger = Logger(label: "hyzer.watch.outbox")

    private struct State {
        var entries: [(file: String, event: ScoreEvent)] = []
        var nextSequence = 1
    }

    /// Where unreadable outbox files go (`<outbox>-quarantine/`), each with a `.reason` beside it.
    public var quarantineDirectory: URL { Self.quarantineDirectory(for: directory) }

    static func quarantineDirectory(for directory: URL) -> URL {
        directory.deletingLastPathComponent().appendingPathComponent(directory.lastPathComponent + "-quarantine", isDirectory: true)
    }

    /// Saved scores that could not be read back and were moved to the quarantine, ever.
    public var quarantined: Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: quarantineDirectory.path)) ?? []).filter { $0.hasSuffix(".json") }.count
    }

    public init(directory: URL) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var state = State()
        var movedAside: [String] = []
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        for name in names {
            let url = directory.appendingPathComponent(name)
            if name.hasPrefix(".") {
                // A temp file from a write that was cut off: that event was never queued.
                try? FileManager.default.removeItem(at: url)
                continue
            }
            guard name.hasSuffix(".json"), let sequence = Int(name.prefix { $0 != "-" }) else { continue }
            do {
                let event = try HyzerJSON.decoder().decode(ScoreEvent.self, from: Data(contentsOf: url))
                state.entries.append((name, event))
                state.nextSequence = max(state.nextSequence, sequence + 1)
            } catch {
                // A saved score that cannot be read back: moved out of the queue (so it neither
                // blocks it nor is reported at every start), with the reason, and counted on the face.
                do {
                    try Self.quarantine(name, from: directory, to: Self.quarantineDirectory(for: directory), reason: "\(error)")
                    movedAside.append(name)
                } catch {
                    logger.error("an unreadable outbox file could not be moved aside", metadata: ["file": "\(name)", "error": "\(error)"])
                }
            }
        }
        self.state = NIOLockedValueBox(state)
        if !movedAside.isEmpty {
            logger.error("\(movedAside.count) saved score(s) could not be read back and were moved to \(Self.quarantineDirectory(for: directory).path)",
                         metadata: ["files": "\(movedAside.joined(separator: ", "))"])
        }
    }

    private static func quarantine(_ name: String, from directory: URL, to quarantineDirectory: URL, reason: String) throws {
        try FileManager.default.createDirectory(at: quarantineDirectory, withIntermediateDirectories: true)
        try DurableFile.replace(quarantineDirectory.appendingPathComponent(name + ".reason"), with: Data((reason + "\n").utf8))
        guard rename(directory.appendingPathComponent(name).path, quarantineDirectory.appendingPathComponent(name).path) == 0 else {
            throw DurableFileError.failed("move aside", directory.appendingPathComponent(name).path, errno)
        }
    }

    /// Writes the event durably; when this returns, the event survives a crash.
    ///
    /// The file's sequence is reserved under the lock and the write (with its fsyncs) happens
    /// outside it, so a slow disk never blocks readers of the queue; entries stay in sequence order.
    public func enqueue(_ event: ScoreEvent) throws {
        let data = try HyzerJSON.encoder().encode(event)
        let sequence = state.withLockedValue { state in
            defer { state.nextSequence += 1 }
            return state.nextSequence
        }
        let name = Self.fileName(sequence: sequence, eventID: event.id)
        try DurableFile.replace(directory.appendingPathComponent(name), with: data)
        state.withLockedValue { state in
            let index = state.entries.firstIndex { $0.file > name } ?? state.entries.endIndex
            state.entries.insert((name, event), at: index)
        }
    }

    /// `<sequence, 20 digits>-<event id>.json`: names sort in queue order.
    static func fileName(sequence: Int, eventID: UUID) -> String {
        String(format: "%020d-", sequence) + eventID.uuidString + ".json"
    }

    /// The oldest event not yet acked.
    public var head: ScoreEvent? { state.withLockedValue { $0.entries.first?.event } }

    public var pending: [ScoreEvent] { state.withLockedValue { $0.entries.map(\.event) } }

    public var count: Int { state.withLockedValue { $0.entries.count } }

    /// Removes an acked (or rejected and logged) event.
    ///
    /// The directory is not fsynced: if a crash undoes the unlink, the event is sent again and the
    /// hub, which deduplicates by id, acks it as already stored. Skipping that fsync keeps it off
    /// the path between an ack and the standings push that follows it.
    public func remove(_ id: UUID) throws {
        try state.withLockedValue { state in
            guard let index = state.entries.firstIndex(where: { $0.event.id == id }) else { return }
            let url = directory.appendingPathComponent(state.entries[index].file)
            if unlink(url.path) != 0 && errno != ENOENT { throw DurableFileError.failed("remove", url.path, errno) }
            state.entries.remove(at: index)
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

    public init(url: URL) { self.url = url }

    public func append(_ event: ScoreEvent, _ rejection: Rejection, at date: Date) throws {
        var line = try HyzerJSON.encoder().encode(Entry(at: date, reason: rejection.reason, message: rejection.message, event: event))
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
