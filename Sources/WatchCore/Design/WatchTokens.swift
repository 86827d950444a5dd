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

/// Type and spacing for the face, in pixels at 2 px per point (seeds/001 type scale and 8 pt grid).
public struct WatchMetrics: Sendable, Hashable {
    public let width: Double
    public let height: Double

    public init(size: WatchSize) {
        width = Double(size.width)
        height = Double(size.height)
    }

    /// Narrower faces shrink type a little so rows keep their shape.
    var scale: Double { width / 396 }

    public var caption: Double { (26 * scale).rounded() }  // 13 pt
    public var rowText: Double { (34 * scale).rounded() }  // 17 pt (H3)
    public var title: Double { (44 * scale).rounded() }  // 22 pt (H2)
    public var hero: Double { (96 * scale).rounded() }  // 48 pt, crown value
    public var margin: Double { (24 * scale).rounded() }  // 12 pt
    public var headerHeight: Double { (64 * scale).rounded() }
    public var rowHeight: Double { (88 * scale).rounded() }  // 44 pt rows
    public var footerHeight: Double { (40 * scale).rounded() }
    public var buttonHeight: Double { (88 * scale).rounded() }
}
