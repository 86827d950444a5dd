import ArgumentParser
import Foundation

extension ParsableCommand {
    /// swift-argument-parser reads a token that starts with a dash as an option, so `score Ann -1`
    /// fails with "Missing expected argument '<strokes>'" and `--hole -2` with "Missing value":
    /// true, but it hides what went wrong. When a negative number is among the arguments and the
    /// parser refuses them for a missing or unknown argument, this says so on standard error,
    /// just before the parser's own message (which names the argument and what it allows).
    /// Nothing any Hyzer command takes may be negative. Call it first thing in `main`.
    public static func explainNegativeNumbers(in arguments: [String] = Array(CommandLine.arguments.dropFirst())) {
        guard let number = arguments.first(where: Self.isNegativeNumber) else { return }
        do {
            _ = try parseAsRoot(arguments)
        } catch {
            let message = fullMessage(for: error)
            guard message.hasPrefix("Error: Missing") || message.hasPrefix("Error: Unknown option") else { return }
            let name = configuration.commandName ?? "this command"
            FileHandle.standardError.write(Data("\(name): \(number) was read as an option, since it starts with a dash; no number \(name) takes may be negative.\n".utf8))
        }
    }

    /// `-1`, `-2.5`, `-.5`: a dash, then a number.
    static func isNegativeNumber(_ token: String) -> Bool {
        guard token.count > 1, token.first == "-", let next = token.dropFirst().first, next.isASCII, next.isNumber || next == "." else { return false }
        return Double(token) != nil
    }
}
