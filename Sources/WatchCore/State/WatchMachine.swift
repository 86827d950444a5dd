import Foundation
import HyzerKit
import HyzerLink

/// The watch: `state + input → (new state, effects)`. Pure; the shell performs the effects.
public enum WatchMachine {
    public static let savedBannerDuration: TimeInterval = 2
    public static let failureBannerDuration: TimeInterval = 5
    /// Standings that arrive within this of each other are one change for the wearer: felt and
    /// said once, for the net change, this long after the last.
    public static let arrivalsSettle: TimeInterval = 0.3
    /// The longest a burst is held while this watch's own queue drains (a phone that stores and
    /// never acks must not keep the news back for good).
    public static let drainingHold: TimeInterval = 5

    public static func reduce(_ state: inout WatchState, _ input: WatchInput, _ env: WatchEnvironment) -> [WatchEffect] {
        let wasInFront = !state.appInBackground
        let known = (state.snapshot, state.finishedRound)
        let effects = apply(&state, input, env)
        // The app in front reloads its complications when its standings change, and as it leaves
        // the screen: a reload from an app in the foreground costs no budget. In the background
        // only a complication transfer refreshes them.
        if wasInFront, state.appInBackground || known != (state.snapshot, state.finishedRound) { refreshComplication(&state, env) }
        return effects
    }

    private static func apply(_ state: inout WatchState, _ input: WatchInput, _ env: WatchEnvironment) -> [WatchEffect] {
        // With the wrist down, the first touch or crown turn wakes the face and does nothing else.
        if state.wristDown {
            switch input {
            case .crown, .tap, .save, .back, .voice:
                state.wristDown = false
                if case .voice = input { break }  // speaking raises the wrist and is heard
                return []
            default: break
            }
        }
        // In the background the watch face shows: a tap on one of Hyzer's complications opens the app; nothing
        // else reaches the app.
        if state.appInBackground {
            switch input {
            case .tap(let point):
                if WatchLayout.complicationSlots(state.metrics(env.size)).contains(where: { $0.frame.contains(point) }) { return cameToFront(&state, env) }
                return []
            case .crown, .save, .back, .voice, .pickHole, .voiceDraft: return []
            default: break
            }
        }
        switch input {
        case .crown(let delta): return crown(&state, delta, env)
        case .tap(let point): return tap(&state, point, env)
        case .back: return back(&state, env)
        case .save: return save(&state, env)
        case .pickHole(let delta): return pickHole(&state, delta, env)
        case .voice(let transcript): return voice(&state, transcript, env)
        case .voiceDraft(let text):
            state.voiceDraft = text
            return []
        case .clock:
            // Return to Clock: the wrist down long enough, the watch face comes back and the app is
            // in the background (live messages to it dropped from now on), as on a device.
            if let due = state.returnsToClockAt, env.now >= due { state.appInBackground = true }
            let news = tellNews(&state, env)
            if case .voice(let overlay) = state.screen, let deadline = overlay.deadline, env.now >= deadline { return news + commitVoice(&state, env) }
            return news + staleness(&state, env)
        case .clockSetBack(let seconds):
            state.freshAt = state.freshAt?.addingTimeInterval(-seconds)
            state.wristDroppedAt = state.wristDroppedAt?.addingTimeInterval(-seconds)
            state.complication?.refreshedAt.addTimeInterval(-seconds)
            return []
        case .scrollTo, .wrist, .textSize, .reduceMotion: return setting(&state, input, env)
        case .app(let foreground):
            // An app is opened with the wrist up (Return to Clock, counting from when the wrist
            // dropped, would send it straight back), as a tap raises it.
            if foreground, state.wristDown { (state.wristDown, state.wristDroppedAt) = (false, nil) }
            if foreground, state.appInBackground { return cameToFront(&state, env) }
            state.appInBackground = !foreground
            return []
        case .liveMessageDropped:
            state.droppedLiveMessages += 1
            return []
        case .complication(let transfer): return complication(&state, transfer, env)
        case .snapshot(let snapshot): return receive(&state, snapshot, pushed: false, env)
        case .pushed(let snapshot): return receive(&state, snapshot, pushed: true, env)
        case .snapshotUnreadable, .notPaired, .heartbeat, .reachability, .pendingTransfers, .pending, .acked, .rejected,
             .pairingRefused, .saveFailed:
            return link(&state, input, env)
        }
    }

    /// A complication transfer: within the day's budget it refreshes the face; past it, it is a
    /// plain queued transfer to the app (which has the standings anyway) and the face keeps what it
    /// showed, growing older. Logged either way.
    private static func complication(_ state: inout WatchState, _ transfer: ComplicationTransfer, _ env: WatchEnvironment) -> [WatchEffect] {
        let day = ComplicationBudget.day(of: env.now)
        let refreshed = state.complicationBudget.spend(on: day)
        state.complicationTransfers += 1
        if refreshed { state.complication = ShownComplication(content: transfer.content, refreshedAt: env.now) }
        return [.logComplication(ComplicationRecord(at: env.now, day: day, transfer: transfer,
                                                    remaining: state.complicationBudget.remaining(on: day),
                                                    delivered: refreshed ? .complication : .userInfo))]
    }

    /// The app's own reload: the wearer's line (the leader's without a wearer) in the round in
    /// play, or the final one.
    private static func refreshComplication(_ state: inout WatchState, _ env: WatchEnvironment) {
        let content = state.round.map { ComplicationContent(round: $0, wearer: state.wearerID) }
            ?? state.finishedRound.map { ComplicationContent(round: $0, wearer: state.wearerID, finished: true) }
            ?? (state.snapshot == nil ? nil : .noRound)
        guard let content else { return }
        // The final place stays until another round starts (as the phone's policy keeps it).
        if !content.hasRound, state.complication?.content.finished == true { return }
        // Leaving the screen is a reload too. The face's age is the standings' own (when the
        // phone last confirmed them), not the reload's: standings 10 minutes old reloaded now
        // are not "updated just now".
        guard content != state.complication?.content || state.appInBackground else { return }
        state.complication = ShownComplication(content: content, refreshedAt: min(state.freshAt ?? env.now, env.now))
    }

