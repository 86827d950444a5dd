/// What a long-running hub asks of glibc's allocator so that memory a burst of connections used
/// goes back to the system once the burst is over (docs/PROTOCOL.md, Handshake, item 7).
///
/// Measured on `serve` after 50,000 hello-and-leave connections (release, 34 MB at start): glibc's
/// default, one arena per thread that allocates, kept 41–70 MB; giving back free pages when
/// connections go quiet (`giveBackFreeMemory`) alone still left 35–51 MB, scattered over several
/// arenas; with one arena as well, 34–39 MB a second after each of five such bursts in a row.
public enum Allocator {
    /// One arena for every thread (the hub's threads mostly wait on sockets and files, so they
    /// hardly contend for it). Call before the first threads start allocating.
    public static func useOneArena() {
        #if os(Linux)
        _ = glibcMallopt(mArenaMax, 1)
        #endif
    }

    /// Returns the allocator's free pages to the system (`malloc_trim`: a millisecond or so).
    static func giveBackFreeMemory() {
        #if os(Linux)
        _ = glibcMallocTrim(0)
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
