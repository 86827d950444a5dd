import Foundation
import Testing
import HyzerKit
import HyzerHarness

/// End to end: the built `hyzer-hub` on a temporary home, as a user or script drives it.
@Suite("hyzer-hub command line")
struct HubCLITests {
    static func standings(_ json: String) throws -> StandingsSnapshot {
        try HyzerJSON.decoder().decode(StandingsSnapshot.self, from: Data(json.utf8))
    }

    /// (name, position text, relative score, holes played, total strokes)
    static func rows(_ snapshot: StandingsSnapshot) -> [String] {
        (snapshot.round?.standings ?? []).map {
            "\(ScoreFormat.position(of: $0)) \($0.name) \(ScoreFormat.relativeToPar($0.scoreRelativeToPar)) thru \($0.holesPlayed) = \($0.totalStrokes)"
        }
    }

    @Test("A round scored by tap, voice and correction gives the expected standings in --json and in standings.json")
    func scoreARound() async throws {
        let home = try TemporaryHome()
        // Willow Creek pars: 3, 3, 3, 4, 3, 3, 3, 4, 3
        let start = try await home.hub("round", "start", "--course", "willow creek", "--player", "Jake", "--player", "Mike", "--guest", "Holyn Handley")
        #expect(start.status == 0)
        #expect(start.stdout == "Started a round on Willow Creek (9 holes) with Jake, Mike and Holyn Handley (guest). Hole 1 of 9.\n")

        #expect(try await home.hub("score", "Jake", "2").stdout == "Recorded Jake: 2 on hole 1 (par 3, -1).\n")
        let voice = try await home.hub("voice", "Mike four, Holyn 3")
        #expect(voice.status == 0)
        #expect(voice.stdout == "Recorded Mike: 4 on hole 1 (par 3, +1).\nRecorded Holyn Handley: 3 on hole 1 (par 3, E).\n")
        // Everyone has hole 1, so the current hole moved to 2.
        #expect(try await home.hub("score", "Mike", "3").stdout == "Recorded Mike: 3 on hole 2 (par 3, E).\n")
        #expect(try await home.hub("correct", "Mike", "3", "--hole", "1").stdout == "Corrected Mike to 3 on hole 1 (par 3, E).\n")

        let expected = ["1 Jake -1 thru 1 = 2", "T2 Holyn Handley E thru 1 = 3", "T2 Mike E thru 2 = 6"]
        let printed = try await home.hub("standings", "--json")
        #expect(printed.status == 0)
        let fromCommand = try Self.standings(printed.stdout)
        #expect(Self.rows(fromCommand) == expected)
        #expect(fromCommand.round?.currentHole == 2)
        #expect(fromCommand.round?.status == .active)

        let file = try String(contentsOf: home.url.appendingPathComponent("shared/standings.json"), encoding: .utf8)
        let fromFile = try Self.standings(file)
        #expect(Self.rows(fromFile) == expected)
        #expect(fromFile.hubID == fromCommand.hubID)
        #expect(fromFile.sequence == fromCommand.sequence)
        // Dated when the standings changed, as the file dates them, not when they were asked for.
        #expect(fromCommand.lastUpdatedAt == fromFile.lastUpdatedAt)
        try await Task.sleep(for: .milliseconds(20))
        #expect(try Self.standings(try await home.hub("standings", "--json").stdout).lastUpdatedAt == fromFile.lastUpdatedAt)
        // Start, then one change a command: the two scores of one transcript are one change.
        #expect(fromFile.sequence == 5)

        let text = try await home.hub("standings").stdout
        #expect(text == """
            Willow Creek · Hole 2 of 9 · active
            POS  PLAYER         SCORE  THRU  STROKES
            1    Jake           -1     1     2
            T2   Holyn Handley  E      1     3
            T2   Mike           E      2     6

            """)

        let events = try HyzerJSON.decoder().decode([ScoreEvent].self, from: Data(try await home.hub("events", "--json").stdout.utf8))
        #expect(events.map(\.source) == [.tap, .voice, .voice, .tap, .tap])
        #expect(events[4].supersedesEventID == events[1].id)
    }

    @Test("A typed name read as another player's (a slip, a name spelled as it sounds) is said on stderr; a name or a unique first name is not")
    func nearNameIsSaid() async throws {
        let home = try TemporaryHome()
        #expect(try await home.hub("round", "start", "--course", "Willow Creek", "--player", "Jon Doe", "Kyle Klein").status == 0)
        let slip = try await home.hub("score", "Jon Dow", "3")
        #expect(slip.status == 0 && slip.stdout.hasPrefix("Recorded Jon Doe: 3 on hole 1") && slip.stderr == "hyzer-hub: read \u{201C}Jon Dow\u{201D} as Jon Doe\n")
        let sounds = try await home.hub("correct", "Kyle Kline", "4", "--hole", "1", "--json")
        #expect(sounds.status == 1 && sounds.stderr.contains("no score"))
        for typed in ["kyle", "KYLE KLEIN"] {
            let exact = try await home.hub("score", typed, "3", "--hole", "2")
            #expect(exact.status == 0 && exact.stderr.isEmpty, "\(typed): \(exact.stderr)")
        }
    }

    @Test("history lists the finished rounds newest first: who won or tied at what, where the owner finished; --json the final standings")
    func history() async throws {
        let home = try TemporaryHome()
        #expect(try await home.hub("round", "start", "--course", "Willow Creek", "--player", "Jake", "Amy", "Bo").status == 0)
        for (player, strokes) in [("Amy", "2"), ("Bo", "2"), ("Jake", "4")] { #expect(try await home.hub("score", player, strokes).status == 0) }
        #expect(try await home.hub("round", "finish", "--force").status == 0)
        #expect(try await home.hub("round", "start", "--course", "Maple Hill", "--player", "Jake", "Amy").status == 0)
        #expect(try await home.hub("history").stdout.hasSuffix("  Willow Creek (9 holes, 3 players): Amy and Bo tied first at -1; you (Jake) finished 3rd at +1\n"),
                "a round in play is not history")
        #expect(try await home.hub("score", "Jake", "2").status == 0)
        #expect(try await home.hub("round", "finish", "--force").status == 0)
        let lines = try await home.hub("history").stdout.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasSuffix("  Maple Hill (18 holes, 2 players): Jake won at -1"))
        let json = try await home.hub("history", "--json", "--limit", "1")
        let rounds = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(rounds.count == 1 && (rounds[0]["round"] as? [String: Any])?["courseName"] as? String == "Maple Hill" && rounds[0]["organizer"] as? String == "Jake")
        #expect(try await home.hub("history", "--limit", "0").status == 64)
    }

    @Test("discrepancies after a forced finish lists what was left open, and exits 0")
    func discrepanciesAfterFinish() async throws {
        let home = try TemporaryHome()
        #expect(try await home.hub("round", "start", "--course", "Willow Creek", "--player", "Jake").status == 0)
        #expect(try await home.hub("score", "Jake", "3").status == 0)
        #expect(try await home.hub("score", "Jake", "4", "--hole", "1", "--device", "watch-2").status == 0)
        let refused = try await home.hub("round", "finish")
        #expect(refused.status == 1 && refused.stderr.contains("The round is not complete: 8 scores are still missing, and it has an open discrepancy: Jake, hole 1."))
        #expect(try await home.hub("round", "finish", "--force").stdout.hasPrefix(
            "Finished the round on Willow Creek, with a discrepancy left open: Jake, hole 1 (3 counts). A finished round still takes a resolution: hyzer-hub discrepancies lists it.\n"))
        let listed = try await home.hub("discrepancies")
        #expect(listed.status == 0)
        #expect(listed.stdout == "The round on Willow Creek is finished. Open in its final standings (a forced finish left it, or a late score from a phone that was offline opened it):\nJake, hole 1: Jake says 3 (phone, counts for now), Jake says 4 (watch-2). Settle with: hyzer-hub resolve \"Jake\" STROKES --hole 1\n")
        let json = try await home.hub("discrepancies", "--json")
        #expect(json.status == 0 && json.stdout.contains("\"hole\" : 1"))
        // The finished round takes that resolution, and nothing else.
        let scored = try await home.hub("score", "Jake", "5", "--hole", "2")
        #expect(scored.status == 1 && scored.stderr.contains("is finished already; only a discrepancy still open can be settled in it"))
        #expect(try await home.hub("resolve", "Jake", "4", "--hole", "1").status == 0)
        #expect(try await home.hub("discrepancies").stdout == "The round on Willow Creek is finished. No discrepancies are open.\n")
        #expect(try await home.hub("standings").stdout.contains("1    Jake    +1     1     4\n"))
    }

    @Test("A finished round's open discrepancy is listed and settled with --round after the next round started; history says it is open")
    func discrepancyOfAnEarlierRound() async throws {
        let home = try TemporaryHome()
        #expect(try await home.hub("round", "start", "--course", "Willow Creek", "--player", "Jake").status == 0)
        #expect(try await home.hub("score", "Jake", "3").status == 0)
        #expect(try await home.hub("score", "Jake", "4", "--hole", "1", "--device", "watch-2").status == 0)
        let finish = try await home.hub("round", "finish", "--force", "--json")
        let finished = try #require(try JSONSerialization.jsonObject(with: Data(finish.stdout.utf8)) as? [String: Any])
        #expect((finished["round"] as? [String: Any])?["status"] as? String == "completed" && (finished["openDiscrepancies"] as? [Any])?.count == 1)
        #expect(try await home.hub("round", "start", "--course", "Maple Hill", "--player", "Jake").status == 0)
        #expect(try await home.hub("history").stdout.hasSuffix("Jake won at E (a discrepancy open: hyzer-hub discrepancies)\n"))
        let listed = try await home.hub("discrepancies").stdout
        let id = try #require(listed.split(separator: " ").first { $0.hasSuffix("):\nJake,") }.map { String($0.prefix(8)) })
        #expect(listed.hasPrefix("No open discrepancies.\n\nStill open in a finished round:\nWillow Creek, "))
        #expect(listed.hasSuffix("Settle with: hyzer-hub resolve \"Jake\" STROKES --hole 1 --round \(id)\n"), "\(listed)")
        // The same as JSON: a script reading it misses nothing the text lists.
        let json = try #require(try JSONSerialization.jsonObject(with: Data(try await home.hub("discrepancies", "--json").stdout.utf8)) as? [[String: Any]])
        #expect(json.count == 1 && (json[0]["roundID"] as? String)?.lowercased().hasSuffix(id.lowercased()) == true && json[0]["hole"] as? Int == 1, "\(json)")
        // Without --round: the round in play, which has none.
        #expect(try await home.hub("resolve", "Jake", "4", "--hole", "1").status == 1)
        let unknown = try await home.hub("resolve", "Jake", "4", "--hole", "1", "--round", "00000000")
        #expect(unknown.status == 1 && unknown.stderr.contains("No round here has the id 00000000"))
        let resolved = try await home.hub("resolve", "Jake", "4", "--hole", "1", "--round", id.lowercased())
        #expect(resolved.status == 0 && resolved.stdout == "Resolved Jake: 4 on hole 1 (par 3, +1).\n", "\(resolved.stdout)\(resolved.stderr)")
        #expect(try await home.hub("discrepancies").stdout == "No open discrepancies.\n")
        #expect(try await home.hub("history").stdout.hasSuffix("Jake won at +1\n"))
    }

    @Test("With no active round, standings.json has round null and standings say so, with the last round's final standings")
    func noRound() async throws {
        let home = try TemporaryHome()
        #expect(try await home.hub("standings").status == 1, "no hub here yet: nothing is created")
        #expect(try await home.hub("token").status == 0)
        #expect(try await home.hub("standings").stdout == "No active round.\n")
        #expect(try await home.hub("round", "start", "--course", "Willow Creek", "--player", "Jake", "Amy").status == 0)
        #expect(try await home.hub("score", "Jake", "2").status == 0)
        let final = """
            Willow Creek · Final · 9 holes
            POS  PLAYER  SCORE  THRU  STROKES
            1    Jake    -1     1     2
                 Amy     -      -     0

            """
        #expect(try await home.hub("round", "finish", "--force").stdout == "Finished the round on Willow Creek.\n" + final)
        let file = try Self.standings(try String(contentsOf: home.url.appendingPathComponent("shared/standings.json"), encoding: .utf8))
        #expect(file.round == nil)
        #expect(try await home.hub("standings").stdout == "No active round. The last one, on Willow Creek, finished:\n" + final)
        #expect(try await home.hub("round", "show", "--json").stdout == "null\n")
    }

    @Test("Every bad input exits non-zero with a message naming what is allowed, and writes nothing",
          arguments: [
            (["score", "Jake", "11"], "Error: Strokes must be between 1 and 10; got 11.\n"),
            (["score", "Jake", "0"], "Error: Strokes must be between 1 and 10; got 0.\n"),
            (["score", "Bob", "3"], "Error: No player named \"Bob\" in this round. Players: Jake, Mike.\n"),
            (["score", "Jak", "3"], "Error: No player named \"Jak\" in this round; did you mean Jake? Players: Jake, Mike.\n"),
            (["score", "Jake", "3", "--hole", "10"], "Error: Hole 10 is not on this course; holes are 1...9.\n"),
            (["score", "Jake", "3", "--hole", "0"], "Error: Hole 0 is not on this course; holes are 1...9.\n"),
            (["score", "Jake", "4"], "Error: Jake already has 3 on hole 1. To change it: hyzer-hub correct \"Jake\" 4 --hole 1\n"),
            (["correct", "Mike", "3", "--hole", "2"], "Error: Mike has no score on hole 2 to correct. Record one with: hyzer-hub score \"Mike\" STROKES --hole 2\n"),
            (["correct", "Jake", "12", "--hole", "1"], "Error: Strokes must be between 1 and 10; got 12.\n"),
            (["score", "Mike", "3", "--device", "watch@sarah_phone"],
             "Error: The device id \"watch@sarah_phone\" holds an @; in a shared round each phone writes another phone's device as DEVICE@PHONE, so a device id has none.\n"),
            (["resolve", "Jake", "3", "--hole", "1"], "Error: There is no open discrepancy for Jake on hole 1. List them with: hyzer-hub discrepancies\n"),
            (["hole", "0"], "Error: Hole 0 is not on this course; holes are 1...9.\n"),
            (["round", "start", "--course", "Maple Hill", "--player", "Amy"],
             "Error: A round on Willow Creek is already in play; only one round can be active. Finish it first with: hyzer-hub round finish\n"),
            (["round", "finish"], "Error: The round is not complete: 17 scores are still missing. Score them, or finish anyway with: hyzer-hub round finish --force\n"),
          ])
    func badInput(arguments: [String], message: String) async throws {
        let home = try TemporaryHome()
        _ = try await home.hub("round", "start", "--course", "Willow Creek", "--player", "Jake", "--player", "Mike")
        _ = try await home.hub("score", "Jake", "3")
        let before = try await home.hub("events", "--json").stdout
        let snapshotBefore = try Data(contentsOf: home.url.appendingPathComponent("shared/standings.json"))

        let result = try await CLIProcess.run("hyzer-hub", ["--home", home.path] + arguments)
        #expect(result.status == 1)
        #expect(result.stderr == message)
        #expect(result.stdout == "")
        #expect(try await home.hub("events", "--json").stdout == before)
        #expect(try Data(contentsOf: home.url.appendingPathComponent("shared/standings.json")) == snapshotBefore)
    }

    @Test("A negative number is refused with why the parser missed it, the argument and what it allows; nothing is written",
          arguments: [
            (["score", "Jake", "-1"], "Error: Missing expected argument '<strokes>'", "Strokes, 1...10."),
            (["score", "Mike", "3", "--hole", "-2"], "Error: Missing value for '--hole <hole>'", "The hole"),
            (["hole", "-3"], "Error: Missing expected argument '<number>'", "The hole number."),
          ])
    func negativeNumbers(arguments: [String], parserError: String, allowed: String) async throws {
        let home = try TemporaryHome()
        _ = try await home.hub("round", "start", "--course", "Willow Creek", "--player", "Jake", "--player", "Mike")
        let before = try await home.hub("events", "--json").stdout
        let result = try await CLIProcess.run("hyzer-hub", ["--home", home.path] + arguments)
        #expect(result.status == 64)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        let number = arguments.first { $0.hasPrefix("-") && $0.count == 2 }!
        #expect(lines.first == "hyzer-hub: \(number) was read as an option, since it starts with a dash; no number hyzer-hub takes may be negative.")
        #expect(lines.dropFirst().first == parserError)
        #expect(lines.contains { $0.hasPrefix("Help:") && $0.contains(allowed) }, "\(result.stderr)")
        #expect(try await home.hub("events", "--json").stdout == before)
    }

    @Test("A mistyped command is named as one, with the closest command and the list, exit 64, before anything runs (the parser said '3 unexpected arguments')")
    func unknownCommand() async throws {
        let home = try TemporaryHome()
        let top = try await CLIProcess.run("hyzer-hub", ["--home", home.path, "scor", "Jake", "3"])
        #expect(top.status == 64 && top.stdout == "")
        #expect(top.stderr.hasPrefix("hyzer-hub: 'scor' is not a command; did you mean 'score'? Commands: course, round, score,"), "\(top.stderr)")
        let nested = try await CLIProcess.run("hyzer-hub", ["--home", home.path, "round", "strat", "--course", "Willow Creek"])
        #expect(nested.status == 64 && nested.stderr.hasPrefix("hyzer-hub round: 'strat' is not a command; did you mean 'start'?"), "\(nested.stderr)")
        let far = try await CLIProcess.run("hyzer-hub", ["--home", home.path, "xyzzy"])
        #expect(far.status == 64 && far.stderr.hasPrefix("hyzer-hub: 'xyzzy' is not a command. Commands:"), "\(far.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home.url.appendingPathComponent("hub").path))
        // The parser's own `help` command still works, and a mistyped command after it is named.
        #expect(try await CLIProcess.run("hyzer-hub", ["help", "score"]).stdout.contains("USAGE: hyzer-hub score"))
        let singular = try await CLIProcess.run("hyzer-hub", ["--home", home.path, "discrepancy"])
        #expect(singular.status == 64 && singular.stderr.hasPrefix("hyzer-hub: 'discrepancy' is not a command; did you mean 'discrepancies'?"), "\(singular.stderr)")
        let help = try await CLIProcess.run("hyzer-hub", ["help", "scor"])
        #expect(help.status == 64 && help.stderr.hasPrefix("hyzer-hub: 'scor' is not a command; did you mean 'score'?"), "\(help.stderr)")
    }

    @Test("A long option written with one dash is refused with the two-dash spelling, exit 64, before anything runs (the parser read -home as -h: the help, status 0)")
    func singleDashWord() async throws {
        let home = try TemporaryHome()
        let result = try await CLIProcess.run("hyzer-hub", ["-home", home.path, "round", "start", "--course", "Willow Creek", "--player", "Jake"])
        #expect(result.status == 64)
        #expect(result.stderr == "hyzer-hub: -home is not an option. Long options take two dashes (--home); the only one-letter option is -h (help). See 'hyzer-hub --help'.\n")
        #expect(result.stdout == "")
        // --help with two letters swapped is taken for it (the parser offered --home).
        let swapped = try await CLIProcess.run("hyzer-hub", ["--home", home.path, "score", "--hlep"])
        #expect(swapped.status == 64 && swapped.stderr == "hyzer-hub: --hlep is not an option; did you mean --help? See 'hyzer-hub --help'.\n", "\(swapped.stderr)")
        // After `--`, a word is an argument, not an option: the parser, not this check, answers it.
        let afterDashes = try await CLIProcess.run("hyzer-hub", ["--home", home.path, "score", "--", "-Jake", "3"])
        #expect(!afterDashes.stderr.contains("is not an option"), "\(afterDashes.stderr)")
    }

    @Test("A round takes at most 1,000 players (a tournament pool): one more is refused, naming the bound, and nothing is stored")
    func playerBound() async throws {
        let home = try TemporaryHome()
        let refused = try await CLIProcess.run("hyzer-hub", ["--home", home.path, "round", "start", "--course", "Maple Hill", "--guest"] + (1...1001).map { "G\($0)" })
        #expect(refused.status == 1 && refused.stderr.contains("A round has at most 1,000 players"), "\(refused.stderr)")
        #expect(try await home.hub("standings").stdout.contains("No active round"))
        #expect(try await CLIProcess.run("hyzer-hub", ["--home", home.path, "round", "start", "--course", "Maple Hill", "--guest"] + (1...1000).map { "G\($0)" }).status == 0)
    }

    @Test("After the round is finished, scoring, correcting, moving the hole and finishing again say it is finished, not that none was started")
    func finishedRoundSaysSo() async throws {
        let home = try TemporaryHome()
        #expect(try await home.hub("round", "start", "--course", "Willow Creek", "--player", "Jake").status == 0)
        #expect(try await home.hub("round", "finish", "--force").status == 0)
        for arguments in [["score", "Jake", "3"], ["correct", "Jake", "3", "--hole", "1"], ["hole", "2"], ["round", "finish"], ["round", "finish", "--force"]] {
            let result = try await CLIProcess.run("hyzer-hub", ["--home", home.path] + arguments)
            #expect(result.status == 1)
            #expect(result.stderr == "Error: The round on Willow Creek is finished already; only a discrepancy still open can be settled in it (hyzer-hub discrepancies). Start a new one with: hyzer-hub round start --course NAME --player NAME...\n", "\(arguments)")
        }
    }

    @Test("Bad input with no round, an unknown course, or a malformed course file is refused",
          arguments: [
            ("[\"score\", \"Jake\", \"3\"]", ["score", "Jake", "3"],
             "Error: No round is active. Start one with: hyzer-hub round start --course NAME --player NAME...\n"),
            ("unknown course", ["round", "start", "--course", "Pebble", "--player", "Jake"],
             "Error: No course named \"Pebble\". Known courses: Cedar Ridge, Maple Hill, Willow Creek. Add one with: hyzer-hub course add --file FILE\n"),
            ("no letter", ["round", "start", "--course", "Maple Hill", "--player", "Jake", "--guest", " -- "],
             "Error: \"--\" is not a usable player name; a name needs at least one letter or digit.\n"),
            // Nothing left once trimmed: said as given, not as "".
            ("only spaces", ["round", "start", "--course", "Maple Hill", "--player", "Jake", "--guest", "   "],
             "Error: \"   \" is not a usable player name; a name needs at least one letter or digit.\n"),
            // No device could score such a player: a score's player id has no control characters.
            ("control character", ["round", "start", "--course", "Maple Hill", "--guest", "Bad\u{7}Name"],
             "Error: \"Bad\\u{7}Name\" is not a usable player name; a name may not hold control characters (tabs, line breaks, terminal escapes; U+0007).\n"),
            ("guest id over 128 bytes", ["round", "start", "--course", "Maple Hill", "--guest", String(repeating: "é", count: 62)],
             "Error: \"\(String(repeating: "é", count: 62))\" is not a usable player name; a guest's name is at most 122 bytes (124 given): its id, guest:<name>, is at most 128.\n"),
          ])
    func badInputWithoutRound(label: String, arguments: [String], message: String) async throws {
        let home = try TemporaryHome()
        let result = try await CLIProcess.run("hyzer-hub", ["--home", home.path] + arguments)
        #expect(result.status == 1)
        #expect(result.stderr == message)
        #expect(try await CLIProcess.run("hyzer-hub", ["--home", home.path, "standings", "--json"]).stdout.contains("\"round\" : null"))
    }

    @Test("Course files: a good one is added, a malformed one is refused with the reason and nothing added")
    func courseFiles() async throws {
        let home = try TemporaryHome()
        let good = home.url.appendingPathComponent("good.json")
        try #"{"name": "Tiny Park", "holes": [{"number": 1, "par": 3}, {"number": 2, "par": 4}]}"#.write(to: good, atomically: true, encoding: .utf8)
        #expect(try await home.hub("course", "add", "--file", good.path).stdout == "Added Tiny Park: 2 holes, par 7.\n")

        let cases: [(String, String)] = [
            (#"{"name": "Bad Par", "holes": [{"number": 1, "par": 9}]}"#, "Course \"Bad Par\": hole 1 has par 9; par must be between 2 and 6."),
            (#"{"name": "Gap", "holes": [{"number": 1, "par": 3}, {"number": 3, "par": 3}]}"#,
             "Course \"Gap\": hole at position 2 is numbered 3; holes must be numbered 1...N in order."),
            // The cloud shares a course of at most 36 holes: a longer one could never be shared.
            ("{\"name\": \"Long\", \"holes\": [\((1...37).map { "{\"number\": \($0), \"par\": 3}" }.joined(separator: ", "))]}",
             "Course \"Long\" has 37 holes; a course has 1 to 36 holes."),
            (#"{"holes": []}"#, "missing \"name\""),
            ("not json", "not valid JSON"),
        ]
        for (content, reason) in cases {
            let file = home.url.appendingPathComponent("bad.json")
            try content.write(to: file, atomically: true, encoding: .utf8)
            let result = try await home.hub("course", "add", "--file", file.path)
            #expect(result.status == 1)
            let sentence = reason.hasSuffix(".") ? reason : reason + "."  // one full stop, never two
            #expect(result.stderr == "Error: Cannot read course file \(file.path): \(sentence) Expected {\"name\": \"…\", \"holes\": [{\"number\": 1, \"par\": 3}, …]} with holes 1...N (N at most 36) and par 2...6.\n")
        }
        let duplicate = try await home.hub("course", "add", "--file", good.path)
        #expect(duplicate.stderr == "Error: A course named \"Tiny Park\" already exists; course names must be unique.\n")
        let names = try JSONDecoder().decode([Course].self, from: Data(try await home.hub("course", "list", "--json").stdout.utf8)).map(\.name)
        #expect(names == ["Cedar Ridge", "Maple Hill", "Tiny Park", "Willow Creek"])
    }

    @Test("A voice transcript records what is clear, asks about near names, and exits 2 when partial")
    func partialVoice() async throws {
        let home = try TemporaryHome()
        _ = try await home.hub("round", "start", "--course", "Willow Creek", "--player", "Jake", "--player", "Mike", "--player", "Sarah")
        let result = try await home.hub("voice", "Mike 3, Jay four, Bob 2")
        #expect(result.status == 2)
        #expect(result.stdout == """
            Recorded Mike: 3 on hole 1 (par 3, E).
            Not recorded: "Jay" four: did you mean Jake? (spelled like Jake, 57 % match; say it again or use: hyzer-hub score "Jake" 4 --hole 1)
            Not recorded: "Bob" is not a player in this round.

            """)
        let nothing = try await home.hub("voice", "Bob 2")
        #expect(nothing.status == 1)
        let events = try HyzerJSON.decoder().decode([ScoreEvent].self, from: Data(try await home.hub("events", "--json").stdout.utf8))
        #expect(events.count == 1)
    }

    @Test("Two hyzer-hub processes scoring at the same moment both land; the snapshot ends on the newest state")
    func concurrentScorers() async throws {
        let home = try TemporaryHome()
        let names = ["Ann", "Ben"]
        _ = try await home.hub("round", "start", "--course", "Maple Hill", "--player", names[0], "--player", names[1])
        let failures = await withTaskGroup(of: Int.self) { group in
            for name in names {
                group.addTask {
                    var failed = 0
                    for hole in 1...18 {
                        let result = try? await CLIProcess.run("hyzer-hub", ["--home", home.path, "score", name, "\(hole % 5 + 2)", "--hole", "\(hole)"])
                        if result?.status != 0 { failed += 1 }
                    }
                    return failed
                }
            }
            return await group.reduce(0, +)
        }
        #expect(failures == 0)
        let events = try HyzerJSON.decoder().decode([ScoreEvent].self, from: Data(try await home.hub("events", "--json").stdout.utf8))
        #expect(events.count == 36)
        #expect(Set(events.map(\.id)).count == 36)

        let file = try Self.standings(try String(contentsOf: home.url.appendingPathComponent("shared/standings.json"), encoding: .utf8))
        let latest = try Self.standings(try await home.hub("standings", "--json").stdout)
        #expect(file.sequence == latest.sequence)
        #expect(file.round?.standings == latest.round?.standings)
        #expect(file.round?.standings.map(\.holesPlayed) == [18, 18])
        #expect(file.round?.status == .awaitingFinalization)
    }

    @Test("The pairing token is created once, mode 0600, and printed the same each time")
    func token() async throws {
        let home = try TemporaryHome()
        let first = try await home.hub("token")
        #expect(first.status == 0)
        #expect(first.stdout.count == 65)
        #expect(try await home.hub("token").stdout == first.stdout)
        let attributes = try FileManager.default.attributesOfItem(atPath: home.url.appendingPathComponent("hub/token").path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test("--help lists every subcommand with a one-line purpose")
    func help() async throws {
        let result = try await CLIProcess.run("hyzer-hub", ["--help"])
        #expect(result.status == 0)
        for line in [
            "USAGE: hyzer-hub [--home <DIR>] [--log-level <log-level>] <subcommand>",
            "  course                  List the known courses or add one from a file.",
            "  round                   Start, show or finish the round (one at a time).",
            "  score                   Record a tap score (strokes 1...10) for a player.",
            "  correct                 Replace a score (appends a correction, never erases).",
            "  voice                   Record scores from speech: \"Mike 3, Jake four\".",
            "  hole                    Move the current hole.",
            "  standings               Show the standings, or the last round's final ones.",
            "  history                 List the finished rounds and who won, newest first.",
            "  events                  Show the round's score events in log order.",
            "  discrepancies           List holes where devices disagree, until resolved.",
            "  resolve                 Settle an open discrepancy with the agreed strokes.",
            "  token                   Print the pairing token a watch presents.",
            "  cloud                   Share rounds with other phones through a cloud.",
        ] {
            #expect(result.stdout.contains(line), "missing: \(line)")
        }
        let score = try await CLIProcess.run("hyzer-hub", ["score", "--help"])
        #expect(score.stdout.contains("USAGE: hyzer-hub score <player> <strokes> [--hole <hole>] [--device <device>] [--reported-by <NAME>] [--json]"))
        // A command's prose reads as prose: no run of spaces a lost line continuation left in it.
        for command in ["resolve", "discrepancies", "history", "standings", "events", "app"] {
            let help = try await CLIProcess.run("hyzer-hub", [command, "--help"]).stdout
            let prose = help.components(separatedBy: "USAGE:").first ?? ""
            #expect(!prose.contains("   "), "\(command) --help: \(prose)")
        }
    }

    @Test("Course names complete from the hub, and from the shipped courses where no hub exists yet (creating nothing)")
    func courseCompletion() async throws {
        let home = try TemporaryHome()
        let fresh = home.url.appendingPathComponent("never-used").path
        let completion = ["---completion", "round", "start", "--", "--course", "4", "0", "hyzer-hub", "--home"]
        let none = try await CLIProcess.run("hyzer-hub", completion + [fresh, "round", "start", "--course"])
        #expect(none.stdout == "Cedar Ridge\nMaple Hill\nWillow Creek\n")
        #expect(!FileManager.default.fileExists(atPath: fresh))
        let file = home.url.appendingPathComponent("tiny.json")
        try #"{"name": "Tiny Park", "holes": [{"number": 1, "par": 3}]}"#.write(to: file, atomically: true, encoding: .utf8)
        #expect(try await home.hub("course", "add", "--file", file.path).status == 0)
        let added = try await CLIProcess.run("hyzer-hub", completion + [home.path, "round", "start", "--course"])
        #expect(added.stdout == "Cedar Ridge\nMaple Hill\nTiny Park\nWillow Creek\n")
    }

    @Test("A misspelled subcommand or a missing argument is a usage error (exit 64)")
    func usageErrors() async throws {
        #expect(try await CLIProcess.run("hyzer-hub", ["scroe"]).status == 64)
        #expect(try await CLIProcess.run("hyzer-hub", ["score", "Jake"]).status == 64)
        let noPlayers = try await CLIProcess.run("hyzer-hub", ["round", "start", "--course", "Maple Hill"])
        #expect(noPlayers.status == 64)
        #expect(noPlayers.stderr.hasPrefix("Error: A round needs at least one --player or --guest."))
    }
}


extension HubCLITests {
    @Test("replay refuses what it cannot play, naming the file and the fault, and stores nothing")
    func replayRefusals() async throws {
        let home = try TemporaryHome()
        let bad = home.url.appendingPathComponent("bad.json")
        try #"{"course": "C", "pars": [3, 3], "players": [{"name": "Ann", "strokes": [3]}]}"#.write(to: bad, atomically: true, encoding: .utf8)
        let refused = try await home.hub("replay", bad.path)
        #expect(refused.status != 0 && refused.stderr.contains("bad.json: not a recorded round: Ann has 1 score for 2 holes; strokes lists one score a hole, 2 in all."), "\(refused.stderr)")
        let missing = try await home.hub("replay", home.url.appendingPathComponent("none.json").path)
        #expect(missing.status != 0 && missing.stderr.contains("none.json: cannot be read (No such file or directory)."), "\(missing.stderr)")
        // A folder, a list, a score as text: each said as a person reads it, never as Foundation's error code.
        let folder = try await home.hub("replay", home.path)
        #expect(folder.status != 0 && folder.stderr.contains("\(home.path): cannot be read (Is a directory)."), "\(folder.stderr)")
        for (content, said) in [("[1, 2]", "not a recorded round: wrong type (an object is expected)."),
                                (#"{"course": "C", "pars": [3, 3], "players": [{"name": "Ann", "strokes": [3, "4"]}]}"#,
                                 "not a recorded round: wrong type at players[0].strokes[1] (a whole number is expected)."),
                                (#"{"course": "Bad\u0007C", "pars": [3, 3], "players": [{"name": "Ann", "strokes": [3, 4]}]}"#,
                                 "bad.json: The course name \"Bad\\u{7}C\" cannot be used")] {
            try content.write(to: bad, atomically: true, encoding: .utf8)
            let result = try await home.hub("replay", bad.path)
            #expect(result.status == 1 && result.stderr.contains(said), "\(content): \(result.stderr)")
        }
        let speed = try await home.hub("replay", bad.path, "--speed", "0")
        #expect(speed.status != 0 && speed.stderr.contains("--speed must be more than 0"), "\(speed.stderr)")
        #expect(try await home.hub("round", "start", "--course", "Willow Creek", "--player", "Ann").status == 0)
        let good = home.url.appendingPathComponent("good.json")
        try #"{"course": "Tiny", "pars": [3, 3], "players": [{"name": "Bo", "strokes": [3, 4]}]}"#.write(to: good, atomically: true, encoding: .utf8)
        let busy = try await home.hub("replay", good.path, "--hole-minutes", "0")
        #expect(busy.status != 0 && busy.stderr.contains("A round on Willow Creek is already in play"), "\(busy.stderr)")
        #expect(try await home.hub("course", "list").stdout.contains("Tiny") == false)
        let plan = try await home.hub("replay", good.path, "--plan")
        #expect(plan.status == 0 && plan.stdout.contains("Bo") && plan.stdout.contains("every-change"), "\(plan.stdout)")
        let fraction = home.url.appendingPathComponent("fraction.json")
        try #"{"course": "Tiny", "pars": [3, 3], "players": [{"name": "Bo", "strokes": [3, 3.5]}]}"#.write(to: fraction, atomically: true, encoding: .utf8)
        let half = try await home.hub("replay", fraction.path)
        #expect(half.status != 0 && half.stderr.contains("players[0].strokes[1] is 3.5; strokes are whole numbers"), "\(half.stderr)")
    }

    @Test("A replay refused for a player's name leaves no course behind: the corrected file plays on the same course")
    func replayRefusedLeavesNoCourse() async throws {
        let home = try TemporaryHome()
        let file = home.url.appendingPathComponent("round.json")
        func write(_ names: [String], pars: [Int]) throws {
            let players = names.map { #"{"name": "\#($0)", "strokes": [3, 3]}"# }.joined(separator: ", ")
            try #"{"course": "Edge Nine", "pars": \#(pars), "players": [\#(players)]}"#.write(to: file, atomically: true, encoding: .utf8)
        }
        try write(["Sean O'Brien", "Sean O\u{2019}Brien"], pars: [3, 3])
        let alike = try await home.hub("replay", file.path)
        #expect(alike.status != 0 && alike.stderr.contains("reads like Sean O'Brien"), "\(alike.stderr)")
        try write([String(repeating: "A", count: 65)], pars: [3, 3])
        #expect(try await home.hub("replay", file.path).status != 0)
        #expect(try await home.hub("course", "list").stdout.contains("Edge Nine") == false, "a refused replay added its course")
        try write(["Sean O'Brien", "Ann"], pars: [3, 4])
        let played = try await home.hub("replay", file.path, "--hole-minutes", "0")
        #expect(played.status == 0, "\(played.stderr)")
        // Written in order to a pipe: what is replayed first, then each score, then the result.
        #expect(played.stdout.hasPrefix("Started a round on Edge Nine (2 holes)"), "\(played.stdout)")
    }
}