    /// The wearer's settings and scrolling: the face changes, nothing is recorded.
    private static func setting(_ state: inout WatchState, _ input: WatchInput, _ env: WatchEnvironment) -> [WatchEffect] {
        let rows = (state.round ?? state.finishedRound)?.standings.count ?? 0
        switch input {
        case .scrollTo(let row):
            let visible = WatchLayout.visibleRows(size: env.size, textSize: state.textSize)
            if row < state.scrollRow { state.scrollRow = max(0, row) }
            if row >= state.scrollRow + visible { state.scrollRow = min(max(0, rows - visible), row - visible + 1) }
        case .wrist(let up):
            if state.wristDown == up {
                state.wristDown = !up
                if !up { state.wristDroppedAt = env.now }
            }
        case .textSize(let size):
            guard size != state.textSize else {
                // Asked past either end: say why nothing changed.
                let end = size == TextSize.allCases.first ? "the smallest" : size == TextSize.allCases.last ? "the largest" : nil
                return end.map { [.announce("Text size \(size.spokenName) is \($0).")] } ?? []
            }
            state.textSize = size
            state.scrollRow = min(state.scrollRow, max(0, rows - WatchLayout.visibleRows(size: env.size, textSize: size)))
            return [.announce("Text size \(size.spokenName).")]
        case .reduceMotion(let on):
            state.reduceMotion = on
        default: break
        }
        return []
    }

    /// What the link and the outbox say: reachability, heartbeats, acks and refusals.
    private static func link(_ state: inout WatchState, _ input: WatchInput, _ env: WatchEnvironment) -> [WatchEffect] {
        switch input {
        case .pending(let scores):
            state.pendingScores = scores
            state.pendingTransfers = scores.count
        case .pendingTransfers(let count):
            state.pendingTransfers = count
        case .acked(let event, let classification): return acked(&state, event, classification, env)
        case .snapshotUnreadable(let reason):
            state.snapshotProblem = reason
        case .notPaired(let reason):
            state.pairingProblem = reason
        case .heartbeat(let sequence):
            if let sequence, sequence == state.snapshot?.sequence { state.freshAt = env.now }
            state.awaitingPairedStandings = false
            return staleness(&state, env)
        case .reachability(let reachable):
            let was = (known: state.linkKnown, reachable: state.reachable)
            if reachable { state.pairingProblem = nil }
            state.reachable = reachable
            state.linkKnown = true
            // Just paired: the hub's standings follow at once; staleness waits for them.
            state.awaitingPairedStandings = reachable && !was.reachable
            if !reachable, was.reachable || !was.known {
                return [.announce("No phone. Scores you save wait on the watch until it is back.")] + staleness(&state, env)
            }
            if reachable, was.known, !was.reachable { return [.announce("Phone connected.")] }
        case .rejected(let event, let rejection):
            // Who, which hole and why: a refusal can come long after the Save (the phone away).
            let name = state.name(of: event.playerID)
            let refused = RefusedScore(score: "\(name) · hole \(event.hole)", reason: shortReason(rejection.reason),
                                       spoken: "\(name), \(event.strokes) on hole \(event.hole)", spokenReason: spokenReason(rejection))
            // Refusals arriving together (a queue drained after the round changed) are one banner
            // naming them all, felt once. Each is said with the ones before it: on a device the
            // next announcement cuts the last one off, so the last of a burst must tell all of it.
            // Each is also logged and kept in rejected.jsonl.
            let together = !state.refusals.isEmpty && (state.refusalsUntold
                || state.banner.map { $0.text == refusalBanner(state.refusals) && $0.until > env.now } == true)
            state.refusals = together ? state.refusals + [refused] : [refused]
            state.banner = Banner(text: refusalBanner(state.refusals), style: .failure, until: env.now.addingTimeInterval(failureBannerDuration))
            if state.appInBackground {
                state.refusalsUntold = true
                return []
            }
            return (together ? [] : pulse(&state, .failure, value: nil, env)) + [.announce(refusalAnnouncement(state.refusals))]
        case .pairingRefused(let reason):
            state.banner = Banner(text: "Phone refused pairing: \(reason)", style: .failure, until: env.now.addingTimeInterval(failureBannerDuration))
        case .saveFailed(let reason):
            state.banner = Banner(text: "Not saved: \(reason)", style: .failure, until: env.now.addingTimeInterval(failureBannerDuration))
            return pulse(&state, .failure, value: nil, env) + [.announce("Score not saved.")]
        default: break
        }
        return []
    }

    // MARK: Hands

