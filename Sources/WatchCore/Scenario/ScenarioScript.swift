import Foundation

/// One command of a scenario script (DESIGN, "Scenario script").
public enum ScenarioCommand: Sendable, Hashable {
    case waitSnapshot(timeout: TimeInterval)
    case tap(name: String)
    /// Whose watch this is, as `--wearer NAME`.
    case wearer(name: String)
    case crown(Int)
    /// A transcript, as if spoken into the watch: opens the voice confirmation overlay.
    case voice(String)
    case save
    case back
    case wait(TimeInterval)
    case advanceClock(TimeInterval)
    case link(up: Bool)
    /// A PNG of the face; with `chrome`, of the whole device (case, bezel, crown and button).
    case screenshot(path: String, chrome: Bool?)
    /// The face's accessibility tree as JSON.
    case dump(path: String)
    /// Record the face to an animated PNG (.png/.apng) until `record stop`.
    case recordStart(path: String)
    case recordStop
    /// Wrist down (the always-on display) or up.
    case wrist(up: Bool)
    case textSize(TextSize)
    case reduceMotion(Bool)
    case expectScreen(String)
    case expectText(String)
    case expectStale(Bool)
    case expectReachable(Bool)
    case expectHaptics(count: Int, kind: HapticKind)
    case quit
}

public struct ScenarioLine: Sendable, Hashable {
    public let number: Int
    public let text: String
    public let command: ScenarioCommand
}

public enum ScenarioError: Error, Equatable, Sendable, CustomStringConvertible {
    case syntax(line: Int, text: String, problem: String)
    case expectationFailed(line: Int, text: String, seen: String)
    case commandFailed(line: Int, text: String, reason: String)

    public var description: String {
        switch self {
        case .syntax(let line, let text, let problem): "line \(line): \(text): \(problem)"
        case .expectationFailed(let line, let text, let seen): "line \(line): \(text): expectation not met; \(seen)"
        case .commandFailed(let line, let text, let reason): "line \(line): \(text): \(reason)"
        }
    }
}

/// Parses scenario scripts: one command a line, `#` starts a comment.
public enum ScenarioScript {
    public static let usage = """
        wait-snapshot [TIMEOUT] | tap NAME | wearer NAME | crown +N | crown -N | voice "TRANSCRIPT" | save | back | wait DURATION | \
        advance-clock DURATION | link down | link up | screenshot FILE.png [chrome|no-chrome] | dump FILE.json | \
        record start FILE.png | record stop | wrist down | wrist up | text-size SIZE | reduce-motion on|off | \
        expect-screen leaderboard|crown|voice|final|no-round | expect-text "TEXT" | expect-stale true|false | \
        expect-reachable true|false | expect-haptics N KIND | quit
        """

