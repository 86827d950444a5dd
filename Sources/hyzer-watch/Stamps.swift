import Foundation
nonisolated(unsafe) var stampLog: [(String, Int64)] = { var a: [(String, Int64)] = []; a.reserveCapacity(32); return a }()
@inline(never) func tstamp(_ tag: StaticString) {
    var now = timespec(); clock_gettime(CLOCK_MONOTONIC, &now)
    stampLog.append((tag.description, Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)))
}
func printStamps() { for (t, n) in stampLog { FileHandle.standardError.write(Data("stamp \(t) \(n)\n".utf8)) } }
nonisolated(unsafe) var side: [Int64] = [0, 0, 0, 0, 0, 0, 0, 0]
func nowNS() -> Int64 { var now = timespec(); clock_gettime(CLOCK_MONOTONIC, &now); return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec) }
func printSide() { FileHandle.standardError.write(Data("side \(side.map(String.init).joined(separator: " "))\n".utf8)) }