    private static func crown(_ state: inout WatchState, _ delta: Double, _ env: WatchEnvironment) -> [WatchEffect] {
        let detents = state.crown.detents(for: delta)
        guard detents != 0 else { return [] }
        switch state.screen {
        case .leaderboard, .final:
            let rows = (state.round ?? state.finishedRound)?.standings.count ?? 0
            let visible = WatchLayout.visibleRows(size: env.size, textSize: state.textSize)
            let maxScroll = max(0, rows - visible)
            // Turning fast goes further: detents in quick succession scroll 1, 1, 2, 2, 3… rows
            // (at most a screen less one), so a long list is a flick away, a slow turn row by row.
            let quick = state.lastScrollAt.map { env.now.timeIntervalSince($0) < scrollStreakGap } ?? false
            state.scrollStreak = quick ? state.scrollStreak + 1 : 0
            let step = abs(detents) > 1 ? 1 : min(max(1, visible - 1), 1 + state.scrollStreak / 2)
            let before = state.scrollRow
            state.scrollRow = min(maxScroll, max(0, state.scrollRow - detents * step))
            if maxScroll > 0 { state.lastScrollAt = env.now }
            if state.scrollRow == before, rows > 0 {
                // The end of the list (a list that fits has its ends right there), felt once.
                return limitPulse(&state, value: nil, env)
            }
            return []
        case .crown(var entry):
            var effects: [WatchEffect] = []
            for _ in 0..<abs(detents) {
                let next = entry.value + detents.signum()
                if Strokes.allowed.contains(next) {
                    entry.value = next
                    effects += pulse(&state, .tick, value: next, env)
                } else {
                    effects += limitPulse(&state, value: entry.value, env)
                }
            }
            state.screen = .crown(entry)
            // VoiceOver reads the crown's value as it turns, and at a limit with its bump (not at
            // every detent turned past it).
            return effects.isEmpty ? [] : effects + [.announce("Score: \(entry.value)")]
        case .voice(var overlay):
            guard let index = overlay.selected, var value = overlay.rows[index].value else {
                // No row being corrected, more rows than fit: the crown scrolls them.
                let shown = WatchLayout.voiceRowsShown(of: overlay.rows.count, size: env.size, textSize: state.textSize)
                let first = min(max(0, overlay.firstRow - detents.signum() * min(abs(detents), overlay.rows.count)), overlay.rows.count - shown)
                guard shown < overlay.rows.count, first != overlay.firstRow else { return [] }
                overlay.firstRow = first
                // Looking at the rest is looking: the 1.5 s start again, as after a correction.
                if overlay.deadline != nil { overlay.deadline = env.now.addingTimeInterval(VoiceOverlay.autoCommitAfter) }
                state.screen = .voice(overlay)
                return pulse(&state, .tick, value: nil, env)
            }
            var effects: [WatchEffect] = []
            for _ in 0..<abs(detents) {
                let next = value + detents.signum()
                if Strokes.allowed.contains(next) {
                    value = next
                    effects += pulse(&state, .tick, value: next, env)
                } else {
                    effects += limitPulse(&state, value: value, env)
                }
            }
            overlay.rows[index].value = value
            overlay.rows[index].problem = nil
            if !effects.isEmpty { effects.append(.announce("Score: \(value)")) }
            // A correction starts the 1.5 s again (unless a name is still unsure).
            overlay.deadline = overlay.countdown(from: env.now)
            state.screen = .voice(overlay)
            return effects
        }
    }

    private static func tap(_ state: inout WatchState, _ point: Point, _ env: WatchEnvironment) -> [WatchEffect] {
        switch state.screen {
        case .leaderboard:
            guard let round = state.round, round.status.acceptsScores,
                  let row = WatchLayout.row(at: point, state: state, size: env.size) else { return [] }
            let standing = round.standings[row]
            // A disputed row opens its disputed hole, with every score in play; else the hole
            // this watch is scoring.
            return openCrown(&state, standing, hole: standing.disputes.first?.hole ?? scoringHole(state))
        case .final:
            return []
        case .crown:
            return WatchLayout.saveButton(size: env.size, textSize: state.textSize).contains(point) ? save(&state, env) : []
        case .voice(var overlay):
            if overlay.deadline == nil, overlay.canSave, WatchLayout.voiceSaveButton(size: env.size, textSize: state.textSize).contains(point) { return commitVoice(&state, env) }
            guard let index = WatchLayout.voiceRow(at: point, overlay: overlay, size: env.size, textSize: state.textSize) else { return [] }
            var row = overlay.rows[index]
            if !row.candidates.isEmpty {
                // An unresolved name: each tap picks the next player it could be.
                let next = row.player.flatMap { current in row.candidates.firstIndex(of: current) }.map { ($0 + 1) % row.candidates.count } ?? 0
                row.player = row.candidates[next]
                row.problem = nil
            }
            guard let player = row.player else {
                return [.announce("\(row.heard.isEmpty ? "That score" : "\(row.heard)") is not a player in this round. Not saved.")]
            }
            if row.value == nil { row.value = overlay.par }
            if row.problem != nil, row.value != nil { row.problem = nil }  // named twice: the tapped score is the one
            if let existing = existingScore(state, playerID: player.id, hole: overlay.hole) {
                (row.existingStrokes, row.existingBy) = (existing.strokes, existing.by)
            }
            overlay.rows[index] = row
            // The tapped row is this player's score: any other row naming them is held back.
            overlay.holdBackOthers(naming: player, except: index)
            overlay.selected = index
            overlay.deadline = nil  // paused until the crown corrects it (or Save)
            state.crown.reset()
            state.screen = .voice(overlay)
            return [.announce("Score for \(player.name). Current value \(row.value ?? overlay.par). Use Digital Crown to adjust.")]
        }
    }

    // MARK: Voice

    /// A transcript from the wearer: the confirmation overlay, or "Not understood".
    private static func voice(_ state: inout WatchState, _ transcript: String, _ env: WatchEnvironment) -> [WatchEffect] {
        state.voiceDraft = nil
        guard let round = state.round, round.status.acceptsScores else {
            state.banner = Banner(text: "No round to score", style: .failure, until: env.now.addingTimeInterval(failureBannerDuration))
            return pulse(&state, .failure, value: nil, env) + [.announce("No active round to score. Start one on the phone.")]
        }
        let hole = scoringHole(state)
        let par = round.par(ofHole: hole) ?? 3
        let players = round.standings.map { Player(id: $0.playerID, name: $0.name) }
        var overlay = VoiceOverlay(transcript: transcript, hole: hole, par: par,
                                   parse: VoiceTranscriptParser.parse(transcript, players: players, par: par), now: env.now)
        for index in overlay.rows.indices {
            guard let player = overlay.rows[index].player, let existing = existingScore(state, playerID: player.id, hole: hole) else { continue }
            overlay.rows[index].existingStrokes = existing.strokes
            overlay.rows[index].existingBy = existing.by
        }
        state.crown.reset()
        state.screen = .voice(overlay)
        if overlay.failed {
            return pulse(&state, .failure, value: nil, env) + [.announce("Didn't catch that. Try again.")]
        }
        let spoken = overlay.rows.map { row -> String in
            if let player = row.player, let value = row.value, row.problem == nil {
                guard let was = row.existingStrokes, was != value else { return "\(player.name) \(value)." }
                return row.existingBy == .thisWatch ? "\(player.name) \(value), replacing \(was)."
                    : "\(player.name) \(value), but \(row.existingBy?.name ?? "another device") has \(was): a discrepancy."
            }
            if let player = row.player, row.scoreRefused { return "\(player.name) \(row.said), out of range, not saved unless corrected." }
            if row.candidates.count > 1 { return "\(row.heard), could be \(row.candidates.map(\.name).joined(separator: " or ")), not saved unless tapped." }
            if let candidate = row.candidates.first { return "\(row.heard), did you mean \(candidate.name)? Not saved unless tapped." }
            if let player = row.player, row.value == nil { return "\(player.name), no score heard." }
            if let player = row.player { return "\(player.name) \(row.said), not saved unless tapped." }
            return "\(row.heard.isEmpty ? row.said : row.heard), not a player in this round."
        }
        let closing = overlay.deadline != nil ? ["Auto-saving in 1.5 seconds. Tap any score to correct."]
            : overlay.canSave ? ["Tap each unsure name to choose who; nothing saves by itself until then. Save saves the others."]
            : ["Nothing to save yet. Tap a score to correct it."]
        return pulse(&state, .notification, value: nil, env)
            + [.announce((["Voice scores confirmed."] + spoken + closing).joined(separator: " "))]
    }

