import CSDL2
import Foundation
import HyzerKit
import HyzerStorage
import Logging
import Synchronization
import WatchCore

/// The SDL host: turns SDL events into watch input, draws the session's frames (only when they
/// change, at most once per display refresh) with or without the device around them, saves
/// screenshots and recordings. Runs on the main thread.
final class WatchHost: ScenarioHost {
    static let frameInterval: TimeInterval = 1.0 / 60

    let session: WatchSession
    let fonts: FontBook
    /// The face at the current scale.
    private(set) var painter: Painter
    /// The whole device at the current scale (made when first needed).
    private var devicePainter: Painter?
    let window: OpaquePointer?
    let screenshotDirectory: URL
    let chrome: DeviceChrome
    /// Whether the device is drawn around the face (window default: yes; `C` toggles it).
    private(set) var showsChrome: Bool
    /// Face pixels → window pixels.
    private(set) var scale: Double
    /// Window pixels per window coordinate (2 on a HiDPI output that reports it).
    private var density: Double = 1
    private let wake: Wake
    private var lastDrawn: DisplayList?
    /// Where the picture's top left is in the window: (0, 0) unless the window is larger than the
    /// device at its scale (see `present`).
    private var pictureOrigin: (x: Int32, y: Int32) = (0, 0)
    /// Whether the last click on the face changed the screen (see the double click in `handle`).
    private var firstClickChangedScreen = false
    private var lastPresent: ContinuousClock.Instant?
    private(set) var quitRequested = false
    /// The voice text line (V opens it), as typed so far; nil when closed.
    private var draft: String?
    /// The key help overlay (`?`).
    private var showsHelp = false
    /// A screenshot's flash on the face.
    private var flashAt: ContinuousClock.Instant?
    /// Dragging the crown: the last mouse y and the drag not yet turned into detents.
    private var crownDrag: (y: Double, carry: Double)?
    private var recorder: Recorder?
    private var resizing = false
    private let logger = Logger(label: "hyzer.watch.host")

    /// How a session's change (or a signal) wakes the host: an SDL user event with a window, a
    /// semaphore without. Immutable once made; the stop request is an atomic flag.
    final class Wake: Sendable {
        /// The registered SDL user event type once there is a window (`useSDLEvents`); 0 until
        /// then, and when headless.
        private let eventType = Atomic<UInt32>(0)
        let semaphore = DispatchSemaphore(value: 0)
        private let stop = Atomic<Bool>(false)

        /// Made before SDL starts (the session that signals it is made meanwhile); a window's
        /// loop is then woken with SDL events of `type`, from `useSDLEvents(_:)` on.
        init() {}

        func useSDLEvents(_ type: UInt32) { eventType.store(type, ordering: .releasing) }

        /// Set once SIGINT or SIGTERM arrived; the host loop then ends.
        var stopRequested: Bool { stop.load(ordering: .acquiring) }

        func requestStop() {
            stop.store(true, ordering: .releasing)
            signal()
        }

        func signal() {
            let eventType = eventType.load(ordering: .acquiring)
            if eventType != 0 {
                var event = SDL_Event()
                event.type = eventType
                SDL_PushEvent(&event)
            } else {
                semaphore.signal()
            }
        }
    }

    init(session: WatchSession, wake: Wake, ttf: SDLTTF, savedFontPaths: [FontSpec.Family: String]?, headless: Bool, title: String,
         screenshotDirectory: URL, chrome showsChrome: Bool, scale: Double) throws {
        self.session = session
        self.wake = wake
        self.screenshotDirectory = screenshotDirectory
        self.showsChrome = showsChrome
        self.scale = scale
        chrome = DeviceChrome(size: session.configuration.size)
        fonts = try FontBook(cache: Self.fontCache(session.configuration.paths), saved: savedFontPaths, ttf: ttf)
        painter = try Painter(width: chrome.size.width, height: chrome.size.height, scale: scale, fonts: fonts)
        if headless {
            window = nil
        } else {
            let centered = Int32(0x2FFF_0000)  // SDL_WINDOWPOS_CENTERED (a macro Swift does not import)
            let (w, h) = Self.windowSize(chrome: chrome, showsChrome: showsChrome, scale: scale)
            let flags = SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue
            guard let window = SDL_CreateWindow(title, centered, centered, Int32(w), Int32(h), flags) else {
                throw HostError.sdl("SDL_CreateWindow")
            }
            self.window = window
            SDL_StopTextInput()  // keys are watch controls until V opens the text line
            updateDensity()
        }
        session.setStatusClock(showsChrome)
    }

