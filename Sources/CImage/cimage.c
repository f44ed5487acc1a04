// See include/CImage.h. Each function keeps its library's error mechanism (longjmp, handlers)
// inside C and returns a status with a message of at most 255 bytes.
#include "CImage.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <libexif/exif-data.h>
#include <libheif/heif.h>
#include <png.h>
#include <zlib.h>
#include <tiffio.h>

#define MESSAGE_SIZE 256

cmsUInt32Number reel_cms_type_rgb_8(void) { return TYPE_RGB_8; }
cmsUInt32Number reel_cms_type_rgba_8(void) { return TYPE_RGBA_8; }
cmsUInt32Number reel_cms_type_rgb_16(void) { return TYPE_RGB_16; }
cmsUInt32Number reel_cms_type_rgba_16(void) { return TYPE_RGBA_16; }
cmsUInt32Number reel_cms_type_gray_16(void) { return TYPE_GRAY_16; }
cmsUInt32Number reel_cms_type_rgb_dbl(void) { return TYPE_RGB_DBL; }

// MARK: libheif, loaded on first use

// libheif is opened with dlopen the first time a HEIC is read or written, not linked: linked, it
// (with libde265; x265, libaom and dav1d come with libavcodec anyway) added 2.3 ms to every
// command's start-up (a C program linking libavcodec, with and without -lheif: 32.2 → 34.5 ms,
// hyperfine, 300 runs), for a format few commands touch.
#define REEL_HEIF_FUNCTIONS(X) \
    X(heif_context_add_exif_metadata) \
    X(heif_context_alloc) \
    X(heif_context_encode_image) \
    X(heif_context_free) \
    X(heif_context_get_encoder_for_format) \
    X(heif_context_get_primary_image_handle) \
    X(heif_context_read_from_file) \
    X(heif_context_write) \
    X(heif_decode_image) \
    X(heif_encoder_release) \
    X(heif_encoder_set_lossy_quality) \
    X(heif_encoder_set_parameter_string) \
    X(heif_encoding_options_alloc) \
    X(heif_encoding_options_free) \
    X(heif_image_add_plane) \
    X(heif_image_create) \
    X(heif_image_get_height) \
    X(heif_image_get_plane) \
    X(heif_image_get_plane_readonly) \
    X(heif_image_get_width) \
    X(heif_image_handle_get_height) \
    X(heif_image_handle_get_luma_bits_per_pixel) \
    X(heif_image_handle_get_nclx_color_profile) \
    X(heif_image_handle_get_raw_color_profile) \
    X(heif_image_handle_get_raw_color_profile_size) \
    X(heif_image_handle_get_width) \
    X(heif_image_handle_has_alpha_channel) \
    X(heif_image_handle_release) \
    X(heif_image_release) \
    X(heif_image_set_nclx_color_profile) \
    X(heif_image_set_raw_color_profile) \
    X(heif_nclx_color_profile_alloc) \
    X(heif_nclx_color_profile_free) \
    X(heif_nclx_color_profile_set_color_primaries) \
    X(heif_nclx_color_profile_set_matrix_coefficients) \
    X(heif_nclx_color_profile_set_transfer_characteristics)

static struct {
#define REEL_HEIF_FIELD(name) __typeof__(name) *name;
    REEL_HEIF_FUNCTIONS(REEL_HEIF_FIELD)
#undef REEL_HEIF_FIELD
} heif_api;
static char heif_load_error[200];
static int heif_loaded;
static pthread_once_t heif_once = PTHREAD_ONCE_INIT;