    /// Saves the overlay's ready rows through the outbox, like crown scores; says what was not saved.
    private static func commitVoice(_ state: inout WatchState, _ env: WatchEnvironment) -> [WatchEffect] {
        guard case .voice(var overlay) = state.screen, let round = state.round else { return [] }
        var effects: [WatchEffect] = [], saved: [String] = [], savedShort: [String] = [], unchanged: [String] = []
        let shortNames = Dictionary(zip(round.standings.map(\.playerID), NameText.shortNames(round.standings.map(\.name)))) { first, _ in first }
        // Never two scores for one player from one overlay: a player on two ready rows is held back.
        let readyPlayers = overlay.rows.filter(\.isReady).compactMap { $0.player?.id }
        let twice = Set(readyPlayers.filter { id in readyPlayers.filter { $0 == id }.count > 1 })
        for index in overlay.rows.indices where overlay.rows[index].player.map({ twice.contains($0.id) }) == true {
            overlay.rows[index].problem = "named twice"
        }
        for row in overlay.rows where row.isReady {
            guard let player = row.player, let value = row.value else { continue }
            let (own, counted) = claims(state, playerID: player.id, hole: overlay.hole)
            // The strokes this watch already says, or that already count, record nothing.
            guard case .record(let supersedes) = ScoreWrite.plan(strokes: value, intent: .correction, own: own, counted: counted) else {
                unchanged.append("\(player.name) \(value)")
                continue
            }
            do {
                let event = try ScoreEvent(
                    id: env.makeID(), roundID: round.id, playerID: player.id, hole: overlay.hole, strokes: value,
                    supersedesEventID: supersedes, reportedByPlayerID: state.wearerID ?? player.id,
                    deviceID: state.deviceID, source: .voice, createdAt: env.now)
                state.pendingScores.append(event)
                effects.append(.enqueue(event))
                saved.append("\(player.name) \(value)")
                savedShort.append("\(shortNames[player.id] ?? player.name) \(value)")
            } catch {
                effects += [.announce("\(player.name) not saved: \(error.description)")]
            }
        }
        state.pendingTransfers = state.pendingScores.count
        state.screen = .leaderboard
        let skipped = overlay.rows.filter { !$0.isReady }.map { $0.player?.name ?? ($0.heard.isEmpty ? $0.said : $0.heard) }
        let same = unchanged.isEmpty ? "" : " No change: \(unchanged.joined(separator: ", "))."
        guard !saved.isEmpty else {
            if !unchanged.isEmpty {
                state.banner = Banner(text: "No change", style: .success, until: env.now.addingTimeInterval(savedBannerDuration))
                return effects + [.announce("Nothing saved.\(same)")]
            }
            state.banner = Banner(text: "Nothing saved", style: .failure, until: env.now.addingTimeInterval(failureBannerDuration))
            return effects + pulse(&state, .failure, value: nil, env) + [.announce("Nothing saved.")]
        }
        state.banner = Banner(text: "Saved \(saved.joined(separator: ", "))", style: .success, until: env.now.addingTimeInterval(savedBannerDuration),
                              shorter: ["Saved \(savedShort.joined(separator: ", "))", "Saved \(ListText.count(saved.count, "score"))"])
        let notSaved = skipped.isEmpty ? "" : " Not saved: \(skipped.joined(separator: ", "))."
        return effects + pulse(&state, .success, value: nil, env)
            + [.announce("Saved. \(saved.joined(separator: ", ")) on hole \(overlay.hole).\(same)\(notSaved)")]
    }

    /// Crown score input for `standing` on `hole`. Re-scoring opens at the score the hole has and
    /// corrects it: this watch's own score if it has one, else the one that counts.
    private static func openCrown(_ state: inout WatchState, _ standing: Standing, hole: Int) -> [WatchEffect] {
        guard let round = state.round else { return [] }
        let par = round.par(ofHole: hole) ?? 3
        var entry = CrownEntry(playerID: standing.playerID, playerName: standing.name, hole: hole, par: par, value: par)
        (entry.own, entry.counted) = claims(state, playerID: standing.playerID, hole: hole)
        if let existing = existingScore(state, playerID: standing.playerID, hole: hole) {
            (entry.value, entry.supersedes, entry.scoredBy, entry.scoredStrokes) = (existing.strokes, existing.id, existing.by, existing.strokes)
        }
        if let dispute = standing.disputes.first(where: { $0.hole == hole }) {
            entry.disputed = true
            entry.claims = dispute.claims.map { claim in
                // A watch's scores are its wearer's; a phone with no owner set is just "phone".
                var who = Scorer(deviceID: claim.deviceID, ownDeviceID: state.deviceID)
                if case .other = who {
                    who = .other(round.standings.first { $0.playerID == claim.reportedByPlayerID }?.name ?? claim.deviceID)
                }
                return ClaimLine(strokes: claim.strokes, who: who)
            }
            (entry.scoredStrokes, entry.scoredBy) = (dispute.claims[0].strokes, entry.claims[0].who)
        } else {
            entry.disputed = standing.discrepancy && state.disputedKeys.contains(ScoreKey(playerID: standing.playerID, hole: hole))
        }
        state.crown.reset()
        state.screen = .crown(entry)
        let already = entry.scoredStrokes.map { " Already scored \($0)\(entry.scoredBy.map { " by \($0.name)" } ?? "")." } ?? ""
        let disputed = entry.claims.isEmpty
            ? (entry.disputed ? " Disputed: another device scored this hole differently; the organizer settles it on the phone." : "")
            : " Hole \(hole) is disputed. " + WatchLayout.spokenClaims(entry.claims) + " The organizer settles it on the phone."
        return [.announce("Score for \(standing.name).\(entry.claims.isEmpty ? already : "")\(disputed) Current value \(entry.value). Use Digital Crown to adjust. Double tap to save.")]
    }

