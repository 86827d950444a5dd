import Foundation
import HubCore
import HyzerKit
import Logging
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO

/// One connection to the cloud and every call a phone makes to it. A phone logs in as its own
/// role and may only call the functions of schema `hyzer` (CloudSchema): the cloud numbers each
/// round's events itself, one after another with no gap, and commits them in that order, so a
/// phone that has read up to number N has seen every event up to N: a cursor per round is enough
/// to never miss one, whatever notifications were lost.
public final class CloudConnection: Sendable {
    let connection: PostgresConnection
    let logger: Logger
    public let address: CloudAddress
    /// Who the cloud says this phone is (`session_user`): the organizer it records for the rounds
    /// this phone shares and the uploader of its scores.
    public let role: String

    /// The calls of `whileConnected` running now, each told if the connection closes: one callback
    /// on the close future for the connection's life. (One per call, registered from off the
    /// event loop, woke it for every pass and stayed until the connection closed.)
    private let onClose = NIOLockedValueBox(CloseWaiters())
    /// When the cloud last answered this connection (a call's reply, or a row of it): a slow link
    /// that keeps answering is not a silent one (`whileConnected(silence:)`).
    private let lastHeard = NIOLockedValueBox(ContinuousClock.now)
    /// Why this phone closed the connection itself, said by every call it ends.
    private let closedBecause = NIOLockedValueBox<String?>(nil)

    private func heard() { lastHeard.withLockedValue { $0 = .now } }

    private struct CloseWaiters {
        var closed = false
        var nextKey: UInt64 = 0
        var waiters: [UInt64: @Sendable () -> Void] = [:]
    }

    private init(connection: PostgresConnection, address: CloudAddress, role: String, logger: Logger) {
        self.connection = connection
        self.address = address
        self.role = role
        self.logger = logger
        connection.closeFuture.whenComplete { [onClose] _ in
            let waiters = onClose.withLockedValue { state in
                state.closed = true
                defer { state.waiters = [:] }
                return state.waiters
            }
            for waiter in waiters.values { waiter() }
        }
    }

    /// Connects (giving up after `timeout`) and asks the cloud who this phone is. `session`: the
    /// connection's `application_name` (`endOtherSessions(named:)`).
    public static func connect(to address: CloudAddress, timeout: Duration = .seconds(5), session: String? = nil,
                               logger: Logger) async throws -> CloudConnection {
        let configuration: PostgresConnection.Configuration
        do {
            configuration = try address.connectionConfiguration(connectTimeout: .milliseconds(timeout.milliseconds), session: session)
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
        do {
            let role = try await identify(connection, address: address, logger: logger)
            return CloudConnection(connection: connection, address: address, role: role, logger: logger)
        } catch {
            try? await connection.close()
            throw CloudError.describe(error, address: address)
        }
    }

    public func close() async {
        try? await connection.close()
    }

    /// Runs `body` until it returns, the connection closes, or the cloud has said nothing for
    /// `silence` since `body` started or last heard from it (the connection is then closed): a
    /// network gone silent, not a slow one, whose answers keep coming. A query on a connection
    /// that dies can stay pending for good, and structured concurrency would wait for it: `body`
    /// runs as its own task, abandoned when the connection goes.
    public func whileConnected<T: Sendable>(silence: Duration? = nil, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let connection = self.connection, onClose = self.onClose
        let pending = NIOLockedValueBox<CheckedContinuation<T, any Error>?>(nil)
        let tasks = NIOLockedValueBox<[Task<Void, Never>]>([])
        let key = onClose.withLockedValue { state in
            state.nextKey += 1
            return state.nextKey
        }
        /// Resumes the caller once; says whether this call was the one that did.
        @Sendable func finish(_ result: Result<T, any Error>) -> Bool {
            guard let continuation = pending.withLockedValue({ $0.take() }) else { return false }
            onClose.withLockedValue { _ = $0.waiters.removeValue(forKey: key) }
            for task in tasks.withLockedValue({ $0 }) { task.cancel() }
            continuation.resume(with: result)
            return true
        }
        let lost = { @Sendable [closedBecause] in
            _ = finish(.failure(CloudError.unreachable(closedBecause.withLockedValue { $0 } ?? "The connection to the cloud was lost.")))
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                pending.withLockedValue { $0 = continuation }
                if Task.isCancelled {
                    _ = finish(.failure(CancellationError()))
                    return
                }
                let closed = onClose.withLockedValue { state in
                    if !state.closed { state.waiters[key] = lost }
                    return state.closed
                }
                if closed {
                    lost()
                    return
                }
                // Cancelled since the check above: its entry goes, and its body never starts.
                if pending.withLockedValue({ $0 == nil }) {
                    onClose.withLockedValue { _ = $0.waiters.removeValue(forKey: key) }
                    return
                }
                let work = Task {
                    do { _ = finish(.success(try await body())) } catch { _ = finish(.failure(error)) }
                }
                var started = [work]
                if let silence {
                    started.append(Task { [lastHeard, closedBecause] in
                        var since = ContinuousClock.now
                        while true {
                            try? await Task.sleep(until: since + silence)
                            guard !Task.isCancelled else { return }
                            let heard = lastHeard.withLockedValue { $0 }
                            if heard > since {
                                since = heard
                                continue
                            }
                            // Closed before the caller hears of it: a call it makes next finds
                            // the connection given up, and says why.
                            guard pending.withLockedValue({ $0 != nil }) else { return }
                            let reason = "The cloud stopped answering (nothing heard in \(silence))."
                            closedBecause.withLockedValue { $0 = $0 ?? reason }
                            try? await connection.close()
                            _ = finish(.failure(CloudError.unreachable(reason)))
                            return
                        }
                    })
                }
                tasks.withLockedValue { $0 = started }
                // Finished before its tasks were kept (a quick body, a lost connection): they end now.
                if pending.withLockedValue({ $0 == nil }) { started.forEach { $0.cancel() } }
            }
        } onCancel: {
            _ = finish(.failure(CancellationError()))
        }
    }

