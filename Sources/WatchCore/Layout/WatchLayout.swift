import Foundation
import HyzerKit

/// `WatchState → DisplayList`: every screen of the face, following seeds/001 components 5 and 6.
/// Pure: the same state, clock and fonts always give the same frame.
public enum WatchLayout {
    // MARK: Geometry (shared with hit testing)

    public static func visibleRows(size: WatchSize) -> Int {
        let m = WatchMetrics(size: size)
        return Int((m.height - m.headerHeight - m.footerHeight) / m.rowHeight)
    }

    /// The frame of the row shown at `slot` (0 is the top visible row).
    public static func rowFrame(slot: Double, size: WatchSize) -> Rect {
        let m = WatchMetrics(size: size)
        return Rect(x: 0, y: m.headerHeight + slot * m.rowHeight, width: m.width, height: m.rowHeight)
    }

    /// Which standing a tap lands on, by index into the round's standings.
    public static func row(at point: Point, state: WatchState, size: WatchSize) -> Int? {
        guard let standings = state.round?.standings else { return nil }
        for slot in 0..<visibleRows(size: size) {
            let index = state.scrollRow + slot
            if index < standings.count, rowFrame(slot: Double(slot), size: size).contains(point) { return index }
        }
        return nil
    }

    public static func saveButton(size: WatchSize) -> Rect {
        let m = WatchMetrics(size: size)
        return Rect(x: m.margin * 1.5, y: m.height - m.margin - m.buttonHeight, width: m.width - m.margin * 3, height: m.buttonHeight)
    }

    // MARK: Voice overlay geometry

    /// The title band above the overlay's rows.
    static func voiceTitleHeight(size: WatchSize) -> Double { WatchMetrics(size: size).headerHeight }

    /// The frame of overlay row `index` of `count`: 44 pt rows (56 pt when few), shrinking to fit many.
    public static func voiceRowFrame(_ index: Int, of count: Int, size: WatchSize) -> Rect {
        let m = WatchMetrics(size: size)
        let top = voiceTitleHeight(size: size)
        let room = voiceSaveButton(size: size).y - m.margin * 0.5 - top
        let height = min(m.rowHeight * 56 / 44, room / Double(max(1, count)))
        return Rect(x: m.margin * 0.5, y: top + Double(index) * height, width: m.width - m.margin, height: height)
    }

    /// Which overlay row a tap lands on.
    public static func voiceRow(at point: Point, overlay: VoiceOverlay, size: WatchSize) -> Int? {
        overlay.rows.indices.first { voiceRowFrame($0, of: overlay.rows.count, size: size).contains(point) }
    }

    /// The overlay's Save button (shown while a tapped row waits for the crown) and countdown bar.
    public static func voiceSaveButton(size: WatchSize) -> Rect {
        let m = WatchMetrics(size: size)
        let height = m.buttonHeight * 0.7
        return Rect(x: m.margin * 2, y: m.height - m.margin * 0.75 - height, width: m.width - m.margin * 4, height: height)
    }

    // MARK: Frames

    public static func displayList(_ state: WatchState, now: Date, size: WatchSize, measurer: TextMeasurer) -> DisplayList {
        let m = WatchMetrics(size: size)
        var list = DisplayList(width: m.width, height: m.height, background: WatchColor.background)
        switch state.screen {
        case .crown(let entry):
            crownScreen(entry, size: size, into: &list, m, measurer)
        case .voice(let overlay):
            voiceOverlay(overlay, now: now, size: size, into: &list, m, measurer)
        case .final:
            if let round = state.finishedRound {
                leaderboard(round, final: true, state: state, now: now, size: size, into: &list, m, measurer)
            }
        case .leaderboard:
            if let round = state.round {
                leaderboard(round, final: false, state: state, now: now, size: size, into: &list, m, measurer)
            } else {
                noRound(state: state, now: now, into: &list, m, measurer)
            }
        }
        footer(state, now: now, into: &list, m, measurer)
        if let draft = state.voiceDraft { voiceDraft(draft, into: &list, m, measurer) }
        hapticPulse(state, now: now, into: &list, m)
        return list
    }