    /// Crown score input moved to another hole for the same player, within the course.
    private static func pickHole(_ state: inout WatchState, _ delta: Int, _ env: WatchEnvironment) -> [WatchEffect] {
        guard case .crown(let entry) = state.screen, let round = state.round,
              let standing = round.standings.first(where: { $0.playerID == entry.playerID }) else { return [] }
        let hole = min(max(1, entry.hole + delta), round.holeCount)
        // Past the first or last hole: the bump the crown gives at its ends, and said.
        guard hole != entry.hole else { return pulse(&state, .limit, value: nil, env) + [.announce("Hole \(hole) is the \(delta > 0 ? "last" : "first").")] }
        return openCrown(&state, standing, hole: hole)
    }

    /// The hole this watch scores: the phone's current hole, moved on past each hole every player
    /// has a score for, the phone's or this watch's still unsent. So with the phone away the watch
    /// goes on to the next hole as the group does, and its scores queue for it.
    public static func scoringHole(_ state: WatchState) -> Int {
        guard let round = state.round else { return 1 }
        var hole = round.currentHole
        while hole < round.holeCount,
              round.standings.allSatisfy({ existingScore(state, playerID: $0.playerID, hole: hole) != nil }) { hole += 1 }
        return hole
    }

    /// This watch's score in play for {player, hole} (its own unsent one first, else the one the
    /// standings name as this watch's), and the score that counts (the disputed hole's first
    /// claim, or the current hole's score): what `ScoreWrite.plan` decides a Save from.
    static func claims(_ state: WatchState, playerID: PlayerID, hole: Int) -> (own: ScoreClaim?, counted: ScoreClaim?) {
        let standing = state.round?.standings.first { $0.playerID == playerID }
        var inPlay = standing?.disputes.first { $0.hole == hole }?.claims ?? []
        if inPlay.isEmpty, let standing, state.round?.currentHole == hole, let id = standing.currentHoleEventID,
           let strokes = standing.currentHoleStrokes, let device = standing.currentHoleDeviceID {
            inPlay = [ScoreClaim(eventID: id, strokes: strokes, deviceID: device, reportedByPlayerID: "")]
        }
        let pending = state.pendingScores.last { $0.playerID == playerID && $0.hole == hole }.map(ScoreClaim.init)
        return (pending ?? inPlay.last { $0.deviceID == state.deviceID }, inPlay.first ?? pending)
    }

    /// The score {player, hole} has now, and who said it: this watch's own (`claims`), else the
    /// one that counts. What a new score from here corrects.
    static func existingScore(_ state: WatchState, playerID: PlayerID, hole: Int) -> (id: UUID, strokes: Int, by: Scorer)? {
        let (own, counted) = claims(state, playerID: playerID, hole: hole)
        guard let score = own ?? counted else { return nil }
        var by = Scorer(deviceID: score.deviceID, ownDeviceID: state.deviceID)
        // A watch paired as `watch-NAME` (the hub's convention) is said as its wearer's, not by its id.
        if case .other(let id) = by, let wearer = state.round?.standings.first(where: { Player.watchDeviceID(wearer: $0.name) == id }) {
            by = .other("\(wearer.name)'s watch")
        }
        return (score.eventID, score.strokes, by)
    }

    private static func back(_ state: inout WatchState, _ env: WatchEnvironment) -> [WatchEffect] {
        switch state.screen {
        case .voice(let overlay):
            state.screen = .leaderboard
            return overlay.failed ? [] : [.announce("Voice scores discarded. Nothing saved.")]
        case .crown:
            state.crown.reset()
            state.screen = .leaderboard
        case .final:
            state.screen = .leaderboard  // "No active round", with the finished round's summary
        case .leaderboard:
            break
        }
        return []
    }

    private static func save(_ state: inout WatchState, _ env: WatchEnvironment) -> [WatchEffect] {
        if case .voice(let overlay) = state.screen { return overlay.canSave ? commitVoice(&state, env) : [] }
        guard case .crown(let entry) = state.screen, let round = state.round else { return [] }
        // Save with nothing changed records nothing (a device never corrects a score to itself).
        guard case .record(let supersedes) = ScoreWrite.plan(strokes: entry.value, intent: .correction, own: entry.own, counted: entry.counted) else {
            state.crown.reset()
            state.screen = .leaderboard
            state.banner = Banner(text: "No change: \(entry.playerName) \(entry.value)", style: .success,
                                  until: env.now.addingTimeInterval(savedBannerDuration))
            let already = entry.own?.strokes == entry.value ? "This watch already says \(ScoreFormat.spokenNumber(entry.value)) for \(entry.playerName)"
                : "\(entry.playerName) already has \(ScoreFormat.spokenNumber(entry.value))"
            return [.announce("No change. \(already) on hole \(entry.hole). Nothing saved.")]
        }
        let event: ScoreEvent
        do {
            event = try ScoreEvent(
                id: env.makeID(), roundID: round.id, playerID: entry.playerID, hole: entry.hole, strokes: entry.value,
                supersedesEventID: supersedes, reportedByPlayerID: state.wearerID ?? entry.playerID,
                deviceID: state.deviceID, source: .crown, createdAt: env.now)
        } catch {
            return reduce(&state, .saveFailed(error.description), env)
        }
        state.crown.reset()
        state.screen = .leaderboard
        state.pendingTransfers += 1
        state.pendingScores.append(event)
        let verb = supersedes == nil ? "Saved" : "Corrected"
        state.banner = Banner(text: "\(verb) \(entry.playerName) \(entry.value)", style: .success,
                              until: env.now.addingTimeInterval(savedBannerDuration))
        return [.enqueue(event)] + pulse(&state, .success, value: entry.value, env)
            + [.announce(Announcements.scoreSaved(name: entry.playerName, strokes: entry.value, relativeToPar: entry.relativeToPar,
                                                  hole: entry.hole, corrected: supersedes != nil))]
    }

