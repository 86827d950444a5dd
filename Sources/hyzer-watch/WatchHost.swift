import CSDL2
import Foundation
import Logging
import Synchronization
import WatchCore

/// The SDL host: turns SDL events into watch input, draws the session's frames (only when they
/// change, at most once per display refresh), saves screenshots. Runs on the main thread.
final class WatchHost: ScenarioHost {
    static let frameInterval: TimeInterval = 1.0 / 60

    let session: WatchSession
    let painter: Painter
    let window: OpaquePointer?
    let screenshotDirectory: URL
    private let wake: Wake
    private var lastDrawn: DisplayList?
    private var lastPresent: ContinuousClock.Instant?
    private(set) var quitRequested = false
    /// The voice text line (V opens it), as typed so far; nil when closed.
    private var draft: String?
    private let logger = Logger(label: "hyzer.watch.host")

    /// How a session's change (or a signal) wakes the host: an SDL user event with a window, a
    /// semaphore without. Immutable once made; the stop request is an atomic flag.
    final class Wake: Sendable {
        /// The registered SDL user event type; nil when headless.
        private let eventType: UInt32?
        let semaphore = DispatchSemaphore(value: 0)
        private let stop = Atomic<Bool>(false)

        init(eventType: UInt32?) { self.eventType = eventType }

        /// Set once SIGINT or SIGTERM arrived; the host loop then ends.
        var stopRequested: Bool { stop.load(ordering: .acquiring) }

        func requestStop() {
            stop.store(true, ordering: .releasing)
            signal()
        }

        func signal() {
            if let eventType {
                var event = SDL_Event()
                event.type = eventType
                SDL_PushEvent(&event)
            } else {
                semaphore.signal()
            }
        }
    }

    init(session: WatchSession, wake: Wake, headless: Bool, title: String, screenshotDirectory: URL) throws {
        self.session = session
        self.wake = wake
        self.screenshotDirectory = screenshotDirectory
        let size = session.configuration.size
        painter = try Painter(width: size.width, height: size.height, fonts: FontBook())
        if headless {
            window = nil
        } else {
            let centered = Int32(0x2FFF_0000)  // SDL_WINDOWPOS_CENTERED (a macro Swift does not import)
            guard let window = SDL_CreateWindow(title, centered, centered, Int32(size.width), Int32(size.height), 0) else {
                throw HostError.sdl("SDL_CreateWindow")
            }
            self.window = window
            SDL_StopTextInput()  // keys are watch controls until V opens the text line
        }
    }

    var measurer: TextMeasurer { painter.measurer }

    static func seconds(_ duration: Duration) -> TimeInterval {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    // MARK: Drawing

    /// Draws the current frame if it differs from the last one drawn and a refresh has passed.
    /// Returns how long until a frame is due (for the wait timeout).
    @discardableResult
    func renderIfNeeded(force: Bool = false) -> TimeInterval {
        session.fireTimers()
        let list = session.frame(measurer: painter.measurer)
        guard force || list != lastDrawn else { return session.nextRedraw() }
        let sinceLast = lastPresent.map { Self.seconds($0.duration(to: .now)) } ?? .infinity
        if !force && sinceLast < Self.frameInterval { return Self.frameInterval - sinceLast }
        do {
            try painter.draw(list)
            present()
            lastDrawn = list
            lastPresent = .now
        } catch {
            logger.error("could not draw a frame: \(error)")
        }
        return session.nextRedraw()
    }

    private func present() {
        guard let window, let target = SDL_GetWindowSurface(window) else { return }
        SDL_UpperBlit(painter.surface, nil, target, nil)
        SDL_UpdateWindowSurface(window)
    }

    func screenshot(to url: URL) throws {
        renderIfNeeded(force: true)
        try painter.savePNG(to: url)
    }

    func screenshotNow() {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyyMMdd-HHmmss-SSS"
        let url = screenshotDirectory.appendingPathComponent("hyzer-watch-\(formatter.string(from: Date())).png")
        do {
            try FileManager.default.createDirectory(at: screenshotDirectory, withIntermediateDirectories: true)
            try screenshot(to: url)
            print("screenshot \(url.path)")
        } catch {
            logger.error("could not save a screenshot: \(error)")
        }
    }

    // MARK: Events

    /// Runs until the window closes, Q is pressed, or SIGINT/SIGTERM sets `wake.stopRequested`.
    func run() {
        renderIfNeeded(force: true)
        while !quitRequested { pump(for: 3600) }
    }

    /// Handles input and redraws for `seconds`, sleeping whenever nothing is due (idle CPU near zero).
    func pump(for seconds: TimeInterval) {
        let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
        repeat {
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
            if wake.stopRequested { quitRequested = true }
        } while ContinuousClock.now < deadline && !quitRequested
        renderIfNeeded()
    }

    private func closeDraft() {
        draft = nil
        SDL_StopTextInput()
    }

    /// SDL events in, watch input out. Nothing SDL crosses into WatchCore.
    private func handle(_ event: SDL_Event) {
        let received = ContinuousClock.now
        switch event.type {
        case SDL_QUIT.rawValue:
            quitRequested = true
        case SDL_MOUSEWHEEL.rawValue:
            var delta = Double(event.wheel.preciseY)
            if event.wheel.direction == SDL_MOUSEWHEEL_FLIPPED.rawValue { delta = -delta }
            session.send(.crown(detents: delta), inputTime: received)
        case SDL_MOUSEBUTTONDOWN.rawValue:
            switch Int32(event.button.button) {
            case 1: session.send(.tap(Point(x: Double(event.button.x), y: Double(event.button.y))), inputTime: received)
            case 3: session.send(.back, inputTime: received)
            default: break
            }
        case SDL_TEXTINPUT.rawValue:
            guard draft != nil else { break }
            let typed = withUnsafeBytes(of: event.text.text) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            draft? += typed
            session.send(.voiceDraft(draft), inputTime: received)
        case SDL_KEYDOWN.rawValue where draft != nil:
            // The voice text line has the keyboard: Enter hands the transcript to the watch.
            switch Int(event.key.keysym.sym) {
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
        case SDL_KEYDOWN.rawValue:
            switch Int(event.key.keysym.sym) {
            case Int(SDLK_v.rawValue):
                draft = ""
                SDL_StartTextInput()
                session.send(.voiceDraft(""), inputTime: received)
            case Int(SDLK_UP.rawValue): session.send(.crown(detents: 1), inputTime: received)
            case Int(SDLK_DOWN.rawValue): session.send(.crown(detents: -1), inputTime: received)
            case Int(SDLK_ESCAPE.rawValue), Int(SDLK_BACKSPACE.rawValue): session.send(.back, inputTime: received)
            case Int(SDLK_RETURN.rawValue), Int(SDLK_KP_ENTER.rawValue): session.send(.save, inputTime: received)
            case Int(SDLK_s.rawValue): screenshotNow()
            case Int(SDLK_q.rawValue): quitRequested = true
            default: break
            }
        default:
            break  // the wake event, window exposure: the next renderIfNeeded handles it
        }
    }
}