    /// Runs `body` with every notification of a change in the cloud (its payload: `ROUND-ID:NUMBER`,
    /// the round's highest event number; any role may send one, so it is only ever a hint).
    /// Returns when `body` does; throws when the connection is lost.
    public func listen<T>(_ body: (PostgresNotificationSequence) async throws -> T) async throws -> T {
        try await connection.listen(on: CloudSchema.channel, consume: body)
    }

    // MARK: Who this phone is

    /// Asks the cloud which schema it runs and who this connection is (`session_user`): the role
    /// the cloud records as the organizer of the rounds this phone shares and the uploader of its scores.
    static func identify(_ connection: PostgresConnection, address: CloudAddress, logger: Logger) async throws -> String {
        do {
            var found: (Int, String)?
            for try await row in try await connection.query("SELECT hyzer.api_version(), session_user::text", logger: logger).decode((Int, String).self) {
                found = row
            }
            guard let (version, role) = found else { throw CloudError.unusable("The cloud at \(address.place) did not say who this phone is.") }
            guard version == CloudSchema.apiVersion else {
                throw CloudError.unusable("The cloud at \(address.place) runs Hyzer cloud schema \(version); this phone speaks \(CloudSchema.apiVersion). An administrator updates it with: hyzer-hub cloud init ADMIN-URL")
            }
            return role
        } catch let error as PSQLError where error.code == .server {
            let state = error.serverInfo?[.sqlState] ?? ""
            // 3F000: no schema `hyzer`; 42883: no such function; 42501: the role may not use it.
            if state == "3F000" || state == "42883" {
                throw CloudError.unusable("The database at \(address.place) holds no Hyzer cloud. An administrator makes one, and a role for each phone, with: hyzer-hub cloud init ADMIN-URL --phone NAME")
            }
            if state == "42501" {
                throw CloudError.unusable("Role \(address.username) is not a Hyzer phone in the cloud at \(address.place). An administrator adds it with: hyzer-hub cloud init ADMIN-URL --phone NAME (each phone logs in as its own role).")
            }
            throw error
        }
    }

    /// Ends this phone's other sessions named `name`: those an earlier connection of the same
    /// process, or of its home's earlier `serve`, left open on the server when the network went
    /// (a phone out of coverage sends no FIN, and the server's TCP keepalive waits two hours),
    /// which count against the role's four connections until a phone that lost coverage twice
    /// could not connect at all. A role may end its own backends. Returns how many ended.
    public func endOtherSessions(named name: String) async throws -> Int {
        var ended = 0
        for try await stopped in try await connection.query("""
            SELECT pg_terminate_backend(a.pid) FROM pg_stat_activity a
            WHERE a.usename = session_user AND a.application_name = \(name) AND a.pid <> pg_backend_pid()
            """, logger: logger).decode(Bool.self) where stopped {
            ended += 1
        }
        heard()
        return ended
    }

    // MARK: Rounds

    /// Shares a round: the cloud records this phone's role as its organizer. Sharing it again with
    /// the same content is a no-op; a round never changes once shared (HZ101 says so).
    public func share(_ round: CloudRound) async throws {
        let pars = round.holes.map(\.par), ids = round.players.map(\.id), names = round.players.map(\.name)
        let created = HyzerJSON.formatTimestamp(round.createdAt)
        try await connection.query("""
            SELECT hyzer.share_round(\(round.id), \(round.courseName), \(pars)::integer[], \(round.organizerName), \(round.anyPlayerResolves),
                                     \(created), \(ids)::text[], \(names)::text[])
            """, logger: logger)
        heard()
    }