    static let scrollStreakGap: TimeInterval = 0.15

    /// The hub committed a score from this watch. A discrepancy (another device scored this hole
    /// differently) is said out loud; anything else was already "Saved".
    private static func acked(_ state: inout WatchState, _ event: ScoreEvent, _ classification: ScoreClassification?, _ env: WatchEnvironment) -> [WatchEffect] {
        if state.pendingScores.contains(where: { $0.id == event.id }) { state.delivered += 1 }
        state.pendingScores.removeAll { $0.id == event.id }
        state.pendingTransfers = state.pendingScores.count
        guard classification == .discrepancy else { return [] }
        state.disputedKeys.insert(ScoreKey(playerID: event.playerID, hole: event.hole))
        if case .crown(var entry) = state.screen, entry.playerID == event.playerID, entry.hole == event.hole {
            entry.disputed = true
            state.screen = .crown(entry)
        }
        let name = state.round?.standings.first { $0.playerID == event.playerID }?.name ?? "This score"
        // Whose hole, then what this watch said: "Jake · hole 4: 4 disputed" ("Disputed: Jake 4"
        // read as either the hole or the strokes); two lines at ": " as a refusal's banner.
        state.banner = Banner(text: "\(name) · hole \(event.hole): \(event.strokes) disputed", style: .status,
                              until: env.now.addingTimeInterval(failureBannerDuration), dispute: ScoreKey(playerID: event.playerID, hole: event.hole))
        return pulse(&state, .notification, value: event.strokes, env)
            + [.announce("Discrepancy. \(name), hole \(event.hole): this watch says \(event.strokes), another device disagrees. The organizer settles it on the phone.")]
    }

    // MARK: Phone

    private static func receive(_ state: inout WatchState, _ snapshot: StandingsSnapshot, pushed: Bool, _ env: WatchEnvironment) -> [WatchEffect] {
        if pushed { state.heardFromPhone = true }
        guard snapshot.supersedes(state.snapshot) else { return [] }
        let previous = state.snapshot
        if pushed { state.awaitingPairedStandings = false }
        // A push is news from the phone now; a file is as fresh as the hub says it was.
        let fresh = pushed ? env.now : min(env.now, env.hubTimeToWatchTime(snapshot.lastUpdatedAt))
        state.freshAt = max(state.freshAt ?? fresh, fresh)
        state.snapshotProblem = nil
        state.snapshot = snapshot
        resolveWearer(&state, env)
        // A disputed hole stays known while the phone's standings still flag its player.
        let flagged = Set(snapshot.round?.standings.filter(\.discrepancy).map(\.playerID) ?? [])
        state.disputedKeys = state.disputedKeys.filter { flagged.contains($0.playerID) && snapshot.round?.id == previous?.round?.id }
        // Settled (resolved on the phone): its banner goes with it, not seconds later over a settled row.
        if let dispute = state.banner?.dispute, !state.disputedKeys.contains(dispute) { state.banner = nil }
        if case .crown(var entry) = state.screen, entry.disputed, !flagged.contains(entry.playerID) {
            entry.disputed = false
            state.screen = .crown(entry)
        }
        guard previous?.sequence != snapshot.sequence || previous?.hubID != snapshot.hubID else { return staleness(&state, env) }
        var finalChanged: [WatchEffect] = []
        if snapshot.round == nil {
            // The phone says which round finished and how (its final standings); a phone that
            // does not say leaves the last round this watch saw.
            let sameHub = previous?.hubID == snapshot.hubID
            if let last = sameHub ? previous?.round : nil { return roundFinished(&state, snapshot.finishedRound ?? last, env) }
            if let final = snapshot.finishedRound {
                // Finished while this watch was away (or not running): the final standings, told
                // as news when they came from the phone, shown quietly when read at launch. The
                // same round again changed after the end (a late score from a phone that was
                // offline, a resolution): its final standings change in place.
                guard final.id == state.finishedRound?.id || previous == nil else { return roundFinished(&state, final, env) }
                // Read at launch: it finished when its standings last changed, as far as the watch
                // can tell ("Last: Maple Hill · Sat 28", as when the watch saw it finish).
                if final.id != state.finishedRound?.id { state.finishedAt = snapshot.lastUpdatedAt }
                let before = state.finishedRound
                state.finishedRound = final
                // Said as a change in play is ("Final standings changed. Jake, first, …"), once on screen.
                if let before, before.id == final.id, before != final, let said = Announcements.standingsChange(from: before, to: final) {
                    finalChanged = [.announce("Final standings changed. " + said)]
                }
            }
        }
        if snapshot.round != nil, case .final = state.screen { state.screen = .leaderboard }
        let effects = screensFollow(&state, snapshot, previous: previous, env)
        let rows = snapshot.round?.standings.count ?? 0
        state.scrollRow = min(state.scrollRow, max(0, rows - WatchLayout.visibleRows(size: env.size, textSize: state.textSize)))

        guard let new = snapshot.round else { return effects + finalChanged + staleness(&state, env) }
        guard let old = previous?.round, old.id == new.id else {
            // A new round: the whole list, once.
            return effects + [.announce(leaderboardAnnouncement(new))] + staleness(&state, env)
        }
        // Within a burst, what the wearer last heard is the round before the burst: the arrows
        // and what is said are the net change from it.
        let heard = state.news.map(\.from).flatMap { $0.id == new.id ? $0 : nil } ?? old
        if !StandingsChange.positionChanges(from: old.standings, to: new.standings).isEmpty {
            // Each row starts from where it is on screen now: mid-slide, that is between two
            // places, and the new slide carries on from there instead of jumping back.
            var fromRow: [PlayerID: Double] = [:]
            for (index, standing) in old.standings.enumerated() {
                fromRow[standing.playerID] = state.reshuffle.map { $0.row(of: standing.playerID, index: index, at: env.now) } ?? Double(index)
            }
            let net = StandingsChange.positionChanges(from: heard.standings, to: new.standings)
            state.reshuffle = Reshuffle(startedAt: env.now, fromRow: fromRow, movedUp: net.mapValues(\.movedUp),
                                        previous: old.standings, newOrder: new.standings.map(\.playerID))
        }
        // Felt and said once arrivals settle.
        let since = state.news?.since ?? env.now
        state.news = News(from: heard, since: since, last: env.now)
        return effects + staleness(&state, env)
    }

