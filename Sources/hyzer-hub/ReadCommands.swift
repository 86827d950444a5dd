import ArgumentParser
import Foundation
import HubCore
import HyzerLink
import HyzerKit

struct StandingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "standings", abstract: "Show the standings, or the last round's final ones.", discussion: "With no round in play, the final standings of the last round finished.")
    @ParentCommand var root: HyzerHub
    @Flag(help: "Print the StandingsSnapshot, exactly the schema of shared/standings.json.") var json = false

    func run() throws {
        let hub = try root.openHub(creating: false)
        // Dated as standings.json dates it: when the standings last changed, not now.
        let snapshot = try hub.publishedSnapshot()
        if json { return try printJSON(snapshot) }
        // No round in play: the last one's final standings, which standings.json no longer holds.
        if snapshot.round == nil, case let (round?, events) = try hub.eventLog(), round.status == .completed {
            print("No active round. The last one, on \(round.courseName), finished:\n" + HubText.finalStandings(of: round, events: events))
        } else {
            print(HubText.standings(snapshot))
        }
    }
}

struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List the finished rounds and who won, newest first.",
        discussion: "A line a round: who won or tied first at what, and where this phone's owner finished. With --json, each with its final standings (the page's history: docs/WEB.md)."
    )
    @ParentCommand var root: HyzerHub
    @Option(help: "At most this many rounds.") var limit = 100
    @Flag(help: "Print [{round, createdAt, you, organizer}], round being the final standings as standings.json writes a round.") var json = false

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit takes a number of rounds from 1; got \(limit).") }
    }

    func run() throws {
        let rounds = try root.openHub(creating: false).history(limit: limit)
        if json { try printJSON(rounds) } else { print(HubText.history(rounds)) }
    }
}

struct EventsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Show the round's score events in log order.",
        discussion: "The round in play, else the last round finished. Log order is arrival order; in a round shared through a cloud it is the cloud's order (docs/SYNC.md)."
    )
    @ParentCommand var root: HyzerHub
    @Flag(help: "Print an array of ScoreEvent objects.") var json = false

    func run() throws {
        let log = try root.openHub(creating: false).eventLog()
        if json { try printJSON(log.events) } else { print(HubText.events(log.events, round: log.round)) }
    }
}

struct DiscrepanciesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "discrepancies",
        abstract: "List holes where devices disagree, until resolved.",
        discussion: """
            Those of the round in play (else the last round finished), then those still open in other \
            finished rounds, each round named by its id for resolve --round. With --round, one round's. With \
            --json, the same as one array, each entry naming its round (roundID).
            """
    )
    @ParentCommand var root: HyzerHub
    @Option(help: ArgumentHelp("The round: its id, or the last 8 or more hex digits of it.", valueName: "ID")) var round: String?
    @Flag(help: "Print them as JSON.") var json = false

    func run() throws {
        let hub = try root.openHub(creating: false)
        // Reading is not recording: a finished round's discrepancies left open are still shown.
        let open: (round: Round, discrepancies: [Discrepancy], finished: Bool)
        if let round {
            let named = try hub.round(matching: round)
            open = (named, try hub.discrepancies(of: named), !named.status.acceptsScores)
        } else {
            open = try hub.discrepanciesOfCurrentOrLastRound()
        }
        let others = round == nil ? try hub.openDiscrepanciesInFinishedRounds(except: open.round.id) : []
        if json {
            return try printJSON(([open] + others.map { ($0.round, $0.discrepancies, true) }).flatMap { entry in
                entry.discrepancies.map { DiscrepancyReport($0, round: entry.round) }
            })
        }
        let listed = HubText.discrepancies(open.discrepancies, round: open.round, settledBy: try hub.settledElsewhere(open.round.id), naming: round != nil)
        // "Open", not "left open": a late score from a phone that was offline can open one after the end.
        print(!open.finished ? listed : "The round on \(open.round.courseName) is finished. " + (open.discrepancies.isEmpty ? "No discrepancies are open."
            : "Open in its final standings (a forced finish left it, or a late score from a phone that was offline opened it):\n" + listed))
        guard !others.isEmpty else { return }
        print("\nStill open in \(others.count == 1 ? "a finished round" : "\(others.count) finished rounds"):\n"
              + HubText.finishedDiscrepancies(others, settledBy: { try? hub.settledElsewhere($0.id) }))
    }
}

struct TokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Print the pairing token a watch presents.",
        discussion: """
            With --fingerprint, print instead the fingerprint of the certificate serve uses over TCP \
            (made on first use), for hyzer-watch --hub-fingerprint; with --json, both.
            """
    )
    @ParentCommand var root: HyzerHub
    @Flag(help: "Print the TLS certificate's fingerprint (sha256:…) instead of the token.") var fingerprint = false
    @Flag(help: "Print {\"token\": …, \"fingerprint\": …}.") var json = false

    func run() throws {
        // The token is made with the hub on first use, in its private hub/ folder.
        _ = try root.openHub()
        let paths = root.paths
        let token = try PairingToken.loadOrCreate(at: paths.pairingToken)
        if json {
            let identity = try HubIdentity.loadOrCreate(in: paths.hubDirectory)
            try printJSON(["token": token, "fingerprint": identity.fingerprint])
        } else if fingerprint {
            print(try HubIdentity.loadOrCreate(in: paths.hubDirectory).fingerprint)
        } else {
            print(token)
        }
    }
}
