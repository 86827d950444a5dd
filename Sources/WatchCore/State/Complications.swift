import Foundation
import HyzerKit
import HyzerLink

/// What the watch face's Hyzer complications show, and when it was last refreshed: by the app
/// while it is in front (free: a reload from an app in the foreground is not counted), or by a
/// complication transfer from the phone (budgeted).
public struct ShownComplication: Sendable, Hashable {
    public var content: ComplicationContent
    public var refreshedAt: Date

    public init(content: ComplicationContent, refreshedAt: Date) {
        self.content = content
        self.refreshedAt = refreshedAt
    }
}

/// The complication transfers a watch takes per day (WatchConnectivity gives a complication on
/// the active face 50 a day). Past the budget a transfer is delivered to the app as a plain
/// queued transfer and the face is not refreshed. The day is the watch's local calendar day, by
/// its clock (`advance-clock` crosses midnight); a real watch's 24-hour window is its own.
public struct ComplicationBudget: Sendable, Hashable {
    public static let defaultDaily = 50

    public var daily: Int
    /// The day the count is for ("2026-11-26"), and the transfers taken that day.
    public var day: String?
    public var used = 0

    public init(daily: Int = defaultDaily, day: String? = nil, used: Int = 0) {
        self.daily = daily
        self.day = day
        self.used = used
    }

    /// Transfers left on `day`.
    public func remaining(on day: String) -> Int { self.day == day ? max(0, daily - used) : daily }

    /// Takes one transfer on `day` if any is left; false when the budget is spent.
    public mutating func spend(on day: String) -> Bool {
        if self.day != day {
            self.day = day
            used = 0
        }
        guard used < daily else { return false }
        used += 1
        return true
    }

    /// "2026-11-26": the local calendar day of `date`.
    public static func day(of date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}

/// One line of `watch/complications.jsonl`: a complication transfer as the watch took it.
public struct ComplicationRecord: Sendable, Hashable, Codable {
    public enum Delivery: String, Sendable, Hashable, Codable {
        /// Within the budget: the face was refreshed.
        case complication
        /// The budget was spent: delivered to the app as a queued user-info transfer; the face
        /// kept what it showed.
        case userInfo
    }

    public var at: Date
    public var day: String
    public var reason: ComplicationPolicy.Reason
    public var sequence: Int
    /// The families' contents as the transfer carried them.
    public var inline: String
    public var rectangular: [String]
    public var circular: String
    public var gauge: Double
    public var corner: String
    /// Complication transfers left today after this one.
    public var remaining: Int
    public var delivered: Delivery

    public init(at: Date, day: String, transfer: ComplicationTransfer, remaining: Int, delivered: Delivery) {
        self.at = at
        self.day = day
        reason = transfer.reason
        sequence = transfer.sequence
        let content = transfer.content
        inline = content.inline
        rectangular = content.rectangular
        circular = content.circular
        gauge = (content.gauge * 1000).rounded() / 1000
        corner = content.corner
        self.remaining = remaining
        self.delivered = delivered
    }

    /// The budget as a log left it: the transfers delivered as complications on its last day.
    public static func budget(daily: Int, from lines: [ComplicationRecord]) -> ComplicationBudget {
        guard let day = lines.last?.day else { return ComplicationBudget(daily: daily) }
        return ComplicationBudget(daily: daily, day: day, used: lines.filter { $0.day == day && $0.delivered == .complication }.count)
    }
}
