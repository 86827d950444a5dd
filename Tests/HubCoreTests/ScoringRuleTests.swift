import Foundation
import Testing
@testable import HubCore
import HyzerKit
import HyzerHarness

/// The defects of issue 33, each as a user met it: what a command says agrees with what the
/// standings count, on one phone as through the cloud's order (docs/SYNC.md, "Which score counts").
@Suite("Scoring rule on the phone")
struct ScoringRuleTests {
    static let start = Date(timeIntervalSince1970: 1_795_000_000)

    static func hub(_ players: [String]) throws -> (Hub, Round) {
        let hub = try Hub.inMemory(clock: { start })
        return (hub, try hub.startRound(course: "Maple Hill", players: players))
    }

    static func event(_ round: Round, _ player: String, strokes: Int, device: String, reportedBy: String? = nil,
                      supersedes: ScoreEvent? = nil, source: ScoreSource = .crown) throws -> ScoreEvent {
        let id = { (name: String) in round.players.first { $0.name == name }!.id }
        return try ScoreEvent(roundID: round.id, playerID: id(player), hole: 1, strokes: strokes, supersedesEventID: supersedes?.id,
                              reportedByPlayerID: id(reportedBy ?? player), deviceID: device, source: source, createdAt: start)
    }

    /// What the standings count for {player, hole 1}, and the strokes its open discrepancy lists.
    static func shown(_ hub: Hub, _ player: String) throws -> (strokes: Int?, disputed: [Int]) {
        let standing = try #require(try hub.snapshot().round?.standings.first { $0.name == player })
        let open = try hub.discrepancies().discrepancies.first { $0.playerID == standing.playerID && $0.hole == 1 }
        return (standing.holesPlayed == 0 ? nil : standing.totalStrokes, open?.candidateStrokes ?? [])
    }

