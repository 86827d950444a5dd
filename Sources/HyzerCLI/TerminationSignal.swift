import Dispatch
import UnixSignals

/// SIGINT and SIGTERM for a program that is not a `ServiceGroup` (the watch's SDL loop): both are
/// trapped when `trap` returns, and `onSignal` runs once for the first one that arrives.
public enum TerminationSignal {
    public static func trap(_ onSignal: @escaping @Sendable (String) -> Void) async {
        let signals = await UnixSignalsSequence(trapping: .sigint, .sigterm)
        Task {
            for await signal in signals {
                onSignal("\(signal)")
                return
            }
        }
    }
}

extension TerminationSignal {
    /// `trap` for synchronous code: returns once both signals are trapped.
    public static func trapNow(_ onSignal: @escaping @Sendable (String) -> Void) {
        let trapped = DispatchSemaphore(value: 0)
        Task {
            await trap(onSignal)
            trapped.signal()
        }
        trapped.wait()
    }
}
