import HyzerKit

/// The design tokens as CSS custom properties (`/tokens.css`): the page's colours, type and
/// spacing come from the same definitions the watch draws with (`HyzerColor`, `HyzerType`,
/// `HyzerSpace`), never from values typed into the stylesheet.
enum PageTokens {
    static let css: String = {
        var lines = [":root {"]
        let colors: [(String, RGBA)] = [
            ("background", HyzerColor.background), ("elevated", HyzerColor.elevated), ("tertiary", HyzerColor.tertiary),
            ("text", HyzerColor.textPrimary), ("text-secondary", HyzerColor.textSecondary), ("accent", HyzerColor.accent),
            ("under-par", HyzerColor.underPar), ("at-par", HyzerColor.atPar), ("over-par", HyzerColor.overPar),
            ("way-over", HyzerColor.wayOver), ("status", HyzerColor.status), ("destructive", HyzerColor.destructive),
        ]
        for (name, color) in colors { lines.append("  --color-\(name): \(color.hex);") }
        for type in HyzerType.allCases {
            let name = type.rawValue.replacingOccurrences(of: "scoreLarge", with: "score-large")
            // rem: the browser's text size scales every level, as Dynamic Type does on the phone.
            lines.append("  --type-\(name)-size: \(type.size / 16)rem;")
            lines.append("  --type-\(name)-weight: \(type.weight);")
            lines.append("  --type-\(name)-family: var(--font-\(type.monospaced ? "mono" : "sans"));")
        }
        for space in HyzerSpace.allCases { lines.append("  --space-\(space.rawValue): \(space.points)px;") }
        lines.append("  --target-min: \(HyzerSpace.minimumTarget)px;")
        lines.append("  --target-scoring: \(HyzerSpace.scoringTarget)px;")
        lines.append("  --font-sans: ui-rounded, \"SF Pro Rounded\", \"DejaVu Sans\", system-ui, sans-serif;")
        lines.append("  --font-mono: ui-monospace, \"SF Mono\", \"DejaVu Sans Mono\", monospace;")
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }()
}
