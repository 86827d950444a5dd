import HyzerKit
import CSDL2
import Foundation
import Logging
import HyzerStorage
import WatchCore

/// Errors of the SDL host, with what to do about them.
struct HostError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }

    static func sdl(_ what: String) -> HostError { HostError("\(what): \(String(cString: SDL_GetError()))") }

    /// A file error as a person reads it: the system's reason ("Permission denied", "Is a
    /// directory", "No such file or directory") rather than Foundation's error domain and code.
    static func reason(_ error: any Error) -> String {
        if let error = error as? HostError { return error.description }
        let error = error as NSError
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if error.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(error.code))) }
        return error.localizedDescription
    }
}

/// The face's fonts, found through fontconfig (fonts-dejavu-core), opened and cached on first use.
/// Text with characters DejaVu lacks (Chinese, Japanese, Korean names) is drawn with the font
/// fontconfig finds for them (fonts-noto-cjk), in the same weight.
///
/// `@unchecked Sendable` because the text measurer (a `@Sendable` closure) holds it: the cache is
/// confined to the thread that made it (the one that draws), and every access checks that.
final class FontBook: @unchecked Sendable {
    private let owner = pthread_self()
    let ttf: SDLTTF
    private var paths: [FontSpec.Family: String] = [:]
    private var fonts: [FontKey: OpaquePointer] = [:]
    /// Each font file, mapped into memory once: SDL_ttf opens every size from it. Opened from
    /// the file instead, each size read its tables through ~150 small seeks and reads.
    private var mapped: [String: UnsafeRawBufferPointer] = [:]
    /// The fallback font file (and face index in a collection) for a family and a character.
    private var fallbacks: [FallbackKey: FontFile?] = [:]

    struct FontFile: Hashable {
        let path: String
        let index: Int
    }

    private struct FontKey: Hashable {
        let file: FontFile
        let size: Double
    }

    private struct FallbackKey: Hashable {
        let family: FontSpec.Family
        let scalar: UInt32
    }

    static let patterns: [FontSpec.Family: (pattern: String, file: String, package: String)] = [
        .sans: ("DejaVu Sans", "DejaVuSans.ttf", "fonts-dejavu-core"),
        .sansBold: ("DejaVu Sans:bold", "DejaVuSans-Bold.ttf", "fonts-dejavu-core"),
        .sansCondensedBold: ("DejaVu Sans Condensed:bold", "DejaVuSansCondensed-Bold.ttf", "fonts-dejavu-extra"),
        .monoBold: ("DejaVu Sans Mono:bold", "DejaVuSansMono-Bold.ttf", "fonts-dejavu-core"),
    ]

    /// `cache` keeps where fontconfig found the face's fonts: fontconfig's start (reading its
    /// configuration and every installed font's cache, the CJK fonts' too) is then off the way to
    /// the first frame. A cached path is used only while it is still that font's file;
    /// otherwise fontconfig is asked again. CJK fallbacks are asked for when a name needs them.
    ///
    /// `saved` is what `savedPaths(in: cache)` read (the watch reads it on another thread while
    /// SDL starts).
    init(cache: URL?, saved: [FontSpec.Family: String]?, ttf: SDLTTF) throws {
        self.ttf = ttf
        if let saved {
            paths = saved
            return
        }
        for family in FontSpec.Family.allCases {
            let (pattern, file, package) = Self.patterns[family]!
            guard let path = try Self.match(pattern), URL(fileURLWithPath: path).lastPathComponent == file else {
                throw HostError("Font \(pattern) (\(file)) not found through fontconfig (fc-match '\(pattern)'). Install it: apt-get install \(package)")
            }
            paths[family] = path
        }
        guard let cache else { return }
        do {
            try Self.save(paths, in: cache)
            // The earlier cache (JSON), which this watch no longer reads.
            unlink(cache.deletingLastPathComponent().appendingPathComponent("fonts.json").path)
        } catch {
            // Only the next start's speed depends on it.
            Logger(label: "hyzer.watch.host").notice("could not keep the font paths in \(cache.path): \(error)")
        }
    }

