import ArgumentParser
import Foundation

extension ParsableCommand {
    /// swift-argument-parser reads `-home` as the one-letter options `-h -o -m -e`, and `-h` is the
    /// help: `hyzer-hub -home DIR status` printed the help and ended with status 0, as if it had
    /// worked. No Hyzer command has a one-letter option but `-h`, so a word after one dash (not a
    /// negative number, which `explainNegativeNumbers` speaks of) is a long option mistyped: this
    /// says so and ends the process with the parser's usage status (64), before anything runs.
    /// Words after `--` are left alone. A long option with the letters of `--help` swapped is
    /// answered the same way. Call it first thing in `main`.
    public static func refuseSingleDashWords(in arguments: [String] = Array(CommandLine.arguments.dropFirst())) {
        guard let message = singleDashWordMessage(in: arguments) else { return }
        FileHandle.standardError.write(Data((message + "\n").utf8))
        Foundation.exit(64)
    }

    /// What `refuseSingleDashWords` says of `arguments`, or nil when they hold no such word.
    static func singleDashWordMessage(in arguments: [String]) -> String? {
        for token in arguments {
            if token == "--" { return nil }
            let name = configuration.commandName ?? "this command"
            // The letters of --help in another order (--hlep): the parser, counting edits, offered
            // "--home" for it.
            if token != "--help", token.hasPrefix("--"), token.sorted() == "--help".sorted() {
                return "\(name): \(token) is not an option; did you mean --help? See '\(name) --help'."
            }
            guard token.count > 2, token.hasPrefix("-"), !token.hasPrefix("--"), !isNegativeNumber(token) else { continue }
            let word = token.dropFirst().split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            return "\(name): \(token) is not an option. Long options take two dashes (--\(word)); the only one-letter option is -h (help). See '\(name) --help'."
        }
        return nil
    }
}
