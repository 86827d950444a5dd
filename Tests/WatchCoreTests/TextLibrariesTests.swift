import CSDL2
import Testing
@testable import hyzer_watch

/// hyzer-watch opens SDL_ttf and fontconfig with dlopen and calls them through function types it
/// writes itself; a type that did not match its C declaration would pass arguments wrongly. Here
/// each linked function converts to its type (checked by the compiler) and is the very function
/// the watch loads (checked at run time).
@Suite("SDL_ttf and fontconfig, opened at run time")
struct TextLibrariesTests {
    private func address<F>(_ function: F) -> UnsafeRawPointer { unsafeBitCast(function, to: UnsafeRawPointer.self) }

    @Test("Every SDL_ttf function the watch loads is the library's own, with its header's type")
    func ttf() throws {
        let ttf = try SDLTTF.shared.get()
        #expect(address(TTF_Init as SDLTTF.Initialize) == address(ttf.initialize))
        #expect(address(TTF_Quit as SDLTTF.Quit) == address(ttf.quit))
        #expect(address(TTF_OpenFontIndexRW as SDLTTF.OpenFontIndexRW) == address(ttf.openFontIndexRW))
        #expect(address(TTF_OpenFontIndex as SDLTTF.OpenFontIndex) == address(ttf.openFontIndex))
        #expect(address(TTF_GlyphIsProvided32 as SDLTTF.GlyphIsProvided32) == address(ttf.glyphIsProvided32))
        #expect(address(TTF_SizeUTF8 as SDLTTF.SizeUTF8) == address(ttf.sizeUTF8))
        #expect(address(TTF_CloseFont as SDLTTF.CloseFont) == address(ttf.closeFont))
        #expect(address(TTF_RenderUTF8_Blended as SDLTTF.RenderUTF8Blended) == address(ttf.renderUTF8Blended))
    }

    @Test("Every fontconfig function the watch loads is the library's own, with its header's type")
    func fontconfig() throws {
        let fc = try Fontconfig.shared.get()
        #expect(address(FcInit as Fontconfig.Initialize) == address(fc.initialize))
        #expect(address(FcNameParse as Fontconfig.NameParse) == address(fc.nameParse))
        #expect(address(FcPatternDestroy as Fontconfig.PatternDestroy) == address(fc.patternDestroy))
        #expect(address(FcCharSetCreate as Fontconfig.CharSetCreate) == address(fc.charSetCreate))
        #expect(address(FcCharSetAddChar as Fontconfig.CharSetAddChar) == address(fc.charSetAddChar))
        #expect(address(FcPatternAddCharSet as Fontconfig.PatternAddCharSet) == address(fc.patternAddCharSet))
        #expect(address(FcCharSetDestroy as Fontconfig.CharSetDestroy) == address(fc.charSetDestroy))
        #expect(address(FcConfigSubstitute as Fontconfig.ConfigSubstitute) == address(fc.configSubstitute))
        #expect(address(FcDefaultSubstitute as Fontconfig.DefaultSubstitute) == address(fc.defaultSubstitute))
        #expect(address(FcFontMatch as Fontconfig.FontMatch) == address(fc.fontMatch))
        #expect(address(FcPatternGetString as Fontconfig.PatternGetString) == address(fc.patternGetString))
        #expect(address(FcPatternGetInteger as Fontconfig.PatternGetInteger) == address(fc.patternGetInteger))
    }
}