    /// Writes `paths` to `cache`, one family a line: its name, a tab, the file's path. (Read with
    /// plain system calls at start: `JSONDecoder`'s first use is slow on that thread, mostly
    /// conformance lookups that each scan every conformance record in the binary.)
    static func save(_ paths: [FontSpec.Family: String], in cache: URL) throws {
        let lines = FontSpec.Family.allCases.compactMap { family in paths[family].map { "\(family.rawValue)\t\($0)\n" } }
        guard lines.count == FontSpec.Family.allCases.count, !lines.contains(where: { $0.dropLast().contains("\n") || $0.split(separator: "\t").count != 2 }) else {
            throw HostError("a font path holds a tab or a line break")
        }
        // Not synced: a cache lost to a power cut is only asked for again. One temp name for
        // every start, so a start killed mid-write leaves at most that file, replaced next time.
        do {
            try DurableFile.replace(cache, with: Data(lines.joined().utf8), durable: false, temporaryName: ".font-paths.tmp")
        } catch {
            throw HostError(error.description)
        }
    }

    /// The cached font paths when every one is still its family's file; nil otherwise (no cache, a
    /// damaged one, a font moved or removed).
    static func savedPaths(in cache: URL) -> [FontSpec.Family: String]? {
        // Non-blocking, and a regular file only: a FIFO (or a device) there must not hold the start.
        let fd = Glibc.open(cache.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        // A cache is ~200 bytes; anything past 16 KB is not one.
        guard let bytes = (try? readAll(fd, limit: 16_383)) ?? nil, let text = String(validating: bytes, as: UTF8.self) else { return nil }
        var paths: [FontSpec.Family: String] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 2, let family = FontSpec.Family(rawValue: String(fields[0])), paths[family] == nil else { return nil }
            let path = String(fields[1])
            guard path.hasPrefix("/"), path.hasSuffix("/" + patterns[family]!.file), access(path, R_OK) == 0 else { return nil }
            paths[family] = path
        }
        return paths.count == FontSpec.Family.allCases.count ? paths : nil
    }

    /// The file fontconfig picks for `pattern` (what `fc-match -f '%{file}' PATTERN` prints).
    private static func match(_ pattern: String) throws(HostError) -> String? {
        try matchFile(pattern, containing: nil)?.path
    }

