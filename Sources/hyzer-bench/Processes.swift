#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HyzerHarness
import NIOConcurrencyHelpers
import Subprocess

/// The bench's own thread waits here while the work runs on the cooperative pool.
///
/// The bench is a synchronous command: its main thread is not one of the pool's threads, so it may
/// block while child processes are run and read by swift-subprocess's tasks.
func awaitOnPool<T: Sendable, Failure: Error>(_ operation: @escaping @Sendable () async throws(Failure) -> T) throws(Failure) -> T {
    let finished = DispatchSemaphore(value: 0)
    let outcome = NIOLockedValueBox<Result<T, Failure>?>(nil)
    Task {
        let result: Result<T, Failure>
        do throws(Failure) { result = .success(try await operation()) } catch { result = .failure(error) }
        outcome.withLockedValue { $0 = result }
        finished.signal()
    }
    finished.wait()
    return try outcome.withLockedValue { $0! }.get()
}

/// A child the bench starts and times, through the test support's process runner.
extension RunningProcess {
    /// Starts the executable at `path` and returns once it is running.
    static func start(_ path: String, _ arguments: [String]) throws -> RunningProcess {
        try awaitOnPool { try await RunningProcess(path: path, arguments) }
    }

    /// The child's pid, for /proc.
    var pid: Int32 { processIdentifier ?? -1 }

    /// Whether a stdout line containing `text` came within `timeout`, looked for every 200 µs so the
    /// moment it came is timed closely.
    /// When the child says it drew its first frame ("first-frame NS", CLOCK_MONOTONIC), nil if it
    /// did not within `timeout`. The child's own stamp, so the bench's reader's delay is not counted.
    func firstFrameTime(timeout: Duration) -> Int64? {
        guard waitForOutput(containing: "first-frame", timeout: timeout),
              let line = lines.first(where: { $0.hasPrefix("first-frame") }) else { return nil }
        return Int64(line.split(separator: " ").last ?? "")
    }

    func waitForOutput(containing text: String, timeout: Duration) -> Bool {
        awaitOnPool { await self.waitForLine(timeout: timeout, pollingEvery: .microseconds(200)) { $0.contains(text) } }
    }

    /// SIGTERM, then SIGKILL if it has not ended within 5 s; returns once it has ended.
    func terminate() {
        awaitOnPool {
            self.send(SIGTERM)
            if await self.waitForExit(timeout: .seconds(5)) == nil { await self.kill(SIGKILL) }
        }
    }
}

/// Now on CLOCK_MONOTONIC, in nanoseconds: the clock the first-frame lines are stamped with.
func monotonicNanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}

/// CPU time and memory of a process, from /proc.
enum ProcStat {
    static func cpuSeconds(pid: Int32) -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return .nan }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the command: state is field 3, utime 14, stime 15 (1-based in proc(5)).
        guard fields.count > 13, let utime = Double(fields[11]), let stime = Double(fields[12]) else { return .nan }
        return (utime + stime) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Seconds on a CPU of every live thread of a process, from the scheduler's own count in
    /// nanoseconds (`cpuSeconds` counts 10-ms ticks: too coarse for the few ms a process spends on
    /// one score).
    static func onCPUSeconds(pid: Int32) -> Double {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.reduce(0) { total, task in
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/schedstat", encoding: .utf8),
                  let field = text.split(separator: " ").first, let nanoseconds = Double(field) else { return total }
            return total + nanoseconds / 1e9
        }
    }

    /// Whether a running process loaded the Swift runtime as a shared object (a build without
    /// `--static-swift-stdlib`); nil when its maps cannot be read.
    static func loadsSharedSwiftRuntime(pid: Int32) -> Bool? {
        guard let maps = try? String(contentsOfFile: "/proc/\(pid)/maps", encoding: .utf8) else { return nil }
        return maps.contains("/libswiftCore.so")
    }

    static func residentMegabytes(pid: Int32) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Double(line.split(separator: " ", omittingEmptySubsequences: true)[1]) else { return .nan }
        return kilobytes / 1024
    }
}