static void heif_load(void) {
    void *library = dlopen("libheif.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(heif_load_error, sizeof heif_load_error, "%s", dlerror());
        return;
    }
#define REEL_HEIF_LOAD(name)                                                                       \
    heif_api.name = (__typeof__(name) *)dlsym(library, #name);                                     \
    if (!heif_api.name) {                                                                          \
        snprintf(heif_load_error, sizeof heif_load_error, "libheif.so.1 has no %s", #name);        \
        return;                                                                                    \
    }
    REEL_HEIF_FUNCTIONS(REEL_HEIF_LOAD)
#undef REEL_HEIF_LOAD
    heif_loaded = 1;
}

/// Whether libheif is loaded (loading it the first time); otherwise `message` says why.
static int heif_ready(char *message) {
    pthread_once(&heif_once, heif_load);
    if (heif_loaded) return 1;
    snprintf(message, MESSAGE_SIZE, "HEIC needs libheif (Debian package libheif1), which could not be loaded: %s", heif_load_error);
    return 0;
}

// MARK: buffer

static int buffer_reserve(reel_buffer *b, size_t extra) {
    if (b->length + extra <= b->capacity) return 1;
    size_t capacity = b->capacity ? b->capacity : 65536;
    while (capacity < b->length + extra) capacity *= 2;
    uint8_t *data = realloc(b->data, capacity);
    if (!data) return 0;
    b->data = data;
    b->capacity = capacity;
    return 1;
}

static int buffer_append(reel_buffer *b, const void *bytes, size_t count) {
    if (!buffer_reserve(b, count)) return 0;
    memcpy(b->data + b->length, bytes, count);
    b->length += count;
    return 1;
}

void reel_buffer_free(reel_buffer *buffer) {
    free(buffer->data);
    buffer->data = NULL;
    buffer->length = buffer->capacity = 0;
}

// MARK: PNG

typedef struct {
    char *message;
    int icc_rejected;
} png_context;

static void png_fail(png_structp png, png_const_charp text) {
    png_context *context = png_get_error_ptr(png);
    // libpng's stdio reader says only "Read Error" when the file ends early.
    snprintf(context->message, MESSAGE_SIZE, "%s",
             strcmp(text, "Read Error") == 0 ? "the file ends before its picture does (cut short?)" : text);
    png_longjmp(png, 1);
}

static void png_note(png_structp png, png_const_charp text) {
    png_context *context = png_get_error_ptr(png);
    if (strstr(text, "iCCP") || strstr(text, "profile")) {
        context->icc_rejected = 1;
        snprintf(context->message, MESSAGE_SIZE, "%s", text);
    }
}

void reel_picture_free(reel_picture *picture) {
    free(picture->pixels);
    free(picture->icc);
    picture->pixels = NULL;
    picture->icc = NULL;
}

static int png_read_body(png_structp png, png_infop info, uint32_t max_side, uint64_t max_pixels,
                         reel_picture *out, png_context *context, uint16_t *volatile *pixels,
                         png_bytep *volatile *rows) {
    png_read_info(png, info);
    png_uint_32 width, height;
    int depth, type, interlace;
    png_get_IHDR(png, info, &width, &height, &depth, &type, &interlace, NULL, NULL);
    if (width > max_side || height > max_side || (uint64_t)width * height > max_pixels) {
        snprintf(context->message, MESSAGE_SIZE, "%ux%u pixels", width, height);
        return 2;
    }
    png_charp name;
    int compression;
    png_bytep profile;
    png_uint_32 profile_length;
    if (png_get_valid(png, info, PNG_INFO_iCCP) &&
        png_get_iCCP(png, info, &name, &compression, &profile, &profile_length) && profile_length > 0) {
        out->icc = malloc(profile_length);
        if (!out->icc) { snprintf(context->message, MESSAGE_SIZE, "out of memory"); return 1; }
        memcpy(out->icc, profile, profile_length);
        out->icc_length = profile_length;
    }
    int has_alpha = (type & PNG_COLOR_MASK_ALPHA) || png_get_valid(png, info, PNG_INFO_tRNS);
    out->has_alpha = has_alpha != 0;
    out->format = "PNG";
    png_set_expand(png);
    png_set_expand_16(png);
    png_set_gray_to_rgb(png);
    if (!has_alpha) png_set_add_alpha(png, 0xffff, PNG_FILLER_AFTER);
    png_set_swap(png);  // 16-bit samples in host (little-endian) order
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * 8) {
        snprintf(context->message, MESSAGE_SIZE, "unexpected row layout");
        return 1;
    }
    *pixels = malloc((size_t)width * height * 8);
    *rows = malloc(sizeof(png_bytep) * height);
    if (!*pixels || !*rows) { snprintf(context->message, MESSAGE_SIZE, "out of memory"); return 1; }
    for (png_uint_32 y = 0; y < height; y++) (*rows)[y] = (png_bytep)(*pixels + (size_t)y * width * 4);
    png_read_image(png, *rows);
    png_read_end(png, NULL);
    out->width = width;
    out->height = height;
    out->bit_depth = depth;
    return 0;
}

static int png_read(FILE *file, uint32_t max_side, uint64_t max_pixels, reel_picture *out, char *message) {
    png_context context = { message, 0 };
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &context, png_fail, png_note);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_read_struct(&png, &info, NULL);
        snprintf(message, MESSAGE_SIZE, "out of memory");
        return 1;
    }
    uint16_t *volatile pixels = NULL;
    png_bytep *volatile rows = NULL;
    int status = 1;
    if (setjmp(png_jmpbuf(png)) == 0) {
        png_init_io(png, file);
        png_set_sig_bytes(png, 8);
        png_set_user_limits(png, 0x7fffffff, 0x7fffffff);  // our own bounds are checked below
        png_set_chunk_malloc_max(png, 64u << 20);
        status = png_read_body(png, info, max_side, max_pixels, out, &context, &pixels, &rows);
    } else {
        status = 1;
    }
    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    // A warning about the profile matters only when libpng dropped it: "known incorrect sRGB
    // profile" (old Photoshop and HP profiles, very common) is a warning that keeps it, and then
    // lcms2 decides whether it can be used.
    out->icc_rejected = context.icc_rejected && out->icc_length == 0;
    if (!out->icc_rejected && status == 0) message[0] = 0;
    if (status == 0) {
        out->pixels = pixels;
    } else {
        free(pixels);
        free(out->icc);
        out->icc = NULL;
        out->icc_length = 0;
    }
    return status;
}

// MARK: PNG writing

static void png_append(png_structp png, png_bytep data, size_t length) {
    if (!buffer_append(png_get_io_ptr(png), data, length)) png_error(png, "out of memory");
}

static void png_flush_nothing(png_structp png) { (void)png; }

int reel_png_write_rgba(const uint16_t *rgba, uint32_t width, uint32_t height, int depth,
                        const uint8_t *icc, size_t icc_length, reel_buffer *out, char *message) {
    message[0] = 0;
    memset(out, 0, sizeof *out);
    png_context context = { message, 0 };
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &context, png_fail, png_note);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    uint8_t *volatile row = NULL;
    if (!png || !info) {
        png_destroy_write_struct(&png, &info);
        snprintf(message, MESSAGE_SIZE, "out of memory");
        return 1;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(row);
        reel_buffer_free(out);
        return 1;
    }
    png_set_write_fn(png, out, png_append, png_flush_nothing);
    // A profile libpng has opinions about (the common "known incorrect sRGB profile") is kept as
    // the photo had it: libpng's complaint is a warning here, not an error.
    png_set_benign_errors(png, 1);
    // One filter (Paeth) and zlib's run-length strategy: a 12 MP cut-out in 0.5 s instead of
    // 1.15 s (level 3, libpng trying all five filters per row), and no larger (8.9 MB against
    // 10.0 on a photo; 35.5 against 36.5 MB on noise).
    png_set_compression_level(png, 1);
    png_set_compression_strategy(png, Z_RLE);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_PAETH);
    png_set_IHDR(png, info, width, height, depth, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (icc_length > 0) png_set_iCCP(png, info, "ICC profile", PNG_COMPRESSION_TYPE_BASE, icc, (png_uint_32)icc_length);
    png_write_info(png, info);
    size_t row_bytes = (size_t)width * 4 * (depth == 16 ? 2 : 1);
    row = malloc(row_bytes);
    if (!row) png_error(png, "out of memory");
    for (uint32_t y = 0; y < height; y++) {
        const uint16_t *source = rgba + (size_t)y * width * 4;
        for (size_t i = 0; i < (size_t)width * 4; i++) {
            if (depth == 16) {
                row[2 * i] = (uint8_t)(source[i] >> 8);  // PNG is big-endian
                row[2 * i + 1] = (uint8_t)(source[i] & 0xFF);
            } else {
                row[i] = (uint8_t)(((uint32_t)source[i] * 255 + 32767) / 65535);
            }
        }
        png_write_row(png, row);
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    free(row);
    return 0;
}

// MARK: reading other images

typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    char *message;
} jpeg_failure;

