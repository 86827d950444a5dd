import ArgumentParser
import HyzerCLI
import HyzerLink
import Logging
import WatchCore

/// What hyzer-watch was asked to do, read by swift-argument-parser (`HyzerWatch.arguments`) or,
/// for the plain command lines a watch is usually started with, by `quick(_:)`.
struct WatchArguments: Equatable {
    var home: String?
    var connect: LinkAddress?
    var tokenFile: String?
    var hubFingerprint: String?
    var insecure = false
    var size: WatchSize = .mm45
    var headless = false
    var script: String?
    var screenshotDir: String?
    var expectTimeout = 3.0
    var reduceMotion = false
    var textSize: TextSize = .standard
    var chrome: Bool?
    var scale = "1"
    var device: String?
    var wearer: String?
    var logLevel: Logger.Level?
    var reportFirstFrame = false
}

extension WatchArguments {
    /// The arguments when they are only `--name value`, `--name=value` and flags of this command,
    /// each at most once, with values that read; nil for anything else (help, a short or unknown
    /// name, `--`, a repeat, an empty value or one starting with a dash, one that does not read),
    /// which the
    /// parser then reads, explains or refuses.
    ///
    /// Not a second grammar: whatever this accepts, swift-argument-parser reads the same (a test
    /// holds them to that over thousands of command lines). It exists for the start: the parser
    /// finds each option's type by reflection, and every conformance lookup scans every
    /// conformance record in the binary, before anything is drawn (hyzer-bench: watch start).
    static func quick(_ arguments: some Sequence<String>) -> WatchArguments? {
        var result = WatchArguments()
        // An array, not a Set: a Set<Substring> is made at run time and checks Substring's
        // Hashable conformance by scanning every conformance record.
        var seen: [Substring] = []
        var rest = arguments.makeIterator()
        while let argument = rest.next() {
            guard argument.hasPrefix("--"), argument.utf8.count > 2 else { return nil }
            var name = argument.dropFirst(2)
            var attached: String?
            if let equals = name.firstIndex(of: "=") {
                attached = String(name[name.index(after: equals)...])
                name = name[..<equals]
            }
            // --chrome and --no-chrome are one setting.
            let setting = name == "no-chrome" ? "chrome" : name
            guard !seen.contains(setting) else { return nil }
            seen.append(setting)
            func value() -> String? {
                // An empty value is the parser's to refuse.
                guard let value = attached ?? rest.next(), !value.isEmpty, attached != nil || !value.hasPrefix("-") else { return nil }
                return value
            }
            func flag(_ field: inout Bool, _ set: Bool = true) -> Bool {
                guard attached == nil else { return false }
                field = set
                return true
            }
            let read: Bool
            switch name {
            case "home": read = value().map { result.home = $0 } != nil
            case "connect": read = value().flatMap { try? LinkAddress.parseArgument($0) }.map { result.connect = $0 } != nil
            case "token-file": read = value().map { result.tokenFile = $0 } != nil
            case "hub-fingerprint": read = value().map { result.hubFingerprint = $0 } != nil
            case "insecure": read = flag(&result.insecure)
            case "size": read = value().flatMap(WatchSize.init(argument:)).map { result.size = $0 } != nil
            case "headless": read = flag(&result.headless)
            case "script": read = value().map { result.script = $0 } != nil
            case "screenshot-dir": read = value().map { result.screenshotDir = $0 } != nil
            case "expect-timeout": read = value().flatMap(Double.init(argument:)).flatMap { $0.isFinite ? $0 : nil }.map { result.expectTimeout = $0 } != nil
            case "reduce-motion": read = flag(&result.reduceMotion)
            case "text-size": read = value().flatMap(TextSize.init(argument:)).map { result.textSize = $0 } != nil
            case "chrome", "no-chrome":
                var chrome = false
                read = flag(&chrome, name == "chrome")
                result.chrome = chrome
            case "scale": read = value().map { result.scale = $0 } != nil
            case "device": read = value().map { result.device = $0 } != nil
            case "wearer": read = value().map { result.wearer = $0 } != nil
            case "log-level": read = value().flatMap(Logger.Level.init(argument:)).map { result.logLevel = $0 } != nil
            case "report-first-frame": read = flag(&result.reportFirstFrame)
            default: read = false
            }
            guard read else { return nil }
        }
        return result
    }
}
