// See include/CImage.h. Each function keeps its library's error mechanism (longjmp, handlers)
// inside C and returns a status with a message of at most 255 bytes.
#include "CImage.h"

#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <libexif/exif-data.h>
#include <libheif/heif.h>
#include <png.h>
#include <tiffio.h>

#define MESSAGE_SIZE 256

cmsUInt32Number reel_cms_type_rgb_8(void) { return TYPE_RGB_8; }
cmsUInt32Number reel_cms_type_rgba_8(void) { return TYPE_RGBA_8; }
cmsUInt32Number reel_cms_type_rgb_16(void) { return TYPE_RGB_16; }
cmsUInt32Number reel_cms_type_rgba_16(void) { return TYPE_RGBA_16; }
cmsUInt32Number reel_cms_type_gray_16(void) { return TYPE_GRAY_16; }

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
    snprintf(context->message, MESSAGE_SIZE, "%s", text);
    png_longjmp(png, 1);
}

static void png_note(png_structp png, png_const_charp text) {
    png_context *context = png_get_error_ptr(png);
    if (strstr(text, "iCCP") || strstr(text, "profile")) {
        context->icc_rejected = 1;
        snprintf(context->message, MESSAGE_SIZE, "%s", text);
    }
}

void reel_png_picture_free(reel_png_picture *picture) {
    free(picture->pixels);
    free(picture->icc);
    picture->pixels = NULL;
    picture->icc = NULL;
}

static int png_read_body(png_structp png, png_infop info, uint32_t max_side, uint64_t max_pixels,
                         reel_png_picture *out, png_context *context, uint16_t *volatile *pixels,
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
    out->has_srgb_chunk = png_get_valid(png, info, PNG_INFO_sRGB) != 0;
    int has_alpha = (type & PNG_COLOR_MASK_ALPHA) || png_get_valid(png, info, PNG_INFO_tRNS);
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

int reel_png_read(const char *path, uint32_t max_side, uint64_t max_pixels,
                  reel_png_picture *out, char *message) {
    memset(out, 0, sizeof *out);
    message[0] = 0;
    FILE *file = fopen(path, "rb");
    if (!file) { snprintf(message, MESSAGE_SIZE, "%s", strerror(errno)); return 3; }
    unsigned char signature[8];
    if (fread(signature, 1, 8, file) != 8 || png_sig_cmp(signature, 0, 8) != 0) {
        fclose(file);
        snprintf(message, MESSAGE_SIZE, "it does not start with PNG's signature");
        return 1;
    }
    png_context context = { message, 0 };
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &context, png_fail, png_note);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_read_struct(&png, &info, NULL);
        fclose(file);
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
    fclose(file);
    free(rows);
    out->icc_rejected = context.icc_rejected;
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

// MARK: JPEG

typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    char *message;
} jpeg_failure;

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

static int heic_encode(struct heif_context *context, struct heif_encoder *encoder, struct heif_image *image,
                       const uint8_t *exif, size_t exif_length, int orientation, reel_buffer *out, char *message) {
    struct heif_color_profile_nclx *nclx = heif_nclx_color_profile_alloc();
    if (!nclx) { snprintf(message, MESSAGE_SIZE, "out of memory"); return 1; }
    heif_nclx_color_profile_set_color_primaries(nclx, heif_color_primaries_SMPTE_EG_432_1);
    heif_nclx_color_profile_set_transfer_characteristics(nclx, heif_transfer_characteristic_IEC_61966_2_1);
    heif_nclx_color_profile_set_matrix_coefficients(nclx, heif_matrix_coefficients_ITU_R_BT_601_6);
    nclx->full_range_flag = 1;
    struct heif_encoding_options *options = heif_encoding_options_alloc();
    options->output_nclx_profile = nclx;
    options->save_two_colr_boxes_when_ICC_and_nclx_available = 1;
    options->image_orientation = (enum heif_orientation)orientation;
    struct heif_image_handle *handle = NULL;
    int status = heif_failed(heif_context_encode_image(context, image, encoder, options, &handle), message);
    heif_encoding_options_free(options);
    heif_nclx_color_profile_free(nclx);
    if (status == 0 && exif_length > 0)
        status = heif_failed(heif_context_add_exif_metadata(context, handle, exif, (int)exif_length), message);
    if (handle) heif_image_handle_release(handle);
    if (status == 0) {
        struct heif_writer writer = { 1, heif_append };
        status = heif_failed(heif_context_write(context, &writer, out), message);
    }
    return status;
}

int reel_heic_write(const uint8_t *rgb, uint32_t width, uint32_t height, size_t stride, int quality,
                    const uint8_t *icc, size_t icc_length, const uint8_t *exif, size_t exif_length,
                    int orientation, reel_buffer *out, char *message) {
    message[0] = 0;
    memset(out, 0, sizeof *out);
    struct heif_context *context = heif_context_alloc();
    struct heif_encoder *encoder = NULL;
    struct heif_image *image = NULL;
    int status = heif_failed(heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder), message);
    if (status == 0) status = heif_failed(heif_encoder_set_lossy_quality(encoder, quality), message);
    if (status == 0)
        status = heif_failed(heif_image_create((int)width, (int)height, heif_colorspace_RGB,
                                               heif_chroma_interleaved_RGB, &image), message);
    if (status == 0)
        status = heif_failed(heif_image_add_plane(image, heif_channel_interleaved, (int)width, (int)height, 8), message);
    if (status == 0) {
        int plane_stride = 0;
        uint8_t *plane = heif_image_get_plane(image, heif_channel_interleaved, &plane_stride);
        for (uint32_t y = 0; y < height; y++)
            memcpy(plane + (size_t)y * plane_stride, rgb + (size_t)y * stride, (size_t)width * 3);
        if (icc_length > 0) status = heif_failed(heif_image_set_raw_color_profile(image, "prof", icc, icc_length), message);
    }
    if (status == 0) status = heic_encode(context, encoder, image, exif, exif_length, orientation, out, message);
    if (image) heif_image_release(image);
    if (encoder) heif_encoder_release(encoder);
    heif_context_free(context);
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
