import ArgumentParser
import Foundation
import HubCloud
import HubCore
import HyzerKit
import Logging

extension RoundCommand {
    struct Join: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Join a round another phone started and shared through the cloud.",
            discussion: """
                Without ROUND-ID: the one active round in the cloud that names this phone's owner \
                (cloud set --player), else the one active round; when there are several, they are \
                listed with their ids and who organized them (any phone of the cloud may share a \
                round: check the organizer). The round's scores so far are downloaded at once; hyzer-hub \
                serve keeps them coming.
                """
        )
        @ParentCommand var round: RoundCommand
        @Argument(help: ArgumentHelp("The shared round's id (see the list this command prints).", valueName: "ROUND-ID"))
        var roundID: String?

        func validate() throws {
            if let roundID, UUID(canonicalString: roundID) == nil {
                throw ValidationError("\"\(roundID)\" is not a round id; a round id looks like 6F9619FF-8B86-D011-B42D-00C04FC964FF.")
            }
        }

        func run() async throws {
            let hub = try round.root.openHub()
            let cloud = try await CloudCommand.connect(hub)
            do {
                let shared = try await pick(cloud: cloud, player: try hub.cloudConfiguration()?.player, hub: hub)
                let already = try hub.cloudRoundInfo(shared.id) != nil
                let joined = try hub.join(shared)
                try await CloudSync.syncOnce(hub: hub, cloud: cloud, player: nil, logger: Logger(label: "hyzer.hub.cloud"))
                await cloud.close()
                let held = try hub.eventLog().events.count
                let organizer = shared.organizer + (shared.organizerName.map { " (\($0))" } ?? "")
                print("\(already ? "Already in" : "Joined") the round on \(joined.courseName) organized by \(organizer): \(joined.players.map(\.name).joined(separator: ", ")). \(ListText.count(held, "score")) so far.")
            } catch {
                await cloud.close()
                throw CloudCommand.explain(error, cloud.address)
            }
        }

        private func pick(cloud: CloudConnection, player: String?, hub: Hub) async throws -> CloudRound {
            if let roundID, let id = UUID(canonicalString: roundID) {
                let found: CloudRound?
                do { found = try await cloud.round(id: id) } catch let problem as CloudRoundProblem { throw CommandMessage("Not joined: \(problem.description).") }
                guard let shared = found else {
                    throw CommandMessage("The cloud holds no round \(id.uuidString). List the active ones with: hyzer-hub round join")
                }
                return shared
            }
            var candidates = player == nil ? [] : try await cloud.activeRounds(naming: player, playerID: try hub.ownerPlayerID())
            if candidates.isEmpty { candidates = try await cloud.activeRounds(naming: nil) }
            guard !candidates.isEmpty else {
                throw CommandMessage("No active round in the cloud to join. The organizer's phone shares one when it has a cloud set (hyzer-hub round start …) and uploads it while hyzer-hub serve runs, or with: hyzer-hub cloud sync")
            }
            guard candidates.count == 1 else {
                let list = candidates.map { "  \($0.id.uuidString)  \($0.courseName): \($0.players.map(\.name).joined(separator: ", ")), organized by \($0.organizer)\($0.organizerName.map { " (\($0))" } ?? "")" }
                throw CommandMessage("Several active rounds; name one with: hyzer-hub round join ROUND-ID\n\(list.joined(separator: "\n"))")
            }
            return candidates[0]
        }
    }
}
