import ArgumentParser
import HyzerLink

extension LinkAddress: ExpressibleByArgument {
    /// `unix:PATH` or `tcp:HOST:PORT`; anything else is refused by the parser.
    public init?(argument: String) {
        guard let address = try? LinkAddress(parsing: argument) else { return nil }
        self = address
    }

    public var defaultValueDescription: String { description }

    /// For `@Option(transform:)`: the parser's refusal then says what is allowed, with examples.
    @Sendable public static func parseArgument(_ argument: String) throws -> LinkAddress {
        do { return try LinkAddress(parsing: argument) } catch { throw ValidationError(error.description) }
    }
}

/// The version every executable prints for `--version`.
public enum HyzerVersion {
    public static let current = "0.9.0"
}