    @Test("The issue's transcript: the phone corrects a score Sarah's watch merged with; the commands and the standings agree, and the organizer resolves")
    func transcript() async throws {
        let home = try TemporaryHome()
        #expect(try await home.hub("round", "start", "--course", "Maple Hill", "--player", "Jake", "Sarah").status == 0)
        #expect(try await home.hub("score", "Jake", "3", "--hole", "1").stdout == "Recorded Jake: 3 on hole 1 (par 3, E).\n")
        #expect(try await home.hub("score", "Jake", "3", "--hole", "1", "--device", "watch-sarah", "--reported-by", "Sarah").stdout
            == "Recorded Jake: 3 on hole 1 (par 3, E). Same as the score that counts: merged, nothing changes.\n")
        #expect(try await home.hub("correct", "Jake", "4", "--hole", "1").stdout
            == "Corrected Jake to 4 on hole 1 (par 3, +1). Disputed: Sarah says 3 (watch-sarah); 3 counts until it is settled: hyzer-hub resolve \"Jake\" STROKES --hole 1\n")
        let standings = try await home.hub("standings").stdout
        #expect(standings.contains("1    Jake    E      1     3  (discrepancy open)"), "\(standings)")
        #expect(try await home.hub("discrepancies").stdout
            == "Jake, hole 1: Sarah says 3 (watch-sarah, counts for now), Jake says 4 (phone). Settle with: hyzer-hub resolve \"Jake\" STROKES --hole 1\n")
        let resolved = try await home.hub("resolve", "Jake", "4", "--hole", "1")
        #expect(resolved.status == 0 && resolved.stdout == "Resolved Jake: 4 on hole 1 (par 3, +1).\n")
        #expect(try await home.hub("standings").stdout.contains("1    Jake    +1     1     4\n"))
        #expect(try await home.hub("discrepancies").stdout == "No open discrepancies.\n")
    }

    @Test("A device that merged later corrects its own copy: the first device's score stays in play and a discrepancy opens")
    func laterMergerCorrects() throws {
        let (hub, round) = try Self.hub(["Jake", "Sarah"])
        let first = try Self.event(round, "Jake", strokes: 3, device: "phone-a")
        let copy = try Self.event(round, "Jake", strokes: 3, device: "phone-b", reportedBy: "Sarah")
        try hub.append(first)
        #expect(try hub.append(copy).outcome == .stored(.silentMerge))
        #expect(try hub.append(try Self.event(round, "Jake", strokes: 4, device: "phone-b", reportedBy: "Sarah", supersedes: copy)).outcome
            == .stored(.discrepancy))
        #expect(try Self.shown(hub, "Jake") == (3, [3, 4]))
    }

    @Test("A correction ordered after the organizer's resolution is a new claim: a discrepancy opens and the resolution counts")
    func correctionAfterResolution() throws {
        let (hub, round) = try Self.hub(["Jake", "Mike"])
        try hub.score(player: "Jake", strokes: 3, hole: 1)
        let watch = try Self.event(round, "Jake", strokes: 5, device: "watch-mike", reportedBy: "Mike")
        try hub.append(watch)
        try hub.resolve(player: "Jake", strokes: 4, hole: 1)
        #expect(try Self.shown(hub, "Jake") == (4, []))
        // The watch was away: its correction of its own 5 reaches the log after the resolution.
        #expect(try hub.append(try Self.event(round, "Jake", strokes: 6, device: "watch-mike", reportedBy: "Mike", supersedes: watch)).outcome
            == .stored(.discrepancy))
        #expect(try Self.shown(hub, "Jake") == (4, [4, 6]))
    }

    @Test("An open discrepancy lists the score that counts: 3 (phone), 3 (Sarah's watch), 5 (Mike's watch), the phone corrects to 4")
    func discrepancyListsTheCountedScore() throws {
        let (hub, round) = try Self.hub(["Jake", "Sarah", "Mike"])
        try hub.score(player: "Jake", strokes: 3, hole: 1)
        try hub.append(try Self.event(round, "Jake", strokes: 3, device: "watch-sarah", reportedBy: "Sarah"))
        try hub.append(try Self.event(round, "Jake", strokes: 5, device: "watch-mike", reportedBy: "Mike"))
        let result = try hub.correct(player: "Jake", strokes: 4, hole: 1)
        #expect(try Self.shown(hub, "Jake") == (3, [3, 5, 4]))
        let open = try #require(try hub.discrepancies().discrepancies.first)
        #expect(open.events.map(\.deviceID) == ["watch-sarah", "watch-mike", "phone"])
        #expect(HubText.recorded(result, round: round).hasSuffix("Disputed: Sarah says 3 (watch-sarah) and Mike says 5 (watch-mike); 3 counts until it is settled: hyzer-hub resolve \"Jake\" STROKES --hole 1"))
    }

    @Test("Correcting to the strokes that already count records nothing, says so, and does not block finishing")
    func correctionToWhatCounts() async throws {
        let home = try TemporaryHome()
        #expect(try await home.hub("round", "start", "--course", "Maple Hill", "--player", "Jake").status == 0)
        #expect(try await home.hub("score", "Jake", "4", "--hole", "1", "--device", "watch-jake").status == 0)
        let same = try await home.hub("correct", "Jake", "4", "--hole", "1")
        #expect(same.status == 0 && same.stdout == "Nothing recorded: Jake already has 4 on hole 1 (par 3, +1), as reported by Jake (watch-jake).\n")
        let json = try await home.hub("correct", "Jake", "4", "--hole", "1", "--json")
        #expect(json.stdout.contains("\"outcome\" : \"unchanged\"") && json.stdout.contains("\"counts\" : 4"))
        #expect(try await home.hub("score", "Jake", "4", "--hole", "1", "--device", "watch-jake").stdout.hasPrefix("Nothing recorded"))
        #expect(try await home.hub("discrepancies").stdout == "No open discrepancies.\n")
        #expect(try await home.hub("events", "--json").stdout.components(separatedBy: "\"strokes\"").count == 2, "one event in the log")
        for hole in 2...18 { #expect(try await home.hub("score", "Jake", "3", "--hole", "\(hole)").status == 0) }
        #expect(try await home.hub("round", "finish").status == 0)
    }

    @Test("The phone's scores are reported by its owner (round start --owner), a watch's by its wearer: two people never read as one")
    func reportedByTheOwner() async throws {
        let home = try TemporaryHome()
        let unknown = try await home.hub("round", "start", "--course", "Maple Hill", "--player", "Jake", "Sarah", "--owner", "Bob")
        #expect(unknown.status == 1 && unknown.stderr.contains("Bob"), "\(unknown.stderr)")
        #expect(try await home.hub("round", "start", "--course", "Maple Hill", "--player", "Jake", "Sarah", "--owner", "sarah").status == 0)
        #expect(try await home.hub("score", "Jake", "3").status == 0)
        #expect(try await home.hub("score", "Jake", "4", "--device", "watch-jake").status == 0)
        #expect(try await home.hub("discrepancies").stdout
            == "Jake, hole 1: Sarah says 3 (phone, counts for now), Jake says 4 (watch-jake). Settle with: hyzer-hub resolve \"Jake\" STROKES --hole 1\n")
    }

    @Test("Another device's correction is played with correct --device; a device's scores are never reported as the phone owner's")
    func otherDevicesFromTheCommandLine() async throws {
        let home = try TemporaryHome()
        #expect(try await home.hub("round", "start", "--course", "Maple Hill", "--player", "Jake", "Mike").status == 0)
        #expect(try await home.hub("score", "Jake", "3").status == 0)
        #expect(try await home.hub("score", "Jake", "5", "--device", "watch-mike").status == 0)
        let again = try await home.hub("score", "Jake", "3", "--device", "watch-mike")
        #expect(again.status == 1 && again.stderr.contains("Jake already has 5 on hole 1 from watch-mike. To change it: hyzer-hub correct \"Jake\" 3 --hole 1 --device watch-mike"),
                "\(again.stderr)")
        let conceded = try await home.hub("correct", "Jake", "3", "--hole", "1", "--device", "watch-mike")
        #expect(conceded.stdout == "Corrected Jake to 3 on hole 1 (par 3, E).\n", "Mike concedes: nothing left to settle")
        #expect(try await home.hub("discrepancies").stdout == "No open discrepancies.\n")
        // A device with no wearer in the round reports as the player it scores, never as the phone's owner.
        #expect(try await home.hub("score", "Mike", "4", "--device", "watch-2").status == 0)
        #expect(try await home.hub("score", "Mike", "5", "--hole", "1", "--device", "watch-3").status == 0)
        #expect(try await home.hub("discrepancies").stdout.hasPrefix("Mike, hole 1: Mike says 4 (watch-2, counts for now), Mike says 5 (watch-3)."))
    }
}

