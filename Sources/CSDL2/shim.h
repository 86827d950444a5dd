// SDL2, SDL2_ttf and fontconfig for hyzer-watch (Debian: libsdl2-dev, libsdl2-ttf-dev). Only SDL2 is
// linked: SDL_ttf and fontconfig are opened with dlopen (TextLibraries.swift), their headers give the
// types; SDL_image (libsdl2-image-dev) is opened on the first screenshot (SDLImage in Painter.swift).
// No pkg-config: `sdl2.pc` adds -D_REENTRANT, which SwiftPM rejects with a warning on every build.
#include <SDL2/SDL.h>
#include <SDL2/SDL_ttf.h>
// fontconfig finds DejaVu Sans / Sans Mono (Debian: libfontconfig-dev, fonts-dejavu-core).
#include <fontconfig/fontconfig.h>