static void jpeg_fail(j_common_ptr info);
static void jpeg_quiet(j_common_ptr info) { (void)info; }

/// libjpeg calls corrupt data (a truncated file, a bad Huffman code) a warning and fills the
/// rest grey; artwork must not be half grey, so a warning is an error here.
static void jpeg_warning_fails(j_common_ptr info, int level) {
    if (level < 0) jpeg_fail(info);
}
static int heif_failed(struct heif_error error, char *message);
static int tiff_error(TIFF *tiff, void *user, const char *module, const char *format, va_list args);
static int tiff_quiet(TIFF *tiff, void *user, const char *module, const char *format, va_list args);

static int too_large(uint32_t width, uint32_t height, uint32_t max_side, uint64_t max_pixels, char *message) {
    if (width <= max_side && height <= max_side && (uint64_t)width * height <= max_pixels) return 0;
    snprintf(message, MESSAGE_SIZE, "%ux%u pixels", width, height);
    return 1;
}

static uint16_t *pixels_alloc(uint32_t width, uint32_t height, char *message) {
    uint16_t *pixels = malloc((size_t)width * height * 8);
    if (!pixels) snprintf(message, MESSAGE_SIZE, "out of memory");
    return pixels;
}

/// Turns an RGBA16 picture upright for EXIF orientation 2…8 (1: as it is). Returns the new
/// buffer (the old one freed) and swaps the size for 5…8; NULL when out of memory.
static uint16_t *orient(uint16_t *pixels, uint32_t *width, uint32_t *height, int orientation) {
    if (orientation < 2 || orientation > 8) return pixels;
    uint32_t w = *width, h = *height;
    int swap = orientation >= 5;
    uint32_t ow = swap ? h : w, oh = swap ? w : h;
    uint16_t *out = malloc((size_t)w * h * 8);
    if (!out) { free(pixels); return NULL; }
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < w; x++) {
            uint32_t ox, oy;
            switch (orientation) {
            case 2: ox = w - 1 - x; oy = y; break;            // mirrored
            case 3: ox = w - 1 - x; oy = h - 1 - y; break;    // turned 180°
            case 4: ox = x; oy = h - 1 - y; break;            // mirrored vertically
            case 5: ox = y; oy = x; break;                    // transposed
            case 6: ox = h - 1 - y; oy = x; break;            // needs a quarter turn clockwise
            case 7: ox = h - 1 - y; oy = w - 1 - x; break;    // transversed
            default: ox = y; oy = w - 1 - x; break;           // 8: a quarter turn anticlockwise
            }
            memcpy(out + ((size_t)oy * ow + ox) * 4, pixels + ((size_t)y * w + x) * 4, 8);
        }
    }
    free(pixels);
    *width = ow;
    *height = oh;
    return out;
}

static int exif_orientation_of(const uint8_t *data, size_t length) {
    ExifData *exif = exif_data_new_from_data(data, (unsigned int)length);
    if (!exif) return 1;
    int orientation = 1;
    ExifEntry *entry = exif_content_get_entry(exif->ifd[EXIF_IFD_0], EXIF_TAG_ORIENTATION);
    if (entry && entry->format == EXIF_FORMAT_SHORT && entry->components >= 1)
        orientation = exif_get_short(entry->data, exif_data_get_byte_order(exif));
    exif_data_unref(exif);
    return orientation;
}

static int jpeg_read(FILE *file, uint32_t max_side, uint64_t max_pixels, reel_picture *out, char *message) {
    struct jpeg_decompress_struct info;
    jpeg_failure failure;
    failure.message = message;
    info.err = jpeg_std_error(&failure.manager);
    failure.manager.error_exit = jpeg_fail;
    failure.manager.output_message = jpeg_quiet;
    failure.manager.emit_message = jpeg_warning_fails;
    uint16_t *volatile pixels = NULL;
    uint8_t *volatile row = NULL;
    if (setjmp(failure.jump)) {
        jpeg_destroy_decompress(&info);
        free(pixels);
        free(row);
        return 1;
    }
    jpeg_create_decompress(&info);
    jpeg_stdio_src(&info, file);
    jpeg_save_markers(&info, JPEG_APP0 + 1, 0xFFFF);
    jpeg_save_markers(&info, JPEG_APP0 + 2, 0xFFFF);
    jpeg_read_header(&info, TRUE);
    if (too_large(info.image_width, info.image_height, max_side, max_pixels, message)) {
        jpeg_destroy_decompress(&info);
        return 2;
    }
    if (info.jpeg_color_space == JCS_CMYK || info.jpeg_color_space == JCS_YCCK) {
        jpeg_destroy_decompress(&info);
        snprintf(message, MESSAGE_SIZE, "a CMYK JPEG (print colours); save it as RGB");
        return 1;
    }
    int orientation = 1;
    for (jpeg_saved_marker_ptr marker = info.marker_list; marker; marker = marker->next)
        if (marker->marker == JPEG_APP0 + 1 && marker->data_length > 6 && memcmp(marker->data, "Exif\0\0", 6) == 0)
            orientation = exif_orientation_of(marker->data, marker->data_length);
    JOCTET *icc = NULL;
    unsigned int icc_length = 0;
    if (jpeg_read_icc_profile(&info, &icc, &icc_length) && icc_length > 0) {
        out->icc = icc;  // malloc'd by libjpeg-turbo
        out->icc_length = icc_length;
    }
    info.out_color_space = JCS_RGB;
    jpeg_start_decompress(&info);
    uint32_t width = info.output_width, height = info.output_height;
    pixels = pixels_alloc(width, height, message);
    row = malloc((size_t)width * 3);
    if (!pixels || !row) longjmp(failure.jump, 1);
    while (info.output_scanline < height) {
        uint32_t y = info.output_scanline;
        JSAMPROW rows[1] = { row };
        jpeg_read_scanlines(&info, rows, 1);
        uint16_t *target = pixels + (size_t)y * width * 4;
        for (uint32_t x = 0; x < width; x++) {
            target[4 * x] = row[3 * x] * 257;
            target[4 * x + 1] = row[3 * x + 1] * 257;
            target[4 * x + 2] = row[3 * x + 2] * 257;
            target[4 * x + 3] = 65535;
        }
    }
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    free(row);
    out->pixels = orient(pixels, &width, &height, orientation);
    if (!out->pixels) { snprintf(message, MESSAGE_SIZE, "out of memory"); return 1; }
    out->width = width;
    out->height = height;
    out->bit_depth = 8;
    out->format = "JPEG";
    return 0;
}

