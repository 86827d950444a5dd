import Foundation
@testable import HubCloud
import HyzerHarness
import HyzerKit
import Logging
import PostgresNIO
import Testing

/// `hyzer.upload_events` answers a whole upload in one statement (CloudSchema). The rules it
/// keeps are said one event at a time in docs/SYNC.md; `UploadModel` below is that text as code,
/// and random uploads (hostile ones included: bad fields, unknown or foreign corrections, ids
/// given twice, a phone over its quota) must get the same answer, event by event, from both.
@Suite("The cloud's upload rules", .enabled(if: cloudTestServer != nil, "needs HYZER_TEST_POSTGRES_URL (tools/test starts a server)"))
struct UploadRulesTests {
    /// One event as a phone may send it, any field possibly wrong.
    struct Sent: Sendable, Equatable {
        var id: UUID
        var player: String
        var hole: Int
        var strokes: Int
        var supersedes: UUID?
        var reporter: String
        var device: String
        var source: String
        var created: String

        /// What "the same score again" compares (not its time).
        var content: [String] { [player, "\(hole)", "\(strokes)", supersedes?.uuidString ?? "", reporter, device, source] }
    }

    /// The cloud's answer to one event: its number, or a refusal's code.
    struct Answer: Equatable, CustomStringConvertible {
        var number: Int64?
        var code: String?
        var description: String { number.map { "#\($0)" } ?? code ?? "nothing" }
    }

    /// The rules of docs/SYNC.md ("What the cloud refuses, per event"), one event after the other.
    struct UploadModel {
        struct Round {
            var players: Set<String>
            var holes: Int
            var organizer: String
            var anyPlayerResolves: Bool
            var next: Int64 = 1
            var uploadedBy: [String: Int] = [:]
            var quota: Int { 20 * holes * players.count }
        }
        var rounds: [UUID: Round] = [:]
        /// Every event the cloud holds: its round, number and content.
        var held: [UUID: (round: UUID, number: Int64, event: Sent)] = [:]

        mutating func upload(_ events: [Sent], to roundID: UUID, by uploader: String) -> [Answer] {
            var round = rounds[roundID]!
            defer { rounds[roundID] = round }
            var answers: [Answer] = [], firstAt: [UUID: Int] = [:]
            for (index, event) in events.enumerated() {
                // The same id again in one upload: answered as the first, unless it differs.
                if let first = firstAt[event.id] {
                    answers.append(events[first].content == event.content ? answers[first] : Answer(code: "HZ011"))
                    continue
                }
                firstAt[event.id] = index
                if let prior = held[event.id] {
                    if prior.round != roundID { answers.append(Answer(code: "HZ010")) }
                    else if prior.event.content != event.content { answers.append(Answer(code: "HZ011")) }
                    else { answers.append(Answer(number: prior.number)) }
                    continue
                }
                if let code = refusal(event, round, roundID, uploader) {
                    answers.append(Answer(code: code))
                    continue
                }
                guard round.uploadedBy[uploader, default: 0] < round.quota else {
                    answers.append(Answer(code: "HZ028"))
                    continue
                }
                held[event.id] = (roundID, round.next, event)
                answers.append(Answer(number: round.next))
                round.next += 1
                round.uploadedBy[uploader, default: 0] += 1
            }
            return answers
        }

        /// The rules of a new score, in the order the codes are given.
        func refusal(_ event: Sent, _ round: Round, _ roundID: UUID, _ uploader: String) -> String? {
            if !(1...10).contains(event.strokes) { return "HZ023" }
            if !(1...round.holes).contains(event.hole) { return "HZ022" }
            if !["tap", "voice", "crown", "resolution"].contains(event.source) { return "HZ026" }
            if event.device.utf8.count > 64 || event.device.unicodeScalars.contains(where: { $0.value < 0x20 }) || event.device.contains("@") { return "HZ026" }
            // A time every phone can read: the phones' own parser is the rule.
            if event.created.utf8.count > 40 || HyzerJSON.parseTimestamp(event.created) == nil { return "HZ026" }
            if !round.players.contains(event.player) { return "HZ020" }
            if !round.players.contains(event.reporter) { return "HZ021" }
            if let target = event.supersedes {
                guard let held = held[target], held.round == roundID, held.event.player == event.player, held.event.hole == event.hole else { return "HZ024" }
            }
            if event.source == "resolution", !round.anyPlayerResolves, uploader != round.organizer { return "HZ025" }
            return nil
        }
    }

