// Reel's bridge to Debian's zlib: one-shot gzip (deflateInit2 is a macro Swift cannot call).
#ifndef REEL_CZLIB_H
#define REEL_CZLIB_H

#include <stddef.h>
#include <string.h>
#include <zlib.h>

/// An upper bound of the gzip output for `length` input bytes.
static inline size_t reel_gzip_bound(size_t length) {
    return (size_t)compressBound((uLong)length) + 32;
}

/// Gzips `length` bytes into `output` (capacity `*output_length`, at least reel_gzip_bound);
/// sets `*output_length` to the bytes written. Returns 0, or a zlib error code.
static inline int reel_gzip(const unsigned char *input, size_t length, unsigned char *output, size_t *output_length) {
    if (length > 0x7fffffff || *output_length > 0x7fffffff) return Z_BUF_ERROR;
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    int status = deflateInit2(&stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    if (status != Z_OK) return status;
    stream.next_in = (Bytef *)input;
    stream.avail_in = (uInt)length;
    stream.next_out = output;
    stream.avail_out = (uInt)*output_length;
    status = deflate(&stream, Z_FINISH);
    *output_length = stream.total_out;
    deflateEnd(&stream);
    return status == Z_STREAM_END ? 0 : (status == Z_OK ? Z_BUF_ERROR : status);
}

#endif
