import Foundation
import HubCore
import HyzerKit
import Logging
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO

/// One connection to the cloud and every statement a phone runs against it.
///
/// Order: each round has a counter (`hyzer_round.last_seq`); an upload locks its round's row,
/// numbers its events after the counter and commits, so the cloud commits a round's events in
/// the order it numbers them. A phone that has read past number N has seen every event up to N:
/// a cursor per round is enough to never miss one, whatever notifications were lost.
public final class CloudConnection: Sendable {
    let connection: PostgresConnection
    let logger: Logger
    public let address: CloudAddress

    private init(connection: PostgresConnection, address: CloudAddress, logger: Logger) {
        self.connection = connection
        self.address = address
        self.logger = logger
    }

    /// Connects (giving up after `timeout`) and brings the schema up to date.
    public static func connect(to address: CloudAddress, timeout: Duration = .seconds(5), logger: Logger) async throws -> CloudConnection {
        let configuration: PostgresConnection.Configuration
        do {
            configuration = try address.connectionConfiguration(connectTimeout: .milliseconds(timeout.milliseconds))
        } catch {
            throw CloudError.unusable("TLS cannot be set up: \(error)")
        }
        let connection: PostgresConnection
        do {
            // The TCP connect has its own timeout; the whole handshake gets one too (a peer that
            // accepts and then says nothing would otherwise hold it forever).
            connection = try await withThrowingTaskGroup(of: PostgresConnection?.self) { group in
                group.addTask { try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger) }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let connection = first else {
                    throw CloudError.unreachable("The cloud at \(address.place) did not answer within \(timeout).")
                }
                return connection
            }
        } catch {
            throw CloudError.describe(error, address: address)
        }
        let cloud = CloudConnection(connection: connection, address: address, logger: logger)
        do {
            try await cloud.migrate()
        } catch {
            try? await connection.close()
            throw CloudError.describe(error, address: address)
        }
        return cloud
    }

    public func close() async {
        try? await connection.close()
    }

    /// Runs `body` until it returns, the connection closes, or `deadline` passes (the connection is
    /// then closed). A query on a connection that dies can stay pending for good, and structured
    /// concurrency would wait for it: `body` runs as its own task, abandoned when the connection goes.
    public func whileConnected<T: Sendable>(deadline: Duration? = nil, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let connection = self.connection
        let pending = NIOLockedValueBox<CheckedContinuation<T, any Error>?>(nil)
        let tasks = NIOLockedValueBox<[Task<Void, Never>]>([])
        /// Resumes the caller once; says whether this call was the one that did.
        @Sendable func finish(_ result: Result<T, any Error>) -> Bool {
            guard let continuation = pending.withLockedValue({ $0.take() }) else { return false }
            for task in tasks.withLockedValue({ $0 }) { task.cancel() }
            continuation.resume(with: result)
            return true
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                pending.withLockedValue { $0 = continuation }
                if Task.isCancelled {
                    _ = finish(.failure(CancellationError()))
                    return
                }
                let work = Task {
                    do { _ = finish(.success(try await body())) } catch { _ = finish(.failure(error)) }
                }
                var started = [work]
                if let deadline {
                    started.append(Task {
                        try? await Task.sleep(for: deadline)
                        guard !Task.isCancelled,
                              finish(.failure(CloudError.unreachable("The cloud stopped answering (no reply in \(deadline))."))) else { return }
                        try? await connection.close()
                    })
                }
                tasks.withLockedValue { $0 = started }
                connection.closeFuture.whenComplete { _ in
                    _ = finish(.failure(CloudError.unreachable("The connection to the cloud was lost.")))
                }
            }
        } onCancel: {
            _ = finish(.failure(CancellationError()))
        }
    }

    /// Runs `body` with every notification of a change in the cloud (its payload: a round id).
    /// Returns when `body` does; throws when the connection is lost.
    public func listen<T>(_ body: (PostgresNotificationSequence) async throws -> T) async throws -> T {
        try await connection.listen(on: CloudSchema.channel, consume: body)
    }

    // MARK: Schema

    /// Applies the migrations this cloud lacks; phones starting at once take turns.
    func migrate() async throws {
        // Up to date already (the usual case): one read. A new database has no table to read.
        if let applied = try? await appliedMigrations(), !CloudSchema.migrations.contains(where: { !applied.contains($0.name) }) { return }
        _ = try await connection.withTransaction(logger: logger) { connection in
            // Everything under the lock, the bookkeeping table's creation included: phones that
            // start at once on a new database take turns instead of colliding on its type.
            try await connection.query("SELECT pg_advisory_xact_lock(7466577)", logger: logger)
            try await connection.query("CREATE TABLE IF NOT EXISTS hyzer_migration (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())", logger: logger)
            var done = Set<String>()
            for try await name in try await connection.query("SELECT name FROM hyzer_migration", logger: logger).decode(String.self) { done.insert(name) }
            for migration in CloudSchema.migrations where !done.contains(migration.name) {
                for statement in CloudSchema.statements(migration.sql) {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query("INSERT INTO hyzer_migration (name) VALUES (\(migration.name))", logger: logger)
                logger.info("cloud schema: applied \(migration.name)")
            }
            return 0
        }
    }

    private func appliedMigrations() async throws -> Set<String> {
        var names = Set<String>()
        for try await name in try await connection.query("SELECT name FROM hyzer_migration", logger: logger).decode(String.self) { names.insert(name) }
        return names
    }

    // MARK: Rounds

    /// Puts a round (with its players) in the cloud; a round already there is left as it is.
    public func upload(_ round: CloudRound) async throws {
        let pars = round.holes.sorted { $0.number < $1.number }.map(\.par)
        let playerIDs = round.players.map(\.id), names = round.players.map(\.name), ordinals = Array(0..<round.players.count)
        let createdAt = HyzerJSON.formatTimestamp(round.createdAt)
        _ = try await connection.withTransaction(logger: logger) { connection in
            try await connection.query("""
                INSERT INTO hyzer_round (id, course_name, pars, organizer_hub, organizer_name, any_player_resolves, status, created_at)
                VALUES (\(round.id), \(round.courseName), \(pars), \(round.organizerHubID), \(round.organizerName), \(round.anyPlayerResolves),
                        \(round.status == .completed ? "completed" : "active"), \(createdAt))
                ON CONFLICT (id) DO NOTHING
                """, logger: logger)
            try await connection.query("""
                INSERT INTO hyzer_round_player (round_id, player_id, name, ordinal)
                SELECT \(round.id), p.id, p.name, p.ordinal FROM unnest(\(playerIDs)::text[], \(names)::text[], \(ordinals)::bigint[]) AS p(id, name, ordinal)
                ON CONFLICT DO NOTHING
                """, logger: logger)
            return 0
        }
    }

    /// Records that a round was completed (a completed round stays completed).
    public func complete(roundID: UUID) async throws {
        try await connection.query("UPDATE hyzer_round SET status = 'completed' WHERE id = \(roundID) AND status <> 'completed'", logger: logger)
    }

    /// A round as the cloud holds it, or nil.
    public func round(id: UUID) async throws -> CloudRound? {
        let rows = try await connection.query("""
            SELECT course_name, pars, organizer_hub, organizer_name, any_player_resolves, status, created_at FROM hyzer_round WHERE id = \(id)
            """, logger: logger)
        var header: (String, [Int], String, String?, Bool, String, String)?
        for try await row in rows.decode((String, [Int], String, String?, Bool, String, String).self) { header = row }
        guard let (course, pars, organizerHub, organizerName, anyPlayerResolves, status, createdAt) = header else { return nil }
        var players: [Player] = []
        let playerRows = try await connection.query("SELECT player_id, name FROM hyzer_round_player WHERE round_id = \(id) ORDER BY ordinal", logger: logger)
        for try await (playerID, name) in playerRows.decode((String, String).self) { players.append(Player(id: playerID, name: name)) }
        return CloudRound(
            id: id, courseName: course, holes: pars.enumerated().map { Hole(number: $0.offset + 1, par: $0.element) }, players: players,
            organizerHubID: organizerHub, organizerName: organizerName, anyPlayerResolves: anyPlayerResolves,
            status: status == "completed" ? .completed : .active, createdAt: HyzerJSON.parseTimestamp(createdAt) ?? Date(timeIntervalSince1970: 0))
    }

    /// Active rounds, newest first (at most 20). With `playerID`, only those with that player;
    /// else with `player`, those naming a player so (any case); with `createdAfter`, only newer ones.
    public func activeRounds(naming player: String?, playerID: String? = nil, createdAfter: Date? = nil) async throws -> [CloudRound] {
        let since = createdAfter.map(HyzerJSON.formatTimestamp) ?? ""
        let rows: PostgresRowSequence
        if let playerID {
            rows = try await connection.query("""
                SELECT DISTINCT r.id, r.created_at FROM hyzer_round r JOIN hyzer_round_player p ON p.round_id = r.id
                WHERE r.status = 'active' AND p.player_id = \(playerID) AND r.created_at > \(since) ORDER BY r.created_at DESC LIMIT 20
                """, logger: logger)
        } else if let player {
            rows = try await connection.query("""
                SELECT DISTINCT r.id, r.created_at FROM hyzer_round r JOIN hyzer_round_player p ON p.round_id = r.id
                WHERE r.status = 'active' AND lower(p.name) = lower(\(player)) AND r.created_at > \(since) ORDER BY r.created_at DESC LIMIT 20
                """, logger: logger)
        } else {
            rows = try await connection.query("""
                SELECT id, created_at FROM hyzer_round WHERE status = 'active' AND created_at > \(since) ORDER BY created_at DESC LIMIT 20
                """, logger: logger)
        }
        var ids: [UUID] = []
        for try await (id, _) in rows.decode((UUID, String).self) { ids.append(id) }
        var rounds: [CloudRound] = []
        for id in ids { if let round = try await round(id: id) { rounds.append(round) } }
        return rounds
    }

    // MARK: Events

    /// What happened to an upload: the events the cloud holds now, with their order (new or
    /// already there: an upload is idempotent by event id), and those it refused for good.
    public struct UploadResult: Sendable {
        public var acknowledged: [CloudEvent] = []
        public var refused: [(event: ScoreEvent, reason: String)] = []
    }

    /// Uploads one round's events, in the order given, as `hubID`. All of them commit in one
    /// transaction; when the cloud refuses one, each is tried on its own so the rest still land.
    public func upload(_ events: [ScoreEvent], roundID: UUID, hubID: String) async throws -> UploadResult {
        guard !events.isEmpty else { return UploadResult() }
        do {
            return UploadResult(acknowledged: try await insert(events, roundID: roundID, hubID: hubID))
        } catch {
            guard let refusal = CloudError.refusal(in: error) else { throw error }
            guard events.count > 1 else { return UploadResult(refused: [(events[0], refusal)]) }
        }
        var result = UploadResult()
        for event in events {
            do {
                result.acknowledged += try await insert([event], roundID: roundID, hubID: hubID)
            } catch {
                guard let refusal = CloudError.refusal(in: error) else { throw error }
                result.refused.append((event, refusal))
            }
        }
        return result
    }

    private func insert(_ events: [ScoreEvent], roundID: UUID, hubID: String) async throws -> [CloudEvent] {
        let ids = events.map(\.id)
        let players = events.map(\.playerID), holes = events.map(\.hole), strokes = events.map(\.strokes)
        let supersedes = events.map { $0.supersedesEventID?.uuidString ?? "" }
        let reporters = events.map(\.reportedByPlayerID), devices = events.map(\.deviceID), sources = events.map(\.source.rawValue)
        let created = events.map { HyzerJSON.formatTimestamp($0.createdAt) }
        let count = events.count
        let stored = try await connection.withTransaction(logger: logger) { connection -> [UUID: (UUID, Int64)] in
            var base: Int64?
            for try await last in try await connection.query("SELECT last_seq FROM hyzer_round WHERE id = \(roundID) FOR UPDATE", logger: logger).decode(Int64.self) {
                base = last
            }
            guard let base else { throw CloudError.roundMissing(roundID) }
            try await connection.query("""
                INSERT INTO hyzer_score_event (id, round_id, round_seq, player_id, hole, strokes, supersedes, reported_by, device_id, source, created_at, uploaded_by)
                SELECT e.id, \(roundID), \(base) + e.ord, e.player_id, e.hole, e.strokes, NULLIF(e.supersedes, '')::uuid, e.reported_by, e.device_id, e.source, e.created_at, \(hubID)
                FROM unnest(\(ids)::uuid[], \(players)::text[], \(holes)::bigint[], \(strokes)::bigint[], \(supersedes)::text[],
                            \(reporters)::text[], \(devices)::text[], \(sources)::text[], \(created)::text[])
                     WITH ORDINALITY AS e(id, player_id, hole, strokes, supersedes, reported_by, device_id, source, created_at, ord)
                ORDER BY e.ord
                ON CONFLICT (id) DO NOTHING
                """, logger: logger)
            try await connection.query("UPDATE hyzer_round SET last_seq = \(base + Int64(count)) WHERE id = \(roundID)", logger: logger)
            var stored: [UUID: (UUID, Int64)] = [:]
            let rows = try await connection.query("SELECT id, round_id, round_seq FROM hyzer_score_event WHERE id = ANY(\(ids)::uuid[])", logger: logger)
            for try await (id, round, seq) in rows.decode((UUID, UUID, Int64).self) { stored[id] = (round, seq) }
            return stored
        }
        return try events.map { event in
            guard let (round, seq) = stored[event.id], round == roundID else {
                throw CloudError.unusable("The cloud holds score \(event.id.uuidString) in another round.")
            }
            return CloudEvent(event: event, cloudSeq: seq)
        }
    }

    /// A round's events past `cursor`, in the cloud's order, at most `limit`; and its status.
    /// `lastRow`: the cloud order of the last row read, readable or not (the cursor moves past
    /// both); `rowsRead`: how many rows came (the batch was full when it is `limit`).
    public func events(roundID: UUID, after cursor: Int64, limit: Int = 2000) async throws
        -> (events: [CloudEvent], status: RoundStatus?, lastRow: Int64?, rowsRead: Int) {
        var status: RoundStatus?
        for try await value in try await connection.query("SELECT status FROM hyzer_round WHERE id = \(roundID)", logger: logger).decode(String.self) {
            status = value == "completed" ? .completed : .active
        }
        let rows = try await connection.query("""
            SELECT id, round_seq, player_id, hole, strokes, supersedes, reported_by, device_id, source, created_at
            FROM hyzer_score_event WHERE round_id = \(roundID) AND round_seq > \(cursor) ORDER BY round_seq LIMIT \(limit)
            """, logger: logger)
        var events: [CloudEvent] = []
        var lastRow: Int64?, rowsRead = 0
        for try await (id, seq, player, hole, strokes, supersedes, reporter, device, source, created) in
            rows.decode((UUID, Int64, String, Int, Int, UUID?, String, String, String, String).self) {
            lastRow = seq
            rowsRead += 1
            // A row no phone could hold (written around the schema's checks) is passed over by
            // every phone alike, so it neither blocks the round nor splits the phones.
            // An unreadable time is an unreadable row, never 1970.
            guard let source = ScoreSource(rawValue: source), let createdAt = HyzerJSON.parseTimestamp(created),
                  let event = try? ScoreEvent(id: id, roundID: roundID, playerID: player, hole: hole, strokes: strokes, supersedesEventID: supersedes,
                                              reportedByPlayerID: reporter, deviceID: device, source: source, createdAt: createdAt) else {
                logger.error("passed over an unreadable score in the cloud", metadata: ["event": "\(id)", "round_seq": "\(seq)"])
                continue
            }
            events.append(CloudEvent(event: event, cloudSeq: seq))
        }
        return (events, status, lastRow, rowsRead)
    }
}

