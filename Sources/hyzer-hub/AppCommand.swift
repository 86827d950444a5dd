import ArgumentParser
import Foundation
import HubCore
import HyzerKit

struct AppCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app",
        abstract: "Show or change the phone app's lifecycle state, and which watches the phone can reach.",
        discussion: """
            The phone (serve) keeps its side of the link in every state; the phone app's own code \
            runs only in the foreground and the background, and in the background only serve \
            --background-seconds (5) before iOS suspends it. Suspended or not running, it sends no \
            standings and no complication transfers, and a watch's score does not wake it: scores \
            are user-info transfers, which iOS delivers when the app next runs (only a live \
            message wakes an iOS app). The phone keeps and acknowledges the score; the watch gets \
            the standings it changes once the app is in front (or in the background) again. Not \
            running also forgets what each watch's complications were last sent. The state asked for last is also how the next serve starts (it says so when that is not the foreground). \
            A watch is reachable from the phone while it is paired and its app is in the \
            foreground. See docs/HANDOFF.md.
            """
    )
    @ParentCommand var root: HyzerHub
    @Argument(help: ArgumentHelp("foreground, background, suspended or not-running; none: show the state.", valueName: "STATE"))
    var state: PhoneAppState?
    @Flag(help: "Print hub/app-state.json (state, since, why, and each paired watch).") var json = false

    func run() throws {
        let paths = root.paths
        let serving = ServeCommand.isServing(paths)
        if let state {
            try FileManager.default.createDirectory(at: paths.hubDirectory, withIntermediateDirectories: true)
            try PhoneAppRequest.write(state, to: paths.appRequest)
            guard serving else {
                return print("No hyzer-hub serve runs on \(paths.home.path): the next one starts with the phone app \(state.phrase).")
            }
            // Said once serve has applied it, so a script's next step sees the new state.
            guard Self.waitFor(state, in: paths.appState) else {
                throw CommandMessage("hyzer-hub serve did not apply \"\(state.rawValue)\" within 5 s; see its log.")
            }
        }
        guard serving, let status = PhoneAppStatus.read(paths.appState) else {
            let requested = PhoneAppRequest.read(paths.appRequest).map { "; the next serve starts it \($0.phrase)" } ?? ""
            return print("No hyzer-hub serve runs on \(paths.home.path): the phone app is not running\(requested).")
        }
        if json { return print(String(decoding: try HyzerJSON.encoder(pretty: true).encode(status), as: UTF8.self)) }
        print("The phone app is \(status.state.rawValue) (since \(HyzerJSON.formatTimestamp(status.since)): \(status.why)).")
        // The link cannot tell a watch that never paired from one out of range or shut down (a
        // real phone's isPaired stays true for it): either way none is reachable.
        if status.watches.isEmpty { print("No watch is connected: none is reachable from the phone (a paired watch may be out of range, or not running).") }
        for watch in status.watches {
            let app = watch.appActive.map { $0 ? "its app is in the foreground" : "its app is in the background" } ?? "it does not say where its app is"
            print("\(watch.deviceID): \(watch.reachable ? "reachable" : "not reachable") from the phone (\(app)).")
        }
    }

    /// Whether serve's status shows `state` within 5 s.
    static func waitFor(_ state: PhoneAppState, in file: URL) -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            if PhoneAppStatus.read(file)?.state == state { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return false
    }
}

extension PhoneAppState: ExpressibleByArgument {}