    /// The font file fontconfig picks for `pattern`, among those that have `scalar` if given.
    private static func matchFile(_ pattern: String, containing scalar: UInt32?) throws(HostError) -> FontFile? {
        let fc = try Fontconfig.shared.get()
        guard fc.initialize() != 0, let parsed = pattern.withCString({ fc.nameParse(UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self)) }) else {
            return nil
        }
        defer { fc.patternDestroy(parsed) }
        if let scalar, let charset = fc.charSetCreate() {
            _ = fc.charSetAddChar(charset, scalar)
            _ = fc.patternAddCharSet(parsed, FC_CHARSET, charset)
            fc.charSetDestroy(charset)
        }
        _ = fc.configSubstitute(nil, parsed, FcMatchPattern)
        fc.defaultSubstitute(parsed)
        var result = FcResultNoMatch
        guard let matched = fc.fontMatch(nil, parsed, &result) else { return nil }
        defer { fc.patternDestroy(matched) }
        var file: UnsafeMutablePointer<FcChar8>?
        guard fc.patternGetString(matched, FC_FILE, 0, &file) == FcResultMatch, let file else { return nil }
        var index: Int32 = 0
        if fc.patternGetInteger(matched, FC_INDEX, 0, &index) != FcResultMatch { index = 0 }
        return FontFile(path: String(cString: file), index: Int(index))
    }

    private func assertOnOwnerThread() {
        precondition(pthread_equal(owner, pthread_self()) != 0, "FontBook is used only on the thread that draws")
    }

    private func open(_ file: FontFile, size: Double) throws -> OpaquePointer {
        let key = FontKey(file: file, size: max(1, size.rounded()))
        if let font = fonts[key] { return font }
        // From the mapping when there is one (its source is freed with the font, freesrc 1; the
        // mapping outlives every font), else from the file.
        let source = map(file.path).flatMap { SDL_RWFromConstMem($0.baseAddress, Int32($0.count)) }
        guard let font = source.map({ ttf.openFontIndexRW($0, 1, Int32(key.size), key.file.index) })
                ?? ttf.openFontIndex(file.path, Int32(key.size), key.file.index) else { throw HostError.sdl("TTF_OpenFont \(file.path)") }
        fonts[key] = font
        return font
    }

    /// The file's bytes, mapped read-only; nil when it cannot be (SDL_ttf then reads the file).
    private func map(_ path: String) -> UnsafeRawBufferPointer? {
        if let bytes = mapped[path] { return bytes }
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size > 0, info.st_size <= Int(Int32.max),
              let base = mmap(nil, Int(info.st_size), PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else { return nil }
        let bytes = UnsafeRawBufferPointer(start: base, count: Int(info.st_size))
        mapped[path] = bytes
        return bytes
    }

    /// The font to draw `text` in: the family's own, or a fallback that has the characters it lacks.
    func font(_ spec: FontSpec, for text: String = "") throws -> OpaquePointer {
        assertOnOwnerThread()
        let primary = try open(FontFile(path: paths[spec.family]!, index: 0), size: spec.size)
        guard let missing = text.unicodeScalars.first(where: { $0.value > 0x7F && ttf.glyphIsProvided32(primary, $0.value) == 0 }) else {
            return primary
        }
        let key = FallbackKey(family: spec.family, scalar: missing.value)
        if fallbacks[key] == nil {
            let pattern = spec.family == .sans ? "sans-serif" : "sans-serif:bold"
            // Without fontconfig the text is drawn in the family's own font.
            let found = try? Self.matchFile(pattern, containing: missing.value)
            fallbacks[key] = found?.path == paths[spec.family] ? .some(nil) : .some(found)
        }
        guard let file = fallbacks[key] ?? nil, let fallback = try? open(file, size: spec.size),
              ttf.glyphIsProvided32(fallback, missing.value) != 0 else { return primary }
        return fallback
    }

    func width(_ text: String, _ spec: FontSpec) -> Double {
        guard !text.isEmpty, let font = try? font(spec, for: text) else { return 0 }
        var w: Int32 = 0, h: Int32 = 0
        _ = ttf.sizeUTF8(font, text, &w, &h)
        return Double(w)
    }

    deinit {
        for font in fonts.values { ttf.closeFont(font) }
        for bytes in mapped.values { munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count) }
    }
}

/// Draws display lists with SDL's software renderer into a surface the size of the face. The
/// surface is what a window shows and what a screenshot saves.
final class Painter {
    let surface: UnsafeMutablePointer<SDL_Surface>
    let renderer: OpaquePointer
    let fonts: FontBook
    /// Surface pixels per face pixel: the face is drawn at this density (crisp at any window scale).
    let scale: Double
    private var textures: [TextKey: (texture: OpaquePointer, width: Int32, height: Int32)] = [:]

    private struct TextKey: Hashable {
        let text: String
        let font: FontSpec
        let r: UInt8, g: UInt8, b: UInt8
    }

    init(width: Int, height: Int, scale: Double = 1, fonts: FontBook) throws {
        self.scale = scale
        guard let surface = SDL_CreateRGBSurfaceWithFormat(0, Int32((Double(width) * scale).rounded()), Int32((Double(height) * scale).rounded()),
                                                          32, SDL_PIXELFORMAT_ARGB8888.rawValue) else {
            throw HostError.sdl("SDL_CreateRGBSurfaceWithFormat")
        }
        guard let renderer = SDL_CreateSoftwareRenderer(surface) else { throw HostError.sdl("SDL_CreateSoftwareRenderer") }
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
        self.surface = surface
        self.renderer = renderer
        self.fonts = fonts
    }

