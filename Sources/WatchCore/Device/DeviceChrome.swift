import Foundation

/// The device drawn around the face in a window: the case, the black bezel, the display with its
/// rounded corners, the Digital Crown and the side button on the right, where they are on the
/// watch. All in pixels at scale 1 (the face's own pixels, 2 per point), with (0, 0) the top left
/// of the whole device picture.
public struct DeviceChrome: Sendable, Hashable {
    public let size: WatchSize
    /// Where the face sits.
    public let display: Rect
    /// The case, bezel included (the display is inside it).
    public let caseFrame: Rect
    public let crown: Rect
    public let sideButton: Rect
    /// The whole picture: the case plus the crown standing out of its right side.
    public let canvas: Rect

    /// The display's corner radius: the watch's screen is a rounded rectangle.
    public var displayCornerRadius: Double { (Double(size.width) * 0.17).rounded() }
    public var caseCornerRadius: Double { displayCornerRadius + bezel }
    /// Black glass between the display's edge and the case.
    public var bezel: Double { 18 }
    /// The metal rim outside the bezel.
    public var rim: Double { 26 }

    public init(size: WatchSize) {
        self.size = size
        let w = Double(size.width), h = Double(size.height)
        let inset = 18.0 + 26.0  // bezel + rim
        display = Rect(x: inset, y: inset, width: w, height: h)
        caseFrame = Rect(x: 0, y: 0, width: w + inset * 2, height: h + inset * 2)
        // The crown stands out of the upper right side; the side button sits below it, flatter.
        let crownHeight = (h * 0.19).rounded()
        crown = Rect(x: caseFrame.width - 6, y: (caseFrame.height * 0.26).rounded(), width: 30, height: crownHeight)
        sideButton = Rect(x: caseFrame.width - 4, y: crown.y + crownHeight + (h * 0.12).rounded(), width: 12, height: (h * 0.28).rounded())
        canvas = Rect(x: 0, y: 0, width: crown.x + crown.width, height: caseFrame.height)
    }

    /// What a point on the device picture is over.
    public enum Part: Sendable, Hashable {
        /// On the face, at this face point.
        case face(Point)
        case crown
        case sideButton
        case device
    }

    public func part(at point: Point) -> Part {
        if crown.contains(point) { return .crown }
        if sideButton.contains(point) { return .sideButton }
        if display.contains(point) { return .face(Point(x: point.x - display.x, y: point.y - display.y)) }
        return .device
    }

    /// Pixels the mouse drags along the crown per detent.
    public static let dragPerDetent: Double = 14

    /// The physical density of each case's display (points per inch × 2 px per point), for
    /// `--scale physical`: 41 and 45 mm 326 ppi, 49 mm 338.
    public var pixelsPerInch: Double { size == .mm49 ? 338 : 326 }
}

/// Where things are in the window (or in a screenshot taken as the window shows it), in window
/// coordinates at the current scale: what `dump` writes under `window`, so a tool driving the
/// real window with a mouse knows where to point. A face point (the accessibility tree's frames)
/// is at `display.x + x × faceScale`, `display.y + y × faceScale`.
public struct WindowGeometry: Sendable, Hashable, Codable {
    /// Whether the device is drawn around the face.
    public var chrome: Bool
    /// Window coordinates per face pixel.
    public var faceScale: Double
    public var width: Double
    public var height: Double
    /// The face.
    public var display: Rect
    /// The drawn Digital Crown and side button; nil without chrome.
    public var crown: Rect?
    public var sideButton: Rect?

    private enum CodingKeys: String, CodingKey { case chrome, faceScale, width, height, display, crown, sideButton }

    /// `crown` and `sideButton` are written as null without chrome (not left out).
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(chrome, forKey: .chrome)
        try container.encode(faceScale, forKey: .faceScale)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encode(display, forKey: .display)
        try container.encode(crown, forKey: .crown)
        try container.encode(sideButton, forKey: .sideButton)
    }

    public init(chrome device: DeviceChrome, showsChrome: Bool, scale: Double) {
        func scaled(_ r: Rect) -> Rect { Rect(x: r.x * scale, y: r.y * scale, width: r.width * scale, height: r.height * scale) }
        chrome = showsChrome
        faceScale = scale
        if showsChrome {
            width = device.canvas.width * scale
            height = device.canvas.height * scale
            display = scaled(device.display)
            crown = scaled(device.crown)
            sideButton = scaled(device.sideButton)
        } else {
            width = device.display.width * scale
            height = device.display.height * scale
            display = Rect(x: 0, y: 0, width: width, height: height)
        }
    }
}