    /// Once standings have stopped arriving: one haptic if anyone moved since the wearer last
    /// heard, and one announcement of the net change.
    private static func tellNews(_ state: inout WatchState, _ env: WatchEnvironment) -> [WatchEffect] {
        guard let news = state.news, env.now >= news.due(drainingOwnQueue: state.drainingOwnQueue) else { return [] }
        state.news = nil
        guard let new = state.round, new.id == news.from.id else { return [] }
        var effects: [WatchEffect] = []
        if !StandingsChange.positionChanges(from: news.from.standings, to: new.standings).isEmpty {
            effects += pulse(&state, .notification, value: nil, env)
        }
        if let said = Announcements.standingsChange(from: news.from, to: new) { effects.append(.announce(said)) }
        return effects
    }

    /// The phone finished the round: show its final standings, say so, and keep them for the
    /// "No active round" summary. A score being entered is not saved: said, not dropped without a word.
    private static func roundFinished(_ state: inout WatchState, _ last: RoundSnapshot, _ env: WatchEnvironment) -> [WatchEffect] {
        var unsaved: [WatchEffect] = []
        if case .crown(let entry) = state.screen {
            state.banner = Banner(text: "Not saved: round finished", style: .failure, until: env.now.addingTimeInterval(failureBannerDuration))
            unsaved = [.announce("Score for \(entry.playerName) not saved: the round finished on the phone.")]
        }
        state.finishedRound = last
        state.finishedAt = env.now
        state.news = nil
        state.screen = .final
        state.reshuffle = nil
        // The wearer's own row in view (the top when the watch has no wearer in this round).
        let visible = WatchLayout.visibleRows(size: env.size, textSize: state.textSize)
        let own = last.standings.firstIndex { $0.playerID == state.wearerID }
        state.scrollRow = own.map { max(0, min($0 - visible / 2, last.standings.count - visible)) } ?? 0
        return pulse(&state, .notification, value: nil, env) + unsaved + [.announce(finalAnnouncement(last, wearer: state.wearerID))]
    }

    /// The open score input and voice overlay follow new standings: closed when their round or
    /// player is gone, told when the hole was scored meanwhile.
    private static func screensFollow(_ state: inout WatchState, _ snapshot: StandingsSnapshot, previous: StandingsSnapshot?,
                                      _ env: WatchEnvironment) -> [WatchEffect] {
        var effects: [WatchEffect] = []

        if case .crown(let entry) = state.screen, snapshot.round?.status.acceptsScores != true
            || snapshot.round?.standings.contains(where: { $0.playerID == entry.playerID }) != true {
            state.screen = .leaderboard
        }
        // The phone (or another watch) scored the open hole meanwhile: the screen says so and Save
        // becomes Correct, as when the row is opened after that score (saving another value over
        // another device's score is a discrepancy, as it is then); the value turned stays.
        if case .crown(var entry) = state.screen, let existing = existingScore(state, playerID: entry.playerID, hole: entry.hole),
           existing.id != entry.supersedes {
            (entry.supersedes, entry.scoredBy, entry.scoredStrokes) = (existing.id, existing.by, existing.strokes)
            (entry.own, entry.counted) = claims(state, playerID: entry.playerID, hole: entry.hole)
            state.screen = .crown(entry)
            effects += pulse(&state, .notification, value: nil, env)
            let consequence = existing.by == .thisWatch ? "Save corrects it." : "A different score from this watch disputes it; the organizer settles it on the phone."
            effects.append(.announce("\(entry.playerName) was just scored \(existing.strokes) by \(existing.by.name). \(consequence)"))
        }
        // Scores heard for a round that is over or was replaced are not saved.
        if case .voice(let overlay) = state.screen, !overlay.failed, snapshot.round?.status.acceptsScores != true
            || snapshot.round?.id != previous?.round?.id {
            state.screen = .leaderboard
            state.banner = Banner(text: "Voice scores not saved: round changed", style: .failure, until: env.now.addingTimeInterval(failureBannerDuration))
            effects.append(.announce("Voice scores not saved: the round changed on the phone."))
        }
        return effects
    }


    /// Says once when the standings turn stale (older than 30 s), and once when they are current again.
    static func staleness(_ state: inout WatchState, _ env: WatchEnvironment) -> [WatchEffect] {
        guard state.round != nil else { return [] }
        let stale = state.isStale(at: env.now)
        if stale, !state.staleAnnounced {
            state.staleAnnounced = true
            let age = state.age(at: env.now).map { ScoreFormat.spokenAge(seconds: $0) } ?? ""
            return [.announce("Standings out of date, updated \(age). Showing the last standings the phone sent.")]
        }
        if !stale, state.staleAnnounced {
            state.staleAnnounced = false
            return [.announce("Standings up to date.")]
        }
        return []
    }

    /// A rejection in a few words, for the banner (the announcement has the whole message).
    /// "Jake · hole 4: round is over"; several: "2 scores not accepted: another round" (two lines
    /// on the face, as one refusal's; whose and which hole are each said, logged and kept in
    /// rejected.jsonl: a list of them did not fit a watch's banner).
    static func refusalBanner(_ refusals: [RefusedScore]) -> String {
        guard refusals.count > 1 else { return refusals.first.map { "\($0.score): \($0.reason)" } ?? "" }
        let reasons = Set(refusals.map(\.reason))
        return "\(refusals.count) scores not accepted" + (reasons.count == 1 ? ": \(refusals[0].reason)" : "")
    }

    /// The app in front again: refusals that came meanwhile are felt, shown and said now.
    private static func cameToFront(_ state: inout WatchState, _ env: WatchEnvironment) -> [WatchEffect] {
        state.appInBackground = false
        guard state.refusalsUntold else { return [] }
        state.refusalsUntold = false
        state.banner = Banner(text: refusalBanner(state.refusals), style: .failure, until: env.now.addingTimeInterval(failureBannerDuration))
        return pulse(&state, .failure, value: nil, env) + [.announce(refusalAnnouncement(state.refusals))]
    }

