#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HyzerCLI

/// What an interrupted run (Ctrl-C, or SIGTERM from `timeout` or a CI runner) cleans up before it
/// ends: the processes the bench started (hubs, watches, a kernel under callgrind) and its
/// temporary folder, which holds their homes and databases (large enough not to leave behind).
enum Interruption {
    /// From now on SIGINT and SIGTERM end the bench cleanly, with the status a shell gives a
    /// process the signal killed (130 or 143).
    /// `left`: what the run made elsewhere that only its end drops (said, so nobody thinks it gone).
    static func cleanUpOnSignal(removing directory: URL, left: String? = nil) {
        TerminationSignal.trapNow { signal in
            let children = killChildren()
            try? FileManager.default.removeItem(at: directory)
            let stopped = children == 0 ? "" : " stopped \(children) process\(children == 1 ? "" : "es") it had started and"
            FileHandle.standardError.write(Data("hyzer-bench: interrupted (\(signal)):\(stopped) removed \(directory.path); no figures printed\n".utf8))
            if let left { FileHandle.standardError.write(Data("hyzer-bench: left: \(left)\n".utf8)) }
            _exit(signal == "SIGINT" ? 130 : 143)
        }
    }

    /// SIGKILLs every process this one started, and theirs (a compiler's own children), from
    /// /proc; how many of its own children it killed.
    private static func killChildren() -> Int {
        var killed = 0
        for pid in children(of: getpid()) {
            for grandchild in children(of: pid) { kill(grandchild, SIGKILL) }
            if kill(pid, SIGKILL) == 0 { killed += 1 }
        }
        return killed
    }

    /// The pids whose parent is `parent`.
    private static func children(of parent: pid_t) -> [pid_t] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { entry in
            guard let pid = pid_t(entry),
                  let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            // After the command: state, then the parent's pid (fields 3 and 4 in proc(5)).
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && pid_t(fields[1]) == parent ? pid : nil
        }
    }
}