    /// Where the font paths fontconfig gave are kept (`FontBook`).
    static func fontCache(_ paths: HyzerPaths) -> URL { paths.watchDirectory.appendingPathComponent("font-paths") }

    var measurer: TextMeasurer { painter.measurer }

    var windowGeometry: WindowGeometry {
        var geometry = WindowGeometry(chrome: chrome, showsChrome: showsChrome, scale: scale)
        let (dx, dy) = (Double(pictureOrigin.x), Double(pictureOrigin.y))
        func moved(_ r: Rect) -> Rect { Rect(x: r.x + dx, y: r.y + dy, width: r.width, height: r.height) }
        geometry.display = moved(geometry.display)
        geometry.crown = geometry.crown.map(moved)
        geometry.sideButton = geometry.sideButton.map(moved)
        return geometry
    }

    static func seconds(_ duration: Duration) -> TimeInterval {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// The window's size in window coordinates for a picture at `scale`.
    static func windowSize(chrome: DeviceChrome, showsChrome: Bool, scale: Double) -> (Int, Int) {
        let base = showsChrome ? chrome.canvas : chrome.display
        return (Int((base.width * scale).rounded()), Int((base.height * scale).rounded()))
    }

    /// The picture's size at scale 1: the device, or just the face.
    private var base: Rect { showsChrome ? chrome.canvas : Rect(x: 0, y: 0, width: chrome.display.width, height: chrome.display.height) }

    // MARK: Scale

    /// Pixels per window coordinate: more than 1 on a HiDPI output, where the face is drawn at the
    /// output's density.
    private func updateDensity() {
        guard let window else { return }
        var w: Int32 = 0, h: Int32 = 0
        SDL_GetWindowSize(window, &w, &h)
        let pixels = SDL_GetWindowSurface(window)?.pointee.w ?? 0
        density = w > 0 && pixels > 0 ? Double(pixels) / Double(w) : 1
    }

    /// Redraws everything at a new scale (the window resized, or `+`/`-`).
    /// The window scales + and - step through, so 1 is always a step away whatever scale a drag
    /// or --scale left.
    static let scaleSteps: [Double] = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 2.5, 3, 4, 5, 6, 8]

    /// The next step up or down from the current scale; up, no larger than the display's usable
    /// area holds (the window would not fit on the screen).
    private func nextScale(larger: Bool) -> Double {
        let epsilon = 0.001
        guard larger else { return Self.scaleSteps.last { $0 < scale - epsilon } ?? scale }
        guard let next = Self.scaleSteps.first(where: { $0 > scale + epsilon }) else { return scale }
        var usable = SDL_Rect()
        if let window, SDL_GetDisplayUsableBounds(SDL_GetWindowDisplayIndex(window), &usable) == 0, usable.w > 0, usable.h > 0 {
            let (w, h) = Self.windowSize(chrome: chrome, showsChrome: showsChrome, scale: next)
            if w > Int(usable.w) || h > Int(usable.h) {
                logger.info("window scale stays \(scale): \(next) would not fit the display (\(usable.w)×\(usable.h))")
                return scale
            }
        }
        return next
    }

