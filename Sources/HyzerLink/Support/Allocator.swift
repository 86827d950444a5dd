import Synchronization

/// What a long-running hub asks of glibc's allocator so that memory a burst of connections used
/// goes back to the system once the burst is over (docs/PROTOCOL.md, Handshake, item 7).
///
/// It needs both one arena and giving back free pages: glibc's default, one arena per thread that
/// allocates, keeps what a burst used, and giving back free pages when connections go quiet
/// (`giveBackFreeMemory`) alone still leaves memory scattered over several arenas. With one arena
/// as well, the hub is back to about its starting size after each burst (measured: see
/// docs/PERFORMANCE.md).
public enum Allocator {
    /// One arena for every thread (the hub's threads mostly wait on sockets and files, so they
    /// hardly contend for it). Call before the first threads start allocating.
    /// Also turns `giveBackFreeMemory` on: a process that shares its heap with other work (a test
    /// runner, with its many arenas) is better left alone than stalled by a trim of all of it.
    public static func useOneArena() {
        #if os(Linux)
        _ = glibcMallopt(mArenaMax, 1)
        givesBack.store(true, ordering: .relaxed)
        #endif
    }

    private static let givesBack = Atomic(false)

    /// Returns the allocator's free pages to the system (`malloc_trim`, which walks every arena:
    /// run at most every `LinkServer.giveBackMemoryEvery`, not for each connection that ends), in a
    /// process that asked for one arena (`serve`).
    static func giveBackFreeMemory() {
        #if os(Linux)
        if givesBack.load(ordering: .relaxed) { _ = glibcMallocTrim(0) }
        #endif
    }
}

#if os(Linux)
// malloc.h, which the Glibc module does not bring in.
private let mArenaMax: Int32 = -8

@_silgen_name("mallopt")
private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32

@_silgen_name("malloc_trim")
private func glibcMallocTrim(_ pad: Int) -> Int32
#endif