    /// Random uploads, some hostile, to three rounds from two phones, each answered by the cloud and
    /// by the model; then every round holds the model's events at the model's numbers.
    @Test("Every upload, hostile ones included, is answered event by event as the rules say, and the round's numbers have no gap")
    func uploadsFollowTheRules() async throws {
        var random = try SeededRandom.fromEnvironment(for: "uploadsFollowTheRules")
        let replay = random.replay(filter: "uploadsFollowTheRules")
        let cloud = try await SeveralPhonesTests.makeCloud(phones: ["organizer", "other"])
        let logger = Logger(label: "hyzer.test.upload-rules")
        let phones = [try await CloudConnection.connect(to: try CloudAddress(parsing: try cloud.url("organizer")), logger: logger),
                      try await CloudConnection.connect(to: try CloudAddress(parsing: try cloud.url("other")), logger: logger)]
        defer { Task { for phone in phones { await phone.close() } } }

        var model = UploadModel()
        // Small rounds, so that a phone reaches its quota (20 × holes × players) within the run.
        let shapes: [(players: [String], holes: Int, anyPlayerResolves: Bool)] = [(["p1"], 1, false), (["p1", "p2"], 2, false), (["p1", "p2"], 1, true)]
        var roundIDs: [UUID] = []
        for shape in shapes {
            let id = UUID()
            let names = shape.players.map { "Name \($0)" }
            try await phones[0].connection.query("""
                SELECT hyzer.share_round(\(id), 'Maple Hill', \(Array(repeating: 3, count: shape.holes))::integer[], 'Org', \(shape.anyPlayerResolves),
                                         '2026-11-26T10:00:00.000Z', \(shape.players)::text[], \(names)::text[])
                """, logger: logger)
            model.rounds[id] = .init(players: Set(shape.players), holes: shape.holes, organizer: phones[0].role, anyPlayerResolves: shape.anyPlayerResolves)
            roundIDs.append(id)
        }

        for upload in 0..<60 {
            let roundID = roundIDs.randomElement(using: &random)!
            let uploader = Int.random(in: 0...1, using: &random)
            let events = Self.randomUpload(for: roundID, model: model, random: &random)
            let answers = try await Self.upload(events, to: roundID, on: phones[uploader])
            let expected = model.upload(events, to: roundID, by: phones[uploader].role)
            #expect(answers == expected, "upload \(upload) (\(events.count) events by \(phones[uploader].role)): the cloud said \(answers), the rules say \(expected); \(replay)")
            if answers != expected {
                for (i, e) in events.enumerated() { print("upload event \(i) \(e.id.uuidString.prefix(8)) p=\(e.player) h=\(e.hole) s=\(e.strokes) sup=\(e.supersedes.map { String($0.uuidString.prefix(8)) } ?? "-") src=\(e.source) dev=\(e.device.prefix(10)) → cloud \(answers[i]) model \(expected[i]) heldBefore=\(model.held[e.supersedes ?? UUID()].map { "\($0.round == roundID) \($0.event.player) \($0.event.hole)" } ?? "no")") }
                break
            }
        }
        for roundID in roundIDs {
            var held: [(Int64, UUID)] = []
            for try await (number, id) in try await phones[1].connection.query(
                "SELECT round_seq, id FROM hyzer.events_after(\(roundID), 0, 2000)", logger: logger).decode((Int64, UUID).self) {
                held.append((number, id))
            }
            let expected = model.held.filter { $0.value.round == roundID }.map { ($0.value.number, $0.key) }.sorted { $0.0 < $1.0 }
            #expect(held.map(\.0) == Array(1...Int64(max(held.count, 1))).prefix(held.count).map { $0 }, "numbers 1, 2, 3, … with no gap; \(replay)")
            #expect(held.map(\.1) == expected.map(\.1), "the round holds the events the rules stored, at their numbers; \(replay)")
        }
    }