/// The physical limit for a first frame: a minimal C SDL program compiled here, timed the same way.
enum CReference {
    /// What both C programs share: SDL on the dummy driver with a software renderer the face's
    /// size, and the first-frame line stamped with CLOCK_MONOTONIC as the watch stamps its own.
    static let prelude = """
        #include <SDL2/SDL.h>
        #include <stdio.h>
        #include <time.h>
        static SDL_Renderer *start(void) {
            setenv("SDL_VIDEODRIVER", "dummy", 1);
            if (SDL_Init(SDL_INIT_VIDEO) != 0) exit(1);
            SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, 396, 484, 32, SDL_PIXELFORMAT_ARGB8888);
            SDL_Renderer *r = SDL_CreateSoftwareRenderer(s);
            SDL_SetRenderDrawColor(r, 10, 10, 12, 255);
            SDL_RenderClear(r);
            return r;
        }
        static int shown(SDL_Renderer *r) {
            SDL_RenderPresent(r);
            struct timespec now;
            clock_gettime(CLOCK_MONOTONIC, &now);
            printf("first-frame %lld\\n", (long long)now.tv_sec * 1000000000LL + now.tv_nsec);
            fflush(stdout);
            SDL_Delay(50);
            SDL_Quit();
            return 0;
        }

        """

    static let source = prelude + """
        int main(void) {
            SDL_Renderer *r = start();
            SDL_Rect rect = {24, 64, 348, 88};
            SDL_SetRenderDrawColor(r, 48, 213, 200, 255);
            SDL_RenderFillRect(r, &rect);
            return shown(r);
        }
        """

    /// The same, drawing what a face's first frame holds: the three DejaVu fonts opened at the
    /// face's sizes and a leaderboard's worth of text (a header and four rows of position, name
    /// and score) rendered with SDL_ttf. Font paths come in as arguments (from fontconfig).
    static let textSource = prelude + """
        #include <SDL2/SDL_ttf.h>
        static void text(SDL_Renderer *r, TTF_Font *f, const char *s, int x, int y) {
            SDL_Color c = {245, 245, 247, 255};
            SDL_Surface *t = TTF_RenderUTF8_Blended(f, s, c);
            SDL_Texture *x_ = SDL_CreateTextureFromSurface(r, t);
            SDL_Rect d = {x, y, t->w, t->h};
            SDL_RenderCopy(r, x_, NULL, &d);
            SDL_DestroyTexture(x_);
            SDL_FreeSurface(t);
        }
        int main(int argc, char **argv) {
            if (argc < 4) return 2;
            SDL_Renderer *r = start();
            if (TTF_Init() != 0) return 1;
            TTF_Font *sans = TTF_OpenFont(argv[1], 26), *bold = TTF_OpenFont(argv[2], 34), *mono = TTF_OpenFont(argv[3], 34);
            if (!sans || !bold || !mono) return 3;
            text(r, sans, "Hole 7 of 18", 36, 16);
            const char *names[] = {"Jake", "Sarah", "Mike", "Holyn Handley"}, *scores[] = {"-2", "E", "+1", "+3"}, *pos[] = {"1", "2", "3", "4"};
            for (int i = 0; i < 4; i++) {
                text(r, bold, pos[i], 24, 80 + i * 88);
                text(r, bold, names[i], 80, 80 + i * 88);
                text(r, mono, scores[i], 320, 80 + i * 88);
            }
            return shown(r);
        }
        """

    /// The file fontconfig picks for `pattern` (`fc-match -f '%{file}'`), as the watch finds its fonts.
    static func fontFile(_ pattern: String) -> String? {
        let result = try? awaitOnPool { try await CLIProcess.runTool("fc-match", ["-f", "%{file}", pattern]) }
        guard let result, result.status == 0, !result.stdout.isEmpty else { return nil }
        return result.stdout
    }

    /// The C program compiled in `directory` (with text when `fonts` are given), or nil when
    /// there is no C compiler or SDL's headers: the command that starts it.
    static func compileFirstFrame(in directory: URL, withText fonts: [String]? = nil) throws -> [String]? {
        let name = fonts == nil ? "first-frame" : "first-frame-text"
        let source = directory.appendingPathComponent("\(name).c")
        let binary = directory.appendingPathComponent(name)
        try (fonts == nil ? Self.source : Self.textSource).write(to: source, atomically: true, encoding: .utf8)
        let arguments = ["cc", "-O2", "-o", binary.path, source.path, "-lSDL2"] + (fonts == nil ? [] : ["-lSDL2_ttf"])
        let compiled = try? awaitOnPool {
            try await Subprocess.run(.path("/usr/bin/env"), arguments: Arguments(arguments), output: .discarded, error: .discarded)
                .terminationStatus.isSuccess
        }
        return compiled == true ? [binary.path] + (fonts ?? []) : nil
    }

    /// Seconds from spawning `command` to the first frame it reports.
    static func firstFrame(_ command: [String]) throws -> Double? {
        let start = monotonicNanoseconds()
        let child = try RunningProcess.start(command[0], Array(command.dropFirst()))
        defer { child.terminate() }
        guard let drawn = child.firstFrameTime(timeout: .seconds(20)) else { return nil }
        return Double(drawn - start) / 1e9
    }
}
