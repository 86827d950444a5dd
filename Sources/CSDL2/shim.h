// SDL2, SDL2_ttf, SDL2_image and fontconfig for hyzer-watch (Debian: libsdl2-dev, libsdl2-ttf-dev, libsdl2-image-dev).
// No pkg-config: `sdl2.pc` adds -D_REENTRANT, which SwiftPM rejects with a warning on every build.
#include <SDL2/SDL.h>
#include <SDL2/SDL_ttf.h>
#include <SDL2/SDL_image.h>
// fontconfig finds DejaVu Sans / Sans Mono (Debian: libfontconfig-dev, fonts-dejavu-core).
#include <fontconfig/fontconfig.h>