    /// Records that a round was completed. False when it was already; throws `.refused` when this
    /// phone may not complete it (neither its organizer nor a phone that scored in it).
    @discardableResult
    public func complete(roundID: UUID) async throws -> Bool {
        var changed = false
        for try await value in try await connection.query("SELECT hyzer.complete_round(\(roundID))", logger: logger).decode(Bool.self) {
            changed = value
        }
        heard()
        return changed
    }

    /// A round as the cloud holds it, or nil. A round whose names or numbers no phone could hold is
    /// `.unusable`: it is neither joined nor followed.
    public func round(id: UUID) async throws -> CloudRound? {
        let rows = try await connection.query("""
            SELECT course_name, pars, organizer, organizer_name, any_player_resolves, status, created_at, last_seq, player_ids, player_names
            FROM hyzer.round_info(\(id))
            """, logger: logger)
        heard()
        for try await (course, pars, organizer, organizerName, anyPlayerResolves, status, createdAt, lastSeq, playerIDs, playerNames) in
            rows.decode((String, [Int], String, String?, Bool, String, String, Int64, [String], [String]).self) {
            return try CloudRound.checked(
                id: id, courseName: course, pars: pars, playerIDs: playerIDs, playerNames: playerNames, organizer: organizer,
                organizerName: organizerName, anyPlayerResolves: anyPlayerResolves, status: status, createdAt: createdAt, lastSeq: lastSeq)
        }
        return nil
    }

    /// Active rounds, newest shared first (at most 20), shared after `sharedAfter` by the cloud's
    /// clock. With `playerID`, only those with that player; else with `player`, those naming a
    /// player so (any case). A round no phone could hold is left out.
    public func activeRounds(naming player: String?, playerID: String? = nil, sharedAfter: Date? = nil) async throws -> [CloudRound] {
        let rows = try await connection.query("""
            SELECT round_id FROM hyzer.active_rounds(\(player), \(playerID), \(sharedAfter))
            """, logger: logger)
        var ids: [UUID] = []
        for try await id in rows.decode(UUID.self) { ids.append(id) }
        heard()
        var rounds: [CloudRound] = []
        for id in ids {
            do {
                if let round = try await round(id: id) { rounds.append(round) }
            } catch let error as CloudRoundProblem {
                logger.notice("left out a shared round no phone could hold: \(error.description)")
            }
        }
        return rounds
    }

    // MARK: Events

    /// What happened to an upload: the events the cloud holds now, with their order (new or
    /// already there: an upload is idempotent by event id), and those it refused for good.
    public struct UploadResult: Sendable {
        public var acknowledged: [CloudEvent] = []
        public var refused: [(event: ScoreEvent, reason: String)] = []
    }

    /// Uploads one round's events, in the order given (at most 2,000), in one call: the cloud
    /// numbers and commits those that keep its rules and refuses each other one with its reason.
    public func upload(_ events: [ScoreEvent], roundID: UUID) async throws -> UploadResult {
        guard !events.isEmpty else { return UploadResult() }
        let rows = try await connection.execute(Upload(roundID: roundID, events: events), logger: logger)
        let byID = Dictionary(events.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var result = UploadResult()
        for try await (id, seq, code, reason) in rows {
            heard()
            guard let event = byID[id] else { continue }
            if let seq {
                result.acknowledged.append(CloudEvent(event: event, cloudSeq: seq))
            } else {
                result.refused.append((event, "\(code ?? "refused"): \(reason ?? "the cloud gave no reason")"))
            }
        }
        guard result.acknowledged.count + result.refused.count == events.count else {
            throw CloudError.unusable("The cloud answered \(result.acknowledged.count + result.refused.count) of \(events.count) uploaded scores; nothing is marked uploaded.")
        }
        return result
    }

    /// The most rows one read gives (`hyzer.events_after` gives at most 2,000).
    public static let eventsPerRead = 2000

    /// A round's rows past `cursor`, in the cloud's order, at most `limit`. A row no phone could
    /// hold (written around the cloud's checks) comes back as `.unreadable`, never as 1970 or a guess.
    public func events(roundID: UUID, after cursor: Int64, limit: Int = eventsPerRead) async throws -> [CloudRow] {
        let rows = try await connection.execute(EventsAfter(roundID: roundID, cursor: cursor, limit: limit), logger: logger)
        var result: [CloudRow] = []
        heard()
        for try await (seq, id, player, hole, strokes, supersedes, reporter, device, source, created, uploadedBy) in rows {
            heard()
            guard let source = ScoreSource(rawValue: source), let createdAt = HyzerJSON.parseTimestamp(created) else {
                result.append(.unreadable(cloudSeq: seq, eventID: id, reason: "its source or time cannot be read"))
                continue
            }
            do {
                let event = try ScoreEvent(id: id, roundID: roundID, playerID: player, hole: hole, strokes: strokes, supersedesEventID: supersedes,
                                           reportedByPlayerID: reporter, deviceID: device, source: source, createdAt: createdAt)
                result.append(.event(CloudEvent(event: event, cloudSeq: seq, uploadedBy: uploadedBy)))
            } catch {
                result.append(.unreadable(cloudSeq: seq, eventID: id, reason: "\(error)"))
            }
        }
        return result
    }
}

// The two calls of every score, prepared once per connection: parsed and planned at the first
// call, then only bound (they are on the path from a score on one phone to another phone's watch).

/// `hyzer.upload_events` for one round's events, in the order given.
struct Upload: PostgresPreparedStatement {
    static let sql = """
        SELECT event_id, round_seq, refusal_code, refusal FROM hyzer.upload_events(
            $1, $2::uuid[], $3::text[], $4::integer[], $5::integer[],
            ARRAY(SELECT NULLIF(s, '')::uuid FROM unnest($6::text[]) WITH ORDINALITY AS t(s, o) ORDER BY o),
            $7::text[], $8::text[], $9::text[], $10::text[])
        """
    typealias Row = (UUID, Int64?, String?, String?)
    let roundID: UUID
    let events: [ScoreEvent]

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 10)
        bindings.append(roundID)
        bindings.append(events.map(\.id))
        bindings.append(events.map(\.playerID))
        bindings.append(events.map(\.hole))
        bindings.append(events.map(\.strokes))
        // postgres-nio has no array of optionals: a first score's `supersedes` goes as '' and becomes null.
        bindings.append(events.map { $0.supersedesEventID?.uuidString ?? "" })
        bindings.append(events.map(\.reportedByPlayerID))
        bindings.append(events.map(\.deviceID))
        bindings.append(events.map(\.source.rawValue))
        bindings.append(events.map { HyzerJSON.formatTimestamp($0.createdAt) })
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
}