    /// The voice confirmation overlay: "Scores heard", a row per name (name, dotted leader,
    /// score), "?" on what is unresolved, the countdown to auto-save (or Save once a row is tapped).
    private static func voiceOverlay(_ overlay: VoiceOverlay, now: Date, size: WatchSize, into list: inout DisplayList,
                                     _ m: WatchMetrics, _ measurer: TextMeasurer) {
        let caption = FontSpec(.sans, m.caption)
        let title = overlay.failed ? "Couldn't understand" : "Scores heard · Hole \(overlay.hole)"
        list.commands.append(.text(measurer.truncate(title, font: caption, toFit: m.width - m.margin * 2),
                                   frame: Rect(x: m.margin, y: 0, width: m.width - m.margin * 2, height: voiceTitleHeight(size: size)),
                                   font: caption, color: overlay.failed ? WatchColor.wayOver : WatchColor.textSecondary, alignment: .center))
        if overlay.failed {
            let heard = "Heard \"\(overlay.transcript)\""
            list.commands.append(.text(measurer.truncate(heard, font: caption, toFit: m.width - m.margin * 2),
                                       frame: Rect(x: m.margin, y: m.height / 2 - m.rowText * 2, width: m.width - m.margin * 2, height: m.rowText * 1.5),
                                       font: caption, color: WatchColor.textPrimary, alignment: .center))
            list.commands.append(.text("Try again?", frame: Rect(x: m.margin, y: m.height / 2 - m.rowText * 0.5, width: m.width - m.margin * 2, height: m.rowText * 1.5),
                                       font: FontSpec(.sansBold, m.rowText), color: WatchColor.textPrimary, alignment: .center))
            list.commands.append(.text("Back to cancel", frame: Rect(x: m.margin, y: m.height / 2 + m.rowText, width: m.width - m.margin * 2, height: m.rowText * 1.5),
                                       font: caption, color: WatchColor.textSecondary, alignment: .center))
            return
        }
        let nameFont = FontSpec(.sansBold, m.rowText)
        let scoreFont = FontSpec(.monoBold, m.title)
        let scoreWidth = measurer.width("10?", scoreFont)
        for (index, row) in overlay.rows.enumerated() {
            let frame = voiceRowFrame(index, of: overlay.rows.count, size: size)
            let selected = overlay.selected == index
            if selected {
                list.commands.append(.rect(frame, WatchColor.elevated, cornerRadius: 12))
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
            let nameRoom = frame.width - scoreWidth - m.margin * 1.5
            // The "?" stays when a long name is cut short.
            let shown = measurer.truncate(name, font: nameFont, toFit: nameRoom - measurer.width(mark, nameFont)) + mark
            let nameColor = ready ? WatchColor.textPrimary : WatchColor.textSecondary
            // What an unresolved row needs, under its name when the row has room.
            let note: String? = ready ? nil
                : row.player == nil && row.candidates.count > 1 ? row.candidates.map(\.name).joined(separator: " or ") + " · tap"
                : row.player == nil && row.candidates.count == 1 ? "Heard \"\(row.heard)\" · tap"
                : row.player == nil ? "Not in this round"
                : row.value == nil ? "No score heard · tap" : "Named twice · tap"
            let noteFont = FontSpec(.sans, m.caption * 0.85)
            let withNote = note != nil && frame.height >= m.rowText * 1.3 + noteFont.size * 1.3
            let nameHeight = withNote ? frame.height * 0.62 : frame.height
            list.commands.append(.text(shown, frame: Rect(x: frame.x + m.margin * 0.5, y: frame.y, width: nameRoom, height: nameHeight),
                                       font: nameFont, color: nameColor, alignment: .leading))
            if withNote, let note {
                list.commands.append(.text(measurer.truncate(note, font: noteFont, toFit: nameRoom),
                                           frame: Rect(x: frame.x + m.margin * 0.5, y: frame.y + nameHeight - noteFont.size * 0.2, width: nameRoom, height: noteFont.size * 1.3),
                                           font: noteFont, color: WatchColor.textSecondary, alignment: .leading))
            }
            // The dotted leader from the name to the score.
            let leaderStart = frame.x + m.margin * 0.5 + measurer.width(shown, nameFont) + m.margin * 0.5
            let leaderEnd = frame.x + frame.width - scoreWidth - m.margin * 0.5
            var x = leaderStart
            while x + 4 <= leaderEnd {
                list.commands.append(.rect(Rect(x: x, y: frame.y + nameHeight * 0.62, width: 3, height: 3), WatchColor.textSecondary.opacity(0.6), cornerRadius: 1.5))
                x += 10
            }
            let value = row.value.map(String.init) ?? "?"
            let tone = row.value.map { ScoreTone.forHole(relativeToPar: $0 - overlay.par).color } ?? WatchColor.textSecondary
            list.commands.append(.text(value, frame: Rect(x: frame.x + frame.width - scoreWidth - m.margin * 0.5, y: frame.y, width: scoreWidth, height: frame.height),
                                       font: scoreFont, color: ready ? tone : WatchColor.textSecondary, alignment: .trailing))
        }
        let button = voiceSaveButton(size: size)
        if let remaining = overlay.remaining(at: now) {
            // The countdown: a bar that empties over 1.5 s.
            let bar = Rect(x: button.x, y: button.y + button.height / 2 - 3, width: button.width, height: 6)
            list.commands.append(.rect(bar, WatchColor.elevated, cornerRadius: 3))
            list.commands.append(.rect(Rect(x: bar.x, y: bar.y, width: bar.width * remaining, height: bar.height), WatchColor.accent, cornerRadius: 3))
            list.commands.append(.text("Tap a score to correct", frame: Rect(x: button.x, y: bar.y - m.caption * 1.6, width: button.width, height: m.caption * 1.4),
                                       font: caption, color: WatchColor.textSecondary, alignment: .center))
        } else {
            list.commands.append(.rect(button, WatchColor.accent, cornerRadius: button.height / 2))
            list.commands.append(.text("Save", frame: button, font: FontSpec(.sansBold, m.rowText), color: WatchColor.background, alignment: .center))
        }
    }

    /// The window's voice text line, across the bottom of the face.
    private static func voiceDraft(_ draft: String, into list: inout DisplayList, _ m: WatchMetrics, _ measurer: TextMeasurer) {
        let field = Rect(x: m.margin * 0.5, y: m.height - m.buttonHeight - m.margin * 0.5, width: m.width - m.margin, height: m.buttonHeight)
        list.commands.append(.rect(field, WatchColor.elevated, cornerRadius: 16))
        list.commands.append(.text("Say player names and scores", frame: Rect(x: field.x + m.margin * 0.5, y: field.y, width: field.width - m.margin, height: field.height * 0.45),
                                   font: FontSpec(.sans, m.caption * 0.85), color: WatchColor.textSecondary, alignment: .leading))
        let font = FontSpec(.sansBold, m.caption)
        // The end of a long line stays visible, as in a text field.
        var shown = draft + "▏"
        while measurer.width(shown, font) > field.width - m.margin, shown.count > 1 { shown.removeFirst() }
        list.commands.append(.text(shown, frame: Rect(x: field.x + m.margin * 0.5, y: field.y + field.height * 0.4, width: field.width - m.margin, height: field.height * 0.55),
                                   font: font, color: WatchColor.textPrimary, alignment: .leading))
    }

    private static func leaderboard(_ round: RoundSnapshot, final: Bool, state: WatchState, now: Date, size: WatchSize,
                                    into list: inout DisplayList, _ m: WatchMetrics, _ measurer: TextMeasurer) {
        let stale = !final && state.isStale(at: now)
        let fade = stale ? 0.5 : 1.0
        let positionFont = FontSpec(.sansBold, m.rowText)
        let nameFont = FontSpec(.sansBold, m.rowText)
        let scoreFont = FontSpec(.monoBold, m.rowText)
        let arrowFont = FontSpec(.sans, m.caption * 0.8)
        let positionWidth = measurer.width("T88", positionFont) + m.margin * 0.25
        let scoreWidth = measurer.width("+88", scoreFont)
        let markerWidth = measurer.width("!", nameFont) + m.margin * 0.5

        let reshuffle = state.reshuffle
        let slide = reshuffle.map { state.reduceMotion ? 1 : min(1, max(0, now.timeIntervalSince($0.startedAt) / Reshuffle.slideDuration)) } ?? 1
        let eased = 1 - pow(1 - slide, 3)
        let showArrows = reshuffle.map { now.timeIntervalSince($0.startedAt) < Reshuffle.arrowDuration } ?? false

        for (index, standing) in round.standings.enumerated() {
            let from = Double(reshuffle?.fromRow[standing.playerID] ?? index)
            let slot = from + (Double(index) - from) * eased - Double(state.scrollRow)
            guard slot > -1, slot < Double(visibleRows(size: size)) else { continue }
            let frame = rowFrame(slot: slot, size: size)
            let x = m.margin
            // The wearer's own row stands out.
            if standing.playerID == state.wearerID {
                list.commands.append(.rect(Rect(x: m.margin * 0.25, y: frame.y + 4, width: m.width - m.margin * 0.5, height: frame.height - 8),
                                           WatchColor.elevated, cornerRadius: 12))
            }
            let positionText = ScoreFormat.position(of: standing)
            let positionColor = standing.position == 1 ? WatchColor.accent : WatchColor.textPrimary
            if !positionText.isEmpty {
                list.commands.append(.text(positionText, frame: Rect(x: x, y: frame.y, width: positionWidth, height: frame.height),
                                           font: positionFont, color: positionColor.opacity(fade), alignment: .leading))
            }
            let nameX = x + positionWidth
            let scoreX = m.width - m.margin - scoreWidth
            let pending = !final && state.isPending(standing.playerID, hole: round.currentHole)
            let nameRoom = scoreX - nameX - m.margin * 0.5 - (standing.discrepancy ? markerWidth : 0) - (pending ? markerWidth * 1.5 : 0)
            let name = measurer.truncate(standing.name, font: nameFont, toFit: nameRoom)
            list.commands.append(.text(name, frame: Rect(x: nameX, y: frame.y, width: nameRoom, height: frame.height),
                                       font: nameFont, color: WatchColor.textPrimary.opacity(fade), alignment: .leading))
            var markerX = nameX + measurer.width(name, nameFont) + m.margin * 0.25
            if standing.discrepancy {
                list.commands.append(.text("!", frame: Rect(x: markerX, y: frame.y, width: markerWidth, height: frame.height),
                                           font: nameFont, color: WatchColor.overPar.opacity(fade), alignment: .leading))
                markerX += markerWidth
            }
            // A score saved here for this row and not yet acked by the phone.
            if pending {
                list.commands.append(.text("↑", frame: Rect(x: markerX, y: frame.y, width: markerWidth * 1.5, height: frame.height),
                                           font: FontSpec(.sans, m.caption), color: WatchColor.textSecondary, alignment: .leading))
            }
            let played = standing.holesPlayed > 0
            let tone = ScoreTone.forRound(relativeToPar: standing.scoreRelativeToPar, holesPlayed: standing.holesPlayed)
            list.commands.append(.text(played ? ScoreFormat.relativeToPar(standing.scoreRelativeToPar) : "-",
                                       frame: Rect(x: scoreX, y: frame.y, width: scoreWidth, height: frame.height), font: scoreFont,
                                       color: (played ? tone.color : WatchColor.textSecondary).opacity(fade), alignment: .trailing))
            // After the row's own text, so a row still reads "1 Sarah -2" while its arrow shows.
            if showArrows, let up = reshuffle?.movedUp[standing.playerID] {
                list.commands.append(.text(up ? "▲" : "▼", frame: Rect(x: x + positionWidth - m.margin * 0.9, y: frame.y, width: m.margin, height: frame.height * 0.55),
                                           font: arrowFont, color: (up ? WatchColor.underPar : WatchColor.overPar).opacity(fade), alignment: .center))
            }
        }

        // The header covers rows sliding past the top.
        list.commands.append(.rect(Rect(x: 0, y: 0, width: m.width, height: m.headerHeight), WatchColor.background, cornerRadius: 0))
        let caption = FontSpec(.sans, m.caption)
        list.commands.append(.text(final ? "Final · \(round.courseName)" : ScoreFormat.holeProgress(current: round.currentHole, of: round.holeCount),
                                   frame: Rect(x: m.margin, y: 0, width: m.width / 2, height: m.headerHeight), font: caption,
                                   color: WatchColor.textSecondary, alignment: .leading))
        status(state, now: now, into: &list, m, measurer)

        let rows = round.standings.count
        let visible = visibleRows(size: size)
        if rows > visible {
            let track = Double(visible) * m.rowHeight
            let thumb = track * Double(visible) / Double(rows)
            let offset = (track - thumb) * Double(state.scrollRow) / Double(rows - visible)
            list.commands.append(.rect(Rect(x: m.width - 6, y: m.headerHeight + offset, width: 4, height: thumb), WatchColor.tertiary, cornerRadius: 2))
        }
    }

    /// Top right: how old the standings are, once stale.
    private static func status(_ state: WatchState, now: Date, into list: inout DisplayList, _ m: WatchMetrics, _ measurer: TextMeasurer) {
        guard state.isStale(at: now), let age = state.age(at: now) else { return }
        list.commands.append(.text(ScoreFormat.relativeAge(seconds: age), frame: Rect(x: m.width / 2, y: 0, width: m.width / 2 - m.margin, height: m.headerHeight),
                                   font: FontSpec(.sans, m.caption), color: WatchColor.textSecondary, alignment: .trailing))
    }

    private static func crownScreen(_ entry: CrownEntry, size: WatchSize, into list: inout DisplayList, _ m: WatchMetrics, _ measurer: TextMeasurer) {
        let caption = FontSpec(.sans, m.caption)
        let tone = ScoreTone.forHole(relativeToPar: entry.relativeToPar)
        // Re-scoring says so: the hole has a score, from whom; Save corrects it.
        let heading = entry.scoredStrokes.map { strokes in
            "Hole \(entry.hole) · \(strokes)" + (entry.scoredBy.map { " by \($0)" } ?? " scored")
        } ?? "Hole \(entry.hole)"
        list.commands.append(.text(measurer.truncate(heading, font: caption, toFit: m.width - m.margin * 2),
                                   frame: Rect(x: m.margin, y: m.margin * 0.25, width: m.width - m.margin * 2, height: m.caption * 1.6),
                                   font: caption, color: entry.scoredStrokes == nil ? WatchColor.textSecondary : WatchColor.accent, alignment: .center))
        let nameFont = FontSpec(.sansBold, m.title)
        let name = measurer.truncate(entry.playerName, font: nameFont, toFit: m.width - m.margin * 2)
        list.commands.append(.text(name, frame: Rect(x: m.margin, y: m.caption * 1.6, width: m.width - m.margin * 2, height: m.title * 1.5),
                                   font: nameFont, color: WatchColor.textPrimary, alignment: .center))
        let button = saveButton(size: size)
        // The number, par and relative value sit centred between the name and the Save button.
        let nameBottom = m.caption * 1.6 + m.title * 1.5
        let block = m.hero * 1.25 + m.caption * 1.5
        let numberTop = nameBottom + max(0, (button.y - nameBottom - block) / 2)
        list.commands.append(.text("\(entry.value)", frame: Rect(x: 0, y: numberTop, width: m.width, height: m.hero * 1.25),
                                   font: FontSpec(.monoBold, m.hero), color: tone.color, alignment: .center))
        let parTop = numberTop + m.hero * 1.25
        list.commands.append(.text("Par \(entry.par)", frame: Rect(x: 0, y: parTop, width: m.width / 2 - m.margin * 0.25, height: m.caption * 1.5),
                                   font: caption, color: WatchColor.textSecondary, alignment: .trailing))
        list.commands.append(.text(ScoreFormat.relativeToPar(entry.relativeToPar),
                                   frame: Rect(x: m.width / 2 + m.margin * 0.25, y: parTop, width: m.width / 2, height: m.caption * 1.5),
                                   font: FontSpec(.monoBold, m.caption), color: tone.color, alignment: .leading))
        list.commands.append(.rect(button, WatchColor.accent, cornerRadius: button.height / 2))
        list.commands.append(.text(entry.supersedes == nil ? "Save" : "Correct", frame: button, font: FontSpec(.sansBold, m.rowText),
                                   color: WatchColor.background, alignment: .center))
    }

    private static func noRound(state: WatchState, now: Date, into list: inout DisplayList, _ m: WatchMetrics, _ measurer: TextMeasurer) {
        let waiting = state.snapshot == nil
        let title = waiting ? "No standings yet" : "No active round"
        let detail = waiting ? "Waiting for the phone" : state.finishedRound.map { "Last: \($0.courseName)" } ?? "Start one on the phone"
        let titleFont = FontSpec(.sansBold, m.rowText)
        list.commands.append(.text(measurer.truncate(title, font: titleFont, toFit: m.width - m.margin * 2),
                                   frame: Rect(x: m.margin, y: m.height / 2 - m.rowText * 1.5, width: m.width - m.margin * 2, height: m.rowText * 1.5),
                                   font: titleFont, color: WatchColor.textPrimary, alignment: .center))
        let caption = FontSpec(.sans, m.caption)
        list.commands.append(.text(measurer.truncate(detail, font: caption, toFit: m.width - m.margin * 2),
                                   frame: Rect(x: m.margin, y: m.height / 2 + m.margin * 0.25, width: m.width - m.margin * 2, height: m.caption * 1.5),
                                   font: caption, color: WatchColor.textSecondary, alignment: .center))
        if !waiting, let finished = state.finishedRound, let result = winnerLine(finished) {
            list.commands.append(.text(measurer.truncate(result, font: caption, toFit: m.width - m.margin * 2),
                                       frame: Rect(x: m.margin, y: m.height / 2 + m.margin * 0.25 + m.caption * 1.5, width: m.width - m.margin * 2, height: m.caption * 1.5),
                                       font: caption, color: WatchColor.textPrimary, alignment: .center))
        }
        status(state, now: now, into: &list, m, measurer)
    }

    /// Who won the finished round: "Jake won, -2", "Jake & Mike tied, -1"; nil if nobody scored.
    static func winnerLine(_ round: RoundSnapshot) -> String? {
        let leaders = round.standings.filter { $0.position == 1 }
        guard let first = leaders.first else { return nil }
        let who = leaders.count == 1 ? "\(first.name) won" : leaders.map(\.name).joined(separator: " & ") + " tied"
        return "\(who), \(ScoreFormat.relativeToPar(first.scoreRelativeToPar))"
    }

    /// Bottom: whether the phone is reachable and how many saved scores wait for it; a transient
    /// banner above that.
    private static func footer(_ state: WatchState, now: Date, into list: inout DisplayList, _ m: WatchMetrics, _ measurer: TextMeasurer) {
        if case .crown = state.screen { return }
        if case .voice = state.screen { return }
        let caption = FontSpec(.sans, m.caption)
        let frame = Rect(x: m.margin * 0.5, y: m.height - m.footerHeight - m.margin * 0.25, width: m.width - m.margin, height: m.footerHeight)
        let noPhone = state.linkKnown && !state.reachable
        // With the phone there, unsent scores show on their rows; the count matters when it is away.
        let pending = noPhone && state.pendingTransfers > 0 ? "\(state.pendingTransfers) to send"
            : state.unreadableScores > 0 ? "\(state.unreadableScores) saved \(state.unreadableScores == 1 ? "score" : "scores") unreadable" : nil
        let hasStatus = noPhone || pending != nil
        if noPhone {
            let text = "No phone"
            let gap = measurer.width(" · ", caption)
            let total = measurer.width(text, caption) + (pending.map { gap + measurer.width($0, caption) } ?? 0)
            let x = frame.x + (frame.width - total) / 2
            list.commands.append(.text(text, frame: Rect(x: x, y: frame.y, width: measurer.width(text, caption), height: frame.height),
                                       font: caption, color: WatchColor.overPar, alignment: .leading))
            if let pending {
                list.commands.append(.text("· \(pending)", frame: Rect(x: x + measurer.width(text, caption) + measurer.width(" ", caption), y: frame.y,
                                                                        width: total, height: frame.height),
                                           font: caption, color: WatchColor.textSecondary, alignment: .leading))
            }
        } else if let pending {
            list.commands.append(.text(pending, frame: frame, font: caption, color: WatchColor.textSecondary, alignment: .center))
        }
        if let banner = state.banner, now < banner.until {
            let color: RGBA = switch banner.style {
            case .info: WatchColor.textPrimary
            case .success: WatchColor.underPar
            case .failure: WatchColor.wayOver
            }
            let toast = Rect(x: frame.x, y: frame.y - (hasStatus ? frame.height + m.margin * 0.25 : 0),
                             width: frame.width, height: frame.height)
            list.commands.append(.rect(toast, WatchColor.elevated, cornerRadius: toast.height / 2))
            list.commands.append(.text(measurer.truncate(banner.text, font: caption, toFit: toast.width - m.margin),
                                       frame: toast, font: caption, color: color, alignment: .center))
        }
    }

    private static func hapticPulse(_ state: WatchState, now: Date, into list: inout DisplayList, _ m: WatchMetrics) {
        guard let pulse = state.pulse else { return }
        let t = now.timeIntervalSince(pulse.at)
        guard t >= 0, t < HapticPulse.duration else { return }
        let color: RGBA = switch pulse.kind {
        case .tick: WatchColor.accent
        case .limit, .failure: WatchColor.wayOver
        case .success: WatchColor.underPar
        case .notification: WatchColor.overPar
        }
        let strength = 1 - t / HapticPulse.duration
        let thickness = pulse.kind == .tick ? 4.0 : 8.0
        list.commands.append(.ring(Rect(x: 0, y: 0, width: m.width, height: m.height), color.opacity(strength),
                                   thickness: thickness, cornerRadius: m.margin * 2))
    }
}
