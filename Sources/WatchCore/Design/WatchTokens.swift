import Foundation
import HyzerKit

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

    /// From xl a name has too little room beside its position and a score of two digits ("Ma…
    /// +12" at 41 mm xl, "Maxi…" at 45; none but "…" at xxxl): rows then stack, position and score
    /// on the first line, the name on the second across the row, as watchOS lays out lists at
    /// large sizes. At xxxl two lines are hardly taller than one (126 px against 119).
    func stacksRows(width: Double) -> Bool {
        switch self {
        case .xLarge, .xxLarge, .xxxLarge, .accessibility1, .accessibility2, .accessibility3: true
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
    /// 44 pt at every text size: a button's word grows with the band type inside it, and the room a
    /// taller button took is the number's on score input (at 41 mm ax3 Save was the largest thing).
    public var buttonHeight: Double { 88 }
}
