import Foundation

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

/// The palette of seeds/001 ("Visual Design Foundation"), one definition for both faces: the
/// watch draws with it and the phone's web face is styled from it (`HubWeb` writes it as CSS).
public enum HyzerColor {
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
    /// Delete actions only.
    public static let destructive = RGBA(hex: 0xFF3B30)
    /// The scroll indicator's thumb: 6:1 on the background (the track is `tertiary`).
    public static let scrollThumb = RGBA(hex: 0x8E8E93)

    /// A colour as shown on stale standings: halfway to grey, so old numbers read as old while
    /// keeping at least 4.5:1 on the background (WCAG AA; a test checks every score colour).
    public static func stale(_ color: RGBA) -> RGBA { color.mixed(with: textSecondary, 0.5) }

    /// A colour on the always-on display (wrist down): the face dims to about half brightness.
    public static func dimmed(_ color: RGBA) -> RGBA { color.mixed(with: RGBA(0, 0, 0, color.a), 0.45) }

    /// Text on the always-on display: dimmed as `dimmed`, but never under 4.5:1 on the dimmed
    /// `background` when it had that much (a glance with the wrist down still reads the scores;
    /// halved, the secondary grey and the stale scores fell to 2.2–2.7:1).
    public static func dimmedText(_ color: RGBA, on background: RGBA) -> RGBA {
        var amount = 0.45
        while amount > 0, contrast(color.mixed(with: RGBA(0, 0, 0, color.a), amount), on: background) < 4.5 { amount -= 0.05 }
        return color.mixed(with: RGBA(0, 0, 0, color.a), max(0, amount))
    }

    /// WCAG contrast ratio of `foreground` on `background` (1…21).
    public static func contrast(_ foreground: RGBA, on background: RGBA = HyzerColor.background) -> Double {
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
        case .underPar: HyzerColor.underPar
        case .atPar: HyzerColor.atPar
        case .overPar: HyzerColor.overPar
        case .wayOver: HyzerColor.wayOver
        }
    }
}

/// The seeds' type scale (seeds/001, "Typography System"): SF Pro Rounded and SF Mono there, DejaVu
/// Sans and DejaVu Sans Mono here. The phone's face scales it with the browser's text size; the
/// watch sets its sizes explicitly, as watchOS apps do (seeds/001: "Watch ignores Dynamic Type").
public enum HyzerType: String, Sendable, CaseIterable {
    case hero, h1, h2, h3, body, caption, score, scoreLarge

    /// Points at the default text size.
    public var size: Double {
        switch self {
        case .hero: 48
        case .h1: 28
        case .h2: 22
        case .h3, .body: 17
        case .caption: 13
        case .score: 22
        case .scoreLarge: 34
        }
    }

    /// CSS font weight.
    public var weight: Int {
        switch self {
        case .hero, .h1, .score, .scoreLarge: 700
        case .h2, .h3: 600
        case .body, .caption: 400
        }
    }

    /// Score numbers are monospaced, so "+3" and "-1" take the same width.
    public var monospaced: Bool { self == .score || self == .scoreLarge }
}

/// The seeds' spacing scale: multiples of 8 (and 4 for an icon beside its label), in points.
public enum HyzerSpace: String, Sendable, CaseIterable {
    case xs, sm, md, lg, xl, xxl

    public var points: Int {
        switch self {
        case .xs: 4
        case .sm: 8
        case .md: 16
        case .lg: 24
        case .xl: 32
        case .xxl: 48
        }
    }

    /// The smallest touch target (44 pt) and the scoring controls' (56 pt, walked and one-handed).
    public static let minimumTarget = 44
    public static let scoringTarget = 56
}