static int heic_read(const char *path, uint32_t max_side, uint64_t max_pixels, reel_picture *out, char *message) {
    if (!heif_ready(message)) return 1;
    struct heif_context *context = heif_api.heif_context_alloc();
    struct heif_image_handle *handle = NULL;
    struct heif_image *image = NULL;
    int status = heif_failed(heif_api.heif_context_read_from_file(context, path, NULL), message);
    if (status == 0) status = heif_failed(heif_api.heif_context_get_primary_image_handle(context, &handle), message);
    if (status == 0 && too_large((uint32_t)heif_api.heif_image_handle_get_width(handle), (uint32_t)heif_api.heif_image_handle_get_height(handle),
                                 max_side, max_pixels, message)) status = 2;
    if (status == 0) {
        size_t length = heif_api.heif_image_handle_get_raw_color_profile_size(handle);
        if (length > 0 && (out->icc = malloc(length)) != NULL) {
            if (heif_failed(heif_api.heif_image_handle_get_raw_color_profile(handle, out->icc), message) == 0) out->icc_length = length;
            else { free(out->icc); out->icc = NULL; message[0] = 0; }
        }
        struct heif_color_profile_nclx *nclx = NULL;
        if (!out->icc && heif_api.heif_image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok) {
            out->display_p3 = nclx->color_primaries == heif_color_primaries_SMPTE_EG_432_1;
            heif_api.heif_nclx_color_profile_free(nclx);
        }
        out->has_alpha = heif_api.heif_image_handle_has_alpha_channel(handle);
        int depth = heif_api.heif_image_handle_get_luma_bits_per_pixel(handle);
        out->bit_depth = depth > 0 ? depth : 8;
        int deep = depth > 8;
        status = heif_failed(heif_api.heif_decode_image(handle, &image, heif_colorspace_RGB,
                                               deep ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RGBA, NULL), message);
        if (status == 0) {
            int stride = 0;
            const uint8_t *plane = heif_api.heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride);
            uint32_t width = (uint32_t)heif_api.heif_image_get_width(image, heif_channel_interleaved);
            uint32_t height = (uint32_t)heif_api.heif_image_get_height(image, heif_channel_interleaved);
            uint16_t *pixels = pixels_alloc(width, height, message);
            if (!pixels) status = 1;
            int shift = 16 - (depth > 8 ? depth : 8);
            for (uint32_t y = 0; status == 0 && y < height; y++) {
                const uint8_t *source = plane + (size_t)y * stride;
                uint16_t *target = pixels + (size_t)y * width * 4;
                for (uint32_t i = 0; i < width * 4; i++) {
                    if (deep) {
                        uint16_t v = (uint16_t)(source[2 * i] | (source[2 * i + 1] << 8));
                        target[i] = (uint16_t)((v << shift) | (v >> (2 * (16 - shift) - 16 > 0 ? 2 * (16 - shift) - 16 : 0)));
                    } else {
                        target[i] = source[i] * 257;
                    }
                }
            }
            out->pixels = pixels;
            out->width = width;
            out->height = height;
        }
    }
    if (image) heif_api.heif_image_release(image);
    if (handle) heif_api.heif_image_handle_release(handle);
    heif_api.heif_context_free(context);
    out->format = "HEIC";
    return status;
}

static int tiff_file_read(const char *path, uint32_t max_side, uint64_t max_pixels, reel_picture *out, char *message) {
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    TIFFOpenOptionsSetErrorHandlerExtR(options, tiff_error, message);
    TIFFOpenOptionsSetWarningHandlerExtR(options, tiff_quiet, NULL);
    TIFF *tiff = TIFFOpenExt(path, "r", options);
    TIFFOpenOptionsFree(options);
    if (!tiff) { if (!message[0]) snprintf(message, MESSAGE_SIZE, "libtiff cannot read it"); return 1; }
    uint32_t width = 0, height = 0;
    uint16_t samples = 3, extra = 0, depth = 8;
    uint16_t *extra_types = NULL;
    TIFFGetField(tiff, TIFFTAG_IMAGEWIDTH, &width);
    TIFFGetField(tiff, TIFFTAG_IMAGELENGTH, &height);
    TIFFGetFieldDefaulted(tiff, TIFFTAG_SAMPLESPERPIXEL, &samples);
    TIFFGetFieldDefaulted(tiff, TIFFTAG_BITSPERSAMPLE, &depth);
    TIFFGetFieldDefaulted(tiff, TIFFTAG_EXTRASAMPLES, &extra, &extra_types);
    if (width == 0 || height == 0) { TIFFClose(tiff); snprintf(message, MESSAGE_SIZE, "no picture size"); return 1; }
    if (too_large(width, height, max_side, max_pixels, message)) { TIFFClose(tiff); return 2; }
    uint32_t icc_length = 0;
    void *icc = NULL;
    if (TIFFGetField(tiff, TIFFTAG_ICCPROFILE, &icc_length, &icc) && icc_length > 0 && (out->icc = malloc(icc_length))) {
        memcpy(out->icc, icc, icc_length);
        out->icc_length = icc_length;
    }
    uint32_t *raster = malloc((size_t)width * height * 4);
    if (!raster) { TIFFClose(tiff); snprintf(message, MESSAGE_SIZE, "out of memory"); return 1; }
    // Asked for in the file's own orientation, libtiff flips nothing: the rows come as stored,
    // top first. They are then turned upright as a JPEG's EXIF orientation is (the same numbers;
    // libtiff itself cannot turn 5-8, the quarter turns a photo held sideways has).
    uint16_t orientation = ORIENTATION_TOPLEFT;
    TIFFGetFieldDefaulted(tiff, TIFFTAG_ORIENTATION, &orientation);
    if (orientation < ORIENTATION_TOPLEFT || orientation > ORIENTATION_LEFTBOT) orientation = ORIENTATION_TOPLEFT;
    int ok = TIFFReadRGBAImageOriented(tiff, width, height, raster, orientation, 0);
    TIFFClose(tiff);
    uint16_t *pixels = ok ? pixels_alloc(width, height, message) : NULL;
    if (!pixels) { free(raster); if (!message[0]) snprintf(message, MESSAGE_SIZE, "libtiff cannot read its pixels"); return 1; }
    for (size_t i = 0; i < (size_t)width * height; i++) {
        uint32_t p = raster[i];
        uint32_t a = TIFFGetA(p);
        // TIFFReadRGBAImage premultiplies associated alpha only; undo it for straight alpha.
        uint32_t r = TIFFGetR(p), g = TIFFGetG(p), b = TIFFGetB(p);
        if (a > 0 && a < 255 && extra > 0 && extra_types && extra_types[0] == EXTRASAMPLE_ASSOCALPHA) {
            r = r * 255 / a; g = g * 255 / a; b = b * 255 / a;
        }
        pixels[4 * i] = (uint16_t)(r * 257);
        pixels[4 * i + 1] = (uint16_t)(g * 257);
        pixels[4 * i + 2] = (uint16_t)(b * 257);
        pixels[4 * i + 3] = (uint16_t)(a * 257);
    }
    free(raster);
    out->pixels = orient(pixels, &width, &height, orientation);
    if (!out->pixels) { snprintf(message, MESSAGE_SIZE, "out of memory"); return 1; }
    out->width = width;
    out->height = height;
    out->bit_depth = depth;
    out->has_alpha = extra > 0 || samples == 4 || samples == 2;
    out->format = "TIFF";
    return 0;
}