/// `hyzer.events_after`: a round's rows past a cursor, in the cloud's order.
struct EventsAfter: PostgresPreparedStatement {
    static let sql = """
        SELECT round_seq, id, player_id, hole, strokes, supersedes, reported_by, device_id, source, created_at, uploaded_by
        FROM hyzer.events_after($1, $2, $3::integer)
        """
    typealias Row = (Int64, UUID, String, Int, Int, UUID?, String, String, String, String, String)
    let roundID: UUID
    let cursor: Int64
    let limit: Int

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 3)
        bindings.append(roundID)
        bindings.append(cursor)
        bindings.append(limit)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
}

/// Why the cloud could not be used, said for a person.
public enum CloudError: Error, CustomStringConvertible, Sendable {
    case unreachable(String)
    case unusable(String)
    /// The phone's cloud was set to another URL or forgotten while connected.
    case reconfigured

    public var description: String {
        switch self {
        case .unreachable(let message), .unusable(let message): message
        case .reconfigured: "The cloud configuration changed."
        }
    }

    /// The SQLSTATE of a server error, when `error` is one (inside a transaction or not).
    static func sqlState(of error: any Error) -> String? {
        if let error = error as? PostgresTransactionError, let cause = error.closureError ?? error.commitError {
            return sqlState(of: cause)
        }
        guard let error = error as? PSQLError, error.code == .server else { return nil }
        return error.serverInfo?[.sqlState]
    }

    /// The server's words, when `error` is a server error whose SQLSTATE is `state`.
    static func message(of error: any Error, when state: String) -> String? {
        guard sqlState(of: error) == state else { return nil }
        if let error = error as? PostgresTransactionError, let cause = error.closureError ?? error.commitError {
            return message(of: cause, when: state)
        }
        return (error as? PSQLError).map(serverMessage)
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
                // What the cloud says again however often it is asked (docs/SYNC.md, "What a phone
                // does with the cloud's answers"): a configuration to fix, or a round it will not take.
                // 28: login refused; 3D/3F: no such database or schema; 42: no right, no function;
                // 22023: a call this phone should never make; HZ101/HZ102: a round refused for good.
                let lasting = ["28", "3D", "3F", "42"].contains { state.hasPrefix($0) } || ["22023", "HZ101", "HZ102", "HZ104"].contains(state)
                if lasting { return .unusable("The cloud at \(place) refused: \(message)") }
                // Everything else (a busy round, a lost race, a server restarting, a full disk, a
                // cancelled statement) passes: retried with backoff.
                return .unreachable("The cloud at \(place) is not available now: \(message)")
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
            let cause = error.underlying.map { plainCause($0) } ?? (error.code == .serverClosedConnection ? "the server closed the connection"
                                                                    : error.code == .clientClosedConnection ? "the connection was closed" : "\(error.code)")
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
