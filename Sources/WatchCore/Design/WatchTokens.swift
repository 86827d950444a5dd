import Foundation
import HyzerKit

/// An sRGB colour with alpha, 0...255.
public struct RGBA: Sendable, Hashable {
    public var r: UInt8, g: UInt8, b: UInt8, a: UInt8

    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    public init(hex: UInt32) {
        self.init(UInt8(hex >> 16 & 0xFF), UInt8(hex >> 8 & 0xFF), UInt8(hex & 0xFF))
    }

    public func opacity(_ factor: Double) -> RGBA {
        RGBA(r, g, b, UInt8((Double(a) * factor).rounded()))
    }

    public var hex: String { String(format: "#%02X%02X%02X", r, g, b) }
}

/// The palette of seeds/001 ("Visual Design Foundation").
public enum WatchColor {
    public static let background = RGBA(hex: 0x0A0A0C)
    public static let elevated = RGBA(hex: 0x1C1C1E)
    public static let tertiary = RGBA(hex: 0x2C2C2E)
    public static let textPrimary = RGBA(hex: 0xF5F5F7)
    public static let textSecondary = RGBA(hex: 0x8E8E93)
    public static let accent = RGBA(hex: 0x30D5C8)
    public static let underPar = RGBA(hex: 0x34C759)
    public static let atPar = RGBA(hex: 0xF5F5F7)
    public static let overPar = RGBA(hex: 0xFF9F0A)
    public static let wayOver = RGBA(hex: 0xFF453A)
    /// Status (no phone, stale standings, a discrepancy): its own hue, apart from the score colours,
    /// so "No phone" never reads as a bogey. watchOS's purple, 5.5:1 on the background.
    public static let status = RGBA(hex: 0xBF5AF2)
    /// The scroll indicator's thumb: 6:1 on the background (the track is `tertiary`).
    public static let scrollThumb = RGBA(hex: 0x8E8E93)

    /// A colour as shown on stale standings: halfway to grey, so old numbers read as old while
    /// keeping at least 4.5:1 on the background (WCAG AA; a test checks every score colour).
    public static func stale(_ color: RGBA) -> RGBA { color.mixed(with: textSecondary, 0.5) }

    /// A colour on the always-on display (wrist down): the face dims to about half brightness.
    public static func dimmed(_ color: RGBA) -> RGBA { color.mixed(with: RGBA(0, 0, 0, color.a), 0.45) }

    /// WCAG contrast ratio of `foreground` on `background` (1…21).
    public static func contrast(_ foreground: RGBA, on background: RGBA = WatchColor.background) -> Double {
        let a = foreground.luminance, b = background.luminance
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }
}

extension RGBA {
    /// This colour moved `amount` (0…1) of the way to `other`; alpha stays.
    public func mixed(with other: RGBA, _ amount: Double) -> RGBA {
        func mix(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8((Double(a) + (Double(b) - Double(a)) * amount).rounded()) }
        return RGBA(mix(r, other.r), mix(g, other.g), mix(b, other.b), a)
    }

    /// Relative luminance (WCAG 2).
    public var luminance: Double {
        func channel(_ value: UInt8) -> Double {
            let c = Double(value) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
    }
}

/// How a score reads against par, and its colour.
public enum ScoreTone: String, Sendable, Hashable, CaseIterable {
    case underPar, atPar, overPar, wayOver

    /// One hole: under, at, over (bogey), way over (double bogey or worse).
    public static func forHole(relativeToPar value: Int) -> ScoreTone {
        value < 0 ? .underPar : value == 0 ? .atPar : value == 1 ? .overPar : .wayOver
    }

    /// A running total: way over once it averages a double bogey a hole.
    public static func forRound(relativeToPar value: Int, holesPlayed: Int) -> ScoreTone {
        if value < 0 { return .underPar }
        if value == 0 { return .atPar }
        return holesPlayed > 0 && value >= 2 * holesPlayed ? .wayOver : .overPar
    }

    public var color: RGBA {
        switch self {
        case .underPar: WatchColor.underPar
        case .atPar: WatchColor.atPar
        case .overPar: WatchColor.overPar
        case .wayOver: WatchColor.wayOver
        }
    }
}

/// The three case sizes, in pixels (2 px per point, as on the device).
public enum WatchSize: Int, Sendable, CaseIterable {
    case mm41 = 41, mm45 = 45, mm49 = 49

    public var width: Int {
        switch self {
        case .mm41: 352
        case .mm45: 396
        case .mm49: 410
        }
    }