    public static func parse(_ source: String) throws(ScenarioError) -> [ScenarioLine] {
        var lines: [ScenarioLine] = []
        for (index, raw) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let text = stripComment(String(raw)).trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { continue }
            let number = index + 1
            do {
                lines.append(ScenarioLine(number: number, text: text, command: try command(text)))
            } catch {
                throw .syntax(line: number, text: text, problem: error.message)
            }
        }
        return lines
    }

    struct Problem: Error { let message: String }

    static func command(_ text: String) throws(Problem) -> ScenarioCommand {
        let (verb, rest) = split(text)
        func argument() throws(Problem) -> String {
            guard !rest.isEmpty else { throw Problem(message: "\(verb) needs an argument") }
            return unquote(rest)
        }
        func noArgument() throws(Problem) {
            guard rest.isEmpty else { throw Problem(message: "\(verb) takes no argument") }
        }
        func bool() throws(Problem) -> Bool {
            switch try argument() {
            case "true": return true
            case "false": return false
            default: throw Problem(message: "expected true or false, got \(rest)")
            }
        }
        switch verb {
        case "wait-snapshot": return .waitSnapshot(timeout: rest.isEmpty ? 5 : try duration(rest))
        case "tap": return .tap(name: try argument())
        case "wearer": return .wearer(name: try argument())
        case "crown":
            let value = try argument()
            guard let first = value.first, first == "+" || first == "-", let detents = Int(value), detents != 0 else {
                throw Problem(message: "crown takes +N or -N detents, e.g. crown +2")
            }
            return .crown(detents)
        case "voice": return .voice(try argument())
        case "save": try noArgument(); return .save
        case "back": try noArgument(); return .back
        case "wait": return .wait(try duration(try argument()))
        case "advance-clock": return .advanceClock(try duration(try argument()))
        case "link":
            switch try argument() {
            case "up": return .link(up: true)
            case "down": return .link(up: false)
            default: throw Problem(message: "link takes up or down")
            }
        case "screenshot":
            var parts = words(rest)
            var chrome: Bool?
            if parts.count == 2, ["chrome", "no-chrome"].contains(parts[1]) {
                chrome = parts.removeLast() == "chrome"
            }
            guard parts.count == 1 else { throw Problem(message: "screenshot takes a file and optionally chrome or no-chrome: screenshot NAME.png [chrome|no-chrome]") }
            guard parts[0].lowercased().hasSuffix(".png") else { throw Problem(message: "screenshots are PNG files: screenshot NAME.png") }
            return .screenshot(path: parts[0], chrome: chrome)
        case "dump":
            let path = try argument()
            guard path.lowercased().hasSuffix(".json") else { throw Problem(message: "dump writes JSON: dump NAME.json") }
            return .dump(path: path)
        case "record":
            let parts = words(rest)
            switch parts.first {
            case "start":
                guard parts.count == 2 else { throw Problem(message: "record start takes a file: record start NAME.png (an animated PNG)") }
                let lower = parts[1].lowercased()
                guard [".png", ".apng"].contains(where: { lower.hasSuffix($0) }) else {
                    throw Problem(message: "recordings are animated PNG files (.png or .apng; browsers and image viewers play them); got \(parts[1])")
                }
                return .recordStart(path: parts[1])
            case "stop":
                guard parts.count == 1 else { throw Problem(message: "record stop takes no argument") }
                return .recordStop
            default: throw Problem(message: "record takes start FILE or stop")
            }
        case "wrist":
            switch try argument() {
            case "up": return .wrist(up: true)
            case "down": return .wrist(up: false)
            default: throw Problem(message: "wrist takes up or down")
            }
        case "text-size":
            let name = try argument()
            guard let size = TextSize(rawValue: name.lowercased()) else { throw Problem(message: "text sizes are \(TextSize.names) (l is the default); got \(name)") }
            return .textSize(size)
        case "reduce-motion":
            switch try argument() {
            case "on", "true": return .reduceMotion(true)
            case "off", "false": return .reduceMotion(false)
            default: throw Problem(message: "reduce-motion takes on or off")
            }
        case "expect-screen":
            let screen = try argument()
            guard ["leaderboard", "crown", "voice", "no-round", "final"].contains(screen) else {
                throw Problem(message: "screens are leaderboard, crown, voice, final and no-round; got \(screen)")
            }
            return .expectScreen(screen)
        case "expect-text": return .expectText(try argument())
        case "expect-stale": return .expectStale(try bool())
        case "expect-reachable": return .expectReachable(try bool())
        case "expect-haptics":
            let parts = rest.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count == 2, let count = Int(parts[0]), count >= 0 else {
                throw Problem(message: "expect-haptics takes a count and a kind, e.g. expect-haptics 3 tick")
            }
            guard let kind = HapticKind(rawValue: String(parts[1])) else {
                throw Problem(message: "haptic kinds are \(HapticKind.allCases.map(\.rawValue).joined(separator: ", ")); got \(parts[1])")
            }
            return .expectHaptics(count: count, kind: kind)
        case "quit": try noArgument(); return .quit
        default:
            throw Problem(message: "unknown command \"\(verb)\"; commands: \(usage)")
        }
    }

    /// "300ms", "2s", "1.5s", "2m", "1h".
    static func duration(_ text: String) throws(Problem) -> TimeInterval {
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        for (suffix, scale) in units where text.hasSuffix(suffix) {
            if let value = Double(text.dropLast(suffix.count)), value >= 0 { return value * scale }
        }
        throw Problem(message: "\"\(text)\" is not a duration; use e.g. 300ms, 2s, 1.5s, 2m, 1h")
    }

    private static func split(_ text: String) -> (String, String) {
        guard let space = text.firstIndex(of: " ") else { return (text, "") }
        return (String(text[..<space]), text[text.index(after: space)...].trimmingCharacters(in: .whitespaces))
    }

    /// Words, keeping a quoted path together.
    private static func words(_ text: String) -> [String] {
        var result: [String] = [], current = "", quoted = false
        for character in text {
            if character == "\"" { quoted.toggle(); continue }
            if character == " " && !quoted {
                if !current.isEmpty { result.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }

    private static func unquote(_ text: String) -> String {
        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { return String(text.dropFirst().dropLast()) }
        return text
    }

    /// Drops a `#` comment that is not inside quotes.
    private static func stripComment(_ line: String) -> String {
        var inQuotes = false
        for (offset, character) in line.enumerated() {
            if character == "\"" { inQuotes.toggle() }
            if character == "#" && !inQuotes { return String(line.prefix(offset)) }
        }
        return line
    }
}
