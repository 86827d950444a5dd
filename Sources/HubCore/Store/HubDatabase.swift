#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HyzerStorage
import GRDB
import NIOConcurrencyHelpers

/// The hub's SQLite database: owns the connection, the schema and its named migrations. Every
/// statement runs through `read` or `write`, inside a transaction, against a `HubStore`.
///
/// Migrations are never edited once shipped; a change is a new migration. The schema enforces
/// what the code promises: score events are append-only (UPDATE and DELETE abort), event ids are
/// unique, strokes are 1...10, at most one round is in play.
public struct HubDatabase: Sendable {
    private let writer: any DatabaseWriter
    /// The file, for messages (nil in memory).
    private let url: URL?
    /// Whether commits touch the commit signal. `serve`, the one process that watches it, does
    /// not signal its own commits: nobody would read them, and the touch would sit before its ack.
    private var signalsCommits = true
    /// The commit signal's path, made once: building it from `URL`s is Foundation path work that
    /// every commit would otherwise repeat.
    private let commitSignalPath: String?
    /// Set while the writer may still be at synchronous=NORMAL (an unsynced write could not set it
    /// back): the next synced write sets FULL first, or fails rather than commit without a sync.
    private let mayBeUnsynced = NIOLockedValueBox(false)
    /// SQLite's `data_version` on the writer as `committedElsewhere()` last read it.
    private let lastDataVersion = NIOLockedValueBox<Int64?>(nil)

    /// Runs `body` in a read transaction: it sees one committed state.
    func read<T>(_ body: (HubStore) throws -> T) throws -> T {
        try Self.explainingDiskErrors(at: url) { try writer.read { db in try body(HubStore(db: db)) } }
    }

    /// Runs `body` in a write transaction: all of it commits, or none of it when it throws.
    /// Once it has committed, the commit signal file is touched (see `commitSignal(for:)`).
    ///
    /// `synced: false` commits without waiting for the disk (synchronous=NORMAL for this one
    /// transaction), for what the phone can always learn again: lost to a power cut, it is as if
    /// it never happened. The next synced commit makes it durable too (the WAL is written in order).
    func write<T>(synced: Bool = true, _ body: (HubStore) throws -> T) throws -> T {
        let result = try Self.explainingDiskErrors(at: url) {
            try writer.writeWithoutTransaction { db in
                if synced {
                    if mayBeUnsynced.withLockedValue({ $0 }) { try backToSynced(db) }
                    return try Self.inImmediateTransaction(db) { try body(HubStore(db: db)) }
                }
                mayBeUnsynced.withLockedValue { $0 = true }
                try db.cachedStatement(sql: "PRAGMA synchronous = NORMAL").execute()
                let result = Result { try Self.inImmediateTransaction(db) { try body(HubStore(db: db)) } }
                try backToSynced(db)
                return try result.get()
            }
        }
        if signalsCommits, let commitSignalPath { Self.signalCommit(at: commitSignalPath) }
        return result
    }

    /// Whether another connection (another process: this one writes through one connection) has
    /// committed since the last call; true at the first. SQLite's `data_version` on a connection
    /// changes with every other connection's commit and never with its own.
    func committedElsewhere() throws -> Bool {
        try writer.writeWithoutTransaction { db in
            let version = try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0
            return lastDataVersion.withLockedValue { last in
                defer { last = version }
                return last != version
            }
        }
    }

    /// Back to synchronous=FULL after an unsynced write.
    private func backToSynced(_ db: Database) throws {
        try db.cachedStatement(sql: "PRAGMA synchronous = FULL").execute()
        mayBeUnsynced.withLockedValue { $0 = false }
    }

