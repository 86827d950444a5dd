import Foundation
import HyzerStorage
import Logging
import NIOConcurrencyHelpers

/// Writes the watch app's own files in its container (`watch/standings.json`,
/// `watch/complication.json`) after the face has shown what they hold, off the thread that
/// delivered it, as the phone exports its `standings.json` after its push. Each file's newest
/// content wins: content still waiting is replaced, so a burst writes each file once.
///
/// Why not on the delivering thread: a file replaced is a file created, and on ext4 without a
/// journal (as this project's machines run it) each create walks the inodes deleted in the last
/// minute or more; many watches in one process (the bench's fan-out) each waited behind the
/// others' writes before it saw its push (docs/PERFORMANCE.md). One queue for the process: a
/// watch has one app; the bench's many sessions then leave the link's threads their cores.
///
/// An app killed between showing and writing relaunches with the content before, as an app killed
/// before it saved does; `flush` (a clean quit) leaves the newest.
final class ContainerWriter: Sendable {
    private static let queue = DispatchQueue(label: "hyzer.watch.container")
    /// What waits to be written, by file; empty when nothing does (and no write is queued).
    private let waiting = NIOLockedValueBox<[URL: Data]>([:])
    private let logger = Logger(label: "hyzer.watch")

    /// Writes `data` to `url` soon, unless newer content for it comes first.
    func replace(_ url: URL, with data: Data) {
        let queued = waiting.withLockedValue { waiting in
            defer { waiting[url] = data }
            return !waiting.isEmpty
        }
        if !queued { Self.queue.async { self.writeWaiting() } }
    }

    /// Returns once everything asked before it is written.
    func flush() { Self.queue.sync { writeWaiting() } }

    private func writeWaiting() {
        let files = waiting.withLockedValue { waiting in
            defer { waiting = [:] }
            return waiting
        }
        for (url, data) in files {
            do { try DurableFile.replace(url, with: data, durable: false) } catch {
                logger.error("could not keep \(url.path): \(error)")
            }
        }
    }
}
