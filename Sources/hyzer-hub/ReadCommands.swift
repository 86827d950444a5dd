import ArgumentParser
import Foundation
import HubCore
import HyzerLink
import HyzerKit

struct StandingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "standings", abstract: "Show the standings of the round in play.")
    @ParentCommand var root: HyzerHub
    @Flag(help: "Print the StandingsSnapshot, exactly the schema of shared/standings.json.") var json = false

    func run() throws {
        let snapshot = try root.openHub().snapshot()
        if json { try printJSON(snapshot) } else { print(HubText.standings(snapshot)) }
    }
}

struct EventsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Show the score event log in arrival order."
    )
    @ParentCommand var root: HyzerHub
    @Flag(help: "Print an array of ScoreEvent objects.") var json = false

    func run() throws {
        let log = try root.openHub().eventLog()
        if json { try printJSON(log.events) } else { print(HubText.events(log.events, round: log.round)) }
    }
}

struct DiscrepanciesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "discrepancies",
        abstract: "List holes where devices disagree, until resolved."
    )
    @ParentCommand var root: HyzerHub
    @Flag(help: "Print them as JSON.") var json = false

    func run() throws {
        let open = try root.openHub().discrepancies()
        if json {
            try printJSON(open.discrepancies.map { DiscrepancyReport($0, round: open.round) })
        } else {
            print(HubText.discrepancies(open.discrepancies, round: open.round))
        }
    }
}

struct TokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Print the pairing token a watch presents."
    )
    @ParentCommand var root: HyzerHub

    func run() throws {
        root.logging.bootstrap()
        print(try PairingToken.loadOrCreate(at: root.paths.pairingToken))
    }
}