    /// What GRDB's `write` does (an IMMEDIATE transaction: a second process waits for the write
    /// lock up front, never fails to upgrade a read; rolled back when `body` or the commit
    /// throws), with BEGIN and COMMIT prepared once per connection: GRDB parses both anew for
    /// every transaction, and the hub commits one transaction per score.
    private static func inImmediateTransaction<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        try db.cachedStatement(sql: "BEGIN IMMEDIATE TRANSACTION").execute()
        do {
            let result = try body()
            // Rolled back under `body` (see `HubStore.requireOpenTransaction`): said as such.
            guard db.isInsideTransaction else { throw DatabaseError(resultCode: .SQLITE_ABORT, message: "Transaction was aborted") }
            try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
            return result
        } catch {
            // A failed COMMIT may have rolled back already (a full disk, an I/O error).
            if db.isInsideTransaction { try? db.rollback() }
            throw error
        }
    }

    /// The same database, its commits no longer touching the commit signal (for `serve`).
    func notSignallingCommits() -> HubDatabase {
        var database = self
        database.signalsCommits = false
        return database
    }

    /// `.committed` beside the database: its time is set after every commit, so `serve` learns of
    /// another process's commit once it can be read. The WAL's own writes come before the commit's
    /// sync (synchronous=FULL), so a change seen there may not be readable yet, and nothing is
    /// written to the WAL after it.
    public static func commitSignal(for database: URL) -> URL {
        database.deletingLastPathComponent().appendingPathComponent(".committed")
    }

    /// Best effort by design: the commit it reports has already succeeded, and a missed signal
    /// leaves `serve` to its one-second poll of the database files. Never blocks (a FIFO put in
    /// its place is not waited on) and never follows a link (a link there has its own time set).
    /// One system call a commit: the file is only opened (to create it) when it is missing; the
    /// time is set after that open too, in case another process created it first.
    private static func signalCommit(at path: String) {
        if utimensat(AT_FDCWD, path, nil, AT_SYMLINK_NOFOLLOW) == 0 || errno != ENOENT { return }
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        _ = futimens(fd, nil)
        close(fd)
    }

    /// A full or failing disk, said as such (SQLite says "disk I/O error" for both); the
    /// transaction did not commit, so nothing was recorded.
    static func explainingDiskErrors<T>(at url: URL?, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_READONLY {
            guard let url else { throw error }
            throw HubError.readOnlyHome(path: url.deletingLastPathComponent().deletingLastPathComponent().path, detail: nil)
        } catch let error as DatabaseError where [.SQLITE_FULL, .SQLITE_IOERR].contains(error.resultCode) {
            guard let url else { throw error }
            var stats = statvfs()
            let full = statvfs(url.deletingLastPathComponent().path, &stats) == 0 && stats.f_bavail == 0
            throw HubError.diskUnavailable(path: url.path, full: full || error.resultCode == .SQLITE_FULL)
        }
    }

    /// A file database in WAL mode with synchronous=FULL: a committed score survives a power cut.
    ///
    /// The hub's folder is private to its user (0700) and so is the database (0600; SQLite gives
    /// its WAL and shared-memory files the same mode). An existing file that is empty or damaged is
    /// refused with what to do: the hub never starts over on top of a store it cannot read.
    public static func open(at url: URL) throws -> HubDatabase {
        let directory = url.deletingLastPathComponent()
        // A home on read-only storage (a read-only mount, a folder without write permission):
        // reading works; anything that would record says why it cannot.
        if FileManager.default.fileExists(atPath: url.path), access(directory.path, W_OK) != 0 || isOnReadOnlyFileSystem(directory) {
            return try openReadOnly(at: url)
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        chmod(directory.path, 0o700)
        // Two processes opening a brand-new database would both try to migrate it; take turns.
        return try FileLock.withLock(directory.appendingPathComponent(".migrate.lock")) {
            if let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int {
                guard size > 0 else { throw HubError.damagedStore(path: url.path, problem: "is empty (0 bytes), so it holds no hub") }
            } else {
                // A new hub: the file is made private before SQLite writes anything into it.
                let fd = Glibc.open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
                if fd >= 0 { close(fd) }
            }
            chmod(url.path, 0o600)
            do {
                let database = try explainingDiskErrors(at: url) {
                    let pool = try DatabasePool(path: url.path, configuration: configuration())
                    try syncEveryCommit(pool)
                    return try HubDatabase(writer: pool, url: url)
                }
                try database.checkIntegrity()
                return database
            } catch let error as DatabaseError where [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode) {
                throw HubError.damagedStore(path: url.path, problem: "is damaged (\(error.message ?? "\(error.resultCode)"))")
            }
        }
    }

    /// GRDB turns WAL on after `prepareDatabase` has run and sets the writer to synchronous=NORMAL
    /// as it does, so a commit would survive a crash of the process but not a power cut. The hub
    /// acks a score once it is committed: every commit is synced (FULL) again here.
    /// (Public so `hyzer-bench` measures its limits with the hub's own setting.)
    public static func syncEveryCommit(_ writer: any DatabaseWriter) throws {
        try writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
    }

    /// What the writer syncs: 2 is FULL (tests check it).
    var synchronousMode: Int {
        get throws { try writer.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1 } }
    }

    private static func isOnReadOnlyFileSystem(_ directory: URL) -> Bool {
        var stats = statvfs()
        return statvfs(directory.path, &stats) == 0 && (stats.f_flag & UInt(ST_RDONLY)) != 0
    }

    private static func openReadOnly(at url: URL) throws -> HubDatabase {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(30)
        // SQLite cannot open a WAL database read-only without writing its shared-memory file. With
        // no pending WAL (the hub closed cleanly) the file alone is the whole store: open it as
        // immutable (a URI; Debian's SQLite reads URIs).
        let wal = (try? FileManager.default.attributesOfItem(atPath: url.path + "-wal"))?[.size] as? Int ?? 0
        let home = url.deletingLastPathComponent().deletingLastPathComponent().path
        guard wal == 0 else {
            throw HubError.readOnlyHome(path: home, detail: "its newest changes are still in \(url.lastPathComponent)-wal, which cannot be read without writing; open it once where it is writable")
        }
        let encoded = url.path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? url.path
        do {
            let database = try explainingDiskErrors(at: url) {
                try HubDatabase(writer: DatabaseQueue(path: "file:\(encoded)?immutable=1", configuration: configuration), url: url, migrating: false)
            }
            guard try database.writer.read({ db in try migrator.hasCompletedMigrations(db) }) else {
                throw HubError.readOnlyHome(path: url.deletingLastPathComponent().deletingLastPathComponent().path,
                                            detail: "its database needs upgrading to this version first, which cannot be done read-only")
            }
            return database
        } catch let error as DatabaseError where [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode) {
            throw HubError.damagedStore(path: url.path, problem: "is damaged (\(error.message ?? "\(error.resultCode)"))")
        }
    }

    /// A quick structural check, so damage is found at open and not halfway through a command.
    private func checkIntegrity() throws {
        let result = try writer.read { db in try String.fetchOne(db, sql: "PRAGMA quick_check") }
        guard result == "ok" else { throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: result ?? "quick_check failed") }
    }

    /// An in-memory database (tests reach it with `@testable import`).
    static func inMemory() throws -> HubDatabase {
        try HubDatabase(writer: DatabaseQueue(configuration: configuration()), url: nil)
    }

    private init(writer: any DatabaseWriter, url: URL?, migrating: Bool = true) throws {
        self.writer = writer
        self.url = url
        commitSignalPath = url.map { Self.commitSignal(for: $0).path }
        if migrating { try Self.migrator.migrate(writer) }
    }

    private static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        // Two hyzer-hub processes may write at once; the second waits for the first.
        configuration.busyMode = .timeout(30)
        // synchronous=FULL is set by `syncEveryCommit` once the database is open: set here, GRDB
        // would turn it back to NORMAL as it switched the file to WAL.
        return configuration
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: courses, players, rounds, append-only score events") { db in
            try db.execute(sql: """
                CREATE TABLE hub_meta (
                    key TEXT PRIMARY KEY NOT NULL,
                    value TEXT NOT NULL
                );
                INSERT INTO hub_meta (key, value) VALUES ('sequence', '0');

                CREATE TABLE course (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (length(trim(name)) > 0)
                );
                CREATE TABLE hole (
                    courseID INTEGER NOT NULL REFERENCES course(id),
                    number INTEGER NOT NULL CHECK (number >= 1),
                    par INTEGER NOT NULL CHECK (par BETWEEN 2 AND 6),
                    PRIMARY KEY (courseID, number)
                );
                CREATE TABLE player (
                    id TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL CHECK (length(trim(name)) > 0),
                    isGuest BOOLEAN NOT NULL,
                    aliases TEXT NOT NULL DEFAULT '[]'
                );
                CREATE UNIQUE INDEX player_registered_name ON player(name COLLATE NOCASE) WHERE NOT isGuest;
                CREATE TABLE round (
                    id TEXT PRIMARY KEY NOT NULL,
                    courseID INTEGER NOT NULL REFERENCES course(id),
                    status TEXT NOT NULL CHECK (status IN ('setup', 'active', 'awaitingFinalization', 'completed')),
                    selectedHole INTEGER,
                    createdAt TEXT NOT NULL
                );
                CREATE UNIQUE INDEX round_one_in_play ON round((1)) WHERE status IN ('setup', 'active', 'awaitingFinalization');
                CREATE TABLE round_player (
                    roundID TEXT NOT NULL REFERENCES round(id),
                    playerID TEXT NOT NULL REFERENCES player(id),
                    ordinal INTEGER NOT NULL,
                    PRIMARY KEY (roundID, playerID)
                );
                CREATE TABLE score_event (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    id TEXT NOT NULL UNIQUE,
                    roundID TEXT NOT NULL REFERENCES round(id),
                    playerID TEXT NOT NULL REFERENCES player(id),
                    hole INTEGER NOT NULL CHECK (hole >= 1),
                    strokes INTEGER NOT NULL CHECK (strokes BETWEEN 1 AND 10),
                    supersedesEventID TEXT REFERENCES score_event(id),
                    reportedByPlayerID TEXT NOT NULL,
                    deviceID TEXT NOT NULL,
                    source TEXT NOT NULL CHECK (source IN ('tap', 'voice', 'crown', 'resolution')),
                    createdAt TEXT NOT NULL,
                    receivedAt TEXT NOT NULL
                );
                CREATE INDEX score_event_round ON score_event(roundID, seq);
                CREATE INDEX score_event_key ON score_event(roundID, playerID, hole, seq);
                CREATE TRIGGER score_event_no_update BEFORE UPDATE ON score_event
                BEGIN SELECT RAISE(ABORT, 'score_event is append-only: UPDATE is not allowed'); END;
                CREATE TRIGGER score_event_no_delete BEFORE DELETE ON score_event
                BEGIN SELECT RAISE(ABORT, 'score_event is append-only: DELETE is not allowed'); END;
                """)
            // The hub's identity: new for every empty database, so a watch can tell a fresh hub from an old one.
            try db.execute(sql: "INSERT INTO hub_meta (key, value) VALUES ('hubID', ?)", arguments: [UUID().uuidString])
        }
        migrator.registerMigration("v2: players have no aliases") { db in
            // Never read or written since v1; the voice matcher works from names.
            try db.alter(table: "player") { table in table.drop(column: "aliases") }
        }
        migrator.registerMigration("v3: rounds shared through a cloud") { db in
            try db.execute(sql: """
                -- A player joined from a shared round keeps the organizer's id, so two registered
                -- players may now share a name (this phone's own and the organizer's).
                DROP INDEX player_registered_name;
                CREATE INDEX player_registered_name ON player(name COLLATE NOCASE) WHERE NOT isGuest;

                -- A round shared through the cloud: who organizes it, who may resolve, what the
                -- cloud already holds of it and how far this phone has downloaded its events.
                CREATE TABLE cloud_round (
                    roundID TEXT PRIMARY KEY NOT NULL REFERENCES round(id),
                    organizerHubID TEXT NOT NULL,
                    organizerName TEXT,
                    anyPlayerResolves BOOLEAN NOT NULL,
                    uploaded BOOLEAN NOT NULL DEFAULT 0,
                    uploadedStatus TEXT,
                    cursor INTEGER NOT NULL DEFAULT 0
                );
                -- The cloud's order of an event (append-only, like the events): an event without a
                -- row here is waiting to upload.
                CREATE TABLE cloud_event (
                    eventID TEXT PRIMARY KEY NOT NULL REFERENCES score_event(id),
                    roundID TEXT NOT NULL,
                    cloudSeq INTEGER NOT NULL,
                    UNIQUE (roundID, cloudSeq)
                );
                CREATE TRIGGER cloud_event_no_update BEFORE UPDATE ON cloud_event
                BEGIN SELECT RAISE(ABORT, 'cloud_event is append-only: UPDATE is not allowed'); END;
                CREATE TRIGGER cloud_event_no_delete BEFORE DELETE ON cloud_event
                BEGIN SELECT RAISE(ABORT, 'cloud_event is append-only: DELETE is not allowed'); END;
                -- Events the cloud refused for good (never retried; shown by `cloud status`).
                CREATE TABLE cloud_rejected (
                    eventID TEXT PRIMARY KEY NOT NULL REFERENCES score_event(id),
                    reason TEXT NOT NULL,
                    rejectedAt TEXT NOT NULL
                );
                """)
        }
        migrator.registerMigration("v4: score events without per-insert overhead") { db in
            // The same table, rebuilt (SQLite alters no constraint in place) without two costs
            // every insert paid: `source IN (…)` made SQLite build a temporary table for the list
            // on each INSERT, and AUTOINCREMENT updated sqlite_sequence. The log stays append-only
            // (the triggers refuse DELETE), so the largest seq is never removed and a plain
            // INTEGER PRIMARY KEY never reuses one: arrival numbers keep growing as before.
            // Foreign keys are off during a migration (GRDB checks them at its end), as SQLite's
            // own procedure for rebuilding a table asks.
            try db.execute(sql: """
                CREATE TABLE score_event_v4 (
                    seq INTEGER PRIMARY KEY,
                    id TEXT NOT NULL UNIQUE,
                    roundID TEXT NOT NULL REFERENCES round(id),
                    playerID TEXT NOT NULL REFERENCES player(id),
                    hole INTEGER NOT NULL CHECK (hole >= 1),
                    strokes INTEGER NOT NULL CHECK (strokes BETWEEN 1 AND 10),
                    supersedesEventID TEXT REFERENCES score_event(id),
                    reportedByPlayerID TEXT NOT NULL,
                    deviceID TEXT NOT NULL,
                    source TEXT NOT NULL CHECK (source = 'tap' OR source = 'voice' OR source = 'crown' OR source = 'resolution'),
                    createdAt TEXT NOT NULL,
                    receivedAt TEXT NOT NULL
                );
                INSERT INTO score_event_v4 (seq, id, roundID, playerID, hole, strokes, supersedesEventID, reportedByPlayerID, deviceID, source, createdAt, receivedAt)
                    SELECT seq, id, roundID, playerID, hole, strokes, supersedesEventID, reportedByPlayerID, deviceID, source, createdAt, receivedAt
                    FROM score_event ORDER BY seq;
                DROP TABLE score_event;
                ALTER TABLE score_event_v4 RENAME TO score_event;
                DELETE FROM sqlite_sequence WHERE name = 'score_event';
                CREATE INDEX score_event_round ON score_event(roundID, seq);
                CREATE INDEX score_event_key ON score_event(roundID, playerID, hole, seq);
                CREATE TRIGGER score_event_no_update BEFORE UPDATE ON score_event
                BEGIN SELECT RAISE(ABORT, 'score_event is append-only: UPDATE is not allowed'); END;
                CREATE TRIGGER score_event_no_delete BEFORE DELETE ON score_event
                BEGIN SELECT RAISE(ABORT, 'score_event is append-only: DELETE is not allowed'); END;
                """)
        }
        migrator.registerMigration("v5: score events with one secondary index, checked by the hub") { db in
            // The same table, rebuilt again, without two more costs of every insert:
            // - the `(roundID, seq)` index: `score_event_key` starts with the round too, and the
            //   rows after a given one are a range of `seq`, the table's own key
            //   (`HubStore.eventsWithOrder`);
            // - the foreign keys from `roundID` and `playerID`: the hub checks both against the
            //   round in play before every insert (`Round.validate`, and the cloud's events
            //   through `Hub.problemWithCloudEvent`), in memory, so SQLite's probe of `round` and
            //   `player` for each event only repeated that check.
            // The chain's link (`supersedesEventID`) keeps its foreign key: it costs nothing for a
            // first score, and the log's own integrity rests on it. Still append-only.
            try db.execute(sql: """
                CREATE TABLE score_event_v5 (
                    seq INTEGER PRIMARY KEY,
                    id TEXT NOT NULL UNIQUE,
                    roundID TEXT NOT NULL,
                    playerID TEXT NOT NULL,
                    hole INTEGER NOT NULL CHECK (hole >= 1),
                    strokes INTEGER NOT NULL CHECK (strokes BETWEEN 1 AND 10),
                    supersedesEventID TEXT REFERENCES score_event(id),
                    reportedByPlayerID TEXT NOT NULL,
                    deviceID TEXT NOT NULL,
                    source TEXT NOT NULL CHECK (source = 'tap' OR source = 'voice' OR source = 'crown' OR source = 'resolution'),
                    createdAt TEXT NOT NULL,
                    receivedAt TEXT NOT NULL
                );
                INSERT INTO score_event_v5 (seq, id, roundID, playerID, hole, strokes, supersedesEventID, reportedByPlayerID, deviceID, source, createdAt, receivedAt)
                    SELECT seq, id, roundID, playerID, hole, strokes, supersedesEventID, reportedByPlayerID, deviceID, source, createdAt, receivedAt
                    FROM score_event ORDER BY seq;
                DROP TABLE score_event;
                ALTER TABLE score_event_v5 RENAME TO score_event;
                CREATE INDEX score_event_key ON score_event(roundID, playerID, hole, seq);
                CREATE TRIGGER score_event_no_update BEFORE UPDATE ON score_event
                BEGIN SELECT RAISE(ABORT, 'score_event is append-only: UPDATE is not allowed'); END;
                CREATE TRIGGER score_event_no_delete BEFORE DELETE ON score_event
                BEGIN SELECT RAISE(ABORT, 'score_event is append-only: DELETE is not allowed'); END;
                """)
        }
        migrator.registerMigration("v6: score events indexed by round and arrival, not by {player, hole}") { db in
            // v5's one secondary index, `(roundID, playerID, hole, seq)`, took each event at a
            // scattered page (a round's scores arrive hole by hole across its players), a large
            // share of SQLite's work for a batched insert. Nothing reads by {player, hole} any
            // more: a history comes from the round's ledger in memory
            // (`Hub.keyHistory(of:round:in:context:)`). Every reader takes a
            // round in arrival order, which `(roundID, seq)` holds in order, and a new event goes
            // at its end. Only an index changes: no row is touched.
            try db.execute(sql: """
                DROP INDEX score_event_key;
                CREATE INDEX score_event_round ON score_event(roundID, seq);
                """)
        }
        migrator.registerMigration("v7: a cloud that trusts no phone") { db in
            // The organizer is the role the cloud recorded (a v1 cloud's hub id never matches one).
            // A row of the cloud that no phone could apply is skipped by every phone and kept here.
            try db.execute(sql: """
                ALTER TABLE cloud_round RENAME COLUMN organizerHubID TO organizer;
                CREATE TABLE cloud_skipped (
                    roundID TEXT NOT NULL,
                    cloudSeq INTEGER NOT NULL,
                    eventID TEXT NOT NULL,
                    reason TEXT NOT NULL,
                    skippedAt TEXT NOT NULL,
                    PRIMARY KEY (roundID, cloudSeq)
                );
                """)
        }
        return migrator
    }
}
