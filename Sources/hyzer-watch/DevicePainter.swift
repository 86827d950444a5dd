import HyzerKit
import CSDL2
import Foundation
import WatchCore

/// The device around the face: case, bezel, rounded display, Digital Crown and side button
/// (`DeviceChrome` says where), drawn by a painter the size of the whole device picture.
extension Painter {
    static let desk = RGBA(hex: 0x16161A)
    static let rim = RGBA(hex: 0x3A3A3F)
    static let rimLight = RGBA(hex: 0x55555B)
    static let glass = RGBA(hex: 0x000000)

    /// Draws the device with `face` (a face painter's surface, same scale) in its display.
    func drawDevice(_ chrome: DeviceChrome, face: UnsafeMutablePointer<SDL_Surface>, crownHighlight: Bool) throws {
        let s = scale
        func scaled(_ r: Rect) -> Rect { Rect(x: r.x * s, y: r.y * s, width: r.width * s, height: r.height * s) }
        setColor(Self.desk)
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_NONE)
        SDL_RenderClear(renderer)
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)

        // The side button and the crown sit behind the case's edge and stand out of it.
        fillRoundedRect(scaled(chrome.sideButton), radius: 4 * s, Self.rim)
        let crown = scaled(chrome.crown)
        fillRoundedRect(crown, radius: 7 * s, crownHighlight ? Self.rimLight.mixed(with: HyzerColor.accent, 0.25) : Self.rimLight)
        // Knurled ridges along the crown.
        var y = crown.y + 4 * s
        while y < crown.y + crown.height - 4 * s {
            fillRoundedRect(Rect(x: crown.x + 8 * s, y: y, width: crown.width - 10 * s, height: max(1, 1.5 * s)), radius: 0, Self.rim)
            y += 5 * s
        }
        // The face, then the case around it as concentric rings whose inner edge is the display's
        // rounded outline: the rim's lighter edge, the rim, the black glass (the bezel).
        guard let texture = SDL_CreateTextureFromSurface(renderer, face) else { throw HostError.sdl("SDL_CreateTextureFromSurface") }
        defer { SDL_DestroyTexture(texture) }
        let display = scaled(chrome.display)
        var destination = SDL_Rect(x: Int32(display.x.rounded()), y: Int32(display.y.rounded()), w: face.pointee.w, h: face.pointee.h)
        SDL_RenderCopy(renderer, texture, nil, &destination)
        let caseRect = scaled(chrome.caseFrame)
        let inset = display.x - caseRect.x
        let outerRadius = chrome.displayCornerRadius * s + inset
        ring(caseRect, thickness: inset, radius: outerRadius, Self.rimLight)
        let edge = 3 * s
        ring(Rect(x: caseRect.x + edge, y: caseRect.y + edge, width: caseRect.width - 2 * edge, height: caseRect.height - 2 * edge),
             thickness: inset - edge, radius: outerRadius - edge, Self.rim)
        let glass = chrome.rim * s
        ring(Rect(x: caseRect.x + glass, y: caseRect.y + glass, width: caseRect.width - 2 * glass, height: caseRect.height - 2 * glass),
             thickness: inset - glass, radius: outerRadius - glass, Self.glass)
        SDL_RenderPresent(renderer)
    }
}
