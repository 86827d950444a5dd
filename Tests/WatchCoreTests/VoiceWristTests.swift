import Foundation
import HyzerKit
import HyzerHarness
import Testing

/// Scoring a hole by voice on the wrist, end to end: the real `hyzer-hub serve` and
/// `hyzer-watch --headless` running a script on a temporary home.
@Suite("Voice on the wrist, end to end", .serialized)
struct VoiceWristTests {
    @Test("A hole scored by voice on the watch, one entry corrected in the overlay, lands as exactly the intended events")
    func voiceHole() async throws {
        let home = try TemporaryHome()
        #expect(try await home.hub("round", "start", "--course", "Maple Hill", "--player", "Michael", "Jake", "Sarah",
                                   "--guest", "Holyn Handley").status == 0)
        let server = try await home.serve()
        defer { server.stop() }
        let watch = try await WristTests.runWatch(home, """
            wait-snapshot
            wearer Jake
            voice "um Mike 3, Jake's 4, Sara birdie, Holin double"
            expect-screen voice
            expect-text "Scores heard Hole 1 · par 3"
            screenshot voice-overlay.png
            # Sarah had a par, not a birdie: tap her row and turn the crown once.
            tap Sarah
            crown +1
            wait 2s
            expect-screen leaderboard
            # Then something nobody meant: discarded, and nonsense, refused.
            voice "Mike 9"
            back
            voice "the wind is crazy today"
            expect-screen voice
            expect-text "Try again?"
            back
            # Hole 1 is complete, so the round is on hole 2. Bob is not in the round: only Jake is saved.
            expect-text "Hole 2 of 18"
            voice "Bob 3, Jake 5"
            expect-text "Bob?"
            wait 2s
            expect-screen leaderboard
            expect-haptics 2 success
            """)
        #expect(await watch.waitForExit(timeout: .seconds(60)) == 0, "\(watch.stderr.suffix(800))")

        let events = try await WristTests.events(home)
        let names = try await home.roundPlayerNames()
        #expect(events.map { "\(names[$0.playerID] ?? $0.playerID) \($0.strokes)" } == ["Michael 3", "Jake 4", "Sarah 3", "Holyn Handley 5", "Jake 5"])
        #expect(events.map(\.hole) == [1, 1, 1, 1, 2])
        #expect(events.allSatisfy { $0.source == .voice && $0.deviceID == "watch" && $0.supersedesEventID == nil })
        #expect(events.allSatisfy { names[$0.reportedByPlayerID] == "Jake" }, "the wearer reports them")
        let announcements = try WristTests.jsonLines(home.url.appendingPathComponent("watch/announcements.jsonl")).compactMap { $0["text"] as? String }
        #expect(announcements.contains("Voice scores confirmed. Michael 3. Jake 4. Sarah 2. Holyn Handley 5. Auto-saving in 1.5 seconds. Tap any score to correct."))
        #expect(announcements.contains("Saved. Michael 3, Jake 4, Sarah 3, Holyn Handley 5 on hole 1."))
        #expect(announcements.contains("Didn't catch that. Try again."))
        #expect(FileManager.default.fileExists(atPath: home.url.appendingPathComponent("voice-overlay.png").path))
    }
}

extension TemporaryHome {
    /// Player id → name for the round in play.
    func roundPlayerNames() async throws -> [String: String] {
        let json = try JSONSerialization.jsonObject(with: Data(try await hub("standings", "--json").stdout.utf8)) as! [String: Any]
        let standings = (json["round"] as! [String: Any])["standings"] as! [[String: Any]]
        return Dictionary(uniqueKeysWithValues: standings.map { ($0["playerID"] as! String, $0["name"] as! String) })
    }
}