    private func rescale(to newScale: Double, resizeWindow: Bool) {
        let clamped = min(8, max(0.25, newScale))
        if let window, resizeWindow {
            let (w, h) = Self.windowSize(chrome: chrome, showsChrome: showsChrome, scale: clamped)
            resizing = true
            SDL_SetWindowSize(window, Int32(w), Int32(h))
            resizing = false
        }
        updateDensity()
        scale = clamped
        do {
            painter = try Painter(width: chrome.size.width, height: chrome.size.height, scale: scale * density, fonts: fonts)
            devicePainter = nil
        } catch {
            logger.error("could not redraw at scale \(clamped): \(error)")
        }
        renderIfNeeded(force: true)
    }

    /// The user resized the window: keep the device's proportions and draw at the size chosen.
    private func windowResized(width: Int32, height: Int32) {
        guard !resizing, width > 0, height > 0 else { return }
        let fit = min(Double(width) / base.width, Double(height) / base.height)
        // A maximised (or full-screen) window keeps the size the window manager gave it: the
        // device is drawn to fit and centred in it (see `present`) instead of asking for a size
        // the window manager would refuse.
        let fixed = window.map { SDL_GetWindowFlags($0) & (SDL_WINDOW_MAXIMIZED.rawValue | SDL_WINDOW_FULLSCREEN.rawValue) != 0 } ?? false
        rescale(to: fit, resizeWindow: !fixed)
    }

    // MARK: Drawing

    /// Draws the current frame if it differs from the last one drawn and a refresh has passed.
    /// Returns how long until a frame is due (for the wait timeout).
    @discardableResult
    func renderIfNeeded(force: Bool = false) -> TimeInterval {
        session.fireTimers()
        recordDueFrames()
        let list = decorated(session.frame(measurer: painter.measurer))
        var due = session.nextRedraw()
        if let flashAt { due = min(due, max(0.001, 0.25 - Self.seconds(flashAt.duration(to: .now)))) }
        if let recorder { due = min(due, max(0.001, recorder.nextTick.timeIntervalSince(session.now()))) }
        guard force || list != lastDrawn else { return due }
        let sinceLast = lastPresent.map { Self.seconds($0.duration(to: .now)) } ?? .infinity
        if !force && sinceLast < Self.frameInterval { return Self.frameInterval - sinceLast }
        do {
            try draw(list)
            present()
            lastDrawn = list
            lastPresent = .now
        } catch {
            logger.error("could not draw a frame: \(error)")
        }
        return due
    }

    /// The face plus what only the window has: the key help and a screenshot's flash.
    private func decorated(_ face: DisplayList) -> DisplayList {
        var list = face
        if showsHelp { list.commands += WindowKeys.helpOverlay(width: list.width, height: list.height, measurer: painter.measurer) }
        if let flashAt {
            let t = Self.seconds(flashAt.duration(to: .now))
            if t < 0.25 {
                list.commands.append(.rect(Rect(x: 0, y: 0, width: list.width, height: list.height), RGBA(255, 255, 255).opacity(0.7 * (1 - t / 0.25)), cornerRadius: 0))
            } else {
                self.flashAt = nil
            }
        }
        return list
    }

    /// Paints `list` on the face, and the device around it when shown.
    private func draw(_ list: DisplayList) throws {
        try painter.draw(list)
        if showsChrome { try device().drawDevice(chrome, face: painter.surface, crownHighlight: crownDrag != nil) }
    }

    private func device() throws -> Painter {
        if let devicePainter { return devicePainter }
        let made = try Painter(width: Int(chrome.canvas.width), height: Int(chrome.canvas.height), scale: painter.scale, fonts: fonts)
        devicePainter = made
        return made
    }

    /// The picture the window shows.
    private var picture: UnsafeMutablePointer<SDL_Surface> { showsChrome ? (devicePainter?.surface ?? painter.surface) : painter.surface }

