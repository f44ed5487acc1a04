// libpng 1.6 (Debian's libpng-dev) for ReelCompose's stamps and watermarks. Only the
// "simplified" png_image API is used: it converts every PNG colour type and bit depth to the
// requested format and reports errors in the struct, with no setjmp/longjmp in Swift.
#ifndef REEL_CPNG_H
#define REEL_CPNG_H

#include <png.h>

// PNG_IMAGE_VERSION, PNG_FORMAT_RGBA and PNG_IMAGE_FAILED are macros.
static inline png_uint_32 reel_png_image_version(void) { return PNG_IMAGE_VERSION; }
static inline png_uint_32 reel_png_format_rgba(void) { return PNG_FORMAT_RGBA; }
static inline png_uint_32 reel_png_image_flag_16bit_srgb(void) { return PNG_IMAGE_FLAG_16BIT_sRGB; }
static inline int reel_png_image_failed(const png_image *image) { return PNG_IMAGE_FAILED(*image); }

#endif