    /// "Score not accepted: Jake, 3 on hole 4. It was for another round…"; for several, "2 scores
    /// not accepted: Jake, 3 on hole 4; Mike, 3 on hole 4. It was for…" (the first three named, or all four).
    static func refusalAnnouncement(_ refusals: [RefusedScore]) -> String {
        guard let first = refusals.first else { return "" }
        guard refusals.count > 1 else { return "Score not accepted: \(first.spoken). \(first.spokenReason)" }
        let named = refusals.prefix(refusals.count == 4 ? 4 : 3), more = refusals.count - named.count
        let rest = more > 0 ? "; and \(more) more" : ""
        if Set(refusals.map(\.spokenReason)).count == 1 {
            return "\(refusals.count) scores not accepted: \(named.map(\.spoken).joined(separator: "; "))\(rest). \(first.spokenReason)"
        }
        return "\(refusals.count) scores not accepted. " + named.map { "\($0.spoken). \($0.spokenReason)" }.joined(separator: " ")
            + (more > 0 ? " And \(more) more." : "")
    }

    /// The phone's reason as VoiceOver says it: the hub's own words, except where they carry ids
    /// (a round's, an event's) or speak as the code does, which nobody wants read out.
    static func spokenReason(_ rejection: Rejection) -> String {
        switch rejection.reason {
        case .wrongRound: "It was for another round: the phone has started a new one."
        case .invalidCorrection: "The score it corrects was replaced meanwhile: look at the hole again."
        case .eventIDInUse: "Its id is already another score's."
        case .roundNotAcceptingScores: "The round is over on the phone."
        default: rejection.message
        }
    }

    static func shortReason(_ reason: Rejection.Reason) -> String {
        switch reason {
        case .noActiveRound: "no round on the phone"
        case .wrongRound: "another round"
        case .roundNotAcceptingScores: "round is over"
        case .unknownPlayer: "player not in round"
        case .unknownReporter: "wearer not in round"
        case .strokesOutOfRange: "strokes 1 to 10"
        case .holeOutOfRange: "no such hole"
        case .invalidCorrection: "score changed meanwhile"
        case .wrongDevice: "wrong device"
        case .invalidScore: "unreadable score"
        case .resolutionNotAllowed: "settle on the phone"
        case .eventIDInUse: "id already used"
        }
    }

    /// Matches `--wearer NAME` to a player of the round (`NameText.wearerIndex`), and scrolls to the wearer's row.
    private static func resolveWearer(_ state: inout WatchState, _ env: WatchEnvironment) {
        // With no round in play, the wearer in the finished one (its final standings and the
        // complications say their place, not the leader's, after a relaunch too).
        guard let name = state.wearerName, let standings = state.round?.standings ?? state.snapshot?.finishedRound?.standings else { return }
        guard let index = NameText.wearerIndex(name, in: standings.map(\.name)) else {
            // Say so once per round rather than silently scoring as nobody.
            if state.wearerID == nil, let round = state.round, state.wearerMissingIn != round.id {
                state.wearerMissingIn = round.id
                state.banner = Banner(text: "\(name) is not in this round", style: .failure, until: env.now.addingTimeInterval(failureBannerDuration))
            }
            return
        }
        let newlyFound = state.wearerID != standings[index].playerID
        state.wearerID = standings[index].playerID
        if newlyFound {
            let visible = WatchLayout.visibleRows(size: env.size, textSize: state.textSize)
            state.scrollRow = max(0, min(index - visible / 2, standings.count - visible))
        }
    }

    /// "Round finished on Maple Hill. Final standings. First, Jake, minus two. …"
    /// "Round finished on Maple Hill. You finished second at minus three. Final standings. …":
    /// the wearer's own result first, as the spec's round-end announcement has it.
    public static func finalAnnouncement(_ round: RoundSnapshot, wearer: PlayerID? = nil) -> String {
        let own = round.standings.first { $0.playerID == wearer }.flatMap { standing -> String? in
            guard let position = standing.position else { return nil }
            return "You finished \(standing.tied ? "tied " : "")\(ScoreFormat.spokenOrdinal(position)) at \(ScoreFormat.spokenRelativeToPar(standing.scoreRelativeToPar)). "
        } ?? ""
        return "Round finished on \(round.courseName). \(own)Final standings. " + leaderboardAnnouncement(round).dropFirst("Leaderboard. ".count)
    }

    /// "Leaderboard. First, Jake, minus two. Second, Mike, minus one."
    public static func leaderboardAnnouncement(_ round: RoundSnapshot) -> String {
        let ranked = round.standings.map { standing -> String in
            guard let position = standing.position else { return "\(standing.name), no holes yet." }
            let place = ScoreFormat.spokenOrdinal(position).capitalized
            return "\(standing.tied ? "Tied \(place.lowercased())" : place), \(standing.name), \(ScoreFormat.spokenRelativeToPar(standing.scoreRelativeToPar))."
        }
        return (["Leaderboard."] + ranked).joined(separator: " ")
    }

    /// The crown pressed on past 1 or 10 (or the end of the list): one bump when it reaches the end, not one for every
    /// detent of a fast spin. Detents past the end that come less than `limitRepeatGap` apart
    /// are one push against the stop; the next bump needs a pause (or a turn back first).
    private static func limitPulse(_ state: inout WatchState, value: Int?, _ env: WatchEnvironment) -> [WatchEffect] {
        defer { state.crownAtLimitSince = env.now }
        if let last = state.crownAtLimitSince, env.now.timeIntervalSince(last) < limitRepeatGap, state.pulse?.kind == .limit { return [] }
        return pulse(&state, .limit, value: value, env)
    }

    static let limitRepeatGap: TimeInterval = 0.25

    private static func pulse(_ state: inout WatchState, _ kind: HapticKind, value: Int?, _ env: WatchEnvironment) -> [WatchEffect] {
        state.pulse = HapticPulse(kind: kind, at: env.now)
        return [.haptic(kind, value: value)]
    }
}
