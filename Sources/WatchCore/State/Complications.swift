import Foundation
import HyzerKit
import HyzerLink

/// What the watch face's Hyzer complications show, and when it was last refreshed: by the app
/// while it is in front (free: a reload from an app in the foreground is not counted), or by a
/// complication transfer from the phone (budgeted).
public struct ShownComplication: Sendable, Hashable, Codable {
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
/// Counted per day, and kept across relaunches (read back from `watch/complications.jsonl`).
public struct ComplicationBudget: Sendable, Hashable {
    public static let defaultDaily = 50

    public var daily: Int
    /// Transfers taken on each day ("2026-11-26": 3), so that time travel either way finds each
    /// day's count as it was.
    public var used: [String: Int]

    public init(daily: Int = defaultDaily, used: [String: Int] = [:]) {
        self.daily = daily
        self.used = used
    }

    /// Transfers left on `day`.
    public func remaining(on day: String) -> Int { max(0, daily - used[day, default: 0]) }

    /// Takes one transfer on `day` if any is left; false when the budget is spent.
    public mutating func spend(on day: String) -> Bool {
        guard remaining(on: day) > 0 else { return false }
        used[day, default: 0] += 1
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

    /// The budget as a log left it: the transfers delivered as complications, day by day.
    public static func budget(daily: Int, from lines: [ComplicationRecord]) -> ComplicationBudget {
        var used: [String: Int] = [:]
        for line in lines where line.delivered == .complication { used[line.day, default: 0] += 1 }
        return ComplicationBudget(daily: daily, used: used)
    }
}
