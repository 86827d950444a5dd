import NIOPosix

/// Work done one item at a time, in the order given, on a thread of its own. The hub's scores go
/// here: each blocks on the store's commit, and Dispatch's pool (as wide as the machine's cores,
/// two in CI) could be taken by other blocked work, leaving a score waiting for a thread.
public final class SerialWorker: Sendable {
    private let thread = NIOThreadPool(numberOfThreads: 1)

    public init() { thread.start() }

    /// Runs `work` after everything given before it.
    public func async(_ work: @escaping @Sendable () -> Void) {
        thread.submit { state in
            if case .active = state { work() }
        }
    }

    /// Ends the thread once the work given so far is done.
    public func shutdown() async {
        try? await thread.shutdownGracefully()
    }
}
