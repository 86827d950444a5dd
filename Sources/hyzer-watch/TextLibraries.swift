import CSDL2
import Foundation

/// SDL_ttf and fontconfig, opened with `dlopen` rather than linked.
///
/// Linked, their shared objects (SDL_ttf, FreeType, HarfBuzz, GLib, PCRE2, Graphite, Brotli,
/// libpng, zlib; fontconfig and expat) would all be mapped and relocated before `main`, one after
/// another, on the way to the first frame. Opened here, SDL_ttf loads once SDL has started, and
/// fontconfig only when a font must be looked for (the first start of a home, a name needing a
/// CJK font). SDL_ttf is not loaded on a thread of its own from the first moment of `main`: on a
/// machine with few cores a new thread waits for one, and the start is quicker without it.
///
/// The function types repeat the C declarations of SDL_ttf.h and fontconfig.h, which are still
/// imported for their types and constants (`TextLibrariesTests` holds each to its header).
struct SDLTTF: @unchecked Sendable {
    typealias Initialize = @convention(c) () -> Int32
    typealias Quit = @convention(c) () -> Void
    typealias OpenFontIndexRW = @convention(c) (UnsafeMutablePointer<SDL_RWops>?, Int32, Int32, Int) -> OpaquePointer?
    typealias OpenFontIndex = @convention(c) (UnsafePointer<CChar>?, Int32, Int) -> OpaquePointer?
    typealias GlyphIsProvided32 = @convention(c) (OpaquePointer?, UInt32) -> Int32
    typealias SizeUTF8 = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?) -> Int32
    typealias CloseFont = @convention(c) (OpaquePointer?) -> Void
    typealias RenderUTF8Blended = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, SDL_Color) -> UnsafeMutablePointer<SDL_Surface>?

    static let library = "libSDL2_ttf-2.0.so.0"

    let initialize: Initialize
    let quit: Quit
    let openFontIndexRW: OpenFontIndexRW
    let openFontIndex: OpenFontIndex
    let glyphIsProvided32: GlyphIsProvided32
    let sizeUTF8: SizeUTF8
    let closeFont: CloseFont
    let renderUTF8Blended: RenderUTF8Blended

    /// SDL_ttf's functions, or why they cannot be had. The first to ask loads it (once).
    static let shared: Result<SDLTTF, HostError> = Result {
        let opened = try SharedLibrary(Self.library, install: "libsdl2-ttf-2.0-0", purpose: "draw text")
        return SDLTTF(
            initialize: try opened.function("TTF_Init"), quit: try opened.function("TTF_Quit"),
            openFontIndexRW: try opened.function("TTF_OpenFontIndexRW"), openFontIndex: try opened.function("TTF_OpenFontIndex"),
            glyphIsProvided32: try opened.function("TTF_GlyphIsProvided32"), sizeUTF8: try opened.function("TTF_SizeUTF8"),
            closeFont: try opened.function("TTF_CloseFont"), renderUTF8Blended: try opened.function("TTF_RenderUTF8_Blended"))
    }.mapError { $0 as? HostError ?? HostError("\($0)") }
}

/// The fontconfig calls `FontBook` makes to find a font file.
struct Fontconfig: @unchecked Sendable {
    typealias Initialize = @convention(c) () -> Int32
    typealias NameParse = @convention(c) (UnsafePointer<FcChar8>?) -> OpaquePointer?
    typealias PatternDestroy = @convention(c) (OpaquePointer?) -> Void
    typealias CharSetCreate = @convention(c) () -> OpaquePointer?
    typealias CharSetAddChar = @convention(c) (OpaquePointer?, FcChar32) -> Int32
    typealias PatternAddCharSet = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, OpaquePointer?) -> Int32
    typealias CharSetDestroy = @convention(c) (OpaquePointer?) -> Void
    typealias ConfigSubstitute = @convention(c) (OpaquePointer?, OpaquePointer?, FcMatchKind) -> Int32
    typealias DefaultSubstitute = @convention(c) (OpaquePointer?) -> Void
    typealias FontMatch = @convention(c) (OpaquePointer?, OpaquePointer?, UnsafeMutablePointer<FcResult>?) -> OpaquePointer?
    typealias PatternGetString = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<UnsafeMutablePointer<FcChar8>?>?) -> FcResult
    typealias PatternGetInteger = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<Int32>?) -> FcResult

    static let library = "libfontconfig.so.1"

    let initialize: Initialize
    let nameParse: NameParse
    let patternDestroy: PatternDestroy
    let charSetCreate: CharSetCreate
    let charSetAddChar: CharSetAddChar
    let patternAddCharSet: PatternAddCharSet
    let charSetDestroy: CharSetDestroy
    let configSubstitute: ConfigSubstitute
    let defaultSubstitute: DefaultSubstitute
    let fontMatch: FontMatch
    let patternGetString: PatternGetString
    let patternGetInteger: PatternGetInteger

    static let shared: Result<Fontconfig, HostError> = Result {
        let opened = try SharedLibrary(Self.library, install: "libfontconfig1", purpose: "find fonts")
        return Fontconfig(
            initialize: try opened.function("FcInit"), nameParse: try opened.function("FcNameParse"),
            patternDestroy: try opened.function("FcPatternDestroy"), charSetCreate: try opened.function("FcCharSetCreate"),
            charSetAddChar: try opened.function("FcCharSetAddChar"), patternAddCharSet: try opened.function("FcPatternAddCharSet"),
            charSetDestroy: try opened.function("FcCharSetDestroy"), configSubstitute: try opened.function("FcConfigSubstitute"),
            defaultSubstitute: try opened.function("FcDefaultSubstitute"), fontMatch: try opened.function("FcFontMatch"),
            patternGetString: try opened.function("FcPatternGetString"), patternGetInteger: try opened.function("FcPatternGetInteger"))
    }.mapError { $0 as? HostError ?? HostError("\($0)") }
}

/// A shared object opened for good (never closed), and its functions.
struct SharedLibrary {
    let name: String
    let handle: UnsafeMutableRawPointer

    init(_ name: String, install package: String, purpose: String) throws(HostError) {
        guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "not found"
            throw HostError("Cannot \(purpose): \(name) did not load (\(reason)). Install it: apt-get install \(package)")
        }
        (self.name, self.handle) = (name, handle)
    }

    func function<Function>(_ symbol: String) throws(HostError) -> Function {
        guard let address = dlsym(handle, symbol) else { throw HostError("\(name) has no \(symbol); it is older than this watch needs.") }
        return unsafeBitCast(address, to: Function.self)
    }
}
