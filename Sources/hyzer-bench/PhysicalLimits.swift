#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HubCore
import HyzerStorage
import GRDB
import HyzerLink

/// What the machine itself can do, measured in the same run as the figures they bound.
enum PhysicalLimits {
    /// Round trip of a 200-byte message over a Unix stream socket pair, echoed by a second thread.
    static func unixSocketRoundTrip(iterations: Int) -> Samples {
        var fds: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0 else { return Samples() }
        let (client, server) = (fds[0], fds[1])
        let echo = Thread {
            var buffer = [UInt8](repeating: 0, count: 200)
            while true {
                var received = 0
                while received < 200 {
                    let n = buffer.withUnsafeMutableBytes { read(server, $0.baseAddress! + received, 200 - received) }
                    if n <= 0 { return }
                    received += n
                }
                _ = buffer.withUnsafeBytes { write(server, $0.baseAddress!, 200) }
            }
        }
        echo.start()
        var message = [UInt8](repeating: 0x41, count: 200)
        let samples = measure(iterations, warmup: 50) {
            _ = message.withUnsafeBytes { write(client, $0.baseAddress!, 200) }
            var received = 0
            while received < 200 {
                let n = message.withUnsafeMutableBytes { read(client, $0.baseAddress! + received, 200 - received) }
                if n <= 0 { break }
                received += n
            }
        }
        close(client)
        close(server)
        return samples
    }

    /// Durable replace of a 2 KB file: temp + fsync + rename + directory fsync, back to back or
    /// spaced out (real scoring is spaced out, and the disk is slower to wake).
    static func durableReplace(iterations: Int, spacing: TimeInterval, in directory: URL) throws -> Samples {
        let url = directory.appendingPathComponent("limit-\(spacing).json")
        let data = Data(repeating: 0x7B, count: 2048)
        return try measure(iterations, pause: spacing) {
            try DurableFile.replace(url, with: data)
        }
    }

    /// One SQLite commit of one small row, WAL mode, synchronous=FULL (the hub's settings), back
    /// to back or `spacing` apart; `synced: false`, synchronous=NORMAL (a commit that does not
    /// wait for the disk, as a download's).
    static func sqliteCommit(iterations: Int, spacing: TimeInterval = 0, synced: Bool = true, in directory: URL) throws -> Samples {
        let queue = try database(directory.appendingPathComponent("limit-commit-\(spacing)-\(synced).sqlite"))
        if !synced { try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") } }
        var n = 0
        return try measure(iterations, pause: spacing) {
            n += 1
            try queue.write { db in try db.execute(sql: "INSERT INTO t (id, payload) VALUES (?, ?)", arguments: ["c\(n)", String(repeating: "x", count: 200)]) }
        }
    }

    /// Rows per second inserted in one transaction (prepared statement, WAL, synchronous=FULL): the
    /// median of `runs` runs, each into a new file (a single run swings widely from one bench run
    /// to the next).
    static func sqliteBatchRowsPerSecond(rows: Int, runs: Int = 3, in directory: URL) throws -> Double {
        var rates = Samples()
        for run in 0..<runs {
            let queue = try database(directory.appendingPathComponent("limit-batch-\(run).sqlite"))
            // The rows' values are made before the clock starts: the limit is SQLite's, not Swift's string building.
            let ids = (0..<rows).map { "b\($0)" }, payload = String(repeating: "x", count: 200)
            let start = ContinuousClock.now
            try queue.write { db in
                let statement = try db.makeStatement(sql: "INSERT INTO t (id, payload) VALUES (?, ?)")
                for id in ids {
                    try statement.execute(arguments: [id, payload])
                }
            }
            rates.add(Double(rows) / start.duration(to: .now).seconds)
        }
        return rates.p50
    }

    /// A line of `bytes` bytes appended to an open file: plainly (the floor under logging a
    /// haptic), or `fdatasync`ed and spaced out like real scoring (the watch outbox's Save).
    static func lineAppend(iterations: Int, bytes: Int, sync: Bool, spacing: TimeInterval = 0, in directory: URL) throws -> Samples {
        let url = directory.appendingPathComponent("limit-lines-\(bytes)-\(sync).jsonl")
        let fd = open(url.path, O_WRONLY | O_APPEND | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw BenchError("cannot open \(url.path)") }
        defer { close(fd) }
        let line = [UInt8](repeating: 0x61, count: bytes) + [0x0A]
        return try measure(iterations, warmup: 20, pause: spacing) {
            _ = line.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
            if sync, fdatasync(fd) != 0 { throw BenchError("fdatasync of \(url.path) failed: \(String(cString: strerror(errno)))") }
        }
    }

    /// The Save chain's two durable writes as scoring makes them, `spacing` apart: a 400-byte line
    /// appended and `fdatasync`ed (the watch's Save), then one SQLite commit (the hub's), one right
    /// after the other. Spaced out, each sync costs more than back to back, and the second waits
    /// on the file system's journal behind the first.
    static func appendThenCommit(iterations: Int, spacing: TimeInterval, in directory: URL) throws -> Samples {
        let syncs = try ChainSyncs(in: directory)
        return try measure(iterations, warmup: 5, pause: spacing) { try syncs.once() }
    }

    /// The Save chain's two syncs, one pair at a time: the Save figure takes turns with them, so
    /// a slower minute of the disk falls on the figure and its limit alike.
    final class ChainSyncs {
        private let fd: Int32
        private let path: String
        private let queue: DatabaseQueue
        private let line = [UInt8](repeating: 0x61, count: 400) + [0x0A]
        private let payload = String(repeating: "x", count: 200)
        private var n = 0

        init(in directory: URL, name: String = "limit-chain") throws {
            path = directory.appendingPathComponent("\(name).jsonl").path
            fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_TRUNC, 0o644)
            guard fd >= 0 else { throw BenchError("cannot open \(path)") }
            queue = try PhysicalLimits.database(directory.appendingPathComponent("\(name).sqlite"))
        }

        deinit { close(fd) }

        /// The line appended and synced, then one synced commit.
        func once() throws {
            _ = line.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
            if fdatasync(fd) != 0 { throw BenchError("fdatasync of \(path) failed: \(String(cString: strerror(errno)))") }
            n += 1
            try queue.write { db in try db.execute(sql: "INSERT INTO t (id, payload) VALUES (?, ?)", arguments: ["c\(n)", payload]) }
        }
    }

    fileprivate static func database(_ url: URL) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.journalMode = .wal
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        try HubDatabase.syncEveryCommit(queue)
        try queue.write { db in try db.execute(sql: "CREATE TABLE IF NOT EXISTS t (id TEXT PRIMARY KEY, payload TEXT NOT NULL)") }
        return queue
    }
}

