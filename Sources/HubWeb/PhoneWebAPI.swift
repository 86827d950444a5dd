import Foundation
import HubCore
import HyzerKit
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore

typealias PhoneWebContext = BasicWebSocketRequestContext

/// The page, its JSON API and `/live`: what the phone's face may do is what the command line may
/// do, through the same `Hub` calls, with the same refusals (their text is the CLI's).
struct PhoneWebAPI: Sendable {
    let hub: Hub
    let publisher: PagePublisher
    let token: String
    /// On loopback the page needs no token.
    let open: Bool
    /// Told after every write the page makes (serve pushes it to the watches).
    let wrote: @Sendable () -> Void

    /// A request body's limit: the largest thing a page sends is a round's setup (64 players of
    /// 64 characters, each written as `\u` escapes, is under 30 KiB) or a spoken transcript.
    static let maxBodyBytes = 64 * 1024
    static let cookieName = "hyzer-token"

    func addRoutes(to router: Router<PhoneWebContext>) {
        router.add(middleware: AccessGate(token: token, open: open))
        router.get("/") { _, _ in Self.file(PackageResources.index_html, "text/html; charset=utf-8") }
        router.get("/app.js") { _, _ in Self.file(PackageResources.app_js, "text/javascript; charset=utf-8") }
        router.get("/app.css") { _, _ in Self.file(PackageResources.app_css, "text/css; charset=utf-8") }
        router.get("/tokens.css") { _, _ in Self.text(PageTokens.css, "text/css; charset=utf-8") }
        router.get("/api/state") { _, _ in
            do { return Self.text(try await Self.offLoop { try publisher.current().json }, "application/json") } catch {
                return Self.refusal(.internalServerError, "\(error)")
            }
        }
        router.post("/api/pair") { request, _ in try await pair(request) }
        router.post("/api/score") { request, _ in try await write(request, ScoreRequest.self) { try score($0) } }
        router.post("/api/resolve") { request, _ in try await write(request, ResolveRequest.self) { try resolve($0) } }
        router.post("/api/voice") { request, _ in try await write(request, VoiceRequest.self) { try voice($0) } }
        router.post("/api/round/start") { request, _ in try await write(request, StartRequest.self) { try start($0) } }
        router.post("/api/round/finish") { request, _ in try await write(request, FinishRequest.self) { try finish($0) } }
        router.post("/api/hole") { request, _ in try await write(request, HoleRequest.self) { try hole($0) } }
        // Reached only when /live was not upgraded (the WebSocket router declined it).
        router.get("/live") { _, _ in
            Self.refusal(.badRequest, "/live is a WebSocket: open it with new WebSocket(\"ws://…/live?after=SEQUENCE\") (docs/WEB.md).")
        }
    }