/// Homes that cannot hold a hub, or hold none: said with what and where; read commands make nothing.
@Suite("Bad homes on the phone")
struct BadHomeTests {
    @Test("A home that is a file is named as such, never an NSCocoaErrorDomain dump")
    func homeIsAFile() async throws {
        let home = try TemporaryHome()
        let file = home.url.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: file)
        for arguments in [["standings"], ["round", "start", "--course", "Maple Hill", "--player", "Jake"], ["token"]] {
            let result = try await CLIProcess.run("hyzer-hub", ["--home", file.path] + arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr.contains("Cannot use \(file.path) as the hub's home: it is a file, not a folder."), "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("NSCocoaErrorDomain"))
        }
    }

    @Test("Read commands on a home with no hub say so, exit 1, and create nothing; course list shows the shipped courses")
    func readCommandsNeverCreate() async throws {
        let home = try TemporaryHome()
        let typo = home.url.appendingPathComponent("typo")
        for arguments in [["standings"], ["standings", "--json"], ["events"], ["discrepancies"], ["round", "show"], ["cloud", "status"]] {
            let result = try await CLIProcess.run("hyzer-hub", ["--home", typo.path] + arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr.contains("No hub at \(typo.path)"), "\(arguments): \(result.stderr)")
        }
        let courses = try await CLIProcess.run("hyzer-hub", ["--home", typo.path, "course", "list"])
        #expect(courses.status == 0 && courses.stdout.contains("Maple Hill"))
        #expect(!FileManager.default.fileExists(atPath: typo.path), "nothing made at the mistyped home")
    }

