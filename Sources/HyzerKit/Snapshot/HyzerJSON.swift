import Foundation

/// The JSON conventions of every Hyzer file and frame: ISO-8601 dates with milliseconds in UTC
/// ("2026-11-21T10:00:00.123Z"), sorted keys so files diff cleanly.
public enum HyzerJSON {
    public static func encoder(pretty: Bool = false) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(formatTimestamp(date))
        }
        return encoder
    }

    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = parseTimestamp(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "\"\(text)\" is not an ISO-8601 timestamp like 2026-11-21T10:00:00.123Z")
            }
            return date
        }
        return decoder
    }

    private static let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)
    private static let withoutFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: false, timeZone: .gmt)

    public static func formatTimestamp(_ date: Date) -> String {
        date.formatted(withFraction)
    }

    public static func parseTimestamp(_ text: String) -> Date? {
        (try? withFraction.parse(text)) ?? (try? withoutFraction.parse(text))
    }
}
