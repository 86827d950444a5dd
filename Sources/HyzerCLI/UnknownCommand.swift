import ArgumentParser
import Foundation

extension ParsableCommand {
    /// swift-argument-parser answers a mistyped command (`hyzer-hub scor Jake 3`) with "3 unexpected
    /// arguments: 'scor', 'Jake', '3'", which does not say that the first word was meant as a
    /// command. This finds the first word that names no command where one is expected (at the top,
    /// or under a command that has commands, `round strat`), says so with the commands there and the
    /// closest one, and ends the process with the parser's usage status (64). `valueOptions` are
    /// the options before the command that take a value (`--home DIR`). Call it first thing in `main`.
    public static func refuseUnknownCommands(valueOptions: Set<String>, in arguments: [String] = Array(CommandLine.arguments.dropFirst())) {
        guard let message = unknownCommandMessage(valueOptions: valueOptions, in: arguments) else { return }
        FileHandle.standardError.write(Data((message + "\n").utf8))
        Foundation.exit(64)
    }

    /// What `refuseUnknownCommands` says of `arguments`, or nil when every command word is known.
    static func unknownCommandMessage(valueOptions: Set<String>, in arguments: [String]) -> String? {
        var level = CommandLevel(self)
        var path = [configuration.commandName ?? "this command"]
        var index = 0
        while index < arguments.count {
            let token = arguments[index]
            // After `--` only arguments. `help` is the parser's own command: the words after it
            // name the command to explain (`hyzer-hub help score`), checked as the same words would be.
            if token == "--" { return nil }
            if token == "help" {
                guard path.count == 1 else { return nil }
                index += 1
                continue
            }
            if token.hasPrefix("-") {
                // A command's own options may take values this cannot tell from commands.
                guard path.count == 1 else { return nil }
                index += valueOptions.contains(token) ? 2 : 1
                continue
            }
            guard !level.commands.isEmpty, !level.hasDefault else { return nil }
            guard let next = level.commands.first(where: { $0.name == token }) else {
                let names = level.commands.map(\.name)
                // Two edits away, or the same word with another ending ("discrepancy" for
                // "discrepancies": the first six letters and more alike).
                let near = names.map { (name: $0, edits: distance($0, token)) }
                    .filter { $0.edits <= 2 || ($0.name.commonPrefix(with: token).count >= 6 && $0.edits <= 3) }
                    .min { $0.edits < $1.edits }?.name
                let here = path.joined(separator: " ")
                return "\(here): '\(token)' is not a command\(near.map { "; did you mean '\($0)'?" } ?? ".") "
                    + "Commands: \(names.joined(separator: ", ")). See '\(here) --help'."
            }
            level = CommandLevel(next.type)
            path.append(token)
            index += 1
        }
        return nil
    }

    /// Edits (insert, delete, replace) from `a` to `b`: how close a mistyped command is.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var row = Array(0...b.count)
        for i in a.indices {
            var diagonal = row[0]
            row[0] = i + 1
            for j in b.indices {
                let above = row[j + 1]
                row[j + 1] = Swift.min(above + 1, row[j] + 1, diagonal + (a[i] == b[j] ? 0 : 1))
                diagonal = above
            }
        }
        return row[b.count]
    }
}

/// A command's own commands, by name.
struct CommandLevel {
    let commands: [(name: String, type: ParsableCommand.Type)]
    let hasDefault: Bool

    init(_ type: ParsableCommand.Type) {
        let configuration = type.configuration
        commands = configuration.subcommands.map { ($0._commandName, $0) }
        hasDefault = configuration.defaultSubcommand != nil
    }
}
