import ArgumentParser
import HyzerLink

extension LinkAddress: ExpressibleByArgument {
    /// `unix:PATH` or `tcp:HOST:PORT`; anything else is refused by the parser with the allowed forms.
    public init?(argument: String) {
        guard let address = try? LinkAddress(parsing: argument) else { return nil }
        self = address
    }

    public var defaultValueDescription: String { description }
}

/// The version every executable prints for `--version`.
public enum HyzerVersion {
    public static let current = "0.9.0"
}