    /// `/live?after=N`: the state now if newer than N, then every change, until the page leaves.
    func addLiveRoute(to router: Router<PhoneWebContext>) {
        router.add(middleware: AccessGate(token: token, open: open))
        router.ws("/live") { _, _ in .upgrade([:]) } onUpgrade: { inbound, outbound, context in
            let after = context.request.uri.queryParameters.get("after", as: Int.self) ?? -1
            let (id, states) = publisher.follow()
            defer { publisher.unfollow(id) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    // A page sends nothing that matters; its leaving ends the stream.
                    for try await _ in inbound {}
                }
                group.addTask {
                    if let now = try? await Self.offLoop({ try publisher.current() }), now.sequence > after { try await outbound.write(.text(now.json)) }
                    for await state in states { try await outbound.write(.text(state)) }
                }
                try await group.next()
                group.cancelAll()
            }
        }
    }

    // MARK: Writes

    /// What each write takes, as a refusal names it.
    static let shapes = [
        "/api/score": "{\"player\": NAME, \"strokes\": 1...10, \"hole\": N (optional: the current hole)}",
        "/api/resolve": "{\"player\": NAME, \"strokes\": 1...10, \"hole\": N, \"round\"?: ID}",
        "/api/voice": "{\"transcript\": TEXT, \"hole\": N (optional), \"dryRun\": true|false (optional)}",
        "/api/round/start": "{\"course\": NAME, \"players\": [NAME, …], \"guests\": [NAME, …] (optional)}",
        "/api/round/finish": "{\"force\": true|false} (optional)",
        "/api/hole": "{\"hole\": N}",
        "/api/pair": "{\"token\": TOKEN}",
    ]

    struct ScoreRequest: Decodable { let player: String; let strokes: Int; let hole: Int? }
    struct ResolveRequest: Decodable { let player: String; let strokes: Int; let hole: Int; let round: String? }
    struct VoiceRequest: Decodable { let transcript: String; let hole: Int?; let dryRun: Bool? }
    struct StartRequest: Decodable { let course: String; let players: [String]; let guests: [String]? }
    struct FinishRequest: Decodable { let force: Bool? }
    struct HoleRequest: Decodable { let hole: Int }
    struct PairRequest: Decodable { let token: String }

    struct Answer: Encodable {
        let message: String
        var recorded: RecordedReport?
        var voice: VoiceReport?
        /// A score entered on the page, said as the watch says its own ("Score recorded, Ann, four, one over par. Hole 3.").
        var spoken: String?
    }

    /// A tap on the hole card: a first score, or (the hole already scored) a correction of the
    /// score that counts, as a re-score on the watch is.
    func score(_ request: ScoreRequest) throws -> Answer {
        let result: AppendResult
        do {
            result = try hub.score(player: request.player, strokes: request.strokes, hole: request.hole)
        } catch HubError.alreadyScored {
            guard let hole = try request.hole ?? hub.snapshot().round?.currentHole else { throw HubError.noActiveRound }
            result = try hub.correct(player: request.player, strokes: request.strokes, hole: hole)
        }
        return try recorded(result)
    }

    func resolve(_ request: ResolveRequest) throws -> Answer {
        try recorded(hub.resolve(player: request.player, strokes: request.strokes, hole: request.hole, round: request.round))
    }

    func recorded(_ result: AppendResult) throws -> Answer {
        guard let round = try hub.currentOrLatestRound() else { throw HubError.noActiveRound }
        var answer = Answer(message: HubText.recorded(result, round: round, settledBy: try hub.settledElsewhere(round.id)))
        answer.recorded = RecordedReport(result, round: round)
        let event = result.event
        if let par = round.holes.first(where: { $0.number == event.hole })?.par {
            answer.spoken = Announcements.scoreSaved(name: round.player(event.playerID)?.name ?? event.playerID, strokes: event.strokes,
                                                     relativeToPar: event.strokes - par, hole: event.hole, corrected: event.supersedesEventID != nil)
        }
        return answer
    }

    func voice(_ request: VoiceRequest) throws -> Answer {
        // The overlay corrects the hole's score, as the watch's does ("To change it: hyzer-hub
        // correct …" was the page's answer to Sarah 2 over her 3).
        let outcome = try hub.voice(request.transcript, hole: request.hole, dryRun: request.dryRun ?? false, intent: .correction)
        guard let round = try hub.currentOrLatestRound() else { throw HubError.noActiveRound }
        var answer = Answer(message: HubText.voice(outcome, round: round))
        answer.voice = VoiceReport(outcome, round: round)
        return answer
    }

    func start(_ request: StartRequest) throws -> Answer {
        let round = try hub.startRound(course: request.course, players: request.players, guests: request.guests ?? [])
        return Answer(message: HubText.roundStarted(round))
    }

    func finish(_ request: FinishRequest) throws -> Answer {
        let (round, open, counted) = try hub.finishRound(force: request.force ?? false)
        return Answer(message: HubText.roundFinished(round, openDiscrepancies: open, counted: counted))
    }

    func hole(_ request: HoleRequest) throws -> Answer {
        let round = try hub.moveToHole(request.hole)
        return Answer(message: HubText.holeMoved(round, to: request.hole))
    }

    /// Decodes the body, runs the write off the event loop (the store syncs to disk), answers with
    /// what happened or the refusal, and has the change pushed.
    func write<Body: Decodable & Sendable>(_ request: Request, _ type: Body.Type,
                                           _ perform: @escaping @Sendable (Body) throws -> Answer) async throws -> Response {
        let body: Body
        switch await Self.decode(request, type) {
        case .success(let decoded): body = decoded
        case .failure(let refusal): return refusal.response
        }
        do {
            let answer = try await Self.offLoop { try perform(body) }
            // Pushed to the watches (while the phone app runs), and to the pages in any case: the
            // page is the app in front.
            wrote()
            publisher.changed()
            return try Self.json(answer)
        } catch let error as HubError {
            return Self.refusal(Self.status(of: error), error.description)
        }
    }

    func pair(_ request: Request) async throws -> Response {
        guard case .success(let body) = await Self.decode(request, PairRequest.self) else {
            return Self.refusal(.badRequest, "Send {\"token\": \"…\"}: the pairing token that hyzer-hub token prints.")
        }
        guard AccessGate.matches(body.token, token) else {
            return Self.refusal(.unauthorized, "That is not this phone's pairing token (hyzer-hub token prints it).")
        }
        var response = try Self.json(Answer(message: "Paired: this browser keeps the token in a cookie."))
        // Kept a year: the page asks for the token once per browser, not once per visit.
        response.headers[.setCookie] = Cookie(name: Self.cookieName, value: token, maxAge: 365 * 24 * 3600, path: "/", secure: true, httpOnly: true,
                                              sameSite: .strict).description
        return response
    }

    // MARK: Plumbing

    struct Refusal: Error {
        let status: HTTPResponse.Status
        let message: String
        var response: Response { PhoneWebAPI.refusal(status, message) }
    }

    static func decode<Body: Decodable>(_ request: Request, _ type: Body.Type) async -> Result<Body, Refusal> {
        let bytes: ByteBuffer
        do {
            bytes = try await request.body.collect(upTo: maxBodyBytes)
        } catch {
            return .failure(Refusal(status: .contentTooLarge, message: "The request body is over \(maxBodyBytes / 1024) KiB; the page never sends that much."))
        }
        let path = request.uri.path
        let takes = shapes[path].map { " \(path) takes \($0)." } ?? ""
        // A POST without a JSON content type is what a form or a script on another site sends
        // without asking (a "simple" cross-site request): never taken.
        // The media type itself, parameters aside (`application/json; charset=utf-8`), not a
        // prefix of it (`application/jsonx`).
        let mediaType = request.headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        guard mediaType == "application/json" else {
            return .failure(Refusal(status: .unsupportedMediaType, message: "Send JSON with Content-Type: application/json.\(takes)"))
        }
        let data = bytes.readableBytes == 0 ? Data("{}".utf8) : Data(bytes.readableBytesView)
        guard let parsed = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            return .failure(Refusal(status: .badRequest, message: "The request is not JSON.\(takes)"))
        }
        do {
            return .success(try HyzerJSON.decoder().decode(Body.self, from: data))
        } catch let error as DecodingError {
            return .failure(Refusal(status: .badRequest, message: "\(Self.explain(error, in: parsed)).\(takes)"))
        } catch {
            return .failure(Refusal(status: .badRequest, message: "The request is not what \(path) takes.\(takes)"))
        }
    }

    /// "strokes must be a whole number"-style: what was wrong, at which field. `parsed`: the
    /// body as JSON, for the field Foundation's decoder does not name (on Linux a number that is
    /// no `Int`, 3.5 or 1e400, is "not valid JSON" at no field).
    static func explain(_ error: DecodingError, in parsed: Any) -> String {
        func field(_ path: [any CodingKey]) -> String { path.map(\.stringValue).joined(separator: ".") }
        switch error {
        case .keyNotFound(let key, let context): return "\(field(context.codingPath + [key])) is missing"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return "\(context.codingPath.isEmpty ? "The request" : field(context.codingPath)) must be \(HyzerJSON.expected(type))"
        case .dataCorrupted(let context):
            guard context.codingPath.isEmpty else { return "\(field(context.codingPath)) must be a whole number" }
            guard let object = parsed as? [String: Any] else { return "The request is not a JSON object" }
            let fraction = object.keys.sorted().first { key in
                guard let number = object[key] as? NSNumber else { return false }
                return Int(exactly: number.doubleValue) == nil || number.stringValue.contains(".")
            }
            return fraction.map { "\($0) must be a whole number" } ?? "The request is not what it should be"
        @unknown default: return HyzerJSON.explain(error)
        }
    }

    static func status(of error: HubError) -> HTTPResponse.Status {
        switch error {
        case .storage, .damagedStore, .diskUnavailable, .readOnlyHome, .noHub, .badHome: .internalServerError
        case .notOrganizer, .notOrganizerToFinish: .forbidden
        default: .unprocessableContent
        }
    }

    static func offLoop<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
        }
    }

    static func json<T: Encodable>(_ value: T) throws -> Response {
        text(String(decoding: try HyzerJSON.encoder().encode(value), as: UTF8.self), "application/json")
    }

    static func refusal(_ status: HTTPResponse.Status, _ message: String) -> Response {
        let body = (try? HyzerJSON.encoder().encode(["error": message])) ?? Data()
        var response = Response(status: status, body: .init(byteBuffer: ByteBuffer(bytes: body)))
        response.headers[.contentType] = "application/json"
        return response
    }

    static func text(_ text: String, _ type: String) -> Response {
        var response = Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: text)))
        response.headers[.contentType] = type
        response.headers[.cacheControl] = "no-store"
        return response
    }

    static func file(_ bytes: [UInt8], _ type: String) -> Response {
        var response = Response(status: .ok, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        response.headers[.contentType] = type
        response.headers[.cacheControl] = "no-store"
        return response
    }
}

