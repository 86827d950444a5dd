#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A child process whose stdout is read line by line.
final class ChildProcess: @unchecked Sendable {
    let process = Process()
    private let lock = NSLock()
    private var output = ""

    init(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        Thread { [self] in
            while true {
                let chunk = pipe.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                lock.withLock { output += String(decoding: chunk, as: UTF8.self) }
            }
        }.start()
    }

    var pid: Int32 { process.processIdentifier }

    func waitForOutput(containing text: String, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if lock.withLock({ output.contains(text) }) { return true }
            if !process.isRunning { return false }
            usleep(200)
        }
        return false
    }

    func terminate() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(1_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
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

    static func residentMegabytes(pid: Int32) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Double(line.split(separator: " ", omittingEmptySubsequences: true)[1]) else { return .nan }
        return kilobytes / 1024
    }
}

/// The physical limit for a first frame: a minimal C SDL program compiled here, timed the same way.
enum CReference {
    static let source = """
        #include <SDL2/SDL.h>
        #include <stdio.h>
        int main(void) {
            setenv("SDL_VIDEODRIVER", "dummy", 1);
            if (SDL_Init(SDL_INIT_VIDEO) != 0) return 1;
            SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, 396, 484, 32, SDL_PIXELFORMAT_ARGB8888);
            SDL_Renderer *r = SDL_CreateSoftwareRenderer(s);
            SDL_SetRenderDrawColor(r, 10, 10, 12, 255);
            SDL_RenderClear(r);
            SDL_Rect rect = {24, 64, 348, 88};
            SDL_SetRenderDrawColor(r, 48, 213, 200, 255);
            SDL_RenderFillRect(r, &rect);
            SDL_RenderPresent(r);
            printf("first-frame\\n");
            fflush(stdout);
            SDL_Delay(50);
            SDL_Quit();
            return 0;
        }
        """

    static func firstFrame(in directory: URL, iterations: Int) throws -> Samples? {
        let source = directory.appendingPathComponent("first-frame.c")
        let binary = directory.appendingPathComponent("first-frame")
        try Self.source.write(to: source, atomically: true, encoding: .utf8)
        let compile = Process()
        compile.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        compile.arguments = ["cc", "-O2", "-o", binary.path, source.path, "-lSDL2"]
        compile.standardError = FileHandle.nullDevice
        guard (try? compile.run()) != nil else { return nil }
        compile.waitUntilExit()
        guard compile.terminationStatus == 0 else { return nil }
        var samples = Samples()
        for _ in 0..<iterations {
            let start = monotonic()
            let child = try ChildProcess(binary.path, [])
            guard child.waitForOutput(containing: "first-frame", timeout: 10) else { return nil }
            samples.add(monotonic() - start)
            child.terminate()
        }
        return samples
    }
}
