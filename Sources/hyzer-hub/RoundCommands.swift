import ArgumentParser
import Foundation
import HubCore
import HyzerKit

struct RoundCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "round",
        abstract: "Start, show or finish the round (one at a time).",
        subcommands: [Start.self, Join.self, Show.self, Finish.self]
    )

    @ParentCommand var root: HyzerHub

    struct Start: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Start a round with players and guests; the player list is fixed once it starts.",
            discussion: "Registered players are found by name (any case) or created on first use. Guests have no account; their id is guest:<name>."
        )
        @ParentCommand var round: RoundCommand
        @Option(help: ArgumentHelp("The course name (see: hyzer-hub course list).", valueName: "NAME"),
                completion: .custom { words, _, _ in courseNames(words) })
        var course: String
        @Option(name: .customLong("player"), parsing: .upToNextOption,
                help: ArgumentHelp("A registered player; repeat or list several.", valueName: "NAME"))
        var players: [String] = []
        @Option(name: .customLong("guest"), parsing: .upToNextOption,
                help: ArgumentHelp("A guest player; repeat or list several.", valueName: "NAME"))
        var guests: [String] = []
        @Flag(name: .customLong("any-player-resolves"),
              help: "In a round shared through a cloud: let every phone in the round resolve discrepancies, not only this one (the organizer's).")
        var anyPlayerResolves = false
        @Option(help: ArgumentHelp("Whose phone this is: one of the players. Scores entered here are reported by them (in discrepancies: \"Sarah says 3 (phone)\"), in this round and later ones; default: the cloud's --player, else the first player.", valueName: "NAME"))
        var owner: String?
        @Flag(help: "Print the round as `round show --json` does.") var json = false

        func validate() throws {
            if players.isEmpty && guests.isEmpty {
                throw ValidationError("A round needs at least one --player or --guest.")
            }
        }

        func run() throws {
            let hub = try round.root.openHub()
            let started = try hub.startRound(course: course, players: players, guests: guests, anyPlayerResolves: anyPlayerResolves, owner: owner)
            if json { try printJSON(try hub.snapshot().round) } else {
                print(HubText.roundStarted(started))
                if let configuration = try hub.cloudConfiguration() {
                    // Not shared yet: a pass uploads it (serve's, or `cloud sync`), whenever the cloud can be reached.
                    print("To be shared through the cloud (\(configuration.redactedURL)) as soon as this phone's hyzer-hub serve reaches it (or hyzer-hub cloud sync; cloud status says what waits);"
                          + " this phone organizes it\(anyPlayerResolves ? ", and every phone in it may resolve discrepancies" : "")."
                          + " The players' phones are offered it while their hyzer-hub serve runs (cloud status lists it; --auto-join joins it), or join with: hyzer-hub round join \(started.id.uuidString)")
                }
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the round in play and its standings.")
        @ParentCommand var round: RoundCommand
        @Flag(help: "Print the round object of the standings snapshot (null when no round is active).") var json = false

        func run() throws {
            let snapshot = try round.root.openHub(creating: false).snapshot()
            if json { try printJSON(snapshot.round) } else { print(HubText.standings(snapshot)) }
        }
    }

    struct Finish: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Complete the round in play.")
        @ParentCommand var round: RoundCommand
        @Flag(help: "Finish even though some players have holes without a score, or discrepancies are open (the score the standings show then counts).")
        var force = false
        @Flag(help: "Print {round, openDiscrepancies}: the final standings (the round object of the standings snapshot) and what the finish left open.")
        var json = false

        struct Finished: Encodable {
            let round: RoundSnapshot
            let openDiscrepancies: [DiscrepancyReport]
        }

        func run() throws {
            do {
                let hub = try round.root.openHub()
                let finished = try hub.finishRound(force: force)
                let events = try hub.eventLog().events
                if json {
                    return try printJSON(Finished(round: RoundSnapshot(round: finished.round, events: events),
                                                  openDiscrepancies: finished.openDiscrepancies.map { DiscrepancyReport($0, round: finished.round) }))
                }
                print(HubText.roundFinished(finished.round, openDiscrepancies: finished.openDiscrepancies, counted: finished.counted))
                print(HubText.finalStandings(of: finished.round, events: events))
            } catch HubError.round(.incomplete(let missing)) {
                throw CommandMessage("\(RoundError.incomplete(missingScores: missing).description) Score them, or finish anyway with: hyzer-hub round finish --force")
            }
        }
    }
}

struct HoleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hole",
        abstract: "Move the current hole.",
        discussion: """
            Otherwise the current hole is the first one not yet scored by every player. Once every player has \
            the hole moved to, the current hole moves on to the next one in playing order not yet complete, \
            wrapping round the course (a shotgun start on hole 5 goes on to 6, 7, … 18, 1, …).
            """
    )
    @ParentCommand var root: HyzerHub
    @Argument(help: "The hole number.") var number: Int

    func run() throws {
        let round = try root.openHub().moveToHole(number)
        print(HubText.holeMoved(round, to: number))
    }
}