/// Who may use the phone's face. Off loopback, everything but the page's own files and
/// `/api/pair` needs the pairing token, in the cookie `/api/pair` sets (or as
/// `Authorization: Bearer TOKEN`, for scripts); on loopback, only this machine's own pages.
struct AccessGate: RouterMiddleware {
    typealias Context = PhoneWebContext
    let token: String
    let open: Bool

    static let openPaths: Set<String> = ["/", "/app.js", "/app.css", "/tokens.css", "/api/pair"]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let refusal = refusal(of: request) { return Self.secured(refusal) }
        do {
            return Self.secured(try await next(request, context))
        } catch let error as HTTPError where error.status == .notFound {
            return Self.secured(PhoneWebAPI.refusal(.notFound, "No \(request.method) \(request.uri.path) here: the page is at /, its API is in docs/WEB.md."))
        }
    }

    /// Every answer says what the page may do in a browser: run and load only its own files, be
    /// framed by no other page (a frame of another site's page could have its buttons clicked
    /// through), be read only as the type it says, and name itself to no other site.
    static func secured(_ response: Response) -> Response {
        var response = response
        response.headers[.contentSecurityPolicy] = "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'; object-src 'none'"
        response.headers[.init("X-Frame-Options")!] = "DENY"
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.init("Referrer-Policy")!] = "no-referrer"
        return response
    }

    /// On loopback any page in a browser on this machine could reach the phone: a request names
    /// this machine (not another host name that resolves to it: DNS rebinding), and a request a
    /// browser makes for another site's page (its Origin) is refused. Off loopback the token is
    /// needed, kept in a cookie no other site's request carries.
    func refusal(of request: Request) -> Response? {
        if open {
            let host = request.head.authority.map(Self.hostName) ?? ""
            guard PhoneWebConfiguration.isLoopback(host) else {
                return PhoneWebAPI.refusal(.misdirectedRequest, "This phone's face answers only to 127.0.0.1, localhost or [::1]; got Host \"\(host)\".")
            }
        }
        // The page's own requests name its origin exactly: this scheme, this host and port. Any
        // other (another port's server on this machine, `null` from a sandboxed frame of any
        // site) is another page.
        if let origin = request.headers[.origin] {
            let own = "\(open ? "http" : "https")://\(request.head.authority ?? "")".lowercased()
            // A WebSocket library outside a browser may name the socket's own URL (`ws://HOST`);
            // no browser's page has such an origin, so it is no other site's page.
            let host = request.head.authority.map(Self.hostName) ?? ""
            let socketOrigins = ["ws://\(host.contains(":") ? "[\(host)]" : host)", "ws://\(request.head.authority ?? "")"]
            let socketClient = request.uri.path == "/live" && socketOrigins.contains(origin.lowercased())
            guard origin.lowercased() == own || socketClient else {
                return PhoneWebAPI.refusal(.forbidden, "A page from \(origin) may not use this phone's face (only its own page, \(own), may).")
            }
        }
        guard open || Self.openPaths.contains(request.uri.path) else {
            switch tokenGiven(request) {
            case .none:
                return PhoneWebAPI.refusal(.unauthorized, "This phone's face needs its pairing token (hyzer-hub token prints it); the page asks for it once.")
            case .some(false):
                return PhoneWebAPI.refusal(.unauthorized, "That is not this phone's pairing token (hyzer-hub token prints it).")
            case .some(true):
                return nil
            }
        }
        return nil
    }

    /// The host name of a Host header or an origin's authority, without the port: "127.0.0.1",
    /// "::1", "localhost".
    static func hostName(_ authority: String) -> String {
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            return String(authority[authority.index(after: authority.startIndex)..<close])
        }
        return String(authority.split(separator: ":", maxSplits: 1).first ?? "").lowercased()
    }

    /// nil when no token came; else whether it is this phone's.
    func tokenGiven(_ request: Request) -> Bool? {
        if let cookie = request.cookies[PhoneWebAPI.cookieName] { return Self.matches(cookie.value, token) }
        if let authorization = request.headers[.authorization], authorization.hasPrefix("Bearer ") {
            return Self.matches(String(authorization.dropFirst(7)), token)
        }
        return nil
    }

    /// Compared in time that does not depend on where the guess goes wrong.
    static func matches(_ given: String, _ token: String) -> Bool {
        let a = Array(given.utf8), b = Array(token.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
