import Foundation
import HyzerKit

/// Everything the hub refuses, with the message a person reads: what was wrong and what is allowed.
public enum HubError: Error, Equatable, Sendable, CustomStringConvertible {
    case noActiveRound
    /// No round is in play because the latest one was finished (here, or by the organizer's phone).
    case roundFinished(course: String)
    /// `--round ID` names no round here (or several).
    case unknownRound(String, matches: Int)
    case roundAlreadyInPlay(course: String)
    case unknownCourse(String, available: [String])
    case duplicateCourse(String)
    /// A name that reads like one already there ("Maple Hill" with a no-break space, full-width
    /// letters): `what` is "course" or "player".
    case lookAlikeName(String, existing: String, what: String)
    case badCourseFile(path: String, reason: String)
    case unknownPlayer(String, roundPlayers: [String], suggestion: String?)
    /// A name that fits several players of the round about equally ("Paul" with two Pauls).
    case ambiguousPlayer(String, candidates: [String])
    case invalidPlayerName(String, String)
    case duplicatePlayerName(String)
    /// `device`: another device's score (`score --device`), which the hint's `correct` names too.
    case alreadyScored(player: String, hole: Int, strokes: Int, attempted: Int, device: String? = nil)
    case noScoreToCorrect(player: String, hole: Int)
    case noDiscrepancy(player: String, hole: Int)
    /// `round finish` while scores are disputed: who and which hole, in the order they are listed.
    /// Also says how many scores are missing when that is so too.
    case openDiscrepancies([DisputedHole], missingScores: Int)
    case score(ScoreError)
    case round(RoundError)
    case course(CourseError)
    case storage(String)
    case damagedStore(path: String, problem: String)
    case diskUnavailable(path: String, full: Bool)
    case readOnlyHome(path: String, detail: String?)
    /// The home given (or the default one) holds no hub, and the command only reads.
    case noHub(path: String)
    /// The home cannot be used: a file, a folder that cannot be made.
    case badHome(path: String, problem: String)
    case notOrganizer(organizer: String?)
    /// `round finish` of a shared round on a phone the cloud would not let end it.
    case notOrganizerToFinish(organizer: String?, anyPlayerResolves: Bool)
    case cloudNotConfigured(option: String)
    case sharedRoundFinished(course: String)
    case sharedCourseDiffers(String)
    /// An event id already in the log, sent again with other content (player, hole, strokes, …):
    /// a resend is only ever the same event.
    case eventIDInUse(UUID, stored: String)
    /// A device id this phone may not score under (`Hub.deviceIDProblem`).
    case invalidDeviceID(String)

    /// A {player, hole} whose devices disagree, by name.
    public struct DisputedHole: Equatable, Sendable {
        public let player: String
        public let hole: Int
        public init(player: String, hole: Int) { self.player = player; self.hole = hole }
    }

