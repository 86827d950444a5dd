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

    /// "2026-11-21T10:00:00.123Z". Hand-rolled (days-to-civil arithmetic): every stored event
    /// formats two timestamps, and a format style does far more work for each.
    public static func formatTimestamp(_ date: Date) -> String {
        // To the nearest millisecond: a time parsed from "…02.930Z" is 1.79e9 + 0.92999999…,
        // which flooring would print back as "…02.929Z"; and near the year 9999 a Double's step
        // is ~30 µs, so rounding to the microsecond first would not save it there. Parsing keeps
        // whole milliseconds (the digits after the third are dropped), so what was parsed prints
        // back as it was read, up to its third digit.
        let totalMillis = Int64((date.timeIntervalSince1970 * 1000).rounded())
        var days = totalMillis >= 0 ? totalMillis / 86_400_000 : (totalMillis - 86_399_999) / 86_400_000
        let millisOfDay = totalMillis - days * 86_400_000
        // Howard Hinnant's civil_from_days.
        days += 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        let seconds = millisOfDay / 1000
        // Written byte by byte, not by string interpolation: the hub writes a timestamp for every
        // event it stores. Years outside 0...9999 (no real score's) keep every digit,
        // with a sign before a negative one.
        var yearDigits = 4, bound: UInt64 = 10_000
        while year.magnitude >= bound { yearDigits += 1; bound *= 10 }
        let length = (year < 0 ? 1 : 0) + yearDigits + 20
        return String(unsafeUninitializedCapacity: length) { text in
            var at = 0
            func put(_ value: Int64, _ width: Int) {
                var rest = value.magnitude
                for offset in stride(from: width - 1, through: 0, by: -1) {
                    text[at + offset] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
                at += width
            }
            func put(_ character: Unicode.Scalar) {
                text[at] = UInt8(ascii: character)
                at += 1
            }
            if year < 0 { put("-") }
            put(year, yearDigits); put("-"); put(month, 2); put("-"); put(day, 2); put("T")
            put(seconds / 3600, 2); put(":"); put(seconds / 60 % 60, 2); put(":"); put(seconds % 60, 2); put(".")
            put(millisOfDay % 1000, 3); put("Z")
            return at
        }
    }

    /// Strict: `YYYY-MM-DDTHH:MM:SS[.fraction]Z`, UTC only, a real calendar date (no February 30),
    /// years 1...9999 in the proleptic Gregorian calendar, the same arithmetic `formatTimestamp` uses.
    public static func parseTimestamp(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z"),
              bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":") else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for index in range {
                let byte = bytes[index]
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int64(byte - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              year >= 1, (1...12).contains(month), hour < 24, minute < 60, second < 60 else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let daysInMonth: [Int64] = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard day >= 1, day <= daysInMonth[Int(month) - 1] else { return nil }
        var millis: Int64 = 0
        if bytes.count > 20 {
            // ".fff…Z": one to nine digits, kept to the millisecond (the hub's precision) by
            // dropping the rest: "…59.9999999Z" is "…59.999Z", never the next second (or, on the
            // last day of 9999, a year no timestamp can hold).
            let digits = bytes.count - 21
            guard bytes[19] == UInt8(ascii: "."), (1...9).contains(digits), number(20..<(20 + digits)) != nil,
                  let kept = number(20..<(20 + min(digits, 3))) else { return nil }
            millis = kept * Int64(pow(10, Double(3 - min(digits, 3))))
        }
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second
        // Date counts from 2001; adding the fraction there rounds as Foundation's own dates do.
        return Date(timeIntervalSinceReferenceDate: Double(seconds - 978_307_200) + Double(millis) / 1e3)
    }

    /// What a person reads about JSON that does not decode: "not valid JSON", "missing \"name\"",
    /// "wrong type at holes[0].par (a whole number is expected)". The one explainer for files and
    /// frames alike.
    public static func explain(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "not valid JSON"
        case .dataCorrupted(let context):
            return "unreadable value\(location(context))"
        case .keyNotFound(let key, let context):
            return "missing \"\(key.stringValue)\"\(location(context))"
        case .typeMismatch(let type, let context):
            return "wrong type\(location(context)) (\(expected(type)) is expected)"
        case .valueNotFound(let type, let context):
            return "null\(location(context)) (\(expected(type)) is expected)"
        @unknown default:
            return "undecodable"
        }
    }

    /// A JSON type as a person names it ("a whole number", "text", "a list", "an object"), for
    /// what a value should have been.
    public static func expected(_ type: Any.Type) -> String {
        switch type {
        case is any BinaryInteger.Type: "a whole number"
        case is any BinaryFloatingPoint.Type: "a number"
        case is String.Type, is UUID.Type: "text"
        case is Bool.Type: "true or false"
        case is [String: Any].Type: "an object"
        case is [Any].Type: "a list"
        default: "\(type)"
        }
    }

    private static func location(_ context: DecodingError.Context) -> String {
        var path = ""
        for key in context.codingPath {
            if let index = key.intValue { path += "[\(index)]" } else { path += (path.isEmpty ? "" : ".") + key.stringValue }
        }
        return path.isEmpty ? "" : " at \(path)"
    }
}