    /// 1 to 30 events: mostly good new scores and corrections, some of each kind of wrong.
    static func randomUpload(for roundID: UUID, model: UploadModel, random: inout SeededRandom) -> [Sent] {
        let round = model.rounds[roundID]!
        let players = Array(round.players).sorted()
        let heldHere = model.held.filter { $0.value.round == roundID }.map(\.value.event).sorted { $0.id.uuidString < $1.id.uuidString }
        let heldElsewhere = model.held.filter { $0.value.round != roundID }.map(\.value.event).sorted { $0.id.uuidString < $1.id.uuidString }
        var events: [Sent] = []
        for _ in 0..<Int.random(in: 1...30, using: &random) {
            let player = players.randomElement(using: &random)!
            var event = Sent(id: UUID(), player: player, hole: Int.random(in: 1...round.holes, using: &random), strokes: Int.random(in: 1...6, using: &random),
                             supersedes: nil, reporter: player, device: "phone-\(Int.random(in: 1...2, using: &random))", source: "tap",
                             created: "2026-11-26T10:00:00.\(Int.random(in: 100...999, using: &random))Z")
            // A correction: of a score held here or sent earlier in this upload (the same player
            // and hole, or not), of one in another round, or of none at all.
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<3:
                if let target = (heldHere + events).randomElement(using: &random) {
                    event.supersedes = target.id
                    if Bool.random(using: &random) { (event.player, event.hole, event.reporter) = (target.player, target.hole, target.player) }
                }
            case 3: event.supersedes = heldElsewhere.randomElement(using: &random)?.id ?? UUID()
            case 4: event.supersedes = UUID()
            default: break
            }
            switch Int.random(in: 0..<40, using: &random) {
            case 0: event.strokes = [0, 11].randomElement(using: &random)!
            case 1: event.hole = [0, round.holes + 1].randomElement(using: &random)!
            case 2: event.source = "bogus"
            case 3: event.device = "bad\u{01}device"
            case 4: event.device = String(repeating: "d", count: 65)
            case 5: event.created = ["yesterday", "2025-02-30T10:00:00Z", "2025-13-01T10:00:00Z", "2025-06-01T24:00:00Z", "2025-06-01T23:59:60Z",
                                     "0000-06-01T10:00:00Z", "-2025-06-01T10:00:00Z", "2023-02-29T10:00:00Z", "2024-02-29T10:00:00Z",
                                     "2025-04-31T10:00:00.5Z", "2025-06-01T10:00:00.1234567890Z"].randomElement(using: &random)!
            case 6: event.player = "stranger"
            case 7: event.reporter = "stranger"
            case 8, 9: event.source = "resolution"
            case 10, 11: if let held = heldHere.randomElement(using: &random) { event = held }  // the same score again
            case 12: if let held = heldHere.randomElement(using: &random) { event = held; event.strokes = held.strokes % 6 + 1 }  // its id, other content
            case 13: if let held = heldElsewhere.randomElement(using: &random) { event.id = held.id }  // an id of another round
            case 14, 15: if let earlier = events.randomElement(using: &random) { event = earlier }  // the same id twice in one upload
            case 16: if let earlier = events.randomElement(using: &random) { event.id = earlier.id }  // … with other content
            case 17: event.device = "watch@other_phone"  // would read as another phone's device
            default: break
            }
            events.append(event)
        }
        return events
    }

    /// One call of `hyzer.upload_events` with the arrays as given; its answers in upload order.
    static func upload(_ events: [Sent], to roundID: UUID, on phone: CloudConnection) async throws -> [Answer] {
        let ids = events.map(\.id), players = events.map(\.player), holes = events.map(\.hole), strokes = events.map(\.strokes)
        let supersedes = events.map { $0.supersedes?.uuidString ?? "" }, reporters = events.map(\.reporter)
        let devices = events.map(\.device), sources = events.map(\.source), created = events.map(\.created)
        var answers: [Answer] = []
        for try await (number, code) in try await phone.connection.query("""
            SELECT round_seq, refusal_code FROM hyzer.upload_events(
                \(roundID), \(ids)::uuid[], \(players)::text[], \(holes)::integer[], \(strokes)::integer[],
                ARRAY(SELECT NULLIF(s, '')::uuid FROM unnest(\(supersedes)::text[]) WITH ORDINALITY AS t(s, o) ORDER BY o),
                \(reporters)::text[], \(devices)::text[], \(sources)::text[], \(created)::text[])
            """, logger: phone.logger).decode((Int64?, String?).self) {
            answers.append(Answer(number: number, code: code))
        }
        return answers
    }
}