int reel_image_read(const char *path, uint32_t max_side, uint64_t max_pixels, reel_picture *out, char *message) {
    memset(out, 0, sizeof *out);
    message[0] = 0;
    FILE *file = fopen(path, "rb");
    if (!file) { snprintf(message, MESSAGE_SIZE, "%s", strerror(errno)); return 3; }
    unsigned char magic[12] = {0};
    size_t got = fread(magic, 1, sizeof magic, file);
    int status;
    if (got >= 8 && png_sig_cmp(magic, 0, 8) == 0) {
        fseek(file, 8, SEEK_SET);
        status = png_read(file, max_side, max_pixels, out, message);
    } else if (got >= 3 && magic[0] == 0xFF && magic[1] == 0xD8 && magic[2] == 0xFF) {
        fseek(file, 0, SEEK_SET);
        status = jpeg_read(file, max_side, max_pixels, out, message);
    } else if (got >= 12 && memcmp(magic + 4, "ftyp", 4) == 0 &&
               (memcmp(magic + 8, "heic", 4) == 0 || memcmp(magic + 8, "heix", 4) == 0 ||
                memcmp(magic + 8, "mif1", 4) == 0 || memcmp(magic + 8, "msf1", 4) == 0 ||
                memcmp(magic + 8, "hevc", 4) == 0)) {
        fclose(file);
        file = NULL;
        status = heic_read(path, max_side, max_pixels, out, message);
    } else if (got >= 4 && (memcmp(magic, "II*\0", 4) == 0 || memcmp(magic, "MM\0*", 4) == 0)) {
        fclose(file);
        file = NULL;
        status = tiff_file_read(path, max_side, max_pixels, out, message);
    } else {
        snprintf(message, MESSAGE_SIZE, got == 0 ? "the file is empty" : "it is not a PNG, JPEG, HEIC or TIFF file");
        status = got == 0 ? 1 : 4;
    }
    if (file) fclose(file);
    if (status != 0) reel_picture_free(out);
    return status;
}

// MARK: JPEG

static void jpeg_fail(j_common_ptr info) {
    jpeg_failure *failure = (jpeg_failure *)info->err;
    char text[JMSG_LENGTH_MAX];
    (*info->err->format_message)(info, text);
    snprintf(failure->message, MESSAGE_SIZE, "%s", text);
    longjmp(failure->jump, 1);
}

