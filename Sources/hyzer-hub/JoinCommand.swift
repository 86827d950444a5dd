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
                listed with their ids. The round's scores so far are downloaded at once; hyzer-hub \
                serve keeps them coming.
                """
        )
        @ParentCommand var round: RoundCommand
        @Argument(help: ArgumentHelp("The shared round's id (see the list this command prints).", valueName: "ROUND-ID"))
        var roundID: String?

        func validate() throws {
            if let roundID, UUID(uuidString: roundID) == nil {
                throw ValidationError("\"\(roundID)\" is not a round id; a round id looks like 6F9619FF-8B86-D011-B42D-00C04FC964FF.")
            }
        }

        func run() async throws {
            let hub = try round.root.openHub()
            let cloud = try await CloudCommand.connect(hub)
            do {
                let shared = try await pick(cloud: cloud, player: try hub.cloudConfiguration()?.player)
                let joined = try hub.join(shared)
                let (_, downloaded) = try await CloudSync.syncOnce(hub: hub, cloud: cloud, player: nil, logger: Logger(label: "hyzer.hub.cloud"))
                await cloud.close()
                let organizer = shared.organizerName.map { "\($0)'s phone" } ?? "another phone"
                print("Joined the round on \(joined.courseName) organized by \(organizer): \(joined.players.map(\.name).joined(separator: ", ")). \(downloaded) score\(downloaded == 1 ? "" : "s") so far.")
            } catch {
                await cloud.close()
                throw CloudCommand.explain(error, cloud.address)
            }
        }

        private func pick(cloud: CloudConnection, player: String?) async throws -> CloudRound {
            if let roundID, let id = UUID(uuidString: roundID) {
                guard let shared = try await cloud.round(id: id) else {
                    throw CommandMessage("The cloud holds no round \(id.uuidString). List the active ones with: hyzer-hub round join")
                }
                return shared
            }
            var candidates = player == nil ? [] : try await cloud.activeRounds(naming: player)
            if candidates.isEmpty { candidates = try await cloud.activeRounds(naming: nil) }
            guard !candidates.isEmpty else {
                throw CommandMessage("No active round in the cloud to join. The organizer starts one with a cloud set: hyzer-hub round start …")
            }
            guard candidates.count == 1 else {
                let list = candidates.map { "  \($0.id.uuidString)  \($0.courseName): \($0.players.map(\.name).joined(separator: ", "))" }
                throw CommandMessage("Several active rounds; name one with: hyzer-hub round join ROUND-ID\n\(list.joined(separator: "\n"))")
            }
            return candidates[0]
        }
    }
}
