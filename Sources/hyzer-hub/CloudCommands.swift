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
            An administrator makes the cloud once, with a role for each phone (hyzer-hub cloud init). \
            With a cloud set, every round this phone starts is shared: the other players' phones \
            join it (hyzer-hub round join; a round naming their owner is offered, or joined on its \
            own with cloud set --auto-join), anyone scores for anyone, and every phone shows the \
            same standings. Scores always commit here first; hyzer-hub serve uploads them and \
            downloads the others' while it runs (hyzer-hub cloud sync does one pass by hand). \
            See docs/SYNC.md.
            """,
        subcommands: [Init.self, DisablePhone.self, Set.self, Unset.self, Status.self, Sync.self]
    )

    @ParentCommand var root: HyzerHub

    struct Init: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make the cloud (once, as its administrator) and a login for each phone.",
            discussion: """
                ADMIN-URL: a PostgreSQL role that may create roles (a superuser), on a database of \
                the cloud's own: postgres://ADMIN[:PASSWORD]@HOST[:PORT]/DATABASE. Makes the schema \
                (phones get no table, only the cloud's functions) and, for each --phone NAME, a role \
                with a generated password; prints each phone's URL for hyzer-hub cloud set. Running \
                it again keeps every round and score and adds the phones named. A phone's name is \
                its identity in every round (organizer, uploader): never reuse one; see \
                hyzer-hub cloud disable-phone.
                """
        )
        @Argument(help: ArgumentHelp("An administrator's URL of the cloud's database.", valueName: "ADMIN-URL")) var adminURL: String?
        @Option(name: .customLong("phone"), parsing: .upToNextOption,
                help: ArgumentHelp("Make a login for these phones (a lowercase letter, then up to 39 lowercase letters, digits or _).", valueName: "NAME"))
        var phones: [String] = []
        @Flag(help: "Print the schema's SQL instead (to read it, or run it with psql -f); connects to nothing.") var printSQL = false

        func validate() throws {
            if printSQL {
                guard adminURL == nil, phones.isEmpty else { throw ValidationError("--print-sql takes no ADMIN-URL and no --phone: it only prints the SQL.") }
                return
            }
            guard let adminURL else { throw ValidationError("Missing ADMIN-URL: postgres://ADMIN[:PASSWORD]@HOST[:PORT]/DATABASE (or --print-sql).") }
            do { _ = try CloudAddress(parsing: adminURL) } catch { throw ValidationError(error.description) }
            for phone in phones where phone.range(of: "^[a-z][a-z0-9_]{0,39}$", options: .regularExpression) == nil
                || ["hyzer_owner", "hyzer_phone"].contains(phone) || phone.hasPrefix("pg_") {
                throw ValidationError("\"\(phone)\" cannot name a phone: a lowercase letter, then up to 39 lowercase letters, digits or _ (not hyzer_owner, hyzer_phone or pg_…).")
            }
            if Swift.Set(phones).count != phones.count { throw ValidationError("A phone is named twice in --phone.") }
        }

        func run() async throws {
            if printSQL { return print(CloudSchema.sql, terminator: "") }
            guard let adminURL else { return }
            let logins: [CloudAdmin.PhoneLogin]
            do {
                logins = try await CloudAdmin.initialize(adminURL, phones: phones, logger: Logger(label: "hyzer.hub.cloud"))
            } catch let error as CloudError {
                throw CommandMessage("\(HubText.sentence(error.description)) Phones made before the failure keep their logins; run the command again for the rest.")
            }
            print("The cloud is ready at \(CloudConfiguration.redact(adminURL)).")
            if logins.isEmpty { print("No phone was added; add some with: hyzer-hub cloud init ADMIN-URL --phone NAME…") }
            for login in logins {
                print("\(login.name): \(login.url)")
            }
            if !logins.isEmpty { print("On each phone: hyzer-hub cloud set URL --player NAME (the password is shown only now).") }
        }
    }

    struct DisablePhone: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "disable-phone",
            abstract: "Refuse a lost or hostile phone's logins and end its sessions (its rounds and scores stay).")
        @Argument(help: ArgumentHelp("An administrator's URL of the cloud's database.", valueName: "ADMIN-URL")) var adminURL: String
        @Argument(help: ArgumentHelp("The phone's name (its role).", valueName: "NAME")) var phone: String

        func run() async throws {
            do {
                let ended = try await CloudAdmin.disablePhone(adminURL, phone: phone, logger: Logger(label: "hyzer.hub.cloud"))
                print("Phone \(phone) can no longer log in; \(ListText.count(ended, "session")) ended. Its rounds and scores stay in the cloud.")
            } catch let error as CloudError {
                throw CommandMessage(error.description)
            }
        }
    }

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set this phone's cloud (kept in the home; the password is never printed).",
            discussion: """
                URL: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require|verify-full], \
                or postgres://USER@/DATABASE?host=/DIR for a server's Unix socket in DIR: the URL \
                hyzer-hub cloud init printed for this phone (USER is this phone's role). The round in \
                play, if any, becomes shared with this phone as its organizer.
                """
        )
        @ParentCommand var cloud: CloudCommand
        @Argument(help: ArgumentHelp("The cloud's PostgreSQL URL.", valueName: "URL")) var url: String
        @Option(help: ArgumentHelp("Whose phone this is: rounds naming this player are offered (cloud status lists them), and this phone's scores are reported by them.", valueName: "NAME"))
        var player: String?
        @Flag(inversion: .prefixedNo,
              help: "Join a round naming --player without asking. Any phone of the cloud can share a round naming anyone: this trusts them all.")
        var autoJoin: Bool?

        func validate() throws {
            do { _ = try CloudAddress(parsing: url) } catch { throw ValidationError(error.description) }
            if let player, !player.contains(where: { $0.isLetter || $0.isNumber }) {
                throw ValidationError("--player needs a name with at least one letter or digit; got \"\(player)\".")
            }
        }

        func run() throws {
            let hub = try cloud.root.openHub()
            let previous = try hub.cloudConfiguration()
            let configuration = CloudConfiguration(url: url, player: player ?? previous?.player, autoJoin: autoJoin ?? previous?.autoJoin ?? false)
            try hub.setCloud(configuration)
            print("Cloud set: \(configuration.redactedURL)\(configuration.player.map { " (this is \($0)'s phone)" } ?? "").")
            if let owner = configuration.player {
                print(configuration.autoJoin ? "Rounds naming \(owner) are joined without asking (--no-auto-join to be asked)."
                                             : "Rounds naming \(owner) are offered: hyzer-hub cloud status lists them, hyzer-hub round join ROUND-ID joins one.")
            }
            if let round = try hub.roundInPlay(), let info = try hub.cloudRoundInfo(round.id), info.organizer == configuration.role {
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
                  + (waiting > 0 ? " \(ListText.count(waiting, "score")) of shared rounds wait here until a cloud is set again." : ""))
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
                if json { try printJSON(CloudStatusReport(summary: summary, serving: serving, state: nil, detail: nil, lastSyncAt: nil, offers: [])) } else {
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
            var offers: [RoundOffer] = []
            if serving, let status = SyncStatus.read(from: paths.cloudStatus) { offers = status.offers }
            let report = CloudStatusReport(summary: summary, serving: serving, state: state, detail: detail, lastSyncAt: lastSyncAt, offers: offers)
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
            print("Waiting to upload: \(ListText.count(summary.eventsWaiting, "score"))\(summary.roundsWaiting > 0 ? ", \(ListText.count(summary.roundsWaiting, "round"))" : "")"
                  + (summary.completionsWaiting > 0 ? ", \(CloudCommand.ends(summary.completionsWaiting)) (the other phones still play it)" : ""))
            print("Shared rounds: \(summary.sharedRounds)")
            if !summary.refused.isEmpty {
                print("Refused by the cloud (kept here, counted on no phone, not retried): \(summary.refused.count)")
                for refused in summary.refused { print("  \(refused.score) (\(refused.eventID)): \(refused.reason)") }
            }
            if !summary.skipped.isEmpty {
                print("Skipped from the cloud (rows no phone applies): \(summary.skipped.count)")
                for skipped in summary.skipped { print("  number \(skipped.cloudSeq), \(skipped.eventID): \(skipped.reason)") }
            }
            for offer in offers {
                print("Offered: a round on \(offer.description). Join it with: hyzer-hub round join \(offer.roundID.uuidString)")
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
            let result: PassResult
            let configuration = try hub.cloudConfiguration()
            do {
                result = try await CloudSync.syncOnce(hub: hub, cloud: connection, player: configuration?.player,
                                                      autoJoin: configuration?.autoJoin ?? false, logger: Logger(label: "hyzer.hub.cloud"))
            } catch {
                await connection.close()
                throw CloudCommand.explain(error, connection.address)
            }
            await connection.close()
            let summary = try hub.cloudSummary()
            let (uploaded, downloaded) = (result.uploaded, result.downloaded)
            let ends = result.completionsUploaded
            print("Uploaded \(ListText.count(uploaded, "score"))\(ends > 0 ? " and \(CloudCommand.ends(ends))" : ""); downloaded \(ListText.count(downloaded, "new score")). "
                  + "Shared rounds: \(summary.sharedRounds), all in the cloud\(summary.roundsWaiting > 0 ? " but \(summary.roundsWaiting)" : ""); waiting to upload: \(summary.eventsWaiting)"
                  + (summary.completionsWaiting > 0 ? ", and \(CloudCommand.ends(summary.completionsWaiting))." : "."))
            for offer in result.offers {
                print("Offered: a round on \(offer.description). Join it with: hyzer-hub round join \(offer.roundID.uuidString)")
            }
        }
    }

    /// "the end of 2 finished rounds": completions waiting to go up, or gone up.
    static func ends(_ count: Int) -> String { "the end of \(ListText.count(count, "finished round"))" }

    /// A hub's refusal as it is; a cloud failure said for a person, with what it means here.
    static func explain(_ error: any Error, _ address: CloudAddress) -> any Error {
        if error is HubError || error is CommandMessage { return error }
        return CommandMessage("\(CloudError.describe(error, address: address).description) What was done before it is kept; run the command again.")
    }

    /// Connects to the phone's cloud, or says how to set one.
    static func connect(_ hub: Hub) async throws -> CloudConnection {
        guard let configuration = try hub.cloudConfiguration() else {
            throw CommandMessage("No cloud set. Set one first with: hyzer-hub cloud set postgres://PHONE:PASSWORD@HOST/DATABASE (the URL hyzer-hub cloud init printed for this phone)")
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
    let completionsWaiting: Int
    let sharedRounds: Int
    let refused: [[String: String]]
    let skipped: [[String: String]]
    let offers: [RoundOffer]

    init(summary: CloudSummary, serving: Bool, state: SyncState?, detail: String?, lastSyncAt: Date?, offers: [RoundOffer]) {
        url = summary.configuration?.redactedURL
        player = summary.configuration?.player
        self.serving = serving
        self.state = state?.rawValue
        self.detail = detail
        self.lastSyncAt = lastSyncAt
        eventsWaiting = summary.eventsWaiting
        roundsWaiting = summary.roundsWaiting
        completionsWaiting = summary.completionsWaiting
        sharedRounds = summary.sharedRounds
        refused = summary.refused.map { ["eventID": $0.eventID, "score": $0.score, "reason": $0.reason] }
        skipped = summary.skipped.map { ["cloudSeq": String($0.cloudSeq), "eventID": $0.eventID, "reason": $0.reason] }
        self.offers = offers
    }

    private enum CodingKeys: String, CodingKey {
        case url, player, serving, state, detail, lastSyncAt, eventsWaiting, roundsWaiting, completionsWaiting, sharedRounds, refused, skipped, offers
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
        try container.encode(completionsWaiting, forKey: .completionsWaiting)
        try container.encode(sharedRounds, forKey: .sharedRounds)
        try container.encode(refused, forKey: .refused)
        try container.encode(skipped, forKey: .skipped)
        try container.encode(offers, forKey: .offers)
    }
}
