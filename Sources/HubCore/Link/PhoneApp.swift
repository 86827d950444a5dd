import Foundation
import HyzerKit
import HyzerStorage
import Logging
import NIOConcurrencyHelpers

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

    /// As a sentence says it: "in the foreground", "suspended", "not running".
    public var phrase: String {
        switch self {
        case .foreground: "in the foreground"
        case .background: "in the background"
        case .suspended: "suspended"
        case .notRunning: "not running"
        }
    }
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
    /// "hyzer-hub app suspended", "iOS suspended it 5 s after it went to the background", "serve started".
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

/// The phone app as `serve` runs it: its state (asked for with `hyzer-hub app`, or suspended by
/// iOS `backgroundDuration` after it went to the background), which watch apps are in front, and
/// `hub/app-state.json` saying both.
public final class PhoneApp: Sendable {
    private struct Shell {
        var status: PhoneAppStatus
        /// Each paired watch's app, as its heartbeats say (true: in the foreground).
        var watches: [String: Bool] = [:]
        /// When the request file applied last was written.
        var lastRequest: Date?
        /// The app runs in the background until iOS suspends it: the number of the latest such
        /// timer (the one that suspends it); nil when nothing will (in front).
        var suspendTimer: Int?
        var timers = 0
    }

    private let shell: NIOLockedValueBox<Shell>
    private let statusFile: URL?
    /// How long the app runs once sent to the background before iOS suspends it.
    public let backgroundDuration: TimeInterval
    private let pairedDevices: @Sendable () -> Set<String>
    /// Status writes and suspension timers, off the link's threads (the callers include its event loops).
    private let queue = DispatchQueue(label: "hyzer.hub.app")
    private let logger = Logger(label: "hyzer.hub.serve")
    private let onChange = NIOLockedValueBox<(@Sendable (_ was: PhoneAppState, _ now: PhoneAppState) -> Void)?>(nil)

    public init(state: PhoneAppState, statusFile: URL?, backgroundDuration: TimeInterval = 5,
                pairedDevices: @escaping @Sendable () -> Set<String>) {
        shell = NIOLockedValueBox(Shell(status: PhoneAppStatus(state: state, since: Date(), why: "serve started")))
        self.statusFile = statusFile
        self.backgroundDuration = backgroundDuration
        self.pairedDevices = pairedDevices
        writeStatus()
    }

    /// Called after every change of state, with the state before and after.
    public var changed: (@Sendable (_ was: PhoneAppState, _ now: PhoneAppState) -> Void)? {
        get { onChange.withLockedValue { $0 } }
        set { onChange.withLockedValue { $0 = newValue } }
    }

    public var state: PhoneAppState { shell.withLockedValue { $0.status.state } }

    /// Whether the app's code runs: it pushes standings and spends complication transfers.
    public var runs: Bool { state.runs }

    /// Whether `deviceID`'s watch app is in the foreground, as its heartbeats last said.
    public func watchAppInFront(_ deviceID: String) -> Bool { shell.withLockedValue { $0.watches[deviceID] } == true }

    /// The app moves to `state`, for the reason `why` says.
    public func set(_ state: PhoneAppState, why: String) {
        let was = shell.withLockedValue { shell -> PhoneAppState in
            defer { if shell.status.state != state { shell.status.state = state; shell.status.since = Date(); shell.status.why = why } }
            return shell.status.state
        }
        guard was != state else { return }
        logger.info("the phone app is \(state.rawValue) (\(why))")
        writeStatus()
        changed?(was, state)
    }

    /// Suspends the app `duration` from now unless something else happens to it first (a later
    /// timer, a state asked for): only the latest timer suspends, and only an app still in the
    /// background.
    private func suspendLater(after duration: TimeInterval, why: String) {
        let timer = shell.withLockedValue { shell -> Int in
            shell.timers += 1
            shell.suspendTimer = shell.timers
            return shell.timers
        }
        queue.asyncAfter(deadline: .now() + duration) { [self] in
            let expired = shell.withLockedValue { shell -> Bool in
                guard shell.suspendTimer == timer, shell.status.state == .background else { return false }
                shell.suspendTimer = nil
                return true
            }
            if expired { set(.suspended, why: why) }
        }
    }

    static func seconds(_ interval: TimeInterval) -> String {
        interval == interval.rounded() ? "\(Int(interval)) s" : String(format: "%.1f s", interval)
    }

    /// Applies `hyzer-hub app STATE` (`hub/app-request`) when the request is new: each request
    /// once, so the app a watch woke is not sent back to sleep by an old one.
    public func follow(request url: URL) {
        let stamp = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
        guard let stamp, let requested = PhoneAppRequest.read(url) else { return }
        let isNew = shell.withLockedValue { shell in
            defer { shell.lastRequest = stamp }
            guard shell.lastRequest != stamp else { return false }
            shell.suspendTimer = nil  // a state asked for by hand: no earlier timer undoes it
            return true
        }
        guard isNew else { return }
        set(requested, why: "hyzer-hub app \(requested.rawValue)")
        // An app sent to the background runs a few seconds more, then iOS suspends it, as it does
        // every app without a background mode (in the pocket it ran for ever).
        if requested == .background {
            suspendLater(after: backgroundDuration, why: "iOS suspended it \(Self.seconds(backgroundDuration)) after it went to the background")
        }
    }

    /// A paired watch said whether its app is in front; nil: it paired or a connection of it
    /// closed, and it has not said (yet), or it left.
    public func watch(_ deviceID: String, appActive: Bool?) {
        // Paired, or a watch that reconnected leaving its old connection after its new one said
        // where its app is (it says it again only when it changes): what is known of it stays.
        if appActive != nil || !pairedDevices().contains(deviceID) { shell.withLockedValue { $0.watches[deviceID] = appActive } }
        if let appActive {
            logger.info("\(deviceID): its app is \(appActive ? "in the foreground: reachable from the phone" : "in the background: not reachable from the phone; standings reach it as application context")")
        }
        writeStatus()
    }

    /// Writes `hub/app-state.json` on `queue`, as things are when the write runs: changes made
    /// while one waits are in it, so a burst of watches pairing and leaving writes the file a few
    /// times, not once for each (each write lists every paired watch: thousands of them, queued
    /// one per change, held gigabytes until written).
    private func writeStatus() {
        guard let statusFile else { return }
        let waiting = writeWaiting.withLockedValue { waiting in
            defer { waiting = true }
            return waiting
        }
        guard !waiting else { return }
        queue.async { [self] in
            writeWaiting.withLockedValue { $0 = false }
            let paired = pairedDevices()
            let status = shell.withLockedValue { shell -> PhoneAppStatus in
                shell.status.watches = paired.sorted().map { device in
                    PhoneAppStatus.Watch(deviceID: device, appActive: shell.watches[device], reachable: shell.watches[device] != false)
                }
                return shell.status
            }
            do { try status.write(to: statusFile) } catch { logger.error("could not write \(statusFile.path): \(error)") }
        }
    }

    /// Whether a write of the status file waits on `queue`.
    private let writeWaiting = NIOLockedValueBox(false)
}
