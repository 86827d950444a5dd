import HyzerKit
import Foundation

/// The window's keys, as `?` shows them over the face (and `hyzer-watch --help` lists them).
public enum WindowKeys {
    public static let all: [(keys: String, action: String)] = [
        ("wheel, ↑ ↓", "Digital Crown"),
        ("drag crown", "Digital Crown"),
        ("click", "tap"),
        ("Enter", "Save"),
        ("← →", "score another hole"),
        ("Esc, right click", "back"),
        ("side button", "back"),
        ("V", "voice: type what is said"),
        ("L", "link down / up"),
        ("A, ⇧A", "clock +1 min, +10 s"),
        ("W", "wrist down / up"),
        ("B", "app to background / front"),
        ("M", "reduce motion"),
        ("T, ⇧T", "text size up, down"),
        ("C", "device chrome"),
        ("+ −", "window scale"),
        ("S", "screenshot"),
        ("R", "record start / stop"),
        ("?", "these keys (any input closes)"),
        ("Q", "quit"),
    ]

    /// The key list drawn over the face: a dark panel, key on the left, what it does on the right.
    public static func helpOverlay(width: Double, height: Double, measurer: TextMeasurer) -> [DrawCommand] {
        // Opaque: the face (the status-bar time, rows) showing through read as part of the list.
        var commands: [DrawCommand] = [.rect(Rect(x: 0, y: 0, width: width, height: height), HyzerColor.background, cornerRadius: 0)]
        let rowHeight = min(26, (height - 40) / Double(all.count))
        let top = (height - rowHeight * Double(all.count)) / 2
        let keyWidth = width * 0.36
        // The type shrinks until every key and every action fits whole (the 41 mm face is narrow).
        var size = (rowHeight * 0.72).rounded()
        while size > 9, all.contains(where: { measurer.width($0.keys, FontSpec(.sansBold, size)) > keyWidth - 8
                                               || measurer.width($0.action, FontSpec(.sans, size)) > width - keyWidth - 32 }) {
            size -= 1
        }
        let font = FontSpec(.sans, size)
        let bold = FontSpec(.sansBold, size)
        for (index, entry) in all.enumerated() {
            let y = top + Double(index) * rowHeight
            commands.append(.text(measurer.truncate(entry.keys, font: bold, toFit: keyWidth - 8), frame: Rect(x: 16, y: y, width: keyWidth - 8, height: rowHeight),
                                  font: bold, color: HyzerColor.accent, alignment: .trailing))
            commands.append(.text(measurer.truncate(entry.action, font: font, toFit: width - keyWidth - 32), frame: Rect(x: 16 + keyWidth + 4, y: y, width: width - keyWidth - 32, height: rowHeight),
                                  font: font, color: HyzerColor.textPrimary, alignment: .leading))
        }
        return commands
    }
}
