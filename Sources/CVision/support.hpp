// Helpers the CVision shim's files share (not part of the C API): messages, file and picture
// checks, borrowed planes as cv::Mat, scaling, RGB at a size, and `guarded`, which turns every
// C++ exception into a status and a message.
#ifndef CVISION_SUPPORT_HPP
#define CVISION_SUPPORT_HPP

#include "CVision.h"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include <sys/stat.h>

namespace cvision_support {

inline void write_message(char *message, size_t size, const std::string &text) {
    if (message == nullptr || size == 0) return;
    size_t n = std::min(size - 1, text.size());
    std::memcpy(message, text.data(), n);
    message[n] = '\0';
}

/// CVISION_OK when `path` names a readable regular file, otherwise NOT_FOUND with a message.
inline cvision_status check_file(const char *path, const char *what, std::string &error) {
    if (path == nullptr || *path == '\0') {
        error = std::string(what) + ": no path given";
        return CVISION_ERROR_ARGUMENT;
    }
    struct stat info;
    if (stat(path, &info) != 0) {
        error = std::string(what) + " not found: " + path + " (" + std::strerror(errno) + ")";
        return CVISION_ERROR_NOT_FOUND;
    }
    if (!S_ISREG(info.st_mode)) {
        error = std::string(what) + " is not a regular file: " + path;
        return CVISION_ERROR_NOT_FOUND;
    }
    FILE *file = std::fopen(path, "rb");
    if (file == nullptr) {
        error = std::string(what) + " cannot be read: " + path + " (" + std::strerror(errno) + ")";
        return CVISION_ERROR_NOT_FOUND;
    }
    std::fclose(file);
    return CVISION_OK;
}

inline bool check_picture(const cvision_picture *p, std::string &error) {
    if (p == nullptr) { error = "no picture"; return false; }
    if (p->width <= 0 || p->height <= 0) {
        error = "picture size " + std::to_string(p->width) + "x" + std::to_string(p->height) + " is empty";
        return false;
    }
    int planes = 1;
    ptrdiff_t min_stride = p->width;
    switch (p->format) {
    case CVISION_FORMAT_GRAY8: break;
    case CVISION_FORMAT_RGB24:
    case CVISION_FORMAT_BGR24: min_stride = ptrdiff_t(p->width) * 3; break;
    case CVISION_FORMAT_YUV420P: planes = 3; break;
    default: error = "unknown picture format " + std::to_string(p->format); return false;
    }
    for (int i = 0; i < planes; i++) {
        ptrdiff_t need = i == 0 ? min_stride : (p->width + 1) / 2;
        if (p->planes[i] == nullptr) { error = "picture plane " + std::to_string(i) + " is null"; return false; }
        if (p->strides[i] < need) {
            error = "picture plane " + std::to_string(i) + " stride " + std::to_string(p->strides[i]) +
                    " is below its row size " + std::to_string(need);
            return false;
        }
    }
    return true;
}

inline cv::Mat plane(const cvision_picture *p, int index, int width, int height, int type) {
    return cv::Mat(height, width, type, const_cast<uint8_t *>(p->planes[index]), size_t(p->strides[index]));
}

/// Resizes `src` into `dst` (whose size is already set, or is taken from `size`).
inline void scale_into(const cv::Mat &src, cv::Mat &dst, cv::Size size) {
    if (src.size() == size) {
        src.copyTo(dst);
    } else {
        // INTER_AREA averages when shrinking (no aliasing on 1080p → 640); linear when enlarging.
        int method = (size.width < src.cols) ? cv::INTER_AREA : cv::INTER_LINEAR;
        cv::resize(src, dst, size, 0, 0, method);
    }
}

/// The picture's grey levels at `size`: the luma plane for YUV420P (no colour work at all).
inline void grey_at(const cvision_picture *p, cv::Size size, cv::Mat &out) {
    switch (p->format) {
    case CVISION_FORMAT_GRAY8:
    case CVISION_FORMAT_YUV420P:
        scale_into(plane(p, 0, p->width, p->height, CV_8UC1), out, size);
        break;
    default: {
        cv::Mat small;
        scale_into(plane(p, 0, p->width, p->height, CV_8UC3), small, size);
        cv::cvtColor(small, out, p->format == CVISION_FORMAT_RGB24 ? cv::COLOR_RGB2GRAY : cv::COLOR_BGR2GRAY);
    }
    }
}

/// The picture as RGB at `size` (even width and height): scaled first, converted after.
inline void rgb_at(const cvision_picture *p, cv::Size size, cv::Mat &scratch, cv::Mat &out) {
    switch (p->format) {
    case CVISION_FORMAT_GRAY8: {
        scale_into(plane(p, 0, p->width, p->height, CV_8UC1), scratch, size);
        cv::cvtColor(scratch, out, cv::COLOR_GRAY2RGB);
        break;
    }
    case CVISION_FORMAT_RGB24:
        scale_into(plane(p, 0, p->width, p->height, CV_8UC3), out, size);
        break;
    case CVISION_FORMAT_BGR24:
        scale_into(plane(p, 0, p->width, p->height, CV_8UC3), scratch, size);
        cv::cvtColor(scratch, out, cv::COLOR_BGR2RGB);
        break;
    case CVISION_FORMAT_YUV420P: {
        // A small I420 picture (Y, then U, then V, contiguous), scaled plane by plane, then one
        // conversion at the small size.
        const int w = size.width, h = size.height, cw = w / 2, ch = h / 2;
        scratch.create(h + h / 2, w, CV_8UC1);
        cv::Mat y(h, w, CV_8UC1, scratch.data);
        cv::Mat u(ch, cw, CV_8UC1, scratch.data + size_t(w) * h);
        cv::Mat v(ch, cw, CV_8UC1, scratch.data + size_t(w) * h + size_t(cw) * ch);
        const int sw = (p->width + 1) / 2, sh = (p->height + 1) / 2;
        scale_into(plane(p, 0, p->width, p->height, CV_8UC1), y, size);
        scale_into(plane(p, 1, sw, sh, CV_8UC1), u, cv::Size(cw, ch));
        scale_into(plane(p, 2, sw, sh, CV_8UC1), v, cv::Size(cw, ch));
        cv::cvtColor(scratch, out, cv::COLOR_YUV2RGB_I420);
        break;
    }
    }
}

template <typename Body>
cvision_status guarded(char *message, size_t message_size, Body body) {
    try {
        std::string error;
        cvision_status status = body(error);
        if (status != CVISION_OK) write_message(message, message_size, error);
        return status;
    } catch (const cv::Exception &e) {
        write_message(message, message_size, std::string("OpenCV: ") + e.what());
        return CVISION_ERROR_INTERNAL;
    } catch (const std::exception &e) {
        write_message(message, message_size, e.what());
        return CVISION_ERROR_INTERNAL;
    } catch (...) {
        write_message(message, message_size, "unknown C++ exception");
        return CVISION_ERROR_INTERNAL;
    }
}

}  // namespace cvision_support

#endif