    deinit {
        for entry in textures.values { SDL_DestroyTexture(entry.texture) }
        SDL_DestroyRenderer(renderer)
        SDL_FreeSurface(surface)
    }

    var measurer: TextMeasurer {
        let fonts = self.fonts
        return TextMeasurer { text, font in fonts.width(text, font) }
    }

    func draw(_ list: DisplayList) throws {
        setColor(list.background)
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_NONE)
        SDL_RenderClear(renderer)
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
        let s = scale
        func scaled(_ r: Rect) -> Rect { Rect(x: r.x * s, y: r.y * s, width: r.width * s, height: r.height * s) }
        for command in list.commands {
            switch command {
            case .rect(let rect, let color, let radius): fillRoundedRect(scaled(rect), radius: radius * s, color)
            case .ring(let rect, let color, let thickness, let radius): ring(scaled(rect), thickness: thickness * s, radius: radius * s, color)
            case .arc(let rect, let color, let thickness, let fraction): arc(scaled(rect), thickness: thickness * s, fraction: fraction, color)
            case .text(let text, let frame, let font, let color, let alignment):
                try drawText(text, scaled(frame), FontSpec(font.family, font.size * s), color, alignment)
            }
        }
        SDL_RenderPresent(renderer)
        if textures.count > 512 { flushTextCache() }
    }

    func savePNG(to url: URL) throws {
        let save = try SDLImage.savePNG.get()
        guard save(surface, url.path) == 0 else { throw HostError.sdl("IMG_SavePNG \(url.path)") }
    }

    private func flushTextCache() {
        for entry in textures.values { SDL_DestroyTexture(entry.texture) }
        textures = [:]
    }

    func setColor(_ color: RGBA) {
        SDL_SetRenderDrawColor(renderer, color.r, color.g, color.b, color.a)
    }

    private func drawText(_ text: String, _ frame: Rect, _ font: FontSpec, _ color: RGBA, _ alignment: TextAlignment) throws {
        guard !text.isEmpty, color.a > 0 else { return }
        let key = TextKey(text: text, font: font, r: color.r, g: color.g, b: color.b)
        let entry: (texture: OpaquePointer, width: Int32, height: Int32)
        if let cached = textures[key] {
            entry = cached
        } else {
            guard let rendered = fonts.ttf.renderUTF8Blended(try fonts.font(font, for: text), text, SDL_Color(r: color.r, g: color.g, b: color.b, a: 255)) else {
                throw HostError.sdl("TTF_RenderUTF8_Blended")
            }
            defer { SDL_FreeSurface(rendered) }
            guard let texture = SDL_CreateTextureFromSurface(renderer, rendered) else { throw HostError.sdl("SDL_CreateTextureFromSurface") }
            SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND)
            entry = (texture, rendered.pointee.w, rendered.pointee.h)
            textures[key] = entry
        }
        SDL_SetTextureAlphaMod(entry.texture, color.a)
        let x: Double = switch alignment {
        case .leading: frame.x
        case .center: frame.x + (frame.width - Double(entry.width)) / 2
        case .trailing: frame.x + frame.width - Double(entry.width)
        }
        var destination = SDL_Rect(x: Int32(x.rounded()), y: Int32((frame.y + (frame.height - Double(entry.height)) / 2).rounded()),
                                   w: entry.width, h: entry.height)
        SDL_RenderCopy(renderer, entry.texture, nil, &destination)
    }

    /// Filled rectangle with rounded corners, drawn as one horizontal span per pixel row.
    func fillRoundedRect(_ rect: Rect, radius: Double, _ color: RGBA) {
        setColor(color)
        let r = min(radius, rect.height / 2, rect.width / 2)
        let top = Int(rect.y.rounded()), bottom = Int((rect.y + rect.height).rounded())
        for y in top..<bottom {
            let inset = cornerInset(y: Double(y) + 0.5, rect: rect, radius: r)
            var span = SDL_Rect(x: Int32((rect.x + inset).rounded()), y: Int32(y),
                                w: Int32((rect.width - 2 * inset).rounded()), h: 1)
            SDL_RenderFillRect(renderer, &span)
        }
    }

    /// A band `thickness` wide just inside `rect`'s rounded outline.
    func ring(_ rect: Rect, thickness: Double, radius: Double, _ color: RGBA) {
        setColor(color)
        let inner = Rect(x: rect.x + thickness, y: rect.y + thickness, width: rect.width - 2 * thickness, height: rect.height - 2 * thickness)
        let innerRadius = max(0, radius - thickness)
        let top = Int(rect.y.rounded()), bottom = Int((rect.y + rect.height).rounded())
        for y in top..<bottom {
            let row = Double(y) + 0.5
            let outer = cornerInset(y: row, rect: rect, radius: radius)
            let left = rect.x + outer, right = rect.x + rect.width - outer
            if row < inner.y || row > inner.y + inner.height {
                var span = SDL_Rect(x: Int32(left.rounded()), y: Int32(y), w: Int32((right - left).rounded()), h: 1)
                SDL_RenderFillRect(renderer, &span)
            } else {
                let innerInset = cornerInset(y: row, rect: inner, radius: innerRadius)
                var leftSpan = SDL_Rect(x: Int32(left.rounded()), y: Int32(y), w: Int32((inner.x + innerInset - left).rounded()), h: 1)
                var rightSpan = SDL_Rect(x: Int32((inner.x + inner.width - innerInset).rounded()), y: Int32(y),
                                         w: Int32((right - (inner.x + inner.width - innerInset)).rounded()), h: 1)
                SDL_RenderFillRect(renderer, &leftSpan)
                SDL_RenderFillRect(renderer, &rightSpan)
            }
        }
    }

    /// Part of a circular band: the pixels between the two radii whose angle, clockwise from
    /// the top, is within `fraction` of the turn.
    func arc(_ rect: Rect, thickness: Double, fraction: Double, _ color: RGBA) {
        setColor(color)
        let outer = min(rect.width, rect.height) / 2, inner = outer - thickness
        let cx = rect.x + rect.width / 2, cy = rect.y + rect.height / 2
        let sweep = min(1, max(0, fraction)) * 2 * Double.pi
        for y in Int((cy - outer).rounded(.down))..<Int((cy + outer).rounded(.up)) {
            for x in Int((cx - outer).rounded(.down))..<Int((cx + outer).rounded(.up)) {
                let dx = Double(x) + 0.5 - cx, dy = Double(y) + 0.5 - cy
                let distance = (dx * dx + dy * dy).squareRoot()
                guard distance <= outer, distance >= inner else { continue }
                var angle = atan2(dx, -dy)
                if angle < 0 { angle += 2 * Double.pi }
                if angle <= sweep { SDL_RenderDrawPoint(renderer, Int32(x), Int32(y)) }
            }
        }
    }

    /// How far a rounded corner pulls row `y` in from the side.
    func cornerInset(y: Double, rect: Rect, radius: Double) -> Double {
        guard radius > 0 else { return 0 }
        let dy: Double
        if y < rect.y + radius { dy = rect.y + radius - y } else if y > rect.y + rect.height - radius { dy = y - (rect.y + rect.height - radius) } else { return 0 }
        return radius - (max(0, radius * radius - dy * dy)).squareRoot()
    }
}

/// SDL_image, opened on the first screenshot rather than linked: linking it loads its image
/// libraries (TIFF, WebP, JPEG, JBIG, Lerc, …: eleven more shared objects) at every start, on the
/// way to the first frame, for the one call screenshots and recordings make.
enum SDLImage {
    typealias SavePNG = @convention(c) (UnsafeMutablePointer<SDL_Surface>?, UnsafePointer<CChar>?) -> Int32

    static let library = "libSDL2_image-2.0.so.0"

    /// `IMG_SavePNG`, or why it cannot be had.
    static let savePNG: Result<SavePNG, HostError> = Result { () throws(HostError) -> SavePNG in
        try SharedLibrary(library, install: "libsdl2-image-2.0-0", purpose: "save PNGs").function("IMG_SavePNG")
    }
}