int reel_jpeg_write(const uint8_t *rgb, uint32_t width, uint32_t height, size_t stride, int quality,
                    const uint8_t *icc, size_t icc_length, const uint8_t *exif, size_t exif_length,
                    reel_buffer *out, char *message) {
    message[0] = 0;
    if (exif_length > 65533) { snprintf(message, MESSAGE_SIZE, "EXIF block too large (%zu bytes)", exif_length); return 1; }
    struct jpeg_compress_struct info;
    jpeg_failure failure;
    failure.message = message;
    info.err = jpeg_std_error(&failure.manager);
    failure.manager.error_exit = jpeg_fail;
    unsigned char *volatile bytes = NULL;
    unsigned long size = 0;
    if (setjmp(failure.jump)) {
        jpeg_destroy_compress(&info);
        free(bytes);
        return 1;
    }
    jpeg_create_compress(&info);
    jpeg_mem_dest(&info, (unsigned char **)&bytes, &size);
    info.image_width = width;
    info.image_height = height;
    info.input_components = 3;
    info.in_color_space = JCS_RGB;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality, TRUE);
    int full = quality >= 90;
    info.comp_info[0].h_samp_factor = full ? 1 : 2;
    info.comp_info[0].v_samp_factor = full ? 1 : 2;
    if (exif_length > 0) info.write_JFIF_header = FALSE;  // APP1 Exif comes first instead
    jpeg_start_compress(&info, TRUE);
    if (exif_length > 0) jpeg_write_marker(&info, JPEG_APP0 + 1, exif, (unsigned int)exif_length);
    if (icc_length > 0) jpeg_write_icc_profile(&info, icc, (unsigned int)icc_length);
    while (info.next_scanline < info.image_height) {
        JSAMPROW row = (JSAMPROW)(rgb + (size_t)info.next_scanline * stride);
        jpeg_write_scanlines(&info, &row, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    out->data = bytes;
    out->length = out->capacity = size;
    return 0;
}

// MARK: TIFF (to memory)

typedef struct {
    reel_buffer *buffer;
    size_t position;
} tiff_memory;

static tmsize_t tiff_read(thandle_t handle, void *data, tmsize_t count) {
    tiff_memory *m = handle;
    size_t available = m->position < m->buffer->length ? m->buffer->length - m->position : 0;
    size_t n = (size_t)count < available ? (size_t)count : available;
    memcpy(data, m->buffer->data + m->position, n);
    m->position += n;
    return (tmsize_t)n;
}

static tmsize_t tiff_write(thandle_t handle, void *data, tmsize_t count) {
    tiff_memory *m = handle;
    size_t end = m->position + (size_t)count;
    if (end > m->buffer->length) {
        if (!buffer_reserve(m->buffer, end - m->buffer->length)) return -1;
        memset(m->buffer->data + m->buffer->length, 0, end - m->buffer->length);
        m->buffer->length = end;
    }
    memcpy(m->buffer->data + m->position, data, (size_t)count);
    m->position = end;
    return count;
}

static toff_t tiff_seek(thandle_t handle, toff_t offset, int whence) {
    tiff_memory *m = handle;
    size_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? m->position : m->buffer->length;
    size_t target = base + (size_t)offset;
    if (target > m->buffer->length) {
        if (!buffer_reserve(m->buffer, target - m->buffer->length)) return (toff_t)-1;
        memset(m->buffer->data + m->buffer->length, 0, target - m->buffer->length);
        m->buffer->length = target;
    }
    m->position = target;
    return target;
}

static int tiff_close(thandle_t handle) { (void)handle; return 0; }
static toff_t tiff_size(thandle_t handle) { return ((tiff_memory *)handle)->buffer->length; }
static int tiff_map(thandle_t handle, void **base, toff_t *size) { (void)handle; (void)base; (void)size; return 0; }
static void tiff_unmap(thandle_t handle, void *base, toff_t size) { (void)handle; (void)base; (void)size; }

static int tiff_error(TIFF *tiff, void *user, const char *module, const char *format, va_list args) {
    (void)tiff; (void)module;
    vsnprintf((char *)user, MESSAGE_SIZE, format, args);
    return 1;
}

static int tiff_quiet(TIFF *tiff, void *user, const char *module, const char *format, va_list args) {
    (void)tiff; (void)user; (void)module; (void)format; (void)args;
    return 1;
}

int reel_tiff_write_rgb16(const uint16_t *rgb, uint32_t width, uint32_t height, size_t stride,
                          const uint8_t *icc, size_t icc_length, const reel_still_tags *tags,
                          reel_buffer *out, char *message) {
    message[0] = 0;
    memset(out, 0, sizeof *out);
    tiff_memory memory = { out, 0 };
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    TIFFOpenOptionsSetErrorHandlerExtR(options, tiff_error, message);
    TIFFOpenOptionsSetWarningHandlerExtR(options, tiff_quiet, NULL);
    TIFF *tiff = TIFFClientOpenExt("photo.tiff", "w", &memory, tiff_read, tiff_write, tiff_seek, tiff_close,
                                   tiff_size, tiff_map, tiff_unmap, options);
    TIFFOpenOptionsFree(options);
    if (!tiff) { if (!message[0]) snprintf(message, MESSAGE_SIZE, "libtiff could not start a file"); reel_buffer_free(out); return 1; }
    TIFFSetField(tiff, TIFFTAG_IMAGEWIDTH, width);
    TIFFSetField(tiff, TIFFTAG_IMAGELENGTH, height);
    TIFFSetField(tiff, TIFFTAG_BITSPERSAMPLE, 16);
    TIFFSetField(tiff, TIFFTAG_SAMPLESPERPIXEL, 3);
    TIFFSetField(tiff, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_RGB);
    TIFFSetField(tiff, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
    TIFFSetField(tiff, TIFFTAG_COMPRESSION, COMPRESSION_ADOBE_DEFLATE);
    TIFFSetField(tiff, TIFFTAG_PREDICTOR, PREDICTOR_HORIZONTAL);
    TIFFSetField(tiff, TIFFTAG_ZIPQUALITY, 1);  // speed first: level 1 with the predictor
    TIFFSetField(tiff, TIFFTAG_ROWSPERSTRIP, TIFFDefaultStripSize(tiff, 0));
    TIFFSetField(tiff, TIFFTAG_ORIENTATION, (uint16_t)tags->orientation);
    TIFFSetField(tiff, TIFFTAG_RESOLUTIONUNIT, RESUNIT_INCH);
    TIFFSetField(tiff, TIFFTAG_XRESOLUTION, 72.0f);
    TIFFSetField(tiff, TIFFTAG_YRESOLUTION, 72.0f);
    if (icc_length > 0) TIFFSetField(tiff, TIFFTAG_ICCPROFILE, (uint32_t)icc_length, icc);
    if (tags->date_time) TIFFSetField(tiff, TIFFTAG_DATETIME, tags->date_time);
    if (tags->make) TIFFSetField(tiff, TIFFTAG_MAKE, tags->make);
    if (tags->model) TIFFSetField(tiff, TIFFTAG_MODEL, tags->model);
    if (tags->software) TIFFSetField(tiff, TIFFTAG_SOFTWARE, tags->software);
    uint16_t *row = malloc((size_t)width * 6);
    int status = row ? 0 : 1;
    if (!row) snprintf(message, MESSAGE_SIZE, "out of memory");
    for (uint32_t y = 0; status == 0 && y < height; y++) {
        memcpy(row, rgb + (size_t)y * stride, (size_t)width * 6);
        if (TIFFWriteScanline(tiff, row, y, 0) < 0) status = 1;
    }
    free(row);
    if (status == 0 && !TIFFWriteDirectory(tiff)) status = 1;
    TIFFClose(tiff);
    if (status != 0) {
        if (!message[0]) snprintf(message, MESSAGE_SIZE, "libtiff could not write the picture");
        reel_buffer_free(out);
    }
    return status;
}

// MARK: HEIC

static struct heif_error heif_append(struct heif_context *context, const void *data, size_t size, void *user) {
    (void)context;
    struct heif_error result = { heif_error_Ok, heif_suberror_Unspecified, "" };
    if (!buffer_append(user, data, size)) {
        result.code = heif_error_Memory_allocation_error;
        result.message = "out of memory";
    }
    return result;
}

static int heif_failed(struct heif_error error, char *message) {
    if (error.code == heif_error_Ok) return 0;
    snprintf(message, MESSAGE_SIZE, "%s", error.message ? error.message : "libheif failed");
    return 1;
}

static uint32_t heif_be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }

static void heif_put_be32(uint8_t *p, uint32_t value) {
    p[0] = (uint8_t)(value >> 24); p[1] = (uint8_t)(value >> 16); p[2] = (uint8_t)(value >> 8); p[3] = (uint8_t)value;
}

/// The box of `type` among the boxes in [start, end): 1 with its start and size (header
/// included), 0 when there is none or the boxes are malformed.
static int heif_find_box(const uint8_t *data, size_t start, size_t end, const char *type, size_t *at, size_t *size) {
    for (size_t here = start; here + 8 <= end;) {
        size_t length = heif_be32(data + here);
        if (length < 8 || length > end - here) return 0;
        if (memcmp(data + here + 4, type, 4) == 0) { *at = here; *size = length; return 1; }
        here += length;
    }
    return 0;
}

/// The 1-based index in ipco of its ispe (0: none, or more than one), its place, and which
/// indices (below 128) are transformative properties (clap, irot, imir).
static int heif_ipco_index(const uint8_t *data, size_t ipco, size_t ipco_size, size_t *ispe_at, uint8_t transforms[128]) {
    int index = 0, ispe = 0;
    for (size_t at = ipco + 8; at + 8 <= ipco + ipco_size;) {
        size_t size = heif_be32(data + at);
        if (size < 8 || size > ipco + ipco_size - at) return 0;
        index++;
        const uint8_t *type = data + at + 4;
        if (memcmp(type, "ispe", 4) == 0) {
            if (ispe || size < 20) return 0;
            ispe = index;
            *ispe_at = at;
        }
        if (index < 128 && (!memcmp(type, "irot", 4) || !memcmp(type, "imir", 4) || !memcmp(type, "clap", 4))) transforms[index] = 1;
        at += size;
    }
    return ispe;
}

/// libheif 1.15 writes, for an orientation that turns a quarter, an ispe of the turned size,
/// and lists the irot before the ispe in ipma. HEIF's ispe is the coded picture's size and
/// descriptive properties come before transformative ones, so readers that take the shown
/// size from ispe and irot (Apple's, later libheif) showed the picture turned once more. This
/// writes the coded `width` x `height` into the ispe and moves its association before the
/// first transformative one, marked essential as HEIF asks, in place: the file's size and
/// offsets stay. 0 when done.
static int heif_fix_ispe(uint8_t *data, size_t length, uint32_t width, uint32_t height) {
    size_t meta, meta_size, iprp, iprp_size, ipco, ipco_size, ipma, ipma_size, ispe_at = 0;
    if (!heif_find_box(data, 0, length, "meta", &meta, &meta_size) || meta_size < 12
        || !heif_find_box(data, meta + 12, meta + meta_size, "iprp", &iprp, &iprp_size)
        || !heif_find_box(data, iprp + 8, iprp + iprp_size, "ipco", &ipco, &ipco_size)
        || !heif_find_box(data, iprp + 8, iprp + iprp_size, "ipma", &ipma, &ipma_size) || ipma_size < 16) return 1;
    uint8_t transforms[128] = {0};
    int ispe = heif_ipco_index(data, ipco, ipco_size, &ispe_at, transforms);
    if (!ispe) return 1;
    heif_put_be32(data + ispe_at + 12, width);
    heif_put_be32(data + ispe_at + 16, height);
    int version = data[ipma + 8], wide = data[ipma + 11] & 1;
    size_t at = ipma + 16, end = ipma + ipma_size, step = wide ? 2 : 1;
    for (uint32_t entries = heif_be32(data + ipma + 12); entries > 0; entries--) {
        at += version < 1 ? 2 : 4;
        if (at >= end) return 1;
        size_t count = data[at++];
        if (count * step > end - at) return 1;
        size_t first_transform = count, ispe_slot = count;
        for (size_t i = 0; i < count; i++) {
            uint8_t *a = data + at + i * step;
            int property = wide ? ((a[0] & 0x7f) << 8 | a[1]) : (a[0] & 0x7f);
            if (property == ispe) ispe_slot = i;
            if (property < 128 && transforms[property]) {
                a[0] |= 0x80;  // a transformative property is essential (libheif 1.15 leaves irot optional)
                if (first_transform == count) first_transform = i;
            }
        }
        if (ispe_slot < count && first_transform < ispe_slot) {
            uint8_t kept[2];
            memcpy(kept, data + at + ispe_slot * step, step);
            memmove(data + at + (first_transform + 1) * step, data + at + first_transform * step, (ispe_slot - first_transform) * step);
            memcpy(data + at + first_transform * step, kept, step);
        }
        at += count * step;
    }
    return 0;
}

static int heic_encode(struct heif_context *context, struct heif_encoder *encoder, struct heif_image *image,
                       const uint8_t *exif, size_t exif_length, int orientation, reel_buffer *out, char *message) {
    struct heif_color_profile_nclx *nclx = heif_api.heif_nclx_color_profile_alloc();
    if (!nclx) { snprintf(message, MESSAGE_SIZE, "out of memory"); return 1; }
    heif_api.heif_nclx_color_profile_set_color_primaries(nclx, heif_color_primaries_SMPTE_EG_432_1);
    heif_api.heif_nclx_color_profile_set_transfer_characteristics(nclx, heif_transfer_characteristic_IEC_61966_2_1);
    heif_api.heif_nclx_color_profile_set_matrix_coefficients(nclx, heif_matrix_coefficients_ITU_R_BT_601_6);
    nclx->full_range_flag = 1;
    // libheif 1.15 writes the image's own nclx into the colr box (the options' only sets the
    // conversion): both say the same.
    int status = heif_failed(heif_api.heif_image_set_nclx_color_profile(image, nclx), message);
    if (status != 0) { heif_api.heif_nclx_color_profile_free(nclx); return status; }
    struct heif_encoding_options *options = heif_api.heif_encoding_options_alloc();
    options->output_nclx_profile = nclx;
    options->save_two_colr_boxes_when_ICC_and_nclx_available = 1;
    // libheif leaves the nclx box out by default (iOS 12 and older cannot open a HEIF with one).
    options->macOS_compatibility_workaround_no_nclx_profile = 0;
    options->image_orientation = (enum heif_orientation)orientation;
    struct heif_image_handle *handle = NULL;
    status = heif_failed(heif_api.heif_context_encode_image(context, image, encoder, options, &handle), message);
    heif_api.heif_encoding_options_free(options);
    heif_api.heif_nclx_color_profile_free(nclx);
    if (status == 0 && exif_length > 0)
        status = heif_failed(heif_api.heif_context_add_exif_metadata(context, handle, exif, (int)exif_length), message);
    if (handle) heif_api.heif_image_handle_release(handle);
    if (status == 0) {
        struct heif_writer writer = { 1, heif_append };
        status = heif_failed(heif_api.heif_context_write(context, &writer, out), message);
    }
    if (status == 0 && orientation != heif_orientation_normal
        && heif_fix_ispe(out->data, out->length, (uint32_t)heif_api.heif_image_get_width(image, heif_channel_interleaved),
                         (uint32_t)heif_api.heif_image_get_height(image, heif_channel_interleaved)) != 0) {
        snprintf(message, MESSAGE_SIZE, "libheif wrote a HEIF whose item properties Reel could not read back");
        status = 1;
    }
    return status;
}

int reel_heic_write(const uint8_t *rgb, uint32_t width, uint32_t height, size_t stride, int quality,
                    const uint8_t *icc, size_t icc_length, const uint8_t *exif, size_t exif_length,
                    int orientation, reel_buffer *out, char *message) {
    message[0] = 0;
    memset(out, 0, sizeof *out);
    if (!heif_ready(message)) return 1;
    struct heif_context *context = heif_api.heif_context_alloc();
    struct heif_encoder *encoder = NULL;
    struct heif_image *image = NULL;
    int status = heif_failed(heif_api.heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder), message);
    if (status == 0) status = heif_failed(heif_api.heif_encoder_set_lossy_quality(encoder, quality), message);
    // x265's own default preset (libheif asks for "slow"): shutter lag first. At quality 90 on
    // a 1080x1920 picture it took half the time for a file of the same size within 0.2 %.
    if (status == 0) status = heif_failed(heif_api.heif_encoder_set_parameter_string(encoder, "preset", "medium"), message);
    if (status == 0)
        status = heif_failed(heif_api.heif_image_create((int)width, (int)height, heif_colorspace_RGB,
                                               heif_chroma_interleaved_RGB, &image), message);
    if (status == 0)
        status = heif_failed(heif_api.heif_image_add_plane(image, heif_channel_interleaved, (int)width, (int)height, 8), message);
    if (status == 0) {
        int plane_stride = 0;
        uint8_t *plane = heif_api.heif_image_get_plane(image, heif_channel_interleaved, &plane_stride);
        for (uint32_t y = 0; y < height; y++)
            memcpy(plane + (size_t)y * plane_stride, rgb + (size_t)y * stride, (size_t)width * 3);
        if (icc_length > 0) status = heif_failed(heif_api.heif_image_set_raw_color_profile(image, "prof", icc, icc_length), message);
    }
    if (status == 0) status = heic_encode(context, encoder, image, exif, exif_length, orientation, out, message);
    if (image) heif_api.heif_image_release(image);
    if (encoder) heif_api.heif_encoder_release(encoder);
    heif_api.heif_context_free(context);
    if (status != 0) reel_buffer_free(out);
    return status;
}