    @Test("The token on a new home is made in a hub/ folder only its owner can open")
    func tokenFolderIsPrivate() async throws {
        let home = try TemporaryHome()
        let fresh = home.url.appendingPathComponent("new")
        #expect(try await CLIProcess.run("hyzer-hub", ["--home", fresh.path, "token"]).status == 0)
        let folder = try FileManager.default.attributesOfItem(atPath: fresh.appendingPathComponent("hub").path)[.posixPermissions] as? Int
        let token = try FileManager.default.attributesOfItem(atPath: fresh.appendingPathComponent("hub/token").path)[.posixPermissions] as? Int
        #expect(folder == 0o700 && token == 0o600)
    }
}

/// Names are text, not commands (issue 34, item 12): refused at every way in, with the reason,
/// and never printed raw; look-alikes of a name already here are refused, naming it.
@Suite("Names are text")
struct NameTextTests {
    @Test("Control, direction-override, zero-width and look-alike-space characters are refused in player names, each named", arguments: [
        ("Mi\u{1B}[2Jke", "control characters", "Mi\\u{1B}[2Jke"),
        ("Jake\u{202E}ekaJ", "invisible formatting characters (U+202E", "Jake\\u{202E}ekaJ"),
        ("Sa\u{200B}rah", "invisible formatting characters (U+200B", "Sa\\u{200B}rah"),
        ("Holyn\u{00A0}Handley", "only plain spaces (U+00A0", "Holyn\\u{A0}Handley"),
        (String(repeating: "a", count: 3_000), "at most 64 characters (3000 given)", nil),
        ("Jake\u{FE0F}", "invisible or private characters (U+FE0F", "Jake\\u{FE0F}"),
        ("Ja\u{2800}ke", "invisible or private characters (U+2800", "Ja\\u{2800}ke"),
    ])
    func playerNames(name: String, reason: String, shown: String?) async throws {
        let home = try TemporaryHome()
        let result = try await home.hub("round", "start", "--course", "Maple Hill", "--player", "Ann", name)
        #expect(result.status == 1)
        #expect(result.stderr.contains(reason), "\(result.stderr)")
        if let shown { #expect(result.stderr.contains(shown), "\(result.stderr)") }
        #expect(!result.stderr.contains("\u{1B}") && !result.stderr.contains("\u{202E}"), "never printed raw")
        #expect(try await home.hub("round", "start", "--course", "Maple Hill", "--player", "Ann", String(repeating: "a", count: 64)).status == 0)
        // Nor when it names nobody: a score for it is refused, naming it escaped.
        let unknown = try await home.hub("score", name, "3")
        #expect(unknown.status == 1 && !unknown.stderr.contains("\u{1B}") && !unknown.stderr.contains("\u{202E}"), "\(unknown.stderr)")
        // Nor when it is read as a player it is close to ("read … as Ann"), nor as a course.
        let near = try await home.hub("score", "Ann\u{1B}[2J", "3", "--hole", "2")
        #expect(!near.stderr.contains("\u{1B}") && !near.stdout.contains("\u{1B}"), "\(near.stderr)")
        let course = try await home.hub("round", "start", "--course", "Maple Hill\u{1B}[2J", "--player", "Ann")
        #expect(course.status == 1 && !course.stderr.contains("\u{1B}"), "\(course.stderr)")
    }

    @Test("Course names from a course file are checked the same way; a look-alike of a course already here is refused")
    func courseNames() async throws {
        let home = try TemporaryHome()
        let file = home.url.appendingPathComponent("course.json")
        let holes = (1...9).map { #"{"number": \#($0), "par": 3}"# }.joined(separator: ", ")
        for (name, reason) in [("Maple\\u001b[31m Hill", "control characters"), ("Ma\\u202eple", "invisible formatting"),
                               ("Maple\\u00a0Hill", "only plain spaces"), ("ＭＡＰＬＥ  hill", "reads like the course \"Maple Hill\"")] {
            try Data(#"{"name": "\#(name)", "holes": [\#(holes)]}"#.utf8).write(to: file)
            let result = try await home.hub("course", "add", "--file", file.path)
            #expect(result.status == 1 && result.stderr.contains(reason), "\(name): \(result.stderr)")
        }
        #expect(!(try await home.hub("course", "list").stdout.contains("\u{1B}")))
    }

    @Test("A new player whose name reads like a registered player's is refused, naming them; another case is the same player")
    func lookAlikePlayers() async throws {
        let home = try TemporaryHome()
        #expect(try await home.hub("round", "start", "--course", "Maple Hill", "--player", "Holyn Handley").status == 0)
        #expect(try await home.hub("round", "finish", "--force").status == 0)
        let alike = try await home.hub("round", "start", "--course", "Maple Hill", "--player", "ＨＯＬＹＮ  Handley")
        #expect(alike.status == 1 && alike.stderr.contains("reads like the player \"Holyn Handley\""), "\(alike.stderr)")
        #expect(try await home.hub("round", "start", "--course", "Maple Hill", "--player", "holyn handley").status == 0)
    }

    @Test("The standings table lines up in a terminal when a name is written in wide characters")
    func tableLinesUpWithWideNames() async throws {
        let home = try TemporaryHome()
        #expect(try await home.hub("round", "start", "--course", "Maple Hill", "--guest", "李小龙", "Ann").status == 0)
        #expect(try await home.hub("score", "李小龙", "3").status == 0)
        #expect(try await home.hub("score", "Ann", "4").status == 0)
        let lines = try await home.hub("standings").stdout.split(separator: "\n").dropFirst()
        #expect(Array(lines) == ["POS  PLAYER  SCORE  THRU  STROKES", "1    李小龙  E      1     3", "2    Ann     +1     1     4"])
    }

    @Test("Two players whose names differ only by accents or the apostrophe's shape are refused: a voice line could never tell them apart")
    func lookAlikeAccentsAndApostrophes() async throws {
        let home = try TemporaryHome()
        for (names, alike) in [(["José Núñez", "Jose Nunez"], "\"Jose Nunez\" reads like the player \"José Núñez\""),
                               (["Sean O'Brien", "Sean O\u{2019}Brien"], "reads like the player \"Sean O'Brien\""),
                               (["Anne-Marie Lee", "Anne\u{2013}Marie Lee"], "reads like the player \"Anne-Marie Lee\""),
                               // Letters with a stroke are not decomposed by Unicode, but read as the plain letter.
                               (["Łukasz", "Lukasz"], "\"Lukasz\" reads like the player \"Łukasz\""),
                               (["Søren", "Soren"], "\"Soren\" reads like the player \"Søren\""),
                               (["Đorđe", "Dorde"], "\"Dorde\" reads like the player \"Đorđe\""),
                               (["Þór", "Thor"], "\"Thor\" reads like the player \"Þór\"")] {
            let refused = try await home.hub("round", "start", "--course", "Maple Hill", "--guest", names[0], names[1])
            #expect(refused.status == 1 && refused.stderr.contains(alike), "\(names): \(refused.stderr)")
        }
        #expect(try await home.hub("round", "start", "--course", "Maple Hill", "--guest", "Sean O'Brien", "Sean O'Bryan").status == 0)
    }
}
