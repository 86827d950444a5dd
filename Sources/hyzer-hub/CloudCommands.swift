import ArgumentParser
import Foundation
import HubCloud
import HubCore
import HyzerKit
import Logging

struct CloudCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cloud",
        abstract: "Share rounds with other phones through a cloud.",
        discussion: """
            With a cloud set, every round this phone starts is shared: the other players' phones \
            join it (hyzer-hub round join, or on their own when their owner is a player of it), \
            anyone scores for anyone, and every phone shows the same standings. Scores always \
            commit here first; hyzer-hub serve uploads them and downloads the others' while it \
            runs (hyzer-hub cloud sync does one pass by hand). See docs/SYNC.md.
            """,
        subcommands: [Set.self, Unset.self, Status.self, Sync.self]
    )

    @ParentCommand var root: HyzerHub

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set this phone's cloud (kept in the home; the password is never printed).",
            discussion: """
                URL: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require|verify-full], \
                or postgres://USER@/DATABASE?host=/DIR for a server's Unix socket in DIR. The round in \
                play, if any, becomes shared with this phone as its organizer.
                """
        )
        @ParentCommand var cloud: CloudCommand
        @Argument(help: ArgumentHelp("The cloud's PostgreSQL URL.", valueName: "URL")) var url: String
        @Option(help: ArgumentHelp("Whose phone this is: rounds naming this player are joined without a command, and this phone's scores are reported by them.", valueName: "NAME"))
        var player: String?

        func validate() throws {
            do { _ = try CloudAddress(parsing: url) } catch { throw ValidationError(error.description) }
            if let player, !player.contains(where: { $0.isLetter || $0.isNumber }) {
                throw ValidationError("--player needs a name with at least one letter or digit; got \"\(player)\".")
            }
        }

        func run() throws {
            let hub = try cloud.root.openHub()
            let previous = try hub.cloudConfiguration()
            let configuration = CloudConfiguration(url: url, player: player ?? previous?.player)
            try hub.setCloud(configuration)
            print("Cloud set: \(configuration.redactedURL)\(configuration.player.map { " (this is \($0)'s phone)" } ?? "").")
            if let round = try hub.roundInPlay(), let info = try hub.cloudRoundInfo(round.id), info.organizerHubID == (try hub.hubID) {
                print("The round on \(round.courseName) is shared; it uploads when hyzer-hub serve runs (or: hyzer-hub cloud sync).")
            }
            if let owner = configuration.player, let round = try hub.roundInPlay(),
               !round.players.contains(where: { $0.name.lowercased() == owner.lowercased() }), let first = round.players.first {
                print("Note: \(owner) is not a player of the round on \(round.courseName); this phone's scores in it are reported by \(first.name) (its first player).")
            }
            print("The cloud is not tried now; hyzer-hub cloud status tries it and says what it found.")
        }
    }

    struct Unset: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Forget the cloud: new rounds stay on this phone. Rounds already shared keep waiting to upload.")
        @ParentCommand var cloud: CloudCommand

        func run() throws {
            let hub = try cloud.root.openHub()
            guard try hub.cloudConfiguration() != nil else { return print("No cloud was set; nothing changed.") }
            try hub.setCloud(nil)
            let waiting = try hub.cloudSummary().eventsWaiting
            print("Cloud forgotten; new rounds stay on this phone. A running hyzer-hub serve stops syncing."
                  + (waiting > 0 ? " \(waiting) score\(waiting == 1 ? "" : "s") of shared rounds wait here until a cloud is set again." : ""))
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the sync state (idle, syncing, offline, error) and what waits to upload.",
            discussion: "The state is the running hyzer-hub serve's; without one, the cloud is tried once (at most 3 s)."
        )
        @ParentCommand var cloud: CloudCommand
        @Flag(help: "Print the status as JSON.") var json = false

        func run() async throws {
            let hub = try cloud.root.openHub(creating: false)
            let summary = try hub.cloudSummary()
            guard let configuration = summary.configuration else {
                let serving = ServeCommand.isServing(cloud.root.paths)
                if json { try printJSON(CloudStatusReport(summary: summary, serving: serving, state: nil, detail: nil, lastSyncAt: nil)) } else {
                    print("No cloud set: this phone keeps its rounds to itself. Share them with: hyzer-hub cloud set postgres://USER@HOST/DATABASE")
                }
                return
            }
            let paths = cloud.root.paths
            let serving = ServeCommand.isServing(paths)
            var state: SyncState?, detail: String?, lastSyncAt: Date?
            if serving, let status = SyncStatus.read(from: paths.cloudStatus) {
                (state, detail, lastSyncAt) = (status.state, status.detail, status.lastSyncAt)
            } else {
                do {
                    let address = try CloudAddress(parsing: configuration.url)
                    let connection = try await CloudConnection.connect(to: address, timeout: .seconds(3), logger: Logger(label: "hyzer.hub.cloud"))
                    await connection.close()
                    // Reachable, and nothing moves without a running serve (or `cloud sync`): idle,
                    // whatever waits (eventsWaiting says how much); never "syncing".
                    (state, detail) = (.idle, nil)
                } catch let error as CloudError {
                    if case .unusable = error { state = .error } else { state = .offline }
                    detail = error.description
                } catch let error as CloudURLError {
                    (state, detail) = (.error, error.description)
                }
            }
            let report = CloudStatusReport(summary: summary, serving: serving, state: state, detail: detail, lastSyncAt: lastSyncAt)
            if json { return try printJSON(report) }
            print("Cloud: \(configuration.redactedURL)\(configuration.player.map { " (\($0)'s phone)" } ?? "")")
            let probe = switch state {
            case .idle, .syncing: "the cloud is reachable"
            case .offline: "the cloud cannot be reached now: \(detail ?? "")"
            case .error, nil: "the cloud answers but cannot be used: \(detail ?? "")"
            }
            let stateLine = serving
                ? "State: \(state?.rawValue ?? "starting")\(detail.map { " — \($0)" } ?? "")"
                : "State: not syncing (hyzer-hub serve is not running); \(probe)"
            print(stateLine)
            if let lastSyncAt { print("Last in step: \(HyzerJSON.formatTimestamp(lastSyncAt))") }
            print("Waiting to upload: \(summary.eventsWaiting) score\(summary.eventsWaiting == 1 ? "" : "s")\(summary.roundsWaiting > 0 ? ", \(summary.roundsWaiting) round\(summary.roundsWaiting == 1 ? "" : "s")" : "")")
            print("Shared rounds: \(summary.sharedRounds)")
            if !summary.refused.isEmpty {
                print("Refused by the cloud (kept here, not retried): \(summary.refused.count)")
                for refused in summary.refused { print("  \(refused.eventID): \(refused.reason)") }
            }
        }
    }

    struct Sync: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Upload what waits and download the other phones' scores, once.",
            discussion: "hyzer-hub serve does this continuously; this is for a phone that is not serving, and for scripts."
        )
        @ParentCommand var cloud: CloudCommand

        func run() async throws {
            let hub = try cloud.root.openHub()
            let connection = try await CloudCommand.connect(hub)
            let (uploaded, downloaded): (Int, Int)
            do {
                (uploaded, downloaded) = try await CloudSync.syncOnce(
                    hub: hub, cloud: connection, player: try hub.cloudConfiguration()?.player, logger: Logger(label: "hyzer.hub.cloud"))
            } catch {
                await connection.close()
                throw CloudCommand.explain(error, connection.address)
            }
            await connection.close()
            let summary = try hub.cloudSummary()
            print("Uploaded \(uploaded) score\(uploaded == 1 ? "" : "s"); downloaded \(downloaded) new score\(downloaded == 1 ? "" : "s"). "
                  + "Shared rounds: \(summary.sharedRounds), all in the cloud\(summary.roundsWaiting > 0 ? " but \(summary.roundsWaiting)" : ""); waiting to upload: \(summary.eventsWaiting).")
        }
    }

    /// A hub's refusal as it is; a cloud failure said for a person, with what it means here.
    static func explain(_ error: any Error, _ address: CloudAddress) -> any Error {
        if error is HubError || error is CommandMessage { return error }
        return CommandMessage("\(CloudError.describe(error, address: address).description) What was done before it is kept; run the command again.")
    }

    /// Connects to the phone's cloud, or says how to set one.
    static func connect(_ hub: Hub) async throws -> CloudConnection {
        guard let configuration = try hub.cloudConfiguration() else {
            throw CommandMessage("No cloud set. Set one first with: hyzer-hub cloud set postgres://USER@HOST/DATABASE")
        }
        let address: CloudAddress
        do { address = try CloudAddress(parsing: configuration.url) } catch { throw CommandMessage(error.description) }
        do {
            return try await CloudConnection.connect(to: address, logger: Logger(label: "hyzer.hub.cloud"))
        } catch let error as CloudError {
            throw CommandMessage("\(error.description) Nothing here changed.")
        }
    }
}

