import Foundation

/// Where everything lives under one Hyzer home directory (DESIGN, "Files in the shared directory").
///
/// Pure: the environment is passed in, nothing is created here.
public struct HyzerPaths: Sendable, Hashable {
    public let home: URL

    public init(home: URL) { self.home = home.standardizedFileURL }

    /// `--home`, else `$HYZER_HOME`, else `$XDG_DATA_HOME/hyzer`, else `~/.local/share/hyzer`.
    /// The environment and the user's home are read only when they decide (no --home): reading
    /// either is on the way to a watch's first frame.
    public static func resolve(explicitHome: String?, environment: @autoclosure () -> [String: String],
                               userHome: @autoclosure () -> String) -> HyzerPaths {
        func url(_ path: String) -> URL {
            // Most paths have no tilde, and NSString's expansion is slow on its first use: only a
            // path with one pays for it.
            URL(fileURLWithPath: path.hasPrefix("~") ? (path as NSString).expandingTildeInPath : path, isDirectory: true)
        }
        if let explicitHome, !explicitHome.isEmpty { return HyzerPaths(home: url(explicitHome)) }
        let environment = environment()
        if let home = environment["HYZER_HOME"], !home.isEmpty { return HyzerPaths(home: url(home)) }
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty { return HyzerPaths(home: url(xdg).appendingPathComponent("hyzer")) }
        return HyzerPaths(home: url(userHome()).appendingPathComponent(".local/share/hyzer"))
    }

    public var hubDirectory: URL { home.appendingPathComponent("hub", isDirectory: true) }
    public var database: URL { hubDirectory.appendingPathComponent("hyzer.sqlite") }
    public var pairingToken: URL { hubDirectory.appendingPathComponent("token") }
    public var linkSocket: URL { hubDirectory.appendingPathComponent("link.sock") }
    /// What a running `serve` last knew about its cloud (see docs/SYNC.md).
    public var cloudStatus: URL { hubDirectory.appendingPathComponent("cloud-status.json") }
    /// The phone app's state as `serve` runs it, and the watches it can reach (`hyzer-hub app`).
    public var appState: URL { hubDirectory.appendingPathComponent("app-state.json") }
    /// The state `hyzer-hub app STATE` asked for.
    public var appRequest: URL { hubDirectory.appendingPathComponent("app-request") }
    /// Where `serve` last served the phone's face (`http://127.0.0.1:PORT/`): the next `serve`
    /// takes the same port when it is free, so an open page finds its phone again.
    public var webAddress: URL { hubDirectory.appendingPathComponent("web-address") }

    public var sharedDirectory: URL { home.appendingPathComponent("shared", isDirectory: true) }
    public var standingsSnapshot: URL { sharedDirectory.appendingPathComponent("standings.json") }

    public var watchDirectory: URL { home.appendingPathComponent("watch", isDirectory: true) }
    /// The watch's own container (the seeds' app group): the last standings that reached the
    /// watch over the link, written by the watch, read at its launch.
    public var watchSnapshot: URL { watchDirectory.appendingPathComponent("standings.json") }
    /// The application context the system keeps for the watch app: the latest standings the phone
    /// sent while the app was in the background, delivered at its next activation or launch.
    public var watchContext: URL { watchDirectory.appendingPathComponent("context.json") }
    public var hapticLog: URL { watchDirectory.appendingPathComponent("haptics.jsonl") }
    public var announcementLog: URL { watchDirectory.appendingPathComponent("announcements.jsonl") }
    /// Every complication transfer the watch received, and whether it refreshed the face.
    public var complicationLog: URL { watchDirectory.appendingPathComponent("complications.jsonl") }
    /// What the watch face's complications show (the system keeps it across the app's launches).
    public var shownComplication: URL { watchDirectory.appendingPathComponent("complication.json") }
    public var outbox: URL { watchDirectory.appendingPathComponent("outbox") }
    /// A running watch's live control (`hyzer-watch ctl`).
    public var watchControl: URL { watchDirectory.appendingPathComponent("ctl.sock") }
    public var rejectedLog: URL { watchDirectory.appendingPathComponent("rejected.jsonl") }
    /// The hub certificate's fingerprint this watch pinned on first use over TCP.
    public var hubPin: URL { watchDirectory.appendingPathComponent("hub-fingerprint") }
}