    private func present() {
        guard let window, let target = SDL_GetWindowSurface(window) else { return }
        let source = picture
        if source.pointee.w == target.pointee.w && source.pointee.h == target.pointee.h {
            pictureOrigin = (0, 0)
            SDL_UpperBlit(source, nil, target, nil)
        } else if source.pointee.w <= target.pointee.w && source.pointee.h <= target.pointee.h {
            // A window the window manager keeps larger than the device (maximised): the device
            // is drawn at the largest scale that fits, centred, on the colour around it (the desk,
            // or the face's background without chrome), so no seam shows; clicks are offset to match.
            pictureOrigin = ((target.pointee.w - source.pointee.w) / 2, (target.pointee.h - source.pointee.h) / 2)
            let around = showsChrome ? Painter.desk : HyzerColor.background
            SDL_FillRect(target, nil, SDL_MapRGB(target.pointee.format, around.r, around.g, around.b))
            var destination = SDL_Rect(x: pictureOrigin.x, y: pictureOrigin.y, w: source.pointee.w, h: source.pointee.h)
            SDL_UpperBlit(source, nil, target, &destination)
        } else {
            pictureOrigin = (0, 0)
            // Mid-resize: stretch until the next frame is drawn at the new size.
            SDL_FillRect(target, nil, 0)
            SDL_UpperBlitScaled(source, nil, target, nil)
        }
        SDL_UpdateWindowSurface(window)
    }

    /// A PNG of the face, or with `chrome` of the whole device, at the current scale.
    func screenshot(to url: URL, chrome wanted: Bool?) throws {
        let withChrome = wanted ?? showsChrome
        let list = session.frame(measurer: painter.measurer)
        try painter.draw(list)
        if withChrome {
            let device = try device()
            try device.drawDevice(chrome, face: painter.surface, crownHighlight: false)
            try device.savePNG(to: url)
        } else {
            try painter.savePNG(to: url)
        }
        lastDrawn = nil  // the window's next frame is drawn afresh
    }

    func screenshotNow() {
        let url = screenshotDirectory.appendingPathComponent("hyzer-watch-\(Self.stamp()).png")
        do {
            try DurableFile.makeDirectory(screenshotDirectory)
            try screenshot(to: url, chrome: nil)
            print("screenshot \(url.path)")
            flashAt = .now
        } catch {
            logger.error("could not save a screenshot: \(error)")
        }
    }