// MARK: EXIF

static ExifEntry *exif_add(ExifData *data, ExifIfd ifd, ExifTag tag, ExifFormat format, unsigned long components) {
    ExifMem *memory = exif_mem_new_default();
    ExifEntry *entry = exif_entry_new_mem(memory);
    if (!entry) { exif_mem_unref(memory); return NULL; }
    entry->size = exif_format_get_size(format) * components;
    entry->data = exif_mem_alloc(memory, entry->size);
    entry->tag = tag;
    entry->format = format;
    entry->components = components;
    exif_content_add_entry(data->ifd[ifd], entry);
    exif_mem_unref(memory);
    exif_entry_unref(entry);
    return entry->data ? entry : NULL;
}

static int exif_text(ExifData *data, ExifIfd ifd, ExifTag tag, const char *text) {
    if (!text) return 1;
    size_t length = strlen(text) + 1;
    ExifEntry *entry = exif_add(data, ifd, tag, EXIF_FORMAT_ASCII, length);
    if (!entry) return 0;
    memcpy(entry->data, text, length);
    return 1;
}

static int exif_short(ExifData *data, ExifIfd ifd, ExifTag tag, ExifShort value) {
    ExifEntry *entry = exif_add(data, ifd, tag, EXIF_FORMAT_SHORT, 1);
    if (!entry) return 0;
    exif_set_short(entry->data, EXIF_BYTE_ORDER_INTEL, value);
    return 1;
}

