import Foundation
import HyzerKit

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
    /// On crown score input: the next (+1) or an earlier (−1) hole for the same player.
    case hole(Int)
    case wait(TimeInterval)
    case advanceClock(TimeInterval)
    /// Sets the watch's clock to this moment (time travel; the pictures in docs/ use it).
    case setClock(Date)
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
    /// The watch app to the foreground or the background (the watch face).
    case app(foreground: Bool)
    case textSize(TextSize)
    case reduceMotion(Bool)
    case expectScreen(String)
    case expectText(String)
    case expectStale(Bool)
    case expectReachable(Bool)
    /// N scores saved on the watch and not yet acked by the phone (in the outbox).
    case expectPending(Int)
    /// Complication transfers left today.
    case expectComplicationBudget(Int)
    /// Waits until the watch is in this condition (as an expectation: up to its timeout).
    case waitFor(WaitCondition)
    case expectHaptics(count: Int, kind: HapticKind)
    case quit
}

/// What `wait-for` waits for.
public enum WaitCondition: Sendable, Hashable {
    case stale(Bool)
    case reachable(Bool)
    case screen(String)
    /// At least N scores from this watch acked by the phone since the watch started.
    case delivered(Int)
    /// Exactly N scores waiting in the outbox.
    case pending(Int)
    /// At least N live messages dropped because the app was in the background.
    case dropped(Int)
    /// At least N complication transfers received (within the budget or past it).
    case complications(Int)

