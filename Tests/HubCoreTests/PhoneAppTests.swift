import Foundation
import NIOConcurrencyHelpers
import Testing
@testable import HubCore

@Suite("The phone app's view of its watches")
struct PhoneAppTests {
    @Test("A watch that reconnected keeps its app's place: its old connection closing after the new one said 'in the foreground' does not make it unknown")
    func reconnectKeepsAppState() {
        let paired = NIOLockedValueBox<Set<String>>(["watch-ann"])
        let app = PhoneApp(state: .foreground, statusFile: nil, backgroundDuration: 5, pairedDevices: { paired.withLockedValue { $0 } })
        app.watch("watch-ann", appActive: true)  // said on the new connection
        app.watch("watch-ann", appActive: nil)   // the old connection closes
        #expect(app.watchAppInFront("watch-ann"))
        paired.withLockedValue { $0 = [] }
        app.watch("watch-ann", appActive: nil)   // the watch left for good
        #expect(!app.watchAppInFront("watch-ann"))
    }
}
