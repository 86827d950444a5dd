import Foundation
import HyzerKit

/// `WatchState → DisplayList`: every screen of the face, following seeds/001 components 5 and 6,
/// and the face's accessibility tree (what VoiceOver reads, in order). Pure: the same state, clock
/// and fonts always give the same frame.
public enum WatchLayout {
    // MARK: Geometry (shared with hit testing)

    /// The band rows scroll in: under the header, above the footer.
    static func listArea(_ m: WatchMetrics) -> Rect {
        let bottom = m.height - m.footerHeight - 6
        return Rect(x: 0, y: m.headerHeight, width: m.width, height: bottom - m.headerHeight)
    }

    /// Rows on screen: 41 mm 3, 45 mm 4, 49 mm 4, sharing the list's height; fewer with larger
    /// text. Never less than one.
    public static func visibleRows(size: WatchSize, textSize: TextSize = .standard) -> Int {
        let m = WatchMetrics(size: size, textSize: textSize)
        return max(1, Int(listArea(m).height / m.rowHeight))
    }

    /// The frame of the row shown at `slot` (0 is the top visible row). The rows on screen share
    /// the list's whole height: no row is cut through its letters at the bottom and no band of
    /// black is left under the last (the scroll indicator says there are more).
    public static func rowFrame(slot: Double, size: WatchSize, textSize: TextSize = .standard) -> Rect {
        let m = WatchMetrics(size: size, textSize: textSize)
        let height = (listArea(m).height / Double(visibleRows(size: size, textSize: textSize))).rounded(.down)
        return Rect(x: 0, y: m.headerHeight + slot * height, width: m.width, height: height)
    }

    /// Which standing a tap lands on, by index into the round's standings (a row partly on screen counts
    /// where it shows).
    public static func row(at point: Point, state: WatchState, size: WatchSize) -> Int? {
        guard let standings = state.round?.standings else { return nil }
        let area = listArea(state.metrics(size))
        guard area.contains(point) else { return nil }
        for slot in 0...visibleRows(size: size, textSize: state.textSize) {
            let index = state.scrollRow + slot
            if index < standings.count, rowFrame(slot: Double(slot), size: size, textSize: state.textSize).contains(point) { return index }
        }
        return nil
    }

    public static func saveButton(size: WatchSize, textSize: TextSize = .standard) -> Rect {
        let m = WatchMetrics(size: size, textSize: textSize)
        return Rect(x: m.margin * 1.5, y: m.height - m.margin - m.buttonHeight, width: m.width - m.margin * 3, height: m.buttonHeight)
    }

    /// A banner's text within `width`: a long name is shortened and what follows it stays, the
    /// score it ends with ("Saved Holyn Handle… 4", not "Saved Holyn Handle…") or the hole
    /// ("Maximilian Fe… · hole 4", not "Maximilian Feat… 4", which reads as a score).
    public static func fitBanner(_ text: String, font: FontSpec, width: Double, measurer: TextMeasurer) -> String {
        let scoreAt = text.lastIndex(of: " ").flatMap { TextMeasurer.isScore(text[text.index(after: $0)...]) ? $0 : nil }
        return measurer.truncate(text, keepingFrom: text.range(of: " · ")?.lowerBound ?? scoreAt, font: font, toFit: width)
    }

    // MARK: Voice overlay geometry

    /// The title band above the overlay's rows.
    static func voiceTitleHeight(_ m: WatchMetrics) -> Double { m.headerHeight }

    /// How many overlay rows are on screen at once: all of them, shrinking from 56 pt (the
    /// spec's correction targets) to fit, but never under 44 pt; past that they scroll.
    public static func voiceRowsShown(of count: Int, size: WatchSize, textSize: TextSize = .standard) -> Int {
        let m = WatchMetrics(size: size, textSize: textSize)
        return min(max(1, count), max(1, Int(voiceRowsRoom(m, size: size, textSize: textSize) / LayoutCheck.minimumTarget)))
    }

    static func voiceRowsRoom(_ m: WatchMetrics, size: WatchSize, textSize: TextSize) -> Double {
        voiceSaveButton(size: size, textSize: textSize).y - m.margin * 0.5 - voiceTitleHeight(m)
    }

    /// The frame of overlay row `index` of `count` with `firstRow` at the top (a row scrolled off
    /// has a frame outside the rows' band).
    public static func voiceRowFrame(_ index: Int, of count: Int, firstRow: Int = 0, size: WatchSize, textSize: TextSize = .standard) -> Rect {
        let m = WatchMetrics(size: size, textSize: textSize)
        let top = voiceTitleHeight(m)
        let shown = voiceRowsShown(of: count, size: size, textSize: textSize)
        let height = min(m.rowHeight * 56 / 44, voiceRowsRoom(m, size: size, textSize: textSize) / Double(shown))
        return Rect(x: m.margin * 0.5, y: top + Double(index - firstRow) * height, width: m.width - m.margin, height: height)
    }

    /// Which overlay row a tap lands on (only rows on screen).
    public static func voiceRow(at point: Point, overlay: VoiceOverlay, size: WatchSize, textSize: TextSize = .standard) -> Int? {
        let shown = voiceRowsShown(of: overlay.rows.count, size: size, textSize: textSize)
        return overlay.rows.indices.filter { $0 >= overlay.firstRow && $0 < overlay.firstRow + shown }.first {
            voiceRowFrame($0, of: overlay.rows.count, firstRow: overlay.firstRow, size: size, textSize: textSize).contains(point)
        }
    }

    /// The overlay's Save button (shown while a tapped row waits for the crown, or while rows
    /// scroll) and countdown bar: a 44 pt control.
    public static func voiceSaveButton(size: WatchSize, textSize: TextSize = .standard) -> Rect {
        let m = WatchMetrics(size: size, textSize: textSize)
        let height = max(LayoutCheck.minimumTarget, m.buttonHeight * 0.7)
        return Rect(x: m.margin * 2, y: m.height - m.margin * 0.75 - height, width: m.width - m.margin * 4, height: height)
    }

    /// The status-bar area at the top right that watchOS keeps for the time: nothing of the app's
    /// is drawn there.
    public static func clockArea(_ m: WatchMetrics) -> Rect {
        let font = titleFont(m)
        let width = (font.size * 0.62 * 5 + m.titleInset).rounded()
        return Rect(x: m.width - width, y: 0, width: width, height: min(m.headerHeight, font.size * 1.6 + 8))
    }

    /// The type of a screen's title and of the status-bar time beside it (15 pt, growing as the
    /// header band does): one size, on one baseline.
    static func titleFont(_ m: WatchMetrics) -> FontSpec { FontSpec(.sansBold, (30 * min(m.band, 1.1)).rounded()) }

    // MARK: Frames

    /// What the face shows at `now`. `clock` is the status-bar time to draw in the clock area (the
    /// device chrome's; nil leaves the area empty, as in screenshots without chrome).
    public static func displayList(_ state: WatchState, now: Date, size: WatchSize, measurer: TextMeasurer,
                                   clock: String? = nil) -> DisplayList {
        let m = state.metrics(size)
        var list = DisplayList(width: m.width, height: m.height, background: HyzerColor.background)
        var face = Face(state: state, now: now, size: size, m: m, measurer: measurer, alwaysOn: state.wristDown)
        if state.appInBackground {
            face.watchFace(into: &list)
            if state.wristDown { list.dim() }
            list.accessibility.label = face.screenLabel
            return list
        }
        switch state.screen {
        case .crown(let entry):
            face.crownScreen(entry, into: &list)
        case .voice(let overlay):
            face.voiceOverlay(overlay, into: &list)
        case .final:
            if let round = state.finishedRound { face.leaderboard(round, final: true, into: &list) }
        case .leaderboard:
            if let round = state.round {
                face.leaderboard(round, final: false, into: &list)
            } else {
                face.noRound(into: &list)
            }
        }
        face.footer(into: &list)
        if let draft = state.voiceDraft, !state.wristDown { face.voiceDraft(draft, into: &list) }
        if !state.wristDown { face.hapticPulse(into: &list) }
        if let clock {
            let area = clockArea(m)
            // The status bar's type grows as the header's does (less than the rows'), so the time
            // stays inside the area kept for it at any text size.
            list.commands.append(.text(clock, frame: Rect(x: area.x, y: area.y, width: area.width - m.titleInset, height: area.height),
                                       font: titleFont(m), color: HyzerColor.textPrimary, alignment: .trailing))
        }
        if state.wristDown { list.dim() }
        list.accessibility.label = face.screenLabel
        if state.wristDown { list.accessibility.value = "Wrist down" }
        return list
    }

    /// "Sat 7": a day as the watch face and the round's summary say it.
    public static func dayText(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let parts = calendar.dateComponents([.weekday, .day], from: date)
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        // A no-break space: a line that breaks keeps "Sat 28" together (it left "28" alone).
        return "\(weekdays[((parts.weekday ?? 1) - 1) % 7])\u{00A0}\(parts.day ?? 1)"
    }

