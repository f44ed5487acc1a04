// Stills and colour for ReelImage: lcms2 (profiles, transforms), libpng (artwork with its ICC
// profile, 16-bit kept), libjpeg-turbo, libtiff, libheif and libexif. The libraries report
// errors by longjmp (libpng, libjpeg) or global handlers (libtiff): the C here keeps those
// inside C and hands Swift a status and a message. Every encoder writes to memory, so the
// Swift side places the bytes durably in one step.
#ifndef REEL_CIMAGE_H
#define REEL_CIMAGE_H

#include <stddef.h>
#include <stdint.h>
#include <lcms2.h>

// lcms2's pixel-format words are macros built from macros.
cmsUInt32Number reel_cms_type_rgb_8(void);
cmsUInt32Number reel_cms_type_rgba_8(void);
cmsUInt32Number reel_cms_type_rgb_16(void);
cmsUInt32Number reel_cms_type_rgba_16(void);
cmsUInt32Number reel_cms_type_gray_16(void);
cmsUInt32Number reel_cms_type_rgb_dbl(void);

/// A growable byte buffer an encoder fills; free with reel_buffer_free.
typedef struct {
    uint8_t *data;
    size_t length;
    size_t capacity;
} reel_buffer;

void reel_buffer_free(reel_buffer *buffer);

/// A decoded image: 16-bit RGBA code values (8-bit files scaled by 257), straight alpha, as the
/// file stores them (no gamma or colour conversion), turned upright when the file says how (EXIF
/// orientation in JPEG, irot/imir in HEIC), and its ICC profile when it has one.
typedef struct {
    uint32_t width, height;
    int bit_depth;                // of the file's samples: 1…16
    int has_alpha;                // the file has an alpha channel (or PNG transparency)
    const char *format;           // "PNG", "JPEG", "HEIC" or "TIFF" (static)
    uint16_t *pixels;             // width * height * 4, malloc'd
    uint8_t *icc;                 // malloc'd, or NULL
    size_t icc_length;
    int icc_rejected;             // the library found the profile broken and dropped it
    int display_p3;               // no ICC, but the file says Display P3 (a HEIC's nclx box)
} reel_picture;

/// Reads the PNG, JPEG, HEIC or TIFF at `path` (known by its first bytes). Refuses (status 2)
/// one wider or taller than `max_side` or with more than `max_pixels` pixels before decoding its
/// pixels. 0: read; 1: not a readable image; 2: too large; 3: cannot open; 4: a kind of image
/// Reel does not read. `message` (256 bytes) says why. A broken ICC profile in a PNG is not an
/// error here: libpng drops it, and `icc_rejected` says so (with libpng's words in `message`).
int reel_image_read(const char *path, uint32_t max_side, uint64_t max_pixels,
                    reel_picture *out, char *message);
void reel_picture_free(reel_picture *picture);

/// Encodes straight-alpha RGBA code values (16-bit samples; rounded to 8 bits when `depth` is 8)
/// as a PNG, zlib level 3, with `icc` in an iCCP chunk when given. 0 on success.
int reel_png_write_rgba(const uint16_t *rgba, uint32_t width, uint32_t height, int depth,
                        const uint8_t *icc, size_t icc_length, reel_buffer *out, char *message);

/// Encodes 8-bit RGB (rows `stride` bytes apart) as a baseline JPEG, 4:2:0 below quality 90
/// and 4:4:4 from 90, with the ICC profile (APP2) and an EXIF block (APP1, "Exif\0\0" + TIFF)
/// when given. 0 on success.
int reel_jpeg_write(const uint8_t *rgb, uint32_t width, uint32_t height, size_t stride, int quality,
                    const uint8_t *icc, size_t icc_length, const uint8_t *exif, size_t exif_length,
                    reel_buffer *out, char *message);

/// What a TIFF or HEIC carries besides pixels.
typedef struct {
    int orientation;              // EXIF/TIFF orientation, 1…8
    const char *date_time;        // "YYYY:MM:DD HH:MM:SS"
    const char *make;
    const char *model;
    const char *software;
} reel_still_tags;

/// Encodes 16-bit RGB (rows `stride` samples apart) as a deflate-compressed TIFF with the ICC
/// profile and `tags` as TIFF tags (Orientation, DateTime, Make, Model, Software). 0 on success.
int reel_tiff_write_rgb16(const uint16_t *rgb, uint32_t width, uint32_t height, size_t stride,
                          const uint8_t *icc, size_t icc_length, const reel_still_tags *tags,
                          reel_buffer *out, char *message);

/// Encodes 8-bit RGB (rows `stride` bytes apart) as HEIC (HEVC through libheif's x265) at
/// `quality` (0…100), with the ICC profile, an nclx colour box saying Display P3 (the HEVC
/// stream's matrix: BT.601 full range), the EXIF block, and irot/imir boxes for `orientation`
/// (1…8, as EXIF's) so HEIF viewers turn the picture as EXIF readers do. 0 on success.
int reel_heic_write(const uint8_t *rgb, uint32_t width, uint32_t height, size_t stride, int quality,
                    const uint8_t *icc, size_t icc_length, const uint8_t *exif, size_t exif_length,
                    int orientation, reel_buffer *out, char *message);

/// Builds an EXIF block ("Exif\0\0" + little-endian TIFF) with IFD0's Orientation, Make,
/// Model, Software and DateTime, and the Exif IFD's DateTimeOriginal and ColorSpace
/// (`uncalibrated` 0xFFFF when the picture is not sRGB). 0 on success.
int reel_exif_build(const reel_still_tags *tags, int is_srgb, reel_buffer *out, char *message);

#endif