    static let screens = ["leaderboard", "crown", "voice", "final", "no-round", "watch-face"]
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
    /// Every command, as `--help` and a syntax error list them.
    public static let usage = verbs.map(\.usage).joined(separator: " | ")

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
        guard let parse = verbs.first(where: { $0.name == verb })?.parse else {
            throw Problem(message: "unknown command \"\(verb)\"; commands: \(usage)")
        }
        return try parse(Arguments(verb: verb, rest: rest))
    }

    /// A command's name, how it is written, and how its arguments are read.
    struct Verb: Sendable {
        let name: String
        let usage: String
        let parse: @Sendable (Arguments) throws(Problem) -> ScenarioCommand

        init(_ usage: String, _ parse: @escaping @Sendable (Arguments) throws(Problem) -> ScenarioCommand) {
            name = String(usage.prefix { $0 != " " })
            self.usage = usage
            self.parse = parse
        }
    }

    /// What follows a command's name, and the ways commands read it.
    struct Arguments {
        let verb: String
        let rest: String

        func one() throws(Problem) -> String {
            guard !rest.isEmpty else { throw Problem(message: "\(verb) needs an argument") }
            return unquote(rest)
        }

        func none() throws(Problem) {
            guard rest.isEmpty else { throw Problem(message: "\(verb) takes no argument") }
        }

        /// One of a few words, each standing for a value.
        func choice<T>(_ values: KeyValuePairs<String, T>, _ expected: String) throws(Problem) -> T {
            let word = try one()
            guard let value = values.first(where: { $0.key == word })?.value else { throw Problem(message: "\(verb) takes \(expected)") }
            return value
        }

        func bool() throws(Problem) -> Bool {
            try choice(["true": true, "false": false], "true or false, got \(rest)")
        }

        func duration() throws(Problem) -> TimeInterval { try ScenarioScript.duration(try one()) }
        var words: [String] { ScenarioScript.words(rest) }
    }

    static let verbs: [Verb] = [
        Verb("wait-snapshot [TIMEOUT]") { a throws(Problem) in .waitSnapshot(timeout: a.rest.isEmpty ? 5 : try a.duration()) },
        Verb("tap NAME|COMPLICATION") { a throws(Problem) in .tap(name: try a.one()) },
        Verb("wearer NAME") { a throws(Problem) in .wearer(name: try a.one()) },
        Verb("crown +N|-N") { a throws(Problem) in
            let value = try a.one()
            guard let first = value.first, first == "+" || first == "-", let detents = Int(value), detents != 0 else {
                throw Problem(message: "crown takes +N or -N detents, e.g. crown +2")
            }
            return .crown(detents)
        },
        Verb("voice \"TRANSCRIPT\"") { a throws(Problem) in .voice(try a.one()) },
        Verb("save") { a throws(Problem) in try a.none(); return .save },
        Verb("back") { a throws(Problem) in try a.none(); return .back },
        Verb("hole +N|-N") { a throws(Problem) in
            let value = try a.one()
            guard let first = value.first, first == "+" || first == "-", let holes = Int(value), holes != 0 else {
                throw Problem(message: "hole takes +N or -N holes from the one on the crown screen, e.g. hole +1")
            }
            return .hole(holes)
        },
        Verb("wait DURATION") { a throws(Problem) in .wait(try a.duration()) },
        Verb("advance-clock DURATION") { a throws(Problem) in
            if a.rest.hasPrefix("-") { throw Problem(message: "advance-clock moves the watch's clock forward; got \(a.rest) (to set it back: set-clock YYYY-MM-DDTHH:MM)") }
            return .advanceClock(try a.duration())
        },
        Verb("set-clock YYYY-MM-DDTHH:MM") { a throws(Problem) in .setClock(try localTime(a.one())) },
        Verb("link down|up") { a throws(Problem) in .link(up: try a.choice(["up": true, "down": false], "up or down")) },
        Verb("screenshot FILE.png [chrome|no-chrome]", screenshot),
        Verb("dump FILE.json") { a throws(Problem) in
            let path = try a.one()
            guard path.lowercased().hasSuffix(".json") else { throw Problem(message: "dump writes JSON: dump NAME.json") }
            return .dump(path: path)
        },
        Verb("record start FILE.png|stop", record),
        Verb("wrist down|up") { a throws(Problem) in .wrist(up: try a.choice(["up": true, "down": false], "up or down")) },
        Verb("app background|foreground") { a throws(Problem) in
            .app(foreground: try a.choice(["foreground": true, "background": false], "background or foreground"))
        },
        Verb("text-size SIZE") { a throws(Problem) in
            let name = try a.one()
            guard let size = TextSize(rawValue: name.lowercased()) else { throw Problem(message: "text sizes are \(TextSize.names) (l is the default); got \(name)") }
            return .textSize(size)
        },
        Verb("reduce-motion on|off") { a throws(Problem) in
            .reduceMotion(try a.choice(["on": true, "true": true, "off": false, "false": false], "on or off"))
        },
        Verb("expect-screen leaderboard|crown|voice|final|no-round|watch-face") { a throws(Problem) in
            let screen = try a.one()
            guard WaitCondition.screens.contains(screen) else {
                throw Problem(message: "screens are \(ListText.joined(WaitCondition.screens)); got \(screen)")
            }
            return .expectScreen(screen)
        },
        Verb("expect-text \"TEXT\"") { a throws(Problem) in .expectText(try a.one()) },
        Verb("expect-stale true|false") { a throws(Problem) in .expectStale(try a.bool()) },
        Verb("expect-reachable true|false") { a throws(Problem) in .expectReachable(try a.bool()) },
        Verb("expect-pending N") { a throws(Problem) in
            let text = try a.one()
            guard let count = Int(text), count >= 0 else { throw Problem(message: "expect-pending takes a count of scores, 0 or more; got \(text)") }
            return .expectPending(count)
        },
        Verb("expect-complication-budget N") { a throws(Problem) in
            let text = try a.one()
            guard let count = Int(text), count >= 0 else { throw Problem(message: "expect-complication-budget takes the transfers left today, 0 or more; got \(text)") }
            return .expectComplicationBudget(count)
        },
        Verb("expect-haptics N KIND", expectHaptics),
        Verb("wait-for stale|fresh|reachable|unreachable|screen NAME|delivered N|pending N|dropped N|complications N", waitFor),
        Verb("quit") { a throws(Problem) in try a.none(); return .quit },
    ]

    private static func waitFor(_ a: Arguments) throws(Problem) -> ScenarioCommand {
        let words = a.words
        let usage = "wait-for takes stale, fresh, reachable, unreachable, screen NAME, delivered N, pending N, dropped N or complications N"
        switch (words.first, words.count) {
        case ("stale", 1): return .waitFor(.stale(true))
        case ("fresh", 1): return .waitFor(.stale(false))
        case ("reachable", 1): return .waitFor(.reachable(true))
        case ("unreachable", 1): return .waitFor(.reachable(false))
        case ("screen", 2):
            guard WaitCondition.screens.contains(words[1]) else { throw Problem(message: "screens are \(ListText.joined(WaitCondition.screens)); got \(words[1])") }
            return .waitFor(.screen(words[1]))
        case ("delivered", 2), ("pending", 2), ("dropped", 2), ("complications", 2):
            guard let count = Int(words[1]), count >= 0 else { throw Problem(message: "\(words[0]) takes a count, 0 or more; got \(words[1])") }
            let conditions: [String: WaitCondition] = ["delivered": .delivered(count), "pending": .pending(count), "dropped": .dropped(count),
                                                       "complications": .complications(count)]
            return .waitFor(conditions[words[0]]!)
        default: throw Problem(message: usage)
        }
    }

    private static func screenshot(_ a: Arguments) throws(Problem) -> ScenarioCommand {
        var parts = a.words
        var chrome: Bool?
        if parts.count == 2, ["chrome", "no-chrome"].contains(parts[1]) {
            chrome = parts.removeLast() == "chrome"
        }
        guard parts.count == 1 else { throw Problem(message: "screenshot takes a file and optionally chrome or no-chrome: screenshot NAME.png [chrome|no-chrome]") }
        guard parts[0].lowercased().hasSuffix(".png") else { throw Problem(message: "screenshots are PNG files: screenshot NAME.png") }
        return .screenshot(path: parts[0], chrome: chrome)
    }

    private static func record(_ a: Arguments) throws(Problem) -> ScenarioCommand {
        let parts = a.words
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
    }

    private static func expectHaptics(_ a: Arguments) throws(Problem) -> ScenarioCommand {
        let parts = a.rest.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2, let count = Int(parts[0]), count >= 0 else {
            throw Problem(message: "expect-haptics takes a count and a kind, e.g. expect-haptics 3 tick")
        }
        guard let kind = HapticKind(rawValue: String(parts[1])) else {
            throw Problem(message: "haptic kinds are \(HapticKind.allCases.map(\.rawValue).joined(separator: ", ")); got \(parts[1])")
        }
        return .expectHaptics(count: count, kind: kind)
    }

    /// "300ms", "2s", "1.5s", "2m", "1h".
    /// "2026-03-07T10:09", in the local time zone.
    static func localTime(_ text: String) throws(Problem) -> Date {
        let parts = text.split(whereSeparator: { "-T:".contains($0) }).map { Int($0) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        // The date made must read back as given: Calendar rolls month 13 into the next year and
        // day 30 of February into March, which would set a clock nobody asked for.
        guard parts.count == 5, !parts.contains(nil), text.count == 16, (1...9999).contains(parts[0]!),
              let date = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: parts[3], minute: parts[4])),
              case let read = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date),
              [read.year, read.month, read.day, read.hour, read.minute] == parts else {
            throw Problem(message: "set-clock takes a local date and time, YYYY-MM-DDTHH:MM (e.g. 2026-03-07T10:09); got \(text)")
        }
        return date
    }

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
    static func words(_ text: String) -> [String] {
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

    static func unquote(_ text: String) -> String {
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