    public var height: Int {
        switch self {
        case .mm41: 430
        case .mm45: 484
        case .mm49: 502
        }
    }
}

/// The text size setting, as Dynamic Type's sizes (watchOS's text size slider and its accessibility
/// sizes): type scales by `scale`, rows grow with it and the face fits fewer of them.
public enum TextSize: String, Sendable, Hashable, CaseIterable {
    case xSmall = "xs", small = "s", medium = "m", large = "l", xLarge = "xl", xxLarge = "xxl", xxxLarge = "xxxl"
    case accessibility1 = "ax1", accessibility2 = "ax2", accessibility3 = "ax3"

    /// The watch's default.
    public static let standard = TextSize.large

    /// Type size against the default (Dynamic Type's body sizes 14…40 pt over 17 pt).
    public var scale: Double {
        switch self {
        case .xSmall: 14.0 / 17
        case .small: 15.0 / 17
        case .medium: 16.0 / 17
        case .large: 1
        case .xLarge: 19.0 / 17
        case .xxLarge: 21.0 / 17
        case .xxxLarge: 23.0 / 17
        case .accessibility1: 28.0 / 17
        case .accessibility2: 33.0 / 17
        case .accessibility3: 40.0 / 17
        }
    }

    /// The next size up, staying at the largest: the window's T key.
    public var larger: TextSize {
        let all = Self.allCases
        return all[min(all.count - 1, all.firstIndex(of: self)! + 1)]
    }

    /// The next size down, staying at the smallest: the window's Shift+T.
    public var smaller: TextSize {
        let all = Self.allCases
        return all[max(0, all.firstIndex(of: self)! - 1)]
    }

    /// Accessibility sizes (ax1 up) leave a name too little room beside its position and score
    /// (three letters at ax1 on 45 mm): rows then stack, position and score on the first line, the name on the
    /// second across the row, as watchOS lays out lists at accessibility sizes.
    func stacksRows(width: Double) -> Bool {
        switch self {
        // From ax1 a position, a name and a score on one line leave a name three letters.
        case .accessibility1, .accessibility2, .accessibility3: true
        default: false
        }
    }

    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// How VoiceOver says it.
    public var spokenName: String {
        switch self {
        case .xSmall: "extra small"
        case .small: "small"
        case .medium: "medium"
        case .large: "large, the default"
        case .xLarge: "extra large"
        case .xxLarge: "extra extra large"
        case .xxxLarge: "extra extra extra large"
        case .accessibility1: "accessibility 1"
        case .accessibility2: "accessibility 2"
        case .accessibility3: "accessibility 3"
        }
    }
}

/// Type and spacing for the face, in pixels at 2 px per point (seeds/001 type scale and 8 pt grid).
/// Type sizes are fixed in points on every case size, scaled only by the text size setting; each
/// size fits as many 44 pt rows as its height allows (41 mm: 3, 45 mm: 4, 49 mm: 4 and most of a
/// fifth).
public struct WatchMetrics: Sendable, Hashable {
    public let width: Double
    public let height: Double
    public let textSize: TextSize

    public init(size: WatchSize, textSize: TextSize = .standard) {
        width = Double(size.width)
        height = Double(size.height)
        self.textSize = textSize
    }

    var type: Double { textSize.scale }
    /// Bands (header, footer) grow with the type but less, so large text keeps room for rows.
    public var band: Double { min(type, 1.35) }

    public var caption: Double { (26 * type).rounded() }  // 13 pt
    public var rowText: Double { (34 * type).rounded() }  // 17 pt (H3)
    public var title: Double { (44 * type).rounded() }  // 22 pt (H2)
    public var hero: Double { (96 * min(type, 1.6)).rounded() }  // 48 pt, crown value (stays within the face)
    public var margin: Double { 24 }  // 12 pt
    /// Where titles at the top start: clear of the display's rounded corner (18 pt).
    public var titleInset: Double { 36 }
    public var headerHeight: Double { (64 * band).rounded() }
    public var rowHeight: Double {
        stackedRows ? (2 * rowText * 1.2 + 16).rounded() : (88 * max(1, type)).rounded()  // 44 pt rows, taller for large text
    }
    /// Whether a leaderboard row is two lines (see `TextSize.stacksRows`).
    public var stackedRows: Bool { textSize.stacksRows(width: width) }
    public var footerHeight: Double { (40 * band).rounded() }
    public var buttonHeight: Double { (88 * max(1, band)).rounded() }
}
