// FreeType (glyph rasterizing) and HarfBuzz (shaping) for ReelCompose's captions: Debian's
// libfreetype-dev and libharfbuzz-dev, found through pkg-config (`harfbuzz` brings the
// freetype2 include path). One module for both, because hb-ft.h includes FreeType's headers.
#ifndef REEL_CTEXT_H
#define REEL_CTEXT_H

#include <ft2build.h>
#include FT_FREETYPE_H
#include <hb.h>
#include <hb-ft.h>

// FT_LOAD_* flags are macros built from shifts; give Swift plain values.
static inline FT_Int32 reel_ft_load_default(void) { return FT_LOAD_DEFAULT; }
static inline FT_Int32 reel_ft_load_no_hinting(void) { return FT_LOAD_NO_HINTING; }

#endif