int reel_exif_build(const reel_still_tags *tags, int is_srgb, reel_buffer *out, char *message) {
    message[0] = 0;
    memset(out, 0, sizeof *out);
    ExifData *data = exif_data_new();
    if (!data) { snprintf(message, MESSAGE_SIZE, "out of memory"); return 1; }
    exif_data_set_byte_order(data, EXIF_BYTE_ORDER_INTEL);
    exif_data_set_data_type(data, EXIF_DATA_TYPE_COMPRESSED);
    int ok = exif_short(data, EXIF_IFD_0, EXIF_TAG_ORIENTATION, (ExifShort)tags->orientation)
        && exif_text(data, EXIF_IFD_0, EXIF_TAG_MAKE, tags->make)
        && exif_text(data, EXIF_IFD_0, EXIF_TAG_MODEL, tags->model)
        && exif_text(data, EXIF_IFD_0, EXIF_TAG_SOFTWARE, tags->software)
        && exif_text(data, EXIF_IFD_0, EXIF_TAG_DATE_TIME, tags->date_time)
        && exif_text(data, EXIF_IFD_EXIF, EXIF_TAG_DATE_TIME_ORIGINAL, tags->date_time)
        && exif_short(data, EXIF_IFD_EXIF, EXIF_TAG_COLOR_SPACE, is_srgb ? 1 : 0xFFFF);
    ExifEntry *version = ok ? exif_add(data, EXIF_IFD_EXIF, EXIF_TAG_EXIF_VERSION, EXIF_FORMAT_UNDEFINED, 4) : NULL;
    if (version) memcpy(version->data, "0232", 4);
    unsigned char *bytes = NULL;
    unsigned int length = 0;
    if (version) exif_data_save_data(data, &bytes, &length);
    exif_data_unref(data);
    if (!bytes || length == 0) { snprintf(message, MESSAGE_SIZE, "libexif could not build the EXIF block"); return 1; }
    out->data = bytes;
    out->length = out->capacity = length;
    return 0;
}