    public var description: String {
        switch self {
        case .noHub(let path):
            "No hub at \(path): nothing has been recorded there (no hub/hyzer.sqlite). Check --home or $HYZER_HOME; "
                + "a new hub starts with: hyzer-hub --home \(path) round start --course NAME --player NAME..."
        case .badHome(let path, let problem):
            "Cannot use \(path) as the hub's home: \(HubText.sentence(problem)) Give a folder with --home (or $HYZER_HOME)."
        case .noActiveRound:
            "No round is active. Start one with: hyzer-hub round start --course NAME --player NAME..."
        case .roundFinished(let course):
            "The round on \(course) is finished already; only a discrepancy still open can be settled in it (hyzer-hub discrepancies). Start a new one with: hyzer-hub round start --course NAME --player NAME..."
        case .unknownRound(let id, let matches):
            "\(matches == 0 ? "No round here has" : "\(matches) rounds here have") the id \(NameText.shown(id)); give the whole id or its last 8 or more hex digits, as hyzer-hub discrepancies and history --json show them."
        case .roundAlreadyInPlay(let course):
            "A round on \(course) is already in play; only one round can be active. Finish it first with: hyzer-hub round finish"
        case .unknownCourse(let name, let available):
            "No course named \"\(NameText.shown(name))\". Known courses: \(available.joined(separator: ", ")). Add one with: hyzer-hub course add --file FILE"
        case .lookAlikeName(let name, let existing, let what):
            "\"\(NameText.shown(name))\" reads like the \(what) \"\(existing)\" already here; use that name, or one that reads differently."
        case .duplicateCourse(let name):
            "A course named \"\(name)\" already exists; course names must be unique."
        case .badCourseFile(let path, let reason):
            "Cannot read course file \(path): \(HubText.sentence(reason)) Expected {\"name\": \"…\", \"holes\": [{\"number\": 1, \"par\": 3}, …]} with holes 1...N (N at most \(Course.allowedHoleCount.upperBound)) and par \(Hole.allowedPar.lowerBound)...\(Hole.allowedPar.upperBound)."
        case .unknownPlayer(let name, let players, let suggestion?):
            "No player named \"\(NameText.shown(name))\" in this round; did you mean \(suggestion)? Players: \(players.joined(separator: ", "))."
        case .unknownPlayer(let name, let players, nil):
            "No player named \"\(NameText.shown(name))\" in this round. Players: \(players.joined(separator: ", "))."
        case .ambiguousPlayer(let name, let candidates):
            "\"\(NameText.shown(name))\" could be \(ListText.joined(candidates.map { "\"\($0)\"" }, conjunction: "or")); give more of the name."
        case .invalidPlayerName(let name, let reason):
            "\"\(NameText.shown(name))\" is not a usable player name; \(reason)."
        case .duplicatePlayerName(let name):
            "\(NameText.shown(name)) is named twice; each player can be in a round once."
        case .alreadyScored(let player, let hole, let strokes, let attempted, let device):
            "\(player) already has \(strokes) on hole \(hole)\(device.map { " from \($0)" } ?? ""). To change it: hyzer-hub correct \"\(player)\" \(attempted) --hole \(hole)"
                + (device.map { " --device \($0)" } ?? "")
        case .noScoreToCorrect(let player, let hole):
            "\(player) has no score on hole \(hole) to correct. Record one with: hyzer-hub score \"\(player)\" STROKES --hole \(hole)"
        case .noDiscrepancy(let player, let hole):
            "There is no open discrepancy for \(player) on hole \(hole). List them with: hyzer-hub discrepancies"
        case .openDiscrepancies(let open, let missing):
            (missing > 0 ? "The round is not complete: \(missing == 1 ? "1 score is" : "\(missing) scores are") still missing, and it has " : "The round has ")
                + (open.count == 1 ? "an open discrepancy" : "\(open.count) open discrepancies") + ": "
                + open.map { "\($0.player), hole \($0.hole)" }.joined(separator: "; ")
                + ". Settle \(open.count == 1 ? "it" : "each") first with: hyzer-hub resolve \"\(open[0].player)\" STROKES --hole \(open[0].hole)"
                + " (hyzer-hub discrepancies shows what each device says), or finish anyway with: hyzer-hub round finish --force"
                + " (the score the standings show now then counts)."
        case .score(let error): error.description
        case .round(let error): error.description
        case .course(let error): error.description
        case .storage(let message): message
        case .diskUnavailable(let path, true):
            "The disk holding \(path) is full: nothing was recorded. Free some space and run the command again."
        case .diskUnavailable(let path, false):
            "The disk holding \(path) failed to read or write (an I/O error): nothing was recorded. Check the disk and run the command again."
        case .readOnlyHome(let path, let detail?):
            "The home \(path) is read-only and \(detail)."
        case .readOnlyHome(let path, nil):
            "The home \(path) is read-only: standings, events and the rest can be read, but nothing can be recorded here. Use a writable --home to score."
        case .notOrganizer(let organizer?):
            "Only the organizer (\(organizer)'s phone) resolves discrepancies in this round; it was started without --any-player-resolves."
        case .notOrganizer(nil):
            "Only the organizer's phone resolves discrepancies in this round; it was started without --any-player-resolves."
        case .notOrganizerToFinish(let organizer, let anyPlayerResolves):
            "Only the organizer's phone\(organizer.map { " (\($0)'s)" } ?? "")\(anyPlayerResolves ? ", or a phone that scored in it," : "") finishes this shared round; "
                + "on this phone it stays in play until that phone finishes it, and the end reaches here with the next sync."
        case .cloudNotConfigured(let option):
            "\(option) applies to a round shared through a cloud, and this phone has none. Set one first with: hyzer-hub cloud set postgres://USER@HOST/DATABASE"
        case .sharedRoundFinished(let course):
            "The shared round on \(course) is finished; there is nothing to join."
        case .sharedCourseDiffers(let name):
            "This phone has a course named \"\(name)\" with other holes or pars than the shared round's; rename or remove one of them to join."
        case .eventIDInUse(let id, let stored):
            "Event \(id.uuidString) is already stored with other content (\(stored)); a resend must be the same event, and a new score needs a new id."
        case .invalidDeviceID(let problem):
            problem
        case .damagedStore(let path, let problem):
            "The hub's database \(path) \(problem). Nothing was changed. Restore it from a backup, or, to start a new hub without its scores, move it aside (mv \(path) \(path).damaged) and run the command again."
        }
    }
}
