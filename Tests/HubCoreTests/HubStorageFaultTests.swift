#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HyzerKit
import HyzerHarness
import Testing

/// The hub's files when something is wrong with them: each refused or repaired, never started over.
@Suite("Hub storage faults")
struct HubStorageFaultTests {
    static func expectRefused(_ home: TemporaryHome, problem: String) async throws {
        let database = home.url.appendingPathComponent("hub/hyzer.sqlite")
        let before = try Data(contentsOf: database)
        for command in [["standings"], ["score", "Jake", "3"], ["round", "start", "--course", "Maple Hill", "--player", "Jake"]] {
            let result = try await CLIProcess.run("hyzer-hub", ["--home", home.path] + command)
            #expect(result.status == 1, "\(command)")
            #expect(result.stderr == "Error: The hub's database \(database.path) \(problem). Nothing was changed. Restore it from a backup, or, to start a new hub without its scores, move it aside (mv \(database.path) \(database.path).damaged) and run the command again.\n")
        }
        #expect(try Data(contentsOf: database) == before, "the damaged file is left exactly as it was")
        #expect(!FileManager.default.fileExists(atPath: home.url.appendingPathComponent("shared/standings.json").path))
    }

    @Test("A 0-byte database is refused, not taken for a new hub")
    func emptyDatabase() async throws {
        let home = try TemporaryHome()
        try FileManager.default.createDirectory(at: home.url.appendingPathComponent("hub"), withIntermediateDirectories: true)
        try Data().write(to: home.url.appendingPathComponent("hub/hyzer.sqlite"))
        try await Self.expectRefused(home, problem: "is empty (0 bytes), so it holds no hub")
    }

    @Test("A damaged database is refused with what to do, not a raw SQLite error")
    func damagedDatabase() async throws {
        let home = try TemporaryHome()
        try FileManager.default.createDirectory(at: home.url.appendingPathComponent("hub"), withIntermediateDirectories: true)
        try Data(repeating: 0x78, count: 8192).write(to: home.url.appendingPathComponent("hub/hyzer.sqlite"))
        try await Self.expectRefused(home, problem: "is damaged (file is not a database)")
    }

    @Test("The hub folder and its database are private to the user (0700, 0600)")
    func privateFiles() async throws {
        let home = try TemporaryHome()
        #expect(try await home.hub("round", "start", "--course", "Maple Hill", "--player", "Jake").status == 0)
        func mode(_ path: String) throws -> Int {
            try FileManager.default.attributesOfItem(atPath: home.url.appendingPathComponent(path).path)[.posixPermissions] as! Int
        }
        #expect(try mode("hub") == 0o700)
        #expect(try mode("hub/hyzer.sqlite") == 0o600)
        for companion in ["hub/hyzer.sqlite-wal", "hub/hyzer.sqlite-shm"]
        where FileManager.default.fileExists(atPath: home.url.appendingPathComponent(companion).path) {
            #expect(try mode(companion) == 0o600, "\(companion)")
        }
    }

    @Test("A FIFO nobody reads put where the commit signal goes never holds up a score")
    func commitSignalNeverBlocks() async throws {
        let home = try TemporaryHome()
        #expect(try await home.hub("round", "start", "--course", "Maple Hill", "--player", "Jake").status == 0)
        let signal = home.url.appendingPathComponent("hub/.committed")
        try? FileManager.default.removeItem(at: signal)
        #expect(mkfifo(signal.path, 0o600) == 0)
        let score = try await RunningProcess("hyzer-hub", ["--home", home.url.path, "score", "Jake", "3"])
        #expect(await score.waitForExit(timeout: .seconds(30)) == 0)
        let standings = try HyzerJSON.decoder().decode(StandingsSnapshot.self, from: Data(try await home.hub("standings", "--json").stdout.utf8))
        #expect(standings.round?.standings.first?.totalStrokes == 3)
    }