    /// "9:41": the status-bar time, in the watch's clock and the local time zone.
    public static func clockText(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        return String(format: "%d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }

    /// The watch face's slots, top to bottom: the inline complication above the time, the time
    /// and date, the rectangular complication, then the corner (bottom left) and the circular
    /// (bottom right). Hyzer fills the four complication slots; a tap on any opens the app.
    public struct WatchFaceSlots: Sendable {
        public let inline: Rect, time: Rect, date: Rect?, rectangular: Rect, corner: Rect, circular: Rect
        public let timeFont: FontSpec
        /// Whether the corner complication has its label over the value (there is room for it).
        public let cornerLabel: Bool
    }

    /// At large text sizes the face keeps every complication and gives up, in order, the date
    /// line and the corner's label, so nothing overlaps and nothing falls off the bottom.
    public static func watchFaceSlots(_ m: WatchMetrics) -> WatchFaceSlots {
        let f = m.band, inset = m.titleInset, width = m.width - 2 * inset
        let inlineHeight = (26 * f * 1.5).rounded()
        let rectangularHeight = watchFaceRectangularHeight(m)
        let gap = 12.0, bottom = 16.0
        // The bottom row's complications are controls: at least 44 pt (88 px) each way.
        let minimumTime = (m.height * 0.11).rounded(), minimumCircular = max(LayoutCheck.minimumTarget, (m.height * 0.15).rounded())
        func height(date: Bool, label: Bool) -> (date: Double, corner: Double) {
            (date ? (26 * f * 1.1 * 1.4).rounded() : 0, ((label ? 22 * 1.3 : 0) + 34 * 1.4) * f)
        }
        let fixed = 12 + inlineHeight + gap + rectangularHeight + gap + bottom
        let fits = { (date: Bool, label: Bool) in
            let h = height(date: date, label: label)
            return fixed + minimumTime * 1.2 + h.date + max(h.corner, minimumCircular, LayoutCheck.minimumTarget) <= m.height
        }
        let (showsDate, cornerLabel) = fits(true, true) ? (true, true) : fits(false, true) ? (false, true) : (false, false)
        let (dateHeight, cornerText) = height(date: showsDate, label: cornerLabel)
        let cornerHeight = max(cornerText, LayoutCheck.minimumTarget)
        // The time takes what the complications leave, within 11–20 % of the height.
        let bottomRow = max(cornerHeight.rounded(), minimumCircular)
        let timeSize = min(m.height * 0.2, max(minimumTime, (m.height - fixed - dateHeight - bottomRow) / 1.2)).rounded()
        let inline = Rect(x: inset, y: 12, width: width, height: inlineHeight)
        let time = Rect(x: m.margin, y: inline.y + inline.height, width: m.width - 2 * m.margin, height: (timeSize * 1.2).rounded())
        let date = showsDate ? Rect(x: m.margin, y: time.y + time.height, width: m.width - 2 * m.margin, height: dateHeight) : nil
        let rectangular = Rect(x: m.margin, y: time.y + time.height + dateHeight + gap, width: m.width - 2 * m.margin, height: rectangularHeight)
        let top = rectangular.y + rectangular.height + gap
        let diameter = max(min(m.height - bottom - top, (m.height * 0.2).rounded()), LayoutCheck.minimumTarget)
        let circular = Rect(x: m.width - inset - diameter, y: m.height - bottom - diameter, width: diameter, height: diameter)
        let corner = Rect(x: inset, y: m.height - bottom - cornerHeight.rounded(), width: circular.x - inset - gap, height: cornerHeight.rounded())
        return WatchFaceSlots(inline: inline, time: time, date: date, rectangular: rectangular, corner: corner, circular: circular,
                              timeFont: FontSpec(.sansBold, timeSize), cornerLabel: cornerLabel)
    }

    /// Three lines (place and name; score and holes; how old) with room around them.
    static func watchFaceRectangularHeight(_ m: WatchMetrics) -> Double {
        let f = m.band
        return (24 + (30 + 28 + 24) * f * 1.3).rounded()
    }

    /// The Hyzer complications on the watch face and where a tap on each opens the app: the
    /// inline one's line is shorter than a finger, so its target reaches down over the time (which
    /// takes no taps) to 44 pt.
    public static func complicationSlots(_ m: WatchMetrics) -> [(family: String, frame: Rect)] {
        let slots = watchFaceSlots(m)
        let inline = Rect(x: slots.inline.x, y: slots.inline.y, width: slots.inline.width,
                          height: max(slots.inline.height, min(LayoutCheck.minimumTarget, slots.rectangular.y - slots.inline.y)))
        return [("inline", inline), ("rectangular", slots.rectangular), ("corner", slots.corner), ("circular", slots.circular)]
    }

    /// A disputed hole's scores in play as shown: "Disputed · 3 Sarah Lee · 4 you", the counted
    /// first, and a value several said once ("4 Mike, you": the organizer settles a value, not a
    /// device); where that does not fit, first names ("Disputed · 3 Sarah · 4 you"), then without
    /// the word (the status hue still says it), then on two lines, the last saying how many more
    /// values there are past them ("· +2"): every score in play is in sight or counted.
    static func shownClaims(_ claims: [ClaimLine], fitting width: Double? = nil, font: FontSpec? = nil,
                            measurer: TextMeasurer? = nil, maxLines: Int = 2) -> [String] {
        var values: [(strokes: Int, names: [String])] = []
        for claim in claims {
            let name = claim.who == .thisWatch ? "you" : claim.who.name
            if let index = values.firstIndex(where: { $0.strokes == claim.strokes }) { values[index].names.append(name) } else { values.append((claim.strokes, [name])) }
        }
        func scores(_ part: ArraySlice<(strokes: Int, names: [String])>, firstNames: Bool) -> String {
            part.map { value in
                "\(value.strokes) " + value.names.map { firstNames ? $0.split(separator: " ").first.map(String.init) ?? $0 : $0 }.joined(separator: ", ")
            }.joined(separator: " · ")
        }
        let all = values[...]
        let candidates = ["Disputed · " + scores(all, firstNames: false), "Disputed · " + scores(all, firstNames: true), scores(all, firstNames: true)]
        guard let width, let font, let measurer else { return [candidates[0]] }
        if let line = candidates.first(where: { measurer.width($0, font) <= width }) { return [line] }
        // As many values a line as fit, in order, on at most `maxLines` lines: past them the last
        // line says how many more there are ("· +2"; VoiceOver reads every one), rather than the
        // lines pushing the number under Save (five values at 41 mm ax3 took four lines).
        var lines: [[String]] = []
        for value in all.indices.map({ scores(all[$0...$0], firstNames: true) }) {
            if let last = lines.last, measurer.width((last + [value]).joined(separator: " · "), font) <= width { lines[lines.count - 1].append(value) } else { lines.append([value]) }
        }
        if lines.count > maxLines {
            var kept = Array(lines.prefix(maxLines))
            func more() -> String { "+\(values.count - kept.joined().count)" }
            while kept[maxLines - 1].count > 1, measurer.width((kept[maxLines - 1] + [more()]).joined(separator: " · "), font) > width { kept[maxLines - 1].removeLast() }
            kept[maxLines - 1].append(more())
            lines = kept
        }
        return lines.map { $0.joined(separator: " · ") }
    }

    /// The same as VoiceOver says it: "Sarah says 3, which counts for now. This watch says 4."
    static func spokenClaims(_ claims: [ClaimLine]) -> String {
        claims.enumerated().map { index, claim in
            let who = switch claim.who {
            case .thisWatch: "This watch"
            case .phone: "The phone"
            case .other(let name): name
            }
            return "\(who) says \(claim.strokes)\(index == 0 ? ", which counts for now" : "")."
        }.joined(separator: " ")
    }

    /// Each player's short name in `round` (`NameText.shortNames`): a row shows it before cutting
    /// the whole name.
    static func shortNames(_ round: RoundSnapshot) -> [PlayerID: String] {
        Dictionary(zip(round.standings.map(\.playerID), NameText.shortNames(round.standings.map(\.name))), uniquingKeysWith: { first, _ in first })
    }

    /// A player's name within `width`: the whole name, else the short one ("Alexandria M."),
    /// else the short one cut in its first name, keeping the initial that tells two players
    /// apart ("Alexan… M.": cut at its end, two Alexandrias both read "Alexand…").
    static func fitName(_ name: String, short: String?, font: FontSpec, toFit width: Double, measurer: TextMeasurer) -> String {
        if let fitting = ([name] + (short.map { [$0] } ?? [])).first(where: { measurer.width($0, font) <= width }) { return fitting }
        guard let short else { return measurer.truncate(name, font: font, toFit: width) }
        if short.hasSuffix("."), let space = short.lastIndex(of: " ") {
            let initial = String(short[space...])
            return measurer.truncate(String(short[..<space]), font: font, toFit: width - measurer.width(initial, font)) + initial
        }
        return measurer.truncate(short, font: font, toFit: width)
    }

    /// Who won the finished round: "Jake won, -2", "Jake & Mike tied, -1"; `spoken`, as VoiceOver
    /// says it: "Jake won at minus two", "Jake and Mike tied at minus one"; nil if nobody scored.
    static func winnerLine(_ round: RoundSnapshot, spoken: Bool = false) -> String? {
        let leaders = round.standings.filter { $0.position == 1 }
        guard let first = leaders.first else { return nil }
        let names = leaders.map(\.name)
        let who = leaders.count == 1 ? "\(first.name) won" : (spoken ? ListText.joined(names) : names.joined(separator: " & ")) + " tied"
        return spoken ? "\(who) at \(ScoreFormat.spokenRelativeToPar(first.scoreRelativeToPar))"
            : "\(who), \(ScoreFormat.relativeToPar(first.scoreRelativeToPar))"
    }

    /// The wearer's place as VoiceOver says it: "You finished tied third".
    static func spokenFinish(_ own: Standing) -> String {
        "You finished \(own.tied ? "tied " : "")\(ScoreFormat.spokenOrdinal(own.position ?? 0))"
    }

    /// "First, Jake", "Tied second, Amy", "Zed": how VoiceOver names a leaderboard row.
    public static func spokenRowLabel(_ standing: Standing) -> String {
        guard let position = standing.position else { return standing.name }
        let place = ScoreFormat.spokenOrdinal(position)
        return (standing.tied ? "Tied \(place)" : place.prefix(1).uppercased() + place.dropFirst()) + ", " + standing.name
    }
}

extension DisplayList {
    /// The always-on display: everything at about half brightness, the background too; text no
    /// further than it stays legible on it (`HyzerColor.dimmedText`).
    mutating func dim() {
        background = HyzerColor.dimmed(background)
        commands = commands.map { $0.dimmed(on: background) }
    }
}

extension DrawCommand {
    /// This command on the always-on display, over `background` (already dimmed).
    func dimmed(on background: RGBA) -> DrawCommand {
        switch self {
        case .rect(let rect, let color, let radius): .rect(rect, HyzerColor.dimmed(color), cornerRadius: radius)
        case .text(let text, let frame, let font, let color, let alignment):
            .text(text, frame: frame, font: font, color: HyzerColor.dimmedText(color, on: background), alignment: alignment)
        case .ring(let rect, let color, let thickness, let radius): .ring(rect, HyzerColor.dimmed(color), thickness: thickness, cornerRadius: radius)
        case .arc(let rect, let color, let thickness, let fraction): .arc(rect, HyzerColor.dimmed(color), thickness: thickness, fraction: fraction)
        }
    }
}

/// One frame being laid out: the state, the clock and the metrics every screen uses.
private struct Face {
    let state: WatchState
    let now: Date
    let size: WatchSize
    let m: WatchMetrics
    let measurer: TextMeasurer
    /// Wrist down: no motion, no transient banners, no scroll indicator.
    let alwaysOn: Bool
    /// The banner the footer shows now (none on the always-on face): what the message screens and
    /// the scroll position keep clear of.
    var shownBanner: Banner? { alwaysOn ? nil : state.banner.flatMap { now < $0.until ? $0 : nil } }
    /// The wearer's place on the final screen, said in the footer band ("You: T2 · +1") while no
    /// banner is.
    var finalResult: (line: String, own: Standing)? {
        guard case .final = state.screen, shownBanner == nil, let round = state.finishedRound else { return nil }
        return wearerResult(round)
    }
    /// "You: T2 · +1", as the round-end announcement says it: the wearer's place in `round`, if they have one.
    func wearerResult(_ round: RoundSnapshot) -> (line: String, own: Standing)? {
        guard let own = round.standings.first(where: { $0.playerID == state.wearerID }), let position = own.position else { return nil }
        return ("You: \(ScoreFormat.place(position, tied: own.tied)) · \(ScoreFormat.relativeToPar(own.scoreRelativeToPar))", own)
    }
    /// The footer band says something now (`footer`: no phone, unreadable scores, a banner, the
    /// final result); the scroll position shows there only when it does not.
    var footerBandInUse: Bool { (state.linkKnown && !state.reachable) || state.unreadableScores > 0 || shownBanner != nil || finalResult != nil }
    var screenLabel = ""

    init(state: WatchState, now: Date, size: WatchSize, m: WatchMetrics, measurer: TextMeasurer, alwaysOn: Bool) {
        self.state = state
        self.now = now
        self.size = size
        self.m = m
        self.measurer = measurer
        self.alwaysOn = alwaysOn
    }

    var caption: FontSpec { FontSpec(.sans, m.caption) }

    // MARK: Leaderboard

    /// The leaderboard's columns for this round, measured once so that every row lines up.
    struct LeaderboardColumns {
        let positionFont: FontSpec, nameFont: FontSpec, scoreFont: FontSpec, arrowFont: FontSpec
        let arrowWidth: Double, widestPosition: Double, positionWidth: Double, scoreWidth: Double
    }

    /// What every row of one drawing of the leaderboard shares.
    struct LeaderboardPass {
        let round: RoundSnapshot
        let final: Bool
        let stale: Bool
        let columns: LeaderboardColumns
        let reshuffle: Reshuffle?
        /// How visible the reshuffle's ▲/▼ are now (0: not shown).
        let arrows: Double
        let area: Rect
        /// Each player's short name (`NameText.shortNames`): a row shows it before cutting the whole.
        let shortNames: [PlayerID: String]
    }

    mutating func leaderboard(_ round: RoundSnapshot, final: Bool, into list: inout DisplayList) {
        screenLabel = final ? "Final standings" : "Leaderboard"
        let area = WatchLayout.listArea(m)
        let visible = WatchLayout.visibleRows(size: size, textSize: state.textSize)
        let reshuffle = alwaysOn ? nil : state.reshuffle
        // Reduce motion: rows take their new places at once and the old order crossfades out.
        let crossfade: Double? = reshuffle.flatMap { r in
            guard state.reduceMotion else { return nil }
            let t = now.timeIntervalSince(r.startedAt) / Reshuffle.crossfadeDuration
            return t < 1 ? max(0, t) : nil
        }
        let pass = LeaderboardPass(round: round, final: final, stale: !final && state.isStale(at: now), columns: leaderboardColumns(round),
                                   reshuffle: reshuffle, arrows: reshuffle.map { $0.arrowOpacity(at: now) } ?? 0, area: area,
                                   shortNames: WatchLayout.shortNames(round))
        var elements: [AccessibilityElement] = []
        // Reduce motion crossfades what changed: a row whose place and line are the same before
        // and after stays as it is; the others fade out of their old places into their new ones.
        let unchanged: Set<PlayerID> = crossfade == nil ? [] : Set((reshuffle?.previous ?? []).enumerated().compactMap { index, old in
            round.standings.indices.contains(index) && round.standings[index] == old ? old.playerID : nil
        })
        if let crossfade, let previous = reshuffle?.previous {
            for (index, standing) in previous.enumerated() where !unchanged.contains(standing.playerID) {
                let slot = Double(index - state.scrollRow)
                guard slot > -1, slot < Double(visible) else { continue }
                _ = leaderboardRow(standing, slot: slot, opacity: 1 - crossfade, pass, into: &list)
            }
        }
        for row in placedRows(round, visible: visible, reshuffle: reshuffle, crossfading: crossfade != nil) {
            let opacity = unchanged.contains(row.standing.playerID) ? 1 : crossfade ?? 1
            if let element = leaderboardRow(row.standing, slot: row.slot, opacity: opacity, pass, into: &list) { elements.append(element) }
        }
        elements.sort { $0.frame.y < $1.frame.y }

        // The header and the footer band cover rows sliding past the list's ends.
        list.commands.append(.rect(Rect(x: 0, y: 0, width: m.width, height: m.headerHeight), HyzerColor.background, cornerRadius: 0))
        list.commands.append(.rect(Rect(x: 0, y: area.y + area.height, width: m.width, height: m.height - area.y - area.height), HyzerColor.background, cornerRadius: 0))
        let hole = final ? round.currentHole : WatchMachine.scoringHole(state)
        let title = final ? "Final · \(round.courseName)" : ScoreFormat.holeProgress(current: hole, of: round.holeCount)
        // Large text: "Hole 7/18", then "Hole 7", before cutting "Hole 7 of 18" to "Hole 7…" (which
        // could be hole 7 or 17).
        header(title, shorter: final ? ["Final"] : ["Hole \(hole)/\(round.holeCount)", "Hole \(hole)", "\(hole)/\(round.holeCount)"], into: &list)
        list.addElement(AccessibilityElement(.list, label: final ? "Final standings" : "Leaderboard",
                                             value: ListText.count(round.standings.count, "player"),
                                             frame: area, children: elements))

        let count = round.standings.count
        if count > visible, !alwaysOn { scrollIndicator(count: count, visible: visible, area: area, into: &list) }
    }

    /// Columns as wide as this round needs ("+12"), so large text leaves names room; the position
    /// column is as wide as the widest tie this round can have ("T5" with six players), so names
    /// do not shift when a tie comes or goes. The ▲/▼ of a reshuffle sits between that width and
    /// the name, touching neither.
    ///
    /// Stacked rows (large text) put the place and the score on one line with nothing between: in
    /// a round of 13 at 41 mm, "13" and "+20" in full size are wider than the watch, so both get
    /// smaller until they fit side by side ("13+20" was drawn one over the other).
    func leaderboardColumns(_ round: RoundSnapshot) -> LeaderboardColumns {
        var scale = 1.0
        var columns = leaderboardColumns(round, scale: scale)
        let room = m.width - m.margin * 2.5
        while m.stackedRows, columns.positionWidth + columns.scoreWidth > room, scale > 0.5 {
            scale *= 0.95
            columns = leaderboardColumns(round, scale: scale)
        }
        return columns
    }

    private func leaderboardColumns(_ round: RoundSnapshot, scale: Double) -> LeaderboardColumns {
        func scaled(_ size: Double) -> Double { scale == 1 ? size : (size * scale).rounded(.down) }
        let positionFont = FontSpec(.sansBold, scaled(m.rowText))
        // The spec's 22 pt for the score; DejaVu Sans Bold's digits are all one width (they line
        // up as SF Mono's do) without the mono face's dotted zero, which makes "10" read like code.
        let scoreFont = FontSpec(.sansBold, scaled(m.title))
        let arrowFont = FontSpec(.sans, m.caption * 0.8)
        let arrowWidth = measurer.width("▲", arrowFont)
        let widestTie = "T\(max(1, round.standings.count - 1))"
        let widestPosition = max(measurer.width("8", positionFont) * 1.6, measurer.width(widestTie, positionFont),
                                 round.standings.map { measurer.width(ScoreFormat.position(of: $0), positionFont) }.max() ?? 0)
        let scoreWidth = max(measurer.width("E", scoreFont),
                             round.standings.map { measurer.width($0.holesPlayed > 0 ? ScoreFormat.relativeToPar($0.scoreRelativeToPar) : "-", scoreFont) }.max() ?? 0)
        return LeaderboardColumns(positionFont: positionFont, nameFont: FontSpec(.sansCondensedBold, m.rowText), scoreFont: scoreFont, arrowFont: arrowFont,
                                  arrowWidth: arrowWidth, widestPosition: widestPosition,
                                  positionWidth: widestPosition + max(m.margin * 0.5, arrowWidth + 8), scoreWidth: scoreWidth)
    }

    /// The rows in view and where each is now (a fraction of a slot while it slides), in the order
    /// they are drawn: rows sliding past each other never overprint, since each row has an opaque
    /// background and the rows moving up pass over the others.
    func placedRows(_ round: RoundSnapshot, visible: Int, reshuffle: Reshuffle?, crossfading: Bool) -> [(standing: Standing, slot: Double, index: Int)] {
        var rows: [(standing: Standing, slot: Double, index: Int)] = []
        // At rest the rows on screen fill the list; while rows slide, one more may pass under the
        // footer band on its way in or out.
        let sliding = reshuffle.map { now.timeIntervalSince($0.startedAt) < $0.slideEnd } ?? false
        for (index, standing) in round.standings.enumerated() {
            let at = state.reduceMotion ? Double(index) : reshuffle?.row(of: standing.playerID, index: index, at: now) ?? Double(index)
            let slot = at - Double(state.scrollRow)
            guard slot > -1, slot < Double(visible) + (sliding ? 1 : 0) else { continue }
            rows.append((standing, slot, index))
        }
        if let reshuffle, !crossfading, now.timeIntervalSince(reshuffle.startedAt) < reshuffle.slideEnd {
            rows.sort { a, b in
                func rank(_ id: PlayerID) -> Int { reshuffle.movedUp[id].map { $0 ? 2 : 1 } ?? 0 }
                return (rank(a.standing.playerID), a.index) < (rank(b.standing.playerID), b.index)
            }
        }
        return rows
    }

    /// One row, drawn at `slot`; returns what VoiceOver says of it, when any of it is in the list.
    func leaderboardRow(_ standing: Standing, slot: Double, opacity: Double, _ pass: LeaderboardPass,
                        into list: inout DisplayList) -> AccessibilityElement? {
        let c = pass.columns, final = pass.final, round = pass.round, area = pass.area
        let frame = WatchLayout.rowFrame(slot: slot, size: size, textSize: state.textSize)
        let own = standing.playerID == state.wearerID
        // No background of its own: a row sliding past another does not wipe its text out.
        if own {
            // A lighter fill alone is 1.2:1 on the background: the outline is what marks the row as yours.
            let band = Rect(x: m.margin * 0.25, y: frame.y + 4, width: m.width - m.margin * 0.5, height: frame.height - 8)
            list.commands.append(.rect(band, HyzerColor.elevated.opacity(opacity), cornerRadius: 12))
            list.commands.append(.ring(band, HyzerColor.textSecondary.opacity(opacity), thickness: 2, cornerRadius: 12))
        }
        func color(_ rgba: RGBA) -> RGBA { (pass.stale ? HyzerColor.stale(rgba) : rgba).opacity(opacity) }
        let x = m.margin
        // Stacked (large text): position and score on the first line, the name across the second.
        let stacked = m.stackedRows
        let firstLine = stacked ? Rect(x: 0, y: frame.y + 8, width: m.width, height: (frame.height - 16) / 2) : frame
        let nameLine = stacked ? Rect(x: 0, y: firstLine.y + firstLine.height, width: m.width, height: firstLine.height) : frame
        if stacked {
            // Two-line rows need a rule between them, or a name reads as the row below's.
            list.commands.append(.rect(Rect(x: m.margin, y: frame.y + frame.height - 2, width: m.width - m.margin * 2, height: 2),
                                       HyzerColor.tertiary.opacity(opacity), cornerRadius: 1))
        }
        let positionText = ScoreFormat.position(of: standing)
        if !positionText.isEmpty {
            list.commands.append(.text(positionText, frame: Rect(x: x, y: firstLine.y, width: c.positionWidth, height: firstLine.height),
                                       font: c.positionFont, color: color(standing.position == 1 ? HyzerColor.accent : HyzerColor.textPrimary),
                                       alignment: .leading))
        }
        let nameX = stacked ? x : x + c.positionWidth
        let scoreX = m.width - m.margin - c.scoreWidth
        let pending = !final && state.isPending(standing.playerID)
        let markWidth = measurer.width("!", c.nameFont) + m.margin * 0.75
        let played = standing.holesPlayed > 0
        let scoreText = played ? ScoreFormat.relativeToPar(standing.scoreRelativeToPar) : "-"
        // The scores line up on their right edge; a name runs up to its own row's score ("E"), not
        // to the widest score of the round ("+22"), which cut short names at 41 mm.
        let nameEnd = stacked ? m.width - m.margin : m.width - m.margin - measurer.width(scoreText, c.scoreFont) - m.margin * 0.5
        let nameRoom = nameEnd - nameX - (standing.discrepancy ? markWidth : 0) - (pending ? markWidth : 0)
        // The whole name, else the short one ("Alexandria" where "Alexa…" was all of the whole that fit).
        let name = WatchLayout.fitName(standing.name, short: pass.shortNames[standing.playerID], font: c.nameFont, toFit: nameRoom, measurer: measurer)
        list.commands.append(.text(name, frame: Rect(x: nameX, y: nameLine.y, width: nameRoom, height: nameLine.height),
                                   font: c.nameFont, color: color(HyzerColor.textPrimary), alignment: .leading))
        var markX = nameX + measurer.width(name, c.nameFont) + m.margin * 0.25
        if standing.discrepancy {
            // A status badge, not a score colour: "!" in a purple circle.
            let d = m.rowText * 0.8
            list.commands.append(.rect(Rect(x: markX, y: nameLine.y + (nameLine.height - d) / 2, width: d, height: d),
                                       HyzerColor.status.opacity(opacity), cornerRadius: d / 2))
            list.commands.append(.text("!", frame: Rect(x: markX, y: nameLine.y, width: d, height: nameLine.height),
                                       font: FontSpec(.sansBold, m.caption), color: HyzerColor.background.opacity(opacity), alignment: .center))
            markX += markWidth
        }
        // A score saved here for this row and not yet acked by the phone: a hollow status ring
        // (the "No phone" capsule's hue), not an arrow beside the reshuffle's ▲.
        if pending {
            let d = (m.rowText * 0.45).rounded()
            list.commands.append(.ring(Rect(x: markX, y: nameLine.y + (nameLine.height - d) / 2, width: d, height: d),
                                       HyzerColor.status.opacity(opacity), thickness: 3, cornerRadius: d / 2))
        }
        let tone = ScoreTone.forRound(relativeToPar: standing.scoreRelativeToPar, holesPlayed: standing.holesPlayed)
        list.commands.append(.text(scoreText,
                                   frame: Rect(x: scoreX, y: firstLine.y, width: c.scoreWidth, height: firstLine.height), font: c.scoreFont,
                                   color: color(played ? tone.color : HyzerColor.textSecondary), alignment: .trailing))
        // After the row's own text, so a row still reads "1 Sarah -2" while its arrow shows; only
        // on a row whose text shows (not on the sliver of a row sliding in below the list).
        if pass.arrows > 0, let up = pass.reshuffle?.movedUp[standing.playerID], firstLine.y + firstLine.height / 2 < area.y + area.height {
            list.commands.append(.text(up ? "▲" : "▼", frame: Rect(x: x + c.widestPosition + 4, y: firstLine.y, width: c.arrowWidth, height: firstLine.height * 0.55),
                                       font: c.arrowFont,
                                       color: (up ? HyzerColor.underPar : HyzerColor.overPar).opacity(pass.arrows * opacity), alignment: .center))
        }
        let shown = frame.clipped(to: area)
        guard shown.height > 0 else { return nil }
        var value = played ? ScoreFormat.spokenRelativeToPar(standing.scoreRelativeToPar) : "no holes yet"
        if standing.discrepancy { value += ", discrepancy" }
        if pending { value += ", score waiting to send" }
        if own { value += ", you" }
        return AccessibilityElement(.row, label: WatchLayout.spokenRowLabel(standing), value: value,
                                    hint: final || !round.status.acceptsScores ? nil : "Double tap to enter a score",
                                    frame: shown, partial: shown.height < frame.height - 0.5)
    }

    /// The hole (or the final course) at the top left; under it, once stale, how old the standings are.
    /// `shorter`: forms tried in order when the title does not fit; the last is cut if none does.
    private mutating func header(_ title: String, shorter: [String] = [], into list: inout DisplayList) {
        let room = WatchLayout.clockArea(m).x - m.titleInset
        let age = state.isStale(at: now) && state.screen != .final ? state.age(at: now) : nil
        // The title shares the status bar's band and baseline with the time; staleness goes under it.
        let titleHeight = WatchLayout.clockArea(m).height
        let headerFont = WatchLayout.titleFont(m)
        let available = room - m.margin * 0.25
        list.commands.append(.text(measurer.firstFitting([title] + shorter, font: headerFont, toFit: available),
                                   frame: Rect(x: m.titleInset, y: 0, width: room, height: titleHeight), font: headerFont,
                                   color: HyzerColor.textSecondary, alignment: .leading))
        list.addElement(AccessibilityElement(.heading, label: title, frame: Rect(x: m.titleInset, y: 0, width: room, height: titleHeight)))
        if let age {
            staleLabel(age, frame: Rect(x: m.titleInset, y: titleHeight - 4, width: room, height: m.headerHeight - titleHeight), into: &list)
        }
    }

    /// "◷ 2m ago" in the status colour: the standings shown are old.
    private func staleLabel(_ age: TimeInterval, frame: Rect, into list: inout DisplayList) {
        // Band type, as the title above it: at ax3 the rows' caption made it twice the title.
        let font = FontSpec(.sans, (26 * m.band * 0.85).rounded())
        let icon = "◷"
        let iconWidth = measurer.width(icon + " ", font)
        list.commands.append(.text(icon, frame: Rect(x: frame.x, y: frame.y, width: iconWidth, height: frame.height), font: font,
                                   color: HyzerColor.status, alignment: .leading))
        list.commands.append(.text(ScoreFormat.relativeAge(seconds: age), frame: Rect(x: frame.x + iconWidth, y: frame.y, width: frame.width - iconWidth, height: frame.height),
                                   font: font, color: HyzerColor.status, alignment: .leading))
        list.addElement(AccessibilityElement(.status, label: "Standings out of date", value: "updated \(ScoreFormat.spokenAge(seconds: age))", frame: frame))
    }

    /// Where a long list is: a thumb along the right edge, and "5–8 of 20" for a moment after scrolling.
    /// The scroll track and thumb at the right edge; `first` is the first row on screen (the
    /// leaderboard's scroll position by default).
    private func scrollIndicator(count: Int, visible: Int, first top: Int? = nil, area: Rect, into list: inout DisplayList) {
        let top = top ?? state.scrollRow
        let track = Rect(x: m.width - 8, y: area.y + 4, width: 5, height: area.height - 8)
        let thumbHeight = max(24, track.height * Double(visible) / Double(count))
        let offset = (track.height - thumbHeight) * Double(top) / Double(count - visible)
        list.commands.append(.rect(track, HyzerColor.tertiary, cornerRadius: 2.5))
        list.commands.append(.rect(Rect(x: track.x, y: track.y + offset, width: track.width, height: thumbHeight), HyzerColor.scrollThumb, cornerRadius: 2.5))
        let first = top + 1, last = min(count, top + visible)
        list.addElement(AccessibilityElement(.status, label: "Scroll position", value: first == last ? "row \(first) of \(count)" : "rows \(first) to \(last) of \(count)", frame: track))
        guard let at = state.lastScrollAt, now.timeIntervalSince(at) < WatchState.scrollPositionShown else { return }
        let text = first == last ? "\(first) of \(count)" : "\(first)–\(last) of \(count)"
        let pill: Rect, font: FontSpec
        if case .voice = state.screen {
            font = FontSpec(.sansBold, m.caption)
            let width = measurer.width(text, font) + m.margin
            pill = Rect(x: (m.width - width) / 2, y: area.y + area.height - m.caption * 1.5 - 6, width: width, height: m.caption * 1.5)
        } else {
            // In the footer band, under the rows (over the last row it hid the name just scrolled
            // to); while the band says something the scroll bar alone does.
            guard !footerBandInUse else { return }
            font = FontSpec(.sansBold, (26 * m.band).rounded())
            let width = measurer.width(text, font) + m.margin
            pill = Rect(x: (m.width - width) / 2, y: m.height - m.footerHeight - m.margin * 0.25 + 2, width: width, height: m.footerHeight - 4)
        }
        list.commands.append(.rect(pill, HyzerColor.tertiary, cornerRadius: pill.height / 2))
        list.commands.append(.text(text, frame: pill, font: font, color: HyzerColor.textPrimary, alignment: .center))
    }

    // MARK: Crown

    mutating func crownScreen(_ entry: CrownEntry, into list: inout DisplayList) {
        screenLabel = "Score input"
        let tone = ScoreTone.forHole(relativeToPar: entry.relativeToPar)
        // The hole at the top left; re-scoring says so under it: the score the hole has, from
        // whom (Save corrects it).
        let heading = "Hole \(entry.hole)"
        let room = WatchLayout.clockArea(m).x - m.titleInset
        // The hole and the line under it grow as the header does (less than the rows): the
        // number below is what large text is for.
        let headingFont = FontSpec(.sans, (26 * m.band).rounded())
        let headingFrame = Rect(x: m.titleInset, y: m.margin * 0.25, width: room, height: headingFont.size * 1.6)
        list.commands.append(.text(heading, frame: headingFrame, font: headingFont, color: HyzerColor.textSecondary, alignment: .leading))
        list.addElement(AccessibilityElement(.heading, label: heading, frame: headingFrame))
        var claimsExtra = 0.0
        if let strokes = entry.scoredStrokes {
            // A disputed hole says so first, in the status hue the leaderboard's mark uses; else in
            // the secondary text (the accent is for what a tap does).
            let by = entry.scoredBy.map { " by \($0.name)" } ?? ""
            let font = FontSpec(.sans, (headingFont.size * 0.85).rounded())
            let width = m.width - m.margin * 2
            let lines = !entry.claims.isEmpty ? WatchLayout.shownClaims(entry.claims, fitting: width, font: font, measurer: measurer)
                : [entry.disputed ? "Disputed · \(strokes)\(by)" : "Scored \(strokes)\(by)"]
            for (index, line) in lines.enumerated() {
                let frame = Rect(x: m.margin, y: headingFrame.y + headingFrame.height - 6 + font.size * 1.3 * Double(index), width: width, height: font.size * 1.3)
                list.commands.append(.text(measurer.truncate(line, font: font, toFit: frame.width), frame: frame, font: font,
                                           color: entry.disputed ? HyzerColor.status : HyzerColor.textSecondary, alignment: .center))
            }
            // A second line of scores moves what is under them down by its height.
            claimsExtra = font.size * 1.3 * Double(lines.count - 1)
            let label = !entry.claims.isEmpty ? "Disputed. \(WatchLayout.spokenClaims(entry.claims)) The organizer settles it on the phone."
                : entry.disputed ? "Disputed. Scored \(strokes)\(by). The organizer settles it on the phone." : lines[0]
            list.addElement(AccessibilityElement(.text, label: label, frame: Rect(x: m.margin, y: headingFrame.y + headingFrame.height - 6, width: width,
                                                                                 height: font.size * 1.3 * Double(lines.count))))
        }
        let button = WatchLayout.saveButton(size: size, textSize: state.textSize)
        let nameTop = headingFrame.y + headingFrame.height + (entry.scoredStrokes == nil ? 0 : headingFont.size * 0.7) + claimsExtra
        // The name, the number and par stack between the top and Save; at large text sizes they
        // shrink to fit rather than Save covering the number or par falling off the face. The name
        // and par grow as the bands do (the hole above, Save below) and give way first, down to
        // their size at the default text size (l); then the number. So from xxxl up (where the
        // bands stop growing) the number does not shrink as the text size grows: large text is for
        // it, and it read smaller at ax3 than at xxxl when all three shrank together.
        let space = button.y - 8 - nameTop
        let nameWanted = (44 * m.band).rounded(), parWanted = (26 * m.band).rounded()
        let numberWanted = m.hero * 1.25, restWanted = nameWanted * 1.5 + parWanted * 1.5
        let restFit = max(min(1, 1 / m.band), min(1, (space - numberWanted) / restWanted))
        let numberFit = max(0.4, min(1, (space - restWanted * restFit) / numberWanted))
        let nameFont = FontSpec(.sansBold, (nameWanted * restFit).rounded()), heroFont = FontSpec(.sansBold, (m.hero * numberFit).rounded())
        let parFont = FontSpec(.sans, (parWanted * restFit).rounded()), relativeFont = FontSpec(.sansBold, (parWanted * restFit).rounded())
        let short = state.round.flatMap { WatchLayout.shortNames($0)[entry.playerID] }
        let name = WatchLayout.fitName(entry.playerName, short: short, font: nameFont, toFit: m.width - m.margin * 2, measurer: measurer)
        let nameFrame = Rect(x: m.margin, y: nameTop, width: m.width - m.margin * 2, height: nameFont.size * 1.5)
        list.commands.append(.text(name, frame: nameFrame, font: nameFont, color: HyzerColor.textPrimary, alignment: .center))
        // The number, par and relative value sit centred between the name and the Save button.
        let nameBottom = nameTop + nameFrame.height
        let block = heroFont.size * 1.25 + parFont.size * 1.5
        let numberTop = nameBottom + max(0, (button.y - nameBottom - block) / 2)
        let numberFrame = Rect(x: 0, y: numberTop, width: m.width, height: heroFont.size * 1.25)
        list.commands.append(.text("\(entry.value)", frame: numberFrame, font: heroFont, color: tone.color, alignment: .center))
        let parTop = numberTop + numberFrame.height
        // "Par 3  -1" centred as one line under the number.
        let parText = "Par \(entry.par)", relative = ScoreFormat.relativeToPar(entry.relativeToPar)
        let parWidth = measurer.width(parText, parFont), relativeWidth = measurer.width(relative, relativeFont), gap = m.margin * 0.5
        let parX = (m.width - parWidth - gap - relativeWidth) / 2
        list.commands.append(.text(parText, frame: Rect(x: parX, y: parTop, width: parWidth, height: parFont.size * 1.5),
                                   font: parFont, color: HyzerColor.textSecondary, alignment: .leading))
        list.commands.append(.text(relative, frame: Rect(x: parX + parWidth + gap, y: parTop, width: relativeWidth + 2, height: parFont.size * 1.5),
                                   font: relativeFont, color: tone.color, alignment: .leading))
        list.addElement(AccessibilityElement(.adjustable, label: "Score for \(entry.playerName)",
                                             value: "\(entry.value), \(ScoreFormat.spokenHoleRelative(entry.relativeToPar)), par \(entry.par)",
                                             hint: "Turn the Digital Crown to adjust",
                                             frame: Rect(x: 0, y: nameFrame.y, width: m.width, height: parTop + parFont.size * 1.5 - nameFrame.y)))
        list.commands.append(.rect(button, HyzerColor.accent, cornerRadius: button.height / 2))
        let label = entry.supersedes == nil ? "Save" : "Correct"
        // The button's word grows as the band type does: the number above stays the largest thing.
        list.commands.append(.text(label, frame: button, font: FontSpec(.sansBold, (34 * m.band).rounded()), color: HyzerColor.background, alignment: .center))
        list.addElement(AccessibilityElement(.button, label: label, hint: "Double tap to save \(entry.value) for \(entry.playerName)", frame: button))
    }

    // MARK: No round

    /// The app in the background: the watch face, with the time and date and Hyzer's four
    /// complications (inline, rectangular, corner, circular), showing what they were last
    /// refreshed with and how long ago (`ShownComplication`).
    mutating func watchFace(into list: inout DisplayList) {
        screenLabel = "Watch face"
        let slots = WatchLayout.watchFaceSlots(m)
        let f = m.band
        let date = WatchLayout.dayText(now).uppercased()
        let shown = state.complication
        let content = shown?.content ?? .noRound
        let age = shown.map { ScoreFormat.relativeAge(from: $0.refreshedAt, to: now) }
        let spokenAge = shown.map { "updated " + ScoreFormat.spokenAge(seconds: now.timeIntervalSince($0.refreshedAt)) }

        // Inline, above the time.
        let inlineFont = FontSpec(.sansBold, (26 * f).rounded())
        list.commands.append(.text(measurer.firstFitting(content.inlineForms, font: inlineFont, toFit: slots.inline.width), frame: slots.inline,
                                   font: inlineFont, color: HyzerColor.textPrimary, alignment: .center))
        list.addElement(complicationElement("Hyzer", content.spoken, spokenAge, WatchLayout.complicationSlots(m)[0].frame))

        // The time and the date.
        let time = WatchLayout.clockText(now)
        list.commands.append(.text(time, frame: slots.time, font: slots.timeFont, color: HyzerColor.textPrimary, alignment: .center))
        list.addElement(AccessibilityElement(.text, label: time, frame: slots.time))
        if let dateFrame = slots.date {
            list.commands.append(.text(date, frame: dateFrame, font: FontSpec(.sansBold, (26 * f * 1.1).rounded()), color: HyzerColor.accent,
                                       alignment: .center))
            list.addElement(AccessibilityElement(.text, label: date, frame: dateFrame))
        }

        rectangularComplication(content, age: age, spokenAge: spokenAge, in: slots.rectangular, into: &list)

        // Corner: the score to par, in its colour, under a label.
        let labelFont = FontSpec(.sansBold, (22 * f).rounded()), cornerFont = FontSpec(.sansBold, (34 * f).rounded())
        let corner = slots.corner, labelHeight = slots.cornerLabel ? (labelFont.size * 1.3).rounded() : 0
        if slots.cornerLabel {
            list.commands.append(.text("TO PAR", frame: Rect(x: corner.x, y: corner.y, width: corner.width, height: labelHeight),
                                       font: labelFont, color: HyzerColor.textSecondary, alignment: .leading))
        }
        let tone = ScoreTone.forRound(relativeToPar: content.scoreRelativeToPar, holesPlayed: content.holesPlayed)
        list.commands.append(.text(content.corner, frame: Rect(x: corner.x, y: corner.y + labelHeight, width: corner.width, height: corner.height - labelHeight),
                                   font: cornerFont, color: content.hasRound ? tone.color : HyzerColor.textSecondary, alignment: .leading))
        list.addElement(complicationElement("Hyzer score to par", content.hasRound ? content.spokenToPar : content.spoken, spokenAge, slots.corner))

        // Circular: the position inside a gauge of the holes played.
        let ring = slots.circular
        let thickness = (ring.width * 0.09).rounded()
        list.commands.append(.arc(ring, HyzerColor.tertiary, thickness: thickness, fraction: 1))
        if content.gauge > 0 { list.commands.append(.arc(ring, HyzerColor.accent, thickness: thickness, fraction: content.gauge)) }
        let inner = Rect(x: ring.x + thickness * 1.5, y: ring.y, width: ring.width - thickness * 3, height: ring.height)
        // "T11" as well as "2": the type shrinks to fit inside the ring rather than being cut.
        var positionFont = FontSpec(.sansBold, (ring.height * 0.36).rounded())
        while positionFont.size > 12, measurer.width(content.circular, positionFont) > inner.width { positionFont.size -= 2 }
        list.commands.append(.text(measurer.truncate(content.circular, font: positionFont, toFit: inner.width), frame: inner,
                                   font: positionFont, color: HyzerColor.textPrimary, alignment: .center))
        let circularValue = content.spokenPlace.map { "\($0), thru \(content.holesPlayed) of \(content.holeCount) holes" } ?? content.spoken
        list.addElement(complicationElement("Hyzer place", circularValue, spokenAge, ring))
    }

    /// The rectangular complication: place and name, score and holes, and how old it is.
    private func rectangularComplication(_ content: ComplicationContent, age: String?, spokenAge: String?, in frame: Rect,
                                         into list: inout DisplayList) {
        let f = m.band
        list.commands.append(.rect(frame, HyzerColor.elevated, cornerRadius: 24))
        let fonts = [FontSpec(.sansBold, (30 * f).rounded()), FontSpec(.sans, (28 * f).rounded()), FontSpec(.sans, (24 * f).rounded())]
        let lines = content.rectangularForms + [age.map { ["Updated \($0)", $0.prefix(1).uppercased() + $0.dropFirst()] } ?? ["Not updated yet", "Not updated"]]
        // Past 15 minutes (WidgetKit's shortest reload interval) the age says so in the status hue.
        let old = state.complication.map { now.timeIntervalSince($0.refreshedAt) >= 15 * 60 } ?? false
        let colors = [HyzerColor.textPrimary, HyzerColor.textPrimary, old ? HyzerColor.status : HyzerColor.textSecondary]
        var y = frame.y + 12
        for (index, line) in lines.enumerated() {
            let height = (fonts[index].size * 1.3).rounded()
            let lineFrame = Rect(x: frame.x + 20, y: y, width: frame.width - 40, height: height)
            list.commands.append(.text(measurer.firstFitting(line, font: fonts[index], toFit: lineFrame.width), frame: lineFrame,
                                       font: fonts[index], color: colors[index], alignment: .leading))
            y += height
        }
        list.addElement(complicationElement("Hyzer standings", content.spoken, spokenAge, frame))
    }

    /// A complication as VoiceOver reads it: which one, what it says, how old; a button that opens Hyzer.
    private func complicationElement(_ label: String, _ value: String, _ spokenAge: String?, _ frame: Rect) -> AccessibilityElement {
        AccessibilityElement(.button, label: label, value: [value, spokenAge].compactMap { $0 }.joined(separator: ", "),
                             hint: "Opens Hyzer", frame: frame)
    }

    mutating func noRound(into list: inout DisplayList) {
        screenLabel = "No active round"
        let waiting = state.snapshot == nil
        let title = waiting ? "No standings yet" : "No active round"
        // Waiting says for what: a hub to pair with, a readable standings file, or the phone.
        let detail = waiting ? state.pairingProblem ?? (state.snapshotProblem?.contains("corrupt") == true ? "Standings file unreadable" : "Waiting for the phone")
            : state.finishedRound.map { "Last: \($0.courseName)" + (state.finishedAt.map { " · \(WatchLayout.dayText($0))" } ?? "") } ?? "Start one on the phone"
        var blocks = [MessageBlock(text: title, font: FontSpec(.sansBold, m.rowText), color: HyzerColor.textPrimary, role: .heading),
                      MessageBlock(text: detail, font: caption, color: HyzerColor.textSecondary)]
        if !waiting, let finished = state.finishedRound {
            // The wearer's own result first (as the final screen's footer says it, and after a
            // relaunch, when only this screen shows the round), then who won.
            if let (result, own) = wearerResult(finished) {
                blocks.append(MessageBlock(text: result, font: caption, color: HyzerColor.textPrimary,
                                           spoken: "\(WatchLayout.spokenFinish(own)), \(ScoreFormat.spokenRelativeToPar(own.scoreRelativeToPar))"))
            }
            if let winners = WatchLayout.winnerLine(finished) {
                blocks.append(MessageBlock(text: winners, font: caption, color: HyzerColor.textPrimary, spoken: WatchLayout.winnerLine(finished, spoken: true)))
            }
        }
        message(blocks, into: &list)
        if let age = state.isStale(at: now) ? state.age(at: now) : nil {
            staleLabel(age, frame: Rect(x: m.titleInset, y: 0, width: WatchLayout.clockArea(m).x - m.titleInset, height: m.headerHeight), into: &list)
        }
    }

    // MARK: Voice

    /// The voice confirmation overlay: "Scores heard", a row per name (name, dotted leader,
    /// score), "?" on what is unresolved, the countdown to auto-save (or Save once a row is tapped).
    mutating func voiceOverlay(_ overlay: VoiceOverlay, into list: inout DisplayList) {
        screenLabel = "Voice scores"
        voiceHeading(overlay, into: &list)
        if overlay.failed { return voiceNotUnderstood(overlay, into: &list) }
        // More rows than fit at 44 pt: those on screen and a scroll indicator; the crown scrolls
        // (and restarts the 1.5 s, as a correction does).
        let shown = WatchLayout.voiceRowsShown(of: overlay.rows.count, size: size, textSize: state.textSize)
        let onScreen = overlay.rows.indices.filter { $0 >= overlay.firstRow && $0 < overlay.firstRow + shown }
        let rows = onScreen.map { voiceRow($0, of: overlay, into: &list) }
        let area = Rect(x: 0, y: WatchLayout.voiceTitleHeight(m), width: m.width, height: WatchLayout.voiceSaveButton(size: size, textSize: state.textSize).y - WatchLayout.voiceTitleHeight(m))
        list.addElement(AccessibilityElement(.list, label: "Scores heard", value: ListText.count(overlay.rows.count, "score"), frame: area, children: rows))
        if shown < overlay.rows.count { scrollIndicator(count: overlay.rows.count, visible: shown, first: overlay.firstRow, area: area, into: &list) }
        voiceSave(overlay, into: &list)
    }

    /// "Scores heard" and, under it, the hole.
    func voiceHeading(_ overlay: VoiceOverlay, into list: inout DisplayList) {
        // Clear of the corner and the status-bar clock.
        let title = overlay.failed ? "Not understood" : "Scores heard"
        let titleFrame = Rect(x: m.titleInset, y: 0, width: WatchLayout.clockArea(m).x - m.titleInset, height: WatchLayout.voiceTitleHeight(m) * 0.55)
        // The header's type, which grows less than the rows' (it shares the top with the clock).
        var titleFont = FontSpec(.sans, (26 * m.band).rounded())
        // "Not understood" narrows a little before it is cut beside the clock.
        let smallest = (titleFont.size * 0.8).rounded()
        while titleFont.size > smallest, measurer.width(title, titleFont) > titleFrame.width - 4 { titleFont.size -= 1 }
        // Then a shorter form, as the leaderboard's header: "Heard"; under it "Hole 12".
        let shownTitle = measurer.firstFitting(overlay.failed ? [title] : [title, "Heard"], font: titleFont, toFit: titleFrame.width - 4)
        list.commands.append(.text(shownTitle, frame: titleFrame,
                                   font: titleFont, color: overlay.failed ? HyzerColor.textPrimary : HyzerColor.textSecondary, alignment: .leading))
        let subtitle = "Hole \(overlay.hole) · par \(overlay.par)"
        let subtitleFont = FontSpec(.sans, (titleFont.size * 0.85).rounded())
        let subtitleFrame = Rect(x: m.titleInset, y: titleFrame.height - 4, width: titleFrame.width, height: WatchLayout.voiceTitleHeight(m) - titleFrame.height)
        let shownSubtitle = measurer.firstFitting([subtitle, "Hole \(overlay.hole)"], font: subtitleFont, toFit: subtitleFrame.width)
        list.commands.append(.text(shownSubtitle, frame: subtitleFrame,
                                   font: subtitleFont, color: HyzerColor.textSecondary, alignment: .leading))
        list.addElement(AccessibilityElement(.heading, label: title, value: subtitle,
                                             frame: Rect(x: m.titleInset, y: 0, width: titleFrame.width, height: WatchLayout.voiceTitleHeight(m))))
    }

    /// What was heard, when it read as no score at all.
    func voiceNotUnderstood(_ overlay: VoiceOverlay, into list: inout DisplayList) {
        message([MessageBlock(text: "Heard \"\(overlay.transcript)\"", font: caption, color: HyzerColor.textPrimary),
                 MessageBlock(text: "Try again?", font: FontSpec(.sansBold, m.rowText), color: HyzerColor.textPrimary),
                 MessageBlock(text: "Back to cancel", font: caption, color: HyzerColor.textSecondary)],
                top: WatchLayout.voiceTitleHeight(m), into: &list)
    }

    /// A few lines of text centred between `top` and the footer: each block wraps (at most three
    /// lines) rather than losing its end, and the whole stays on the display at every text size.
    /// Which blocks of a message an option of `message` keeps whole (no word cut).
    enum MessageWhole { case all, allButLast, none }

    func message(_ blocks: [MessageBlock], top: Double? = nil, into list: inout DisplayList) {
        let width = m.width - m.margin * 2
        // Clear of the footer band, and of a banner (up to two lines, over the status) while one shows.
        let top = top ?? m.headerHeight, bottom = m.height - m.footerHeight * (shownBanner == nil ? 1 : 3) - m.margin * 0.5
        let gap = m.margin * 0.25
        // Three lines a block where they fit, in type a little smaller if need be (at the largest
        // text sizes a message read whole beats one cut to "No s…"), else two, else one.
        var wrapped: [(block: MessageBlock, lines: [String])] = []
        var height = 0.0
        // (lines a block, lines for the last, type scale, which blocks must be whole). Before any
        // word of the first blocks is cut, the last (the least needed: "Alexandria Ocasio & Sarah
        // tied") takes fewer lines, then the last blocks wait, down to the title and the line under
        // it (VoiceOver still reads them; under a banner they come back when it goes); cutting
        // words comes last (at 41 mm ax3 it read "No active…" where the title had room).
        let whole: [(Int, Int, Double, MessageWhole)] = [
            (3, 3, 1.0, .all), (3, 3, 0.85, .all), (3, 3, 0.7, .all), (3, 3, 0.55, .all),
            (3, 2, 0.7, .allButLast), (3, 2, 0.55, .allButLast), (3, 1, 0.55, .allButLast)]
        let cutting: [(Int, Int, Double, MessageWhole)] = [(3, 3, 0.7, .none), (2, 2, 0.55, .none), (1, 1, 0.55, .none)]
        let tries = stride(from: blocks.count, through: min(2, blocks.count), by: -1).map { (Array(blocks.prefix($0)), whole) }
            + stride(from: blocks.count, through: 1, by: -1).map { (Array(blocks.prefix($0)), cutting) }
        var shown = blocks
        fitting: for (candidate, options) in tries {
            shown = candidate
            for (maxLines, lastMaxLines, scale, whole) in options {
                wrapped = shown.enumerated().map { index, block in
                    let font = FontSpec(block.font.family, (block.font.size * scale).rounded())
                    return (block: MessageBlock(text: block.text, font: font, color: block.color, role: block.role, spoken: block.spoken),
                            lines: measurer.wrap(block.text, font: font, toFit: width, maxLines: index == shown.count - 1 ? lastMaxLines : maxLines))
                }
                height = wrapped.reduce(0) { $0 + Double($1.lines.count) * ($1.block.font.size * 1.3).rounded() } + gap * Double(shown.count - 1)
                let mustBeWhole = whole == .all ? wrapped[...] : whole == .allButLast ? wrapped.dropLast() : []
                let cut = mustBeWhole.contains { $0.lines.joined(separator: " ") != $0.block.text }
                if height <= bottom - top, !cut { break fitting }
            }
        }
        for block in blocks.dropFirst(shown.count) {
            list.addElement(AccessibilityElement(block.role, label: block.spoken ?? block.text, frame: Rect(x: m.margin, y: top, width: width, height: 1)))
        }
        var y = max(top, (top + bottom - height) / 2)
        for (block, lines) in wrapped {
            let lineHeight = (block.font.size * 1.3).rounded()
            let blockFrame = Rect(x: m.margin, y: y, width: width, height: lineHeight * Double(lines.count))
            for line in lines {
                list.commands.append(.text(line, frame: Rect(x: m.margin, y: y, width: width, height: lineHeight),
                                           font: block.font, color: block.color, alignment: .center))
                y += lineHeight
            }
            list.addElement(AccessibilityElement(block.role, label: block.spoken ?? block.text, frame: blockFrame))
            y += gap
        }
    }

    /// One heard score: the name (or what was heard, "?" while unsure), what it needs or
    /// disputes under it, a dotted leader, the strokes; returns what VoiceOver says of it.
    func voiceRow(_ index: Int, of overlay: VoiceOverlay, into list: inout DisplayList) -> AccessibilityElement {
        let row = overlay.rows[index]
        let frame = WatchLayout.voiceRowFrame(index, of: overlay.rows.count, firstRow: overlay.firstRow, size: size, textSize: state.textSize)
        // Stacked (large text), as the leaderboard's rows are: the name across the first line, what
        // it needs and the score on the second (beside the score a name had room for a letter or two).
        let stacked = m.stackedRows
        let lineHeight = stacked ? (frame.height - 8) / 2 : frame.height
        let nameLine = Rect(x: frame.x, y: frame.y + (stacked ? 4 : 0), width: frame.width, height: lineHeight)
        let scoreLine = stacked ? Rect(x: frame.x, y: nameLine.y + lineHeight, width: frame.width, height: lineHeight) : frame
        // The type grows with the text size as far as the row's height lets it.
        let nameFont = FontSpec(.sansBold, min(m.rowText, (lineHeight * (stacked ? 0.8 : 0.6)).rounded()))
        let scoreFont = FontSpec(.sansBold, min(m.title, (scoreLine.height * (stacked ? 0.9 : 0.75)).rounded()))
        let scoreWidth = measurer.width("10?", scoreFont)
        let selected = overlay.selected == index
        if selected {
            list.commands.append(.rect(frame, HyzerColor.elevated, cornerRadius: 12))
        }
        if stacked {
            // Two-line rows need a rule between them, or a score reads as the next row's.
            list.commands.append(.rect(Rect(x: frame.x + m.margin * 0.5, y: frame.y + frame.height - 2, width: frame.width - m.margin, height: 2),
                                       HyzerColor.tertiary, cornerRadius: 1))
        }
        let ready = row.isReady
        // An unresolved name shows what was heard, or who it could be, with "?".
        let name: String, mark: String
        if let player = row.player {
            (name, mark) = (player.name, ready || row.value == nil ? "" : "?")
        } else if row.candidates.count == 1 {
            (name, mark) = (row.candidates[0].name, "?")
        } else {
            (name, mark) = (row.heard.isEmpty ? "(no name)" : row.heard, "?")
        }
        let besideScore = frame.width - scoreWidth - m.margin * 1.5
        let nameRoom = stacked ? frame.width - m.margin : besideScore
        // The whole name, else its short form ("Holyn", as the leaderboard's rows), else cut; the
        // "?" stays when a long name is cut short.
        let who = row.player?.id ?? (row.candidates.count == 1 ? row.candidates[0].id : nil)
        let short = who.flatMap { id in state.round.flatMap { WatchLayout.shortNames($0)[id] } }
        let fitted = measurer.firstFitting([name] + (short.map { [$0] } ?? []), font: nameFont, toFit: nameRoom - measurer.width(mark, nameFont))
        let shown = fitted + mark
        let nameColor = ready ? HyzerColor.textPrimary : HyzerColor.textSecondary
        // What an unresolved row needs, under its name when the row has room.
        // Its forms, the first that fits shown (the last cut if none does); VoiceOver reads the first.
        let disputes: [String]? = row.existingStrokes.flatMap { was in
            guard let value = row.value, was != value else { return nil }
            let who = row.existingBy?.name ?? "Phone"
            return row.existingBy == .thisWatch ? ["Replaces \(was)"] : ["\(who) has \(was): disputes", "\(who) has \(was)"]
        }
        let notes: [String]? = ready ? disputes
            : row.player == nil && row.candidates.count > 1 ? [row.candidates.map(\.name).joined(separator: " or ") + " · tap", row.candidates.map(\.name).joined(separator: " or ")]
            : row.player == nil && row.candidates.count == 1 ? ["Heard \"\(row.heard)\" · tap", "Heard \"\(row.heard)\""]
            : row.player == nil ? ["Not in this round", "Not in round"]
            : row.scoreRefused ? ["\"\(row.said)\" is out of range · tap", "\"\(row.said)\" out of range", "Out of range"]
            : row.value == nil ? ["No score heard · tap", "No score heard", "No score"] : ["Named twice · tap", "Named twice"]
        let note = notes?.first
        // Smaller than the name, on a stacked row's second line too.
        let noteFont = FontSpec(.sans, min(m.caption * 0.85, (lineHeight * 0.6).rounded()))
        let withNote = note != nil && (stacked || frame.height >= m.rowText * 1.3 + noteFont.size * 1.3)
        let noteColor = ready ? HyzerColor.status : HyzerColor.textSecondary
        let nameHeight = withNote && !stacked ? frame.height * 0.62 : lineHeight
        list.commands.append(.text(shown, frame: Rect(x: frame.x + m.margin * 0.5, y: nameLine.y, width: nameRoom, height: nameHeight),
                                   font: nameFont, color: nameColor, alignment: .leading))
        if withNote, let note {
            let noteFrame = stacked ? Rect(x: frame.x + m.margin * 0.5, y: scoreLine.y, width: besideScore, height: scoreLine.height)
                : Rect(x: frame.x + m.margin * 0.5, y: frame.y + nameHeight - noteFont.size * 0.2, width: nameRoom, height: noteFont.size * 1.3)
            list.commands.append(.text(measurer.firstFitting(notes ?? [note], font: noteFont, toFit: noteFrame.width), frame: noteFrame,
                                       font: noteFont, color: noteColor, alignment: .leading))
        }
        // The dotted leader from the name to the score, on one line, and only after a whole name
        // (a dot or two after "Alex…" reads as part of it).
        if !stacked, !fitted.hasSuffix("…") {
            let leaderEnd = frame.x + frame.width - scoreWidth - m.margin * 0.5
            var x = frame.x + m.margin * 0.5 + measurer.width(shown, nameFont) + m.margin * 0.5
            while x + 4 <= leaderEnd {
                list.commands.append(.rect(Rect(x: x, y: frame.y + nameHeight * 0.62, width: 3, height: 3), HyzerColor.textSecondary.opacity(0.6), cornerRadius: 1.5))
                x += 10
            }
        }
        let value = row.value.map(String.init) ?? "?"
        let tone = row.value.map { ScoreTone.forHole(relativeToPar: $0 - overlay.par).color } ?? HyzerColor.textSecondary
        list.commands.append(.text(value, frame: Rect(x: frame.x + frame.width - scoreWidth - m.margin * 0.5, y: scoreLine.y, width: scoreWidth, height: scoreLine.height),
                                   font: scoreFont, color: ready ? tone : HyzerColor.textSecondary, alignment: .trailing))
        let spokenValue = row.value.map { "\(ScoreFormat.spokenNumber($0)), \(ScoreFormat.spokenHoleRelative($0 - overlay.par))" } ?? "no score"
        return AccessibilityElement(.row, label: name + (mark.isEmpty ? "" : ", unsure"),
                                    value: spokenValue + (note.map { ", " + $0.replacingOccurrences(of: " · tap", with: "") } ?? ""),
                                    hint: "Double tap to correct", frame: frame)
    }

    /// The 1.5 s countdown to the automatic save, or the Save button once a correction stopped it.
    func voiceSave(_ overlay: VoiceOverlay, into list: inout DisplayList) {
        let button = WatchLayout.voiceSaveButton(size: size, textSize: state.textSize)
        if let remaining = overlay.remaining(at: now) {
            // The countdown: a bar that empties over 1.5 s.
            let bar = Rect(x: button.x, y: button.y + button.height / 2 - 3, width: button.width, height: 6)
            list.commands.append(.rect(bar, HyzerColor.elevated, cornerRadius: 3))
            if !alwaysOn {
                list.commands.append(.rect(Rect(x: bar.x, y: bar.y, width: bar.width * remaining, height: bar.height), HyzerColor.accent, cornerRadius: 3))
            }
            let hintFont = FontSpec(.sans, (26 * m.band).rounded())
            let hintFrame = Rect(x: button.x, y: bar.y - hintFont.size * 1.6, width: button.width, height: hintFont.size * 1.4)
            // Shorter forms where the whole sentence does not fit.
            let hint = measurer.firstFitting(["Tap a score to correct", "Tap to correct", "Tap to fix"], font: hintFont, toFit: hintFrame.width)
            list.commands.append(.text(hint, frame: hintFrame, font: hintFont,
                                       color: HyzerColor.textSecondary, alignment: .center))
            let seconds = max(0, (overlay.deadline ?? now).timeIntervalSince(now))
            list.addElement(AccessibilityElement(.status, label: "Auto-saving", value: String(format: "in %.1f seconds", seconds),
                                                 hint: "Tap a score to correct it", frame: Rect(x: bar.x, y: hintFrame.y, width: bar.width, height: bar.y + bar.height - hintFrame.y)))
        } else if overlay.canSave {
            list.commands.append(.rect(button, HyzerColor.accent, cornerRadius: button.height / 2))
            list.commands.append(.text("Save", frame: button, font: FontSpec(.sansBold, m.rowText), color: HyzerColor.background, alignment: .center))
            list.addElement(AccessibilityElement(.button, label: "Save", hint: "Double tap to save these scores", frame: button))
        } else {
            // No row would be saved: no Save (it would close the overlay having saved nothing), but
            // what to do instead.
            let font = FontSpec(.sans, (26 * m.band).rounded())
            let hint = measurer.firstFitting(["Tap a name to pick who", "Tap a name"], font: font, toFit: button.width)
            list.commands.append(.text(hint, frame: button, font: font, color: HyzerColor.textSecondary, alignment: .center))
            list.addElement(AccessibilityElement(.text, label: "Nothing to save yet. Tap a name to pick who it is.", frame: button))
        }
    }

    /// The window's voice text line, across the bottom of the face.
    func voiceDraft(_ draft: String, into list: inout DisplayList) {
        let field = Rect(x: m.margin * 0.5, y: m.height - m.buttonHeight - m.margin * 0.5, width: m.width - m.margin, height: m.buttonHeight)
        list.commands.append(.rect(field, HyzerColor.elevated, cornerRadius: 16))
        let prompt = "Say player names and scores"
        list.commands.append(.text(prompt, frame: Rect(x: field.x + m.margin * 0.5, y: field.y, width: field.width - m.margin, height: field.height * 0.45),
                                   font: FontSpec(.sans, m.caption * 0.85), color: HyzerColor.textSecondary, alignment: .leading))
        let font = FontSpec(.sansBold, m.caption)
        // The end of a long line stays visible, as in a text field.
        var shown = draft + "▏"
        while measurer.width(shown, font) > field.width - m.margin, shown.count > 1 { shown.removeFirst() }
        list.commands.append(.text(shown, frame: Rect(x: field.x + m.margin * 0.5, y: field.y + field.height * 0.4, width: field.width - m.margin, height: field.height * 0.55),
                                   font: font, color: HyzerColor.textPrimary, alignment: .leading))
        list.addElement(AccessibilityElement(.textField, label: prompt, value: draft, hint: "Enter to score, Escape to cancel", frame: field))
    }

    // MARK: Footer


    /// Bottom: whether the phone is reachable and how many saved scores wait for it; a transient
    /// banner above that.
    func footer(into list: inout DisplayList) {
        if case .crown = state.screen { return }
        if case .voice = state.screen { return }
        // Status and banners use the footer band's type, which grows less than the rows' (so
        // "No phone" stays on the display at the largest sizes).
        let caption = FontSpec(.sans, (26 * m.band).rounded())
        // Inset enough that a capsule's round ends clear the display's rounded bottom corners.
        let frame = Rect(x: m.margin * 1.5, y: m.height - m.footerHeight - m.margin * 0.25, width: m.width - m.margin * 3, height: m.footerHeight)
        let noPhone = state.linkKnown && !state.reachable
        // With the phone there, unsent scores show on their rows; the count matters when it is away.
        let pending = noPhone && state.pendingTransfers > 0 ? "\(state.pendingTransfers) to send"
            : state.unreadableScores > 0 ? "\(ListText.count(state.unreadableScores, "saved score")) unreadable" : nil
        // A one-line banner takes the footer band for its seconds, in place of the status (which
        // comes back after it), rather than standing over the last row; VoiceOver still has both.
        let banner = shownBanner
        let bannerLines = banner.map { measurer.width($0.text, caption) > frame.width - m.margin && $0.text.contains(": ") ? 2 : 1 } ?? 0
        let statusHidden = bannerLines == 1
        let hasStatus = (noPhone || pending != nil) && !statusHidden
        if noPhone, statusHidden {
            list.addElement(AccessibilityElement(.status, label: "No phone", value: pending.map { _ in "\(ListText.count(state.pendingTransfers, "score")) to send" },
                                                 frame: frame))
        } else if noPhone {
            // Status has its own treatment: a capsule with a purple dot, never a score colour.
            let text = "No phone"
            let dot = m.caption * 0.4
            // "· 1 to send" inside the band: in type up to two fifths smaller (from xxxl, where the
            // band's type is largest, that is about its size at l: at a fifth it was left out, and
            // the count is what a wearer with the phone away needs), then in short ("· 1
            // unreadable"); else not at all (the rows' rings still show what waits; VoiceOver says it).
            let short = state.pendingTransfers > 0 && noPhone ? pending : state.unreadableScores > 0 ? "\(state.unreadableScores) unreadable" : nil
            let choices = [pending, short].compactMap { $0.map { "· \($0)" } }.flatMap { rest in
                [1.0, 0.9, 0.8, 0.7, 0.6].map { (rest: rest, font: FontSpec(caption.family, (caption.size * $0).rounded())) }
            }
            let chosen = choices.first { choice in
                dot + measurer.width(" ", choice.font) * 2 + measurer.width(text, choice.font) + measurer.width(choice.rest, choice.font) + m.margin <= frame.width
            }
            let font = chosen?.font ?? caption, rest = chosen?.rest
            let gap = measurer.width(" ", font)
            let total = dot + gap + measurer.width(text, font) + (rest.map { gap + measurer.width($0, font) } ?? 0)
            let capsule = Rect(x: (m.width - total) / 2 - m.margin * 0.5, y: frame.y + 2, width: total + m.margin, height: frame.height - 4)
            list.commands.append(.rect(capsule, HyzerColor.elevated, cornerRadius: capsule.height / 2))
            var x = capsule.x + m.margin * 0.5
            list.commands.append(.rect(Rect(x: x, y: frame.y + (frame.height - dot) / 2, width: dot, height: dot), HyzerColor.status, cornerRadius: dot / 2))
            x += dot + gap
            list.commands.append(.text(text, frame: Rect(x: x, y: frame.y, width: measurer.width(text, font), height: frame.height),
                                       font: font, color: HyzerColor.textPrimary, alignment: .leading))
            x += measurer.width(text, font) + gap
            if let rest {
                list.commands.append(.text(rest, frame: Rect(x: x, y: frame.y, width: measurer.width(rest, font) + 2, height: frame.height),
                                           font: font, color: HyzerColor.textSecondary, alignment: .leading))
            }
            list.addElement(AccessibilityElement(.status, label: "No phone", value: pending.map { _ in "\(ListText.count(state.pendingTransfers, "score")) to send" },
                                                 frame: capsule))
        } else if let pending {
            if !statusHidden { list.commands.append(.text(pending, frame: frame, font: caption, color: HyzerColor.textSecondary, alignment: .center)) }
            list.addElement(AccessibilityElement(.status, label: pending, frame: frame))
        } else if let (result, own) = finalResult {
            let withStrokes = result + " · \(own.totalStrokes) strokes"
            let text = measurer.width(withStrokes, caption) <= frame.width ? withStrokes : result
            list.commands.append(.text(measurer.truncate(text, font: caption, toFit: frame.width), frame: frame, font: caption,
                                       color: HyzerColor.textPrimary, alignment: .center))
            list.addElement(AccessibilityElement(.status, label: WatchLayout.spokenFinish(own),
                                                 value: ScoreFormat.spokenRelativeToPar(own.scoreRelativeToPar), frame: frame))
        }
        if let banner {
            let color: RGBA = switch banner.style {
            case .info: HyzerColor.textPrimary
            case .success: HyzerColor.underPar
            case .failure: HyzerColor.wayOver
            case .status: HyzerColor.status
            }
            // A banner too long for one line that says what and why ("Mike · hole 3: round is
            // over") takes two, split after the colon, rather than losing the why.
            let width = frame.width - m.margin
            let lines: [String] = if measurer.width(banner.text, caption) > width, let colon = banner.text.range(of: ": ") {
                [String(banner.text[..<colon.lowerBound]), String(banner.text[colon.upperBound...])]
            } else {
                [banner.shorter.isEmpty ? banner.text : measurer.firstFitting([banner.text] + banner.shorter, font: caption, toFit: width)]
            }
            let height = frame.height * Double(lines.count)
            let toast = Rect(x: frame.x, y: frame.y + frame.height - height - (hasStatus ? frame.height + m.margin * 0.25 : 0),
                             width: frame.width, height: height)
            // A toast taller than the footer band stands over the last rows: those it reaches are
            // covered whole, never cut through their letters.
            // (Only a screen of rows: a message keeps clear of the toast itself.)
            let rows: Bool = switch state.screen {
            case .final: state.finishedRound != nil
            case .leaderboard: state.round != nil
            default: false
            }
            let visible = rows ? WatchLayout.visibleRows(size: size, textSize: state.textSize) : 0
            let reached = (0..<visible).map { WatchLayout.rowFrame(slot: Double($0), size: size, textSize: state.textSize) }
                .filter { $0.y + $0.height > toast.y && $0.y < toast.y + toast.height }
            if let top = reached.map(\.y).min() {
                list.commands.append(.rect(Rect(x: 0, y: top, width: m.width, height: m.height - top), HyzerColor.background, cornerRadius: 0))
                // What VoiceOver has of those rows says so too: rows under the toast are not on
                // screen for its seconds (the banner itself is read, and they come back after it).
                for index in list.accessibility.children.indices where list.accessibility.children[index].role == .list {
                    list.accessibility.children[index].children.removeAll { $0.role == .row && $0.frame.y >= top }
                }
            }
            list.commands.append(.rect(toast, HyzerColor.elevated, cornerRadius: frame.height / 2))
            for (index, line) in lines.enumerated() {
                let band = Rect(x: toast.x, y: toast.y + frame.height * Double(index), width: toast.width, height: frame.height)
                list.commands.append(.text(WatchLayout.fitBanner(line, font: caption, width: width, measurer: measurer),
                                           frame: band, font: caption, color: color, alignment: .center))
            }
            list.addElement(AccessibilityElement(.status, label: banner.text, frame: toast))
        }
    }

    func hapticPulse(into list: inout DisplayList) {
        guard let pulse = state.pulse else { return }
        let t = now.timeIntervalSince(pulse.at)
        guard t >= 0, t < HapticPulse.duration else { return }
        let color: RGBA = switch pulse.kind {
        case .tick: HyzerColor.accent
        case .limit, .failure: HyzerColor.wayOver
        case .success: HyzerColor.underPar
        // The accent, not amber: amber says "over par" on this face.
        case .notification: HyzerColor.accent
        }
        let strength = 1 - t / HapticPulse.duration
        let thickness = pulse.kind == .tick || pulse.kind == .notification ? 4.0 : 8.0
        list.commands.append(.ring(Rect(x: 0, y: 0, width: m.width, height: m.height), color.opacity(strength),
                                   thickness: thickness, cornerRadius: m.margin * 2))
    }
}

/// One paragraph of a centred message (`WatchLayout.message`).
struct MessageBlock {
    let text: String
    let font: FontSpec
    let color: RGBA
    var role: AccessibilityElement.Role = .text
    /// What VoiceOver says for it, where the shown text is a shorthand ("You: T3 · +1").
    var spoken: String? = nil
}