/// Why the cloud could not be used, said for a person.
public enum CloudError: Error, CustomStringConvertible, Sendable {
    case unreachable(String)
    case unusable(String)
    case roundMissing(UUID)
    /// The phone's cloud was set to another URL or forgotten while connected.
    case reconfigured

    public var description: String {
        switch self {
        case .unreachable(let message), .unusable(let message): message
        case .roundMissing(let id): "The cloud does not hold round \(id.uuidString) yet."
        case .reconfigured: "The cloud configuration changed."
        }
    }

    /// A refusal the cloud will repeat however often the event is sent: a broken rule, not a
    /// broken connection (integrity, data, permission and raised exceptions).
    /// The cloud's reason, when `error` is such a refusal (inside a transaction or not); nil otherwise.
    static func refusal(in error: any Error) -> String? {
        if let error = error as? PostgresTransactionError, let cause = error.closureError ?? error.commitError {
            return refusal(in: cause)
        }
        guard let error = error as? PSQLError, error.code == .server, let state = error.serverInfo?[.sqlState] else { return nil }
        let refused = state.hasPrefix("23") || state.hasPrefix("22") || state == "42501" || state == "P0001"
        return refused ? serverMessage(error) : nil
    }

    static func serverMessage(_ error: PSQLError) -> String {
        error.serverInfo?[.message] ?? "\(error.code)"
    }