    @Test("A temp file left by a killed export is cleaned up by the next export")
    func leftoverTempFile() async throws {
        let home = try TemporaryHome()
        #expect(try await home.hub("round", "start", "--course", "Maple Hill", "--player", "Jake").status == 0)
        let leftover = home.url.appendingPathComponent("shared/.standings.json.99999.tmp")
        try Data("{\"half\": ".utf8).write(to: leftover)
        #expect(try await home.hub("score", "Jake", "3").status == 0)
        #expect(!FileManager.default.fileExists(atPath: leftover.path))
        let names = try FileManager.default.contentsOfDirectory(atPath: home.url.appendingPathComponent("shared").path)
        #expect(names.filter { $0.hasSuffix(".tmp") } == [])
    }
}

extension HubStorageFaultTests {
    /// A full disk needs a small file system of its own: a 2 MiB tmpfs, which takes root (as CI has).
    static let canMountTmpfs: Bool = {
        guard getuid() == 0 else { return false }
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-mount-probe-\(getpid())")
        try? FileManager.default.createDirectory(at: probe, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: probe) }
        guard mount("tmpfs", probe.path, "tmpfs", 0, "size=64k") == 0 else { return false }
        return umount2(probe.path, Int32(MNT_DETACH)) == 0
    }()

    @Test("A full disk gives a clear error and records nothing; once space is freed, scoring works again",
          .enabled(if: canMountTmpfs, "needs root to mount a 2 MiB tmpfs"))
    func diskFull() async throws {
        let home = try TemporaryHome()
        #expect(mount("tmpfs", home.path, "tmpfs", 0, "size=2m") == 0)
        defer { umount2(home.path, Int32(MNT_DETACH)) }
        #expect(try await home.hub("round", "start", "--course", "Maple Hill", "--player", "Jake", "Mike").status == 0)
        #expect(try await home.hub("score", "Jake", "3").status == 0)
        // Fill what is left.
        let filler = home.url.appendingPathComponent("filler")
        let fd = open(filler.path, O_WRONLY | O_CREAT, 0o644)
        let block = [UInt8](repeating: 0, count: 4096)
        while block.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        close(fd)

        let database = home.url.appendingPathComponent("hub/hyzer.sqlite").path
        let refused = try await home.hub("score", "Mike", "4")
        #expect(refused.status == 1)
        #expect(refused.stderr == "Error: The disk holding \(database) is full: nothing was recorded. Free some space and run the command again.\n")

        try FileManager.default.removeItem(at: filler)
        let events = try await home.hub("events", "--json")
        #expect(events.status == 0)
        #expect(events.stdout.components(separatedBy: "\"strokes\"").count - 1 == 1, "only Jake's score: nothing half-written")
        #expect(try await home.hub("score", "Mike", "4").status == 0)
        #expect(try await home.hub("events", "--json").stdout.components(separatedBy: "\"strokes\"").count - 1 == 2)
    }
}

extension HubStorageFaultTests {
    @Test("A read-only home can be read (standings, events); a write says the home is read-only and changes nothing",
          .enabled(if: canMountTmpfs, "needs root for a read-only bind mount"))
    func readOnlyHome() async throws {
        let source = try TemporaryHome()
        #expect(try await source.hub("round", "start", "--course", "Maple Hill", "--player", "Jake").status == 0)
        #expect(try await source.hub("score", "Jake", "3").status == 0)
        let home = try TemporaryHome()
        #expect(mount(source.path, home.path, nil, UInt(MS_BIND), nil) == 0)
        defer { umount2(home.path, Int32(MNT_DETACH)) }
        #expect(mount(source.path, home.path, nil, UInt(MS_BIND | MS_REMOUNT | MS_RDONLY), nil) == 0)

        let standings = try await home.hub("standings")
        #expect(standings.status == 0, "\(standings.stderr)")
        #expect(standings.stdout.contains("Jake    E      1     3"))
        #expect(try await home.hub("events", "--json").status == 0)
        let write = try await home.hub("score", "Jake", "4", "--hole", "2")
        #expect(write.status == 1)
        #expect(write.stderr == "Error: The home \(home.path) is read-only: standings, events and the rest can be read, but nothing can be recorded here. Use a writable --home to score.\n")
        #expect(try await source.hub("events", "--json").stdout.components(separatedBy: "\"strokes\"").count - 1 == 1)
    }
}
