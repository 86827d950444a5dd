import Foundation
import HyzerKit
import HyzerStorage

/// The phone app's lifecycle, as iOS runs it. The phone itself (`serve`: the system's side of
/// the link, heartbeats, the store) runs in every state; the app's own code only in the first two.
public enum PhoneAppState: String, Sendable, Hashable, Codable, CaseIterable {
    case foreground, background
    /// In memory, not running: no standings go to the watch and no complication transfers.
    case suspended
    /// Not in memory: as suspended, and what the app kept in memory (which complication content
    /// each watch was last sent) is gone at its next launch.
    case notRunning = "not-running"

    /// Whether the app's code runs (it pushes standings and spends complication transfers).
    public var runs: Bool { self == .foreground || self == .background }
}

/// `hub/app-state.json`, written by `serve` (its only writer): the phone app's state, since when
/// and why, and which paired watches the phone can reach with a live message (WatchConnectivity's
/// `isReachable` on the phone: the watch in range and its app in the foreground).
public struct PhoneAppStatus: Sendable, Hashable, Codable {
    public struct Watch: Sendable, Hashable, Codable {
        public var deviceID: String
        /// What the watch's heartbeats last said of its app; nil if it does not say.
        public var appActive: Bool?
        /// Reachable from the phone: paired, and its app not known to be in the background.
        public var reachable: Bool
    }

    public var state: PhoneAppState
    public var since: Date
    /// "hyzer-hub app suspended", "woken by a message from watch-sarah", "serve started".
    public var why: String
    public var watches: [Watch]

    public init(state: PhoneAppState, since: Date, why: String, watches: [Watch] = []) {
        self.state = state
        self.since = since
        self.why = why
        self.watches = watches
    }

    public func write(to url: URL) throws {
        let encoder = HyzerJSON.encoder(pretty: true)
        try DurableFile.replace(url, with: try encoder.encode(self) + Data("\n".utf8), durable: false)
    }

    public static func read(_ url: URL) -> PhoneAppStatus? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? HyzerJSON.decoder().decode(PhoneAppStatus.self, from: data)
    }
}

/// `hub/app-request`: the state `hyzer-hub app STATE` asks for (its only writer), applied by a
/// running `serve`, or by the next one at its start.
public enum PhoneAppRequest {
    public static func write(_ state: PhoneAppState, to url: URL) throws {
        try DurableFile.replace(url, with: Data((state.rawValue + "\n").utf8), durable: false)
    }

    public static func read(_ url: URL) -> PhoneAppState? {
        guard let data = try? Data(contentsOf: url), let text = String(data: data, encoding: .utf8) else { return nil }
        return PhoneAppState(rawValue: text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