    static func stamp() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss-SSS"
        return formatter.string(from: Date())
    }

    // MARK: Recording

    /// Frames taken at a steady 30 a second of the watch's clock, so a 0.3 s slide plays in 0.3 s;
    /// a frame that does not change is not stored again, the one before it shows longer.
    final class Recorder {
        static let framesPerSecond = 30.0
        let url: URL
        let started: Date
        var nextTick: Date
        var frames: [AnimatedPNG.Frame] = []
        var last: DisplayList?
        let scratch: URL

        init(url: URL, now: Date) {
            self.url = url
            started = now
            nextTick = now
            scratch = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-record-\(UUID().uuidString).png")
        }
    }

    func startRecording(to url: URL) throws {
        guard recorder == nil else { throw HostError("already recording to \(recorder!.url.path); record stop first") }
        // Frames are PNGs: without SDL_image say so now, once, not at every frame; and a file
        // that cannot be written is said now, not when the recording stops.
        _ = try SDLImage.savePNG.get()
        try DurableFile.checkWritable(url)
        recorder = Recorder(url: url, now: session.now())
        recordDueFrames()
        wake.signal()
    }

    /// Takes every frame whose time has come, each drawn as the face was at that moment.
    private func recordDueFrames() {
        guard let recorder else { return }
        let now = session.now()
        let step = 1 / Recorder.framesPerSecond
        while recorder.nextTick <= now {
            let at = recorder.nextTick
            recorder.nextTick = at.addingTimeInterval(step)
            let list = session.frame(measurer: painter.measurer, at: at)
            if list == recorder.last, let previous = recorder.frames.popLast() {
                recorder.frames.append(AnimatedPNG.Frame(png: previous.png, delay: previous.delay + step))
                continue
            }
            do {
                try draw(list)
                try (showsChrome ? try device() : painter).savePNG(to: recorder.scratch)
                recorder.frames.append(AnimatedPNG.Frame(png: try Data(contentsOf: recorder.scratch), delay: step))
                recorder.last = list
                lastDrawn = nil
            } catch {
                logger.error("could not record a frame: \(error)")
            }
        }
    }

    var isRecording: Bool { recorder != nil }

    @discardableResult
    func stopRecording() throws -> Int {
        guard let recorder else { throw HostError("not recording; record start FILE.png first") }
        recordDueFrames()
        self.recorder = nil
        try? FileManager.default.removeItem(at: recorder.scratch)
        try DurableFile.replace(recorder.url, with: try AnimatedPNG.assemble(recorder.frames))
        let seconds = recorder.frames.reduce(0) { $0 + $1.delay }
        logger.info("recorded \(recorder.frames.count) frames, \(String(format: "%.2f", seconds)) s, to \(recorder.url.path)")
        return recorder.frames.count
    }

    private func toggleRecording() {
        do {
            if recorder != nil {
                let url = recorder!.url
                let frames = try stopRecording()
                print("recording \(url.path) (\(frames) frames)")
            } else {
                try startRecording(to: screenshotDirectory.appendingPathComponent("hyzer-watch-\(Self.stamp()).png"))
                print("recording started; R again to stop")
            }
        } catch {
            logger.error("recording: \(error)")
        }
    }

    // MARK: Events

    /// Runs until the window closes, Q is pressed, or SIGINT/SIGTERM sets `wake.stopRequested`.
    func run() {
        renderIfNeeded(force: true)
        while !quitRequested { pump(for: 3600) }
        if recorder != nil { toggleRecording() }  // quitting while recording saves it
    }

    /// Called on every turn of the loop, between frames: where `hyzer-watch ctl`'s requests run.
    var betweenFrames: (() -> Void)?

    /// Handles input and redraws for `seconds`, sleeping whenever nothing is due (idle CPU near zero).
    func pump(for seconds: TimeInterval) {
        let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
        repeat {
            betweenFrames?()
            let due = renderIfNeeded()
            let wait = max(0, min(due, Self.seconds(ContinuousClock.now.duration(to: deadline))))
            if window == nil {
                _ = wake.semaphore.wait(timeout: .now() + wait)
            } else {
                var event = SDL_Event()
                if SDL_WaitEventTimeout(&event, Int32((wait * 1000).rounded(.up))) != 0 {
                    handle(event)
                    while SDL_PollEvent(&event) != 0 { handle(event) }
                }
            }
            if wake.stopRequested, !quitRequested {
                logger.info("quitting: asked to stop (SIGINT or SIGTERM)")
                quitRequested = true
            }
        } while ContinuousClock.now < deadline && !quitRequested
        renderIfNeeded()
    }

    private func closeDraft() {
        draft = nil
        SDL_StopTextInput()
    }

    /// Which screen, without its contents: what a click may change (a voice overlay's row being
    /// tapped changes the overlay, not the screen).
    private enum ScreenKind: Equatable {
        case leaderboard, crown(playerID: String), final, voice, watchFace

        init(_ state: WatchState) {
            if state.appInBackground {
                self = .watchFace
                return
            }
            switch state.screen {
            case .leaderboard: self = .leaderboard
            case .crown(let entry): self = .crown(playerID: entry.playerID)
            case .final: self = .final
            case .voice: self = .voice
            }
        }
    }

    /// Where a window point is: on the face (in face pixels), the crown, the side button.
    private func part(atWindowX x: Int32, y: Int32) -> DeviceChrome.Part {
        let point = Point(x: Double(x - pictureOrigin.x) / scale, y: Double(y - pictureOrigin.y) / scale)
        if showsChrome { return chrome.part(at: point) }
        return .face(point)
    }

    /// SDL events in, watch input out. Nothing SDL crosses into WatchCore.
    private func handle(_ event: SDL_Event) {
        let received = ContinuousClock.now
        // The key list is a sheet over the face: the next click, turn or key closes it and does
        // nothing else (a tap or a turn went through to the face it hides, unseen).
        if showsHelp, [SDL_MOUSEWHEEL.rawValue, SDL_MOUSEBUTTONDOWN.rawValue, SDL_KEYDOWN.rawValue].contains(event.type) {
            showsHelp = false
            return
        }
        switch event.type {
        case SDL_QUIT.rawValue:
            logger.info("quitting: the window was closed")
            quitRequested = true
        case SDL_WINDOWEVENT.rawValue:
            switch UInt32(event.window.event) {
            case SDL_WINDOWEVENT_SIZE_CHANGED.rawValue:
                windowResized(width: event.window.data1, height: event.window.data2)
            case SDL_WINDOWEVENT_EXPOSED.rawValue, SDL_WINDOWEVENT_SHOWN.rawValue, SDL_WINDOWEVENT_RESTORED.rawValue, SDL_WINDOWEVENT_MAXIMIZED.rawValue:
                // The window system dropped what the window showed (a window manager reparented
                // it, it was minimised and restored, or uncovered): the next frame is drawn
                // afresh even if the face has not changed.
                lastDrawn = nil
            default:
                break
            }
        case SDL_MOUSEWHEEL.rawValue:
            // The wheel turns the crown wherever the pointer is (over the drawn crown too).
            var delta = Double(event.wheel.preciseY)
            if event.wheel.direction == SDL_MOUSEWHEEL_FLIPPED.rawValue { delta = -delta }
            session.send(.crown(detents: delta), inputTime: received)
        case SDL_MOUSEBUTTONDOWN.rawValue:
            click(event.button, received: received)
        case SDL_MOUSEMOTION.rawValue:
            guard var drag = crownDrag else { break }
            // Dragging the crown up turns it up, one detent per 14 px.
            let y = Double(event.motion.y) / scale
            drag.carry += drag.y - y
            drag.y = y
            let detents = (drag.carry / DeviceChrome.dragPerDetent).rounded(.towardZero)
            if detents != 0 {
                drag.carry -= detents * DeviceChrome.dragPerDetent
                session.send(.crown(detents: detents), inputTime: received)
            }
            crownDrag = drag
        case SDL_MOUSEBUTTONUP.rawValue:
            crownDrag = nil
            lastDrawn = nil
        case SDL_TEXTINPUT.rawValue:
            guard draft != nil else { break }
            let typed = withUnsafeBytes(of: event.text.text) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            draft? += typed
            session.send(.voiceDraft(draft), inputTime: received)
        case SDL_KEYDOWN.rawValue where draft != nil:
            draftKey(event.key.keysym, received: received)
        case SDL_KEYDOWN.rawValue:
            key(event.key.keysym, received: received)
        default:
            break  // the wake event, window exposure: the next renderIfNeeded handles it
        }
    }

    /// A click: on the face a tap, on the crown the start of a drag, the side button or a right
    /// click back.
    private func click(_ button: SDL_MouseButtonEvent, received: ContinuousClock.Instant) {
        switch (Int32(button.button), part(atWindowX: button.x, y: button.y)) {
        case (1, .face(let point)):
            // A double click's second click, when the first changed the screen (Save, a row):
            // on a watch the screen is moving then and takes no tap; here it would land on
            // whatever the new screen has under the pointer (another player's row).
            if button.clicks >= 2, firstClickChangedScreen {
                logger.debug("ignored the second click of a double click: the first changed the screen")
                return
            }
            let before = ScreenKind(session.current)
            session.send(.tap(point), inputTime: received)
            firstClickChangedScreen = ScreenKind(session.current) != before
        case (1, .crown): crownDrag = (Double(button.y) / scale, 0)
        case (1, .sideButton), (3, _): session.send(.back, inputTime: received)
        default: break
        }
    }

    /// A key while the voice text line has the keyboard: Enter hands the transcript to the watch.
    private func draftKey(_ keysym: SDL_Keysym, received: ContinuousClock.Instant) {
        switch Int(keysym.sym) {
        case Int(SDLK_RETURN.rawValue), Int(SDLK_KP_ENTER.rawValue):
            let transcript = draft ?? ""
            closeDraft()
            if transcript.trimmingCharacters(in: .whitespaces).isEmpty {
                session.send(.voiceDraft(nil), inputTime: received)
            } else {
                session.send(.voice(transcript), inputTime: received)
            }
        case Int(SDLK_ESCAPE.rawValue):
            closeDraft()
            session.send(.voiceDraft(nil), inputTime: received)
        case Int(SDLK_BACKSPACE.rawValue):
            if draft?.isEmpty == false { draft?.removeLast() }
            session.send(.voiceDraft(draft), inputTime: received)
        default:
            break
        }
    }

    /// The window's keys (`WindowKeys.all`, shown by `?`).
    private func key(_ keysym: SDL_Keysym, received: ContinuousClock.Instant) {
        let shift = (UInt32(keysym.mod) & (KMOD_LSHIFT.rawValue | KMOD_RSHIFT.rawValue)) != 0
        let state = session.current
        switch Int(keysym.sym) {
        case Int(SDLK_v.rawValue):
            draft = ""
            SDL_StartTextInput()
            session.send(.voiceDraft(""), inputTime: received)
        case Int(SDLK_UP.rawValue): session.send(.crown(detents: 1), inputTime: received)
        case Int(SDLK_DOWN.rawValue): session.send(.crown(detents: -1), inputTime: received)
        case Int(SDLK_LEFT.rawValue): session.send(.pickHole(delta: -1), inputTime: received)
        case Int(SDLK_RIGHT.rawValue): session.send(.pickHole(delta: 1), inputTime: received)
        case Int(SDLK_ESCAPE.rawValue), Int(SDLK_BACKSPACE.rawValue):
            session.send(.back, inputTime: received)
        case Int(SDLK_RETURN.rawValue), Int(SDLK_KP_ENTER.rawValue): session.send(.save, inputTime: received)
        case Int(SDLK_s.rawValue): screenshotNow()
        case Int(SDLK_r.rawValue): toggleRecording()
        case Int(SDLK_l.rawValue): session.setLink(up: !session.linkWanted)
        case Int(SDLK_a.rawValue): session.advanceClock(by: shift ? 10 : 60)
        case Int(SDLK_w.rawValue): session.send(.wrist(up: state.wristDown), inputTime: received)
        case Int(SDLK_b.rawValue): session.send(.app(foreground: state.appInBackground), inputTime: received)
        case Int(SDLK_m.rawValue): session.send(.reduceMotion(!state.reduceMotion), inputTime: received)
        case Int(SDLK_t.rawValue):
            let next = shift ? state.textSize.smaller : state.textSize.larger
            session.send(.textSize(next), inputTime: received)
        case Int(SDLK_c.rawValue):
            showsChrome.toggle()
            session.setStatusClock(showsChrome)
            rescale(to: scale, resizeWindow: true)
        case Int(SDLK_EQUALS.rawValue), Int(SDLK_PLUS.rawValue), Int(SDLK_KP_PLUS.rawValue): rescale(to: nextScale(larger: true), resizeWindow: true)
        case Int(SDLK_MINUS.rawValue), Int(SDLK_KP_MINUS.rawValue): rescale(to: nextScale(larger: false), resizeWindow: true)
        case Int(SDLK_SLASH.rawValue) where shift, Int(SDLK_QUESTION.rawValue), Int(SDLK_h.rawValue), Int(SDLK_F1.rawValue):
            showsHelp.toggle()
        case Int(SDLK_q.rawValue):
            logger.info("quitting: Q was pressed")
            quitRequested = true
        default: break
        }
    }
}
