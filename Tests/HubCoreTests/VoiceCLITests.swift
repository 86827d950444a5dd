import Foundation
import HyzerKit
import HyzerHarness
import Testing

/// `hyzer-hub voice` as a person uses it: what was heard, what was recorded and why, and bad
/// input answered with what to do, nothing recorded that was not meant.
@Suite("hyzer-hub voice")
struct VoiceCLITests {
    static func start(_ players: [String], guests: [String] = []) async throws -> TemporaryHome {
        let home = try TemporaryHome()
        var arguments = ["round", "start", "--course", "Maple Hill"]
        for player in players { arguments += ["--player", player] }
        for guest in guests { arguments += ["--guest", guest] }
        let started = try await CLIProcess.run("hyzer-hub", ["--home", home.path] + arguments)
        #expect(started.status == 0, "\(started.stderr)")
        return home
    }

    static func eventCount(_ home: TemporaryHome) async throws -> Int {
        try HyzerJSON.decoder().decode([ScoreEvent].self, from: Data(try await home.hub("events", "--json").stdout.utf8)).count
    }

    @Test("Names as they are heard and golf words are recorded, each saying how it was understood")
    func heardRight() async throws {
        let home = try await Self.start(["Michael", "Jake", "Sarah"], guests: ["Holyn Handley"])
        let result = try await home.hub("voice", "okay Mike 3, Jake's 4, Sara birdie, Holin double")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == """
            Recorded Michael: 3 on hole 1 (par 3, E). Heard "Mike 3": a short or long form of Michael.
            Recorded Jake: 4 on hole 1 (par 3, +1).
            Recorded Sarah: 2 on hole 1 (par 3, -1). Heard "Sara birdie": sounds like Sarah; "birdie" is 2 on a par 3.
            Recorded Holyn Handley: 5 on hole 1 (par 3, +2). Heard "Holin double": sounds like Holyn; "double" is 5 on a par 3.

            """)
        #expect(try await Self.eventCount(home) == 4)
    }

    @Test("--dry-run shows what would be recorded and why, records nothing, and exits as the real run would")
    func dryRun() async throws {
        let home = try await Self.start(["Michael", "Jake", "Sarah"])
        let result = try await home.hub("voice", "--dry-run", "Mike 3, Jakes 4")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == """
            Dry run, nothing recorded. Hole 1 (par 3):
            Would record Michael: 3. Heard "Mike 3": a short or long form of Michael.
            Would record Jake: 4. Heard "Jakes 4": the name Jake.

            """)
        let json = try await home.hub("voice", "--dry-run", "--json", "Mike birdie, Bob 4")
        #expect(json.status == 2)
        let report = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        #expect(report["dryRun"] as? Bool == true)
        #expect(report["par"] as? Int == 3)
        #expect((report["recorded"] as? [Any])?.isEmpty == true)
        let would = report["wouldRecord"] as! [[String: Any]]
        #expect(would.map { $0["name"] as? String } == ["Michael"])
        #expect(would.map { $0["strokes"] as? Int } == [2])
        let match = would[0]["match"] as! [String: Any]
        #expect(match["how"] as? String == "nickname")
        #expect(match["form"] as? String == "Michael")
        let heard = report["heard"] as! [[String: Any]]
        #expect(heard.map { $0["status"] as? String } == ["record", "unknownName"])
        #expect(heard[1]["problem"] as? String == "\"Bob\" is not a player in this round")
        #expect(try await Self.eventCount(home) == 0)
    }

    @Test("Bad input is answered with what was heard and what to do; nothing is recorded that was not meant", arguments: [
        ("", 1, "Heard no names or scores in \"\". Say it like: \"Mike 3, Jake four, Sarah birdie\".\n"),
        ("the wind is crazy today", 1, "Not recorded: \"wind crazy today\" is not a player in this round, and no score was heard.\n"),
        ("Sam 3", 1, "Not recorded: \"Sam\" could be Samantha or Samuel: say the full name, or a last name or initial with it, or score by name (hyzer-hub score NAME 3).\n"),
        ("Jake 12", 1, "Not recorded: heard \"Jake 12\" for Jake: strokes must be between 1 and 10; got 12.\n"),
        ("Jake 4, Jake 5", 1, "Not recorded: Jake was named twice (4 and 5); say it again with one score, or say \"sorry\" before the right one.\n"),
        ("Jake 4, Bob 3", 2, "Recorded Jake: 4 on hole 1 (par 3, +1).\nNot recorded: \"Bob\" is not a player in this round.\n"),
    ])
    func badInput(transcript: String, status: Int32, output: String) async throws {
        let home = try await Self.start(["Jake", "Samantha", "Samuel"])
        let result = try await home.hub("voice", transcript)
        #expect(result.status == status)
        #expect(result.stdout == output)
        #expect(try await Self.eventCount(home) == (status == 2 ? 1 : 0))
    }
}