    /// Turns postgres-nio's deliberately vague errors into what happened.
    public static func describe(_ error: any Error, address: CloudAddress) -> CloudError {
        if let error = error as? CloudError { return error }
        if let error = error as? PostgresTransactionError,
           let cause = error.closureError ?? error.commitError ?? error.beginError ?? error.rollbackError {
            return describe(cause, address: address)
        }
        let place = address.place
        if let error = error as? PSQLError {
            if error.code == .server {
                let message = serverMessage(error)
                let state = error.serverInfo?[.sqlState] ?? ""
                // 08: connection exceptions; 57P: the server is shutting down, starting or restarting.
                if state.hasPrefix("08") || state.hasPrefix("57P") {
                    return .unreachable("The cloud at \(place) is not available: \(message)")
                }
                return .unusable("The cloud at \(place) refused: \(message)")
            }
            switch error.code {
            case .sslUnsupported:
                return .unusable("The cloud at \(place) does not offer TLS, and the URL's sslmode requires it (sslmode=disable or prefer connects without).")
            case .authMechanismRequiresPassword:
                return .unusable("The cloud at \(place) asks for a password and the URL has none (postgres://USER:PASSWORD@HOST/DATABASE).")
            case .unsupportedAuthMechanism, .saslError:
                return .unusable("The cloud at \(place) asks for a login this client cannot do (\(error.code)); use password or SCRAM authentication.")
            default:
                break
            }
            let cause = error.underlying.map { plainCause($0) } ?? "\(error.code)"
            return .unreachable("The cloud at \(place) cannot be reached: \(cause).")
        }
        return .unreachable("The cloud at \(place) cannot be reached: \(plainCause(error)).")
    }

    /// A socket error as a person says it ("connection refused"), not NIO's nested dump.
    static func plainCause(_ error: any Error) -> String {
        let text = "\(error)"
        for (marker, plain) in [("Connection refused", "connection refused (is the server running there?)"), ("timed out", "the connection timed out"),
                                ("No route to host", "no route to the host"), ("Network is unreachable", "the network is unreachable"),
                                ("Name or service not known", "the host name is unknown"), ("nodename nor servname", "the host name is unknown"),
                                ("Connection reset", "the connection was reset"), ("No such file or directory", "no server socket there")]
        where text.localizedCaseInsensitiveContains(marker) {
            return plain
        }
        return text.trimmingCharacters(in: CharacterSet(charactersIn: ". "))
    }
}

extension Duration {
    var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}