/// `cloud status --json`.
struct CloudStatusReport: Encodable {
    let url: String?
    let player: String?
    let serving: Bool
    let state: String?
    let detail: String?
    let lastSyncAt: Date?
    let eventsWaiting: Int
    let roundsWaiting: Int
    let sharedRounds: Int
    let refused: [[String: String]]

    init(summary: CloudSummary, serving: Bool, state: SyncState?, detail: String?, lastSyncAt: Date?) {
        url = summary.configuration?.redactedURL
        player = summary.configuration?.player
        self.serving = serving
        self.state = state?.rawValue
        self.detail = detail
        self.lastSyncAt = lastSyncAt
        eventsWaiting = summary.eventsWaiting
        roundsWaiting = summary.roundsWaiting
        sharedRounds = summary.sharedRounds
        refused = summary.refused.map { ["eventID": $0.eventID, "reason": $0.reason] }
    }

    private enum CodingKeys: String, CodingKey {
        case url, player, serving, state, detail, lastSyncAt, eventsWaiting, roundsWaiting, sharedRounds, refused
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(url, forKey: .url)
        try container.encode(player, forKey: .player)
        try container.encode(serving, forKey: .serving)
        try container.encode(state, forKey: .state)
        try container.encode(detail, forKey: .detail)
        try container.encode(lastSyncAt.map(HyzerJSON.formatTimestamp), forKey: .lastSyncAt)
        try container.encode(eventsWaiting, forKey: .eventsWaiting)
        try container.encode(roundsWaiting, forKey: .roundsWaiting)
        try container.encode(sharedRounds, forKey: .sharedRounds)
        try container.encode(refused, forKey: .refused)
    }
}
