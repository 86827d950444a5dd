import Foundation

/// A player's stable identifier: a UUID string for registered players, `guest:<name>` for guests.
public typealias PlayerID = String

/// A player in a round: registered (id is a UUID string) or a guest (id is `guest:<name>`).
public struct Player: Sendable, Hashable, Codable, Identifiable {
    public static let guestPrefix = "guest:"

    public let id: PlayerID
    public let name: String

    public init(id: PlayerID, name: String) {
        self.id = id
        self.name = name
    }

    /// A registered player with a fresh identity.
    public static func registered(name: String, id: UUID = UUID()) -> Player {
        Player(id: id.uuidString, name: name)
    }

    /// A guest: no account, identified by name within the round.
    public static func guest(name: String) -> Player {
        Player(id: guestPrefix + name, name: name)
    }

    public var isGuest: Bool { id.hasPrefix(Self.guestPrefix) }

    /// The display name a player ID stands for when no registered player is known:
    /// the name part of a guest ID, or nil for a registered ID.
    public static func guestName(fromID id: PlayerID) -> String? {
        id.hasPrefix(guestPrefix) ? String(id.dropFirst(guestPrefix.count)) : nil
    }
}

extension String {
    /// Whether any character is a control character (Unicode's Cc: U+0000–U+001F, U+007F–U+009F),
    /// which no id or name on the link may hold. Printable ASCII is checked byte by byte; only
    /// other text asks Unicode's categories.
    public var containsControlCharacter: Bool {
        !utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F } && unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// Byte for byte. Ids (players, devices) are opaque strings matched exactly (PROTOCOL.md):
    /// Swift's `==` takes canonically equivalent text as equal ("Zoe\u{308}" and "Zo\u{EB}").
    public func hasSameBytes(as other: String) -> Bool {
        // Compared in place with memcmp (a Swift string keeps its UTF-8 contiguous), not by walking
        // two UTF8Views or elementsEqual over their buffers: the hub's batch path compares ids for
        // every event.
        let compared = utf8.withContiguousStorageIfAvailable { mine in
            other.utf8.withContiguousStorageIfAvailable { theirs in
                mine.count == theirs.count && (mine.isEmpty || memcmp(mine.baseAddress!, theirs.baseAddress!, mine.count) == 0)
            }
        }
        return (compared ?? nil) ?? utf8.elementsEqual(other.utf8)
    }
}

extension Player {
    /// The device id of a watch whose wearer is `name` (`hyzer-watch --wearer`): "watch-" and the
    /// name's letters and digits, lower-cased ("Holyn Handley" → "watch-holynhandley").
    public static func watchDeviceID(wearer name: String) -> String {
        "watch-" + name.lowercased().filter { $0.isLetter || $0.isNumber }
    }
}
