// Cut-outs for the overlay camera (include/CVision.h, "cut-outs"): person segmentation through
// the DNN module, GrabCut for other objects, edges refined by a colour-guided filter (He, Sun
// and Tang's, written here on box filters: OpenCV contrib's ximgproc would bring imgcodecs and
// GDAL's 60-odd libraries into every command's start-up).
#include "CVision.h"
#include "support.hpp"

#include <opencv2/dnn.hpp>

#include <memory>
#include <vector>
#include <stdexcept>

using namespace cvision_support;

struct cvision_segmenter {
    cv::dnn::Net net;
};

namespace {

constexpr int kSegmenterSide = 256;

/// The picture as an RGB cv::Mat at its own size (a copy only when the format needs one).
cv::Mat rgb_of(const cvision_picture *picture, cv::Mat &scratch, cv::Mat &storage) {
    if (picture->format == CVISION_FORMAT_RGB24) return plane(picture, 0, picture->width, picture->height, CV_8UC3);
    rgb_at(picture, cv::Size(picture->width, picture->height), scratch, storage);
    return storage;
}

/// The guided filter of `p` (CV_32F) with the colour picture `guide` (CV_32FC3, 0...1) as guide,
/// window radius `r`, regularisation `eps`: per window, `p ≈ aᵀI + b` by least squares, the
/// coefficients averaged over the windows that hold a pixel, then applied to its colour.
cv::Mat guided_filter(const cv::Mat &guide, const cv::Mat &p, int r, double eps) {
    const cv::Size window(2 * r + 1, 2 * r + 1);
    auto mean = [&](const cv::Mat &m) {
        cv::Mat out;
        cv::boxFilter(m, out, CV_32F, window, cv::Point(-1, -1), true, cv::BORDER_REFLECT);
        return out;
    };
    std::vector<cv::Mat> I;
    cv::split(guide, I);
    cv::Mat mean_p = mean(p);
    cv::Mat mean_I[3], cov_Ip[3];
    for (int c = 0; c < 3; c++) {
        mean_I[c] = mean(I[c]);
        cov_Ip[c] = mean(I[c].mul(p)) - mean_I[c].mul(mean_p);
    }
    // The guide's covariance in each window: rr, rg, rb, gg, gb, bb.
    cv::Mat var[6];
    const int pairs[6][2] = {{0, 0}, {0, 1}, {0, 2}, {1, 1}, {1, 2}, {2, 2}};
    for (int k = 0; k < 6; k++) {
        const int a = pairs[k][0], b = pairs[k][1];
        var[k] = mean(I[a].mul(I[b])) - mean_I[a].mul(mean_I[b]);
    }
    cv::Mat a[3] = {cv::Mat(p.size(), CV_32F), cv::Mat(p.size(), CV_32F), cv::Mat(p.size(), CV_32F)};
    for (int y = 0; y < p.rows; y++) {
        for (int x = 0; x < p.cols; x++) {
            const double rr = var[0].at<float>(y, x) + eps, rg = var[1].at<float>(y, x), rb = var[2].at<float>(y, x);
            const double gg = var[3].at<float>(y, x) + eps, gb = var[4].at<float>(y, x), bb = var[5].at<float>(y, x) + eps;
            // The inverse of the symmetric 3x3 matrix, by cofactors.
            const double i00 = gg * bb - gb * gb, i01 = gb * rb - rg * bb, i02 = rg * gb - gg * rb;
            const double i11 = rr * bb - rb * rb, i12 = rb * rg - rr * gb, i22 = rr * gg - rg * rg;
            const double det = rr * i00 + rg * i01 + rb * i02;
            const double cr = cov_Ip[0].at<float>(y, x), cg = cov_Ip[1].at<float>(y, x), cb = cov_Ip[2].at<float>(y, x);
            a[0].at<float>(y, x) = float((i00 * cr + i01 * cg + i02 * cb) / det);
            a[1].at<float>(y, x) = float((i01 * cr + i11 * cg + i12 * cb) / det);
            a[2].at<float>(y, x) = float((i02 * cr + i12 * cg + i22 * cb) / det);
        }
    }
    cv::Mat b = mean_p - a[0].mul(mean_I[0]) - a[1].mul(mean_I[1]) - a[2].mul(mean_I[2]);
    cv::Mat q = mean(b);
    for (int c = 0; c < 3; c++) q += mean(a[c]).mul(I[c]);
    return q;
}

/// `soft` (CV_32F, 0...1, picture-sized, enlarged `factor` times from the size it was made at)
/// refined against `rgb`: a guided filter (radius about the enlargement, at least 2; eps 0.01,
/// which snapped best to the picture's edges of the values tried, 1e-6...1e-2), then the
/// transition steepened (twice as steep about one half), so the edge is soft over a few pixels
/// instead of the enlargement's ramp.
cv::Mat refined(const cv::Mat &rgb, const cv::Mat &soft, double factor) {
    const int radius = std::max(2, int(std::lround(factor)));
    cv::Mat guide;
    rgb.convertTo(guide, CV_32FC3, 1.0 / 255);
    cv::Mat out = guided_filter(guide, soft, radius, 1e-2);
    out = (out - 0.5) * 2.0 + 0.5;
    cv::min(cv::max(out, 0.0), 1.0, out);
    return out;
}

/// A picture prepared for GrabCut at a point: the picture as RGB at its own size, a BGR copy at
/// most `work_side` on its long side, the scale between them and the point in the copy.
struct WorkCopy {
    cv::Mat scratch, storage, rgb, bgr;
    double scale = 1;
    cv::Point seed;
};

/// Checks the picture and the point and makes the work copy; false (with `error`) when either
/// is wrong.
bool make_work_copy(const cvision_picture *picture, float x, float y, int32_t work_side, WorkCopy &work, std::string &error) {
    if (!check_picture(picture, error)) return false;
    if (!(x >= 0 && y >= 0 && x < picture->width && y < picture->height)) {
        error = "the point is outside the picture";
        return false;
    }
    work.rgb = rgb_of(picture, work.scratch, work.storage);
    work.scale = std::min(1.0, double(std::max(64, int(work_side))) / std::max(work.rgb.cols, work.rgb.rows));
    cv::Mat small;
    scale_into(work.rgb, small, cv::Size(std::max(1, int(std::lround(work.rgb.cols * work.scale))),
                                         std::max(1, int(std::lround(work.rgb.rows * work.scale)))));
    cv::cvtColor(small, work.bgr, cv::COLOR_RGB2BGR);
    work.seed = cv::Point(std::min(small.cols - 1, int(x * work.scale)), std::min(small.rows - 1, int(y * work.scale)));
    return true;
}

void write_mask(const cv::Mat &soft, uint8_t *mask) {
    cv::Mat out(soft.rows, soft.cols, CV_8UC1, mask);
    soft.convertTo(out, CV_8UC1, 255.0);
}

}  // namespace

cvision_status cvision_segmenter_open(const char *model_path, cvision_segmenter **out,
                                      char *message, size_t message_size) {
    return guarded(message, message_size, [&](std::string &error) -> cvision_status {
        if (out == nullptr) { error = "no output handle"; return CVISION_ERROR_ARGUMENT; }
        *out = nullptr;
        cvision_status found = check_file(model_path, "segmentation model", error);
        if (found != CVISION_OK) return found;
        auto segmenter = std::make_unique<cvision_segmenter>();
        try {
            segmenter->net = cv::dnn::readNetFromONNX(model_path);
            if (segmenter->net.empty()) throw std::runtime_error("the network is empty");
            segmenter->net.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);
            segmenter->net.setPreferableTarget(cv::dnn::DNN_TARGET_CPU);
            cv::Mat probe = cv::Mat::zeros(kSegmenterSide, kSegmenterSide, CV_8UC3);
            segmenter->net.setInput(cv::dnn::blobFromImage(probe, 1.0 / 255, cv::Size(), cv::Scalar(), false, false));
            cv::Mat result = segmenter->net.forward();
            if (result.dims != 4 || result.size[1] != 1 || result.size[2] != kSegmenterSide || result.size[3] != kSegmenterSide) {
                throw std::runtime_error("its output is not one 256x256 mask");
            }
        } catch (const cv::Exception &e) {
            error = std::string("segmentation model ") + model_path + " is not a usable ONNX network: " + e.err;
            return CVISION_ERROR_INVALID_MODEL;
        } catch (const std::exception &e) {
            error = std::string("segmentation model ") + model_path + " is not a usable ONNX network: " + e.what();
            return CVISION_ERROR_INVALID_MODEL;
        }
        *out = segmenter.release();
        return CVISION_OK;
    });
}

cvision_status cvision_segmenter_mask(cvision_segmenter *segmenter, const cvision_picture *picture,
                                      uint8_t *mask, uint8_t *probability, char *message, size_t message_size) {
    return guarded(message, message_size, [&](std::string &error) -> cvision_status {
        if (segmenter == nullptr || mask == nullptr) { error = "no segmenter or mask"; return CVISION_ERROR_ARGUMENT; }
        if (!check_picture(picture, error)) return CVISION_ERROR_ARGUMENT;
        cv::Mat scratch, storage, small;
        cv::Mat rgb = rgb_of(picture, scratch, storage);
        scale_into(rgb, small, cv::Size(kSegmenterSide, kSegmenterSide));
        segmenter->net.setInput(cv::dnn::blobFromImage(small, 1.0 / 255, cv::Size(), cv::Scalar(), false, false));
        cv::Mat result = segmenter->net.forward();
        cv::Mat coarse(kSegmenterSide, kSegmenterSide, CV_32FC1, result.ptr<float>());
        cv::Mat soft;
        cv::resize(coarse, soft, rgb.size(), 0, 0, cv::INTER_LINEAR);
        if (probability != nullptr) write_mask(soft, probability);
        write_mask(refined(rgb, soft, double(std::max(rgb.cols, rgb.rows)) / kSegmenterSide), mask);
        return CVISION_OK;
    });
}

cvision_status cvision_segmenter_matte(cvision_segmenter *segmenter, const cvision_picture *picture, int32_t width,
                                       int32_t height, uint8_t *matte, char *message, size_t message_size) {
    return guarded(message, message_size, [&](std::string &error) -> cvision_status {
        if (segmenter == nullptr || matte == nullptr) { error = "no segmenter or matte"; return CVISION_ERROR_ARGUMENT; }
        if (!check_picture(picture, error)) return CVISION_ERROR_ARGUMENT;
        if (width <= 0 || height <= 0 || width > picture->width || height > picture->height) {
            error = "the matte's size " + std::to_string(width) + "x" + std::to_string(height) + " is not within the picture's";
            return CVISION_ERROR_ARGUMENT;
        }
        cv::Mat scratch, small, guide;
        rgb_at(picture, cv::Size(kSegmenterSide, kSegmenterSide), scratch, small);
        segmenter->net.setInput(cv::dnn::blobFromImage(small, 1.0 / 255, cv::Size(), cv::Scalar(), false, false));
        cv::Mat result = segmenter->net.forward();
        cv::Mat coarse(kSegmenterSide, kSegmenterSide, CV_32FC1, result.ptr<float>());
        cv::Mat soft;
        cv::resize(coarse, soft, cv::Size(width, height), 0, 0, cv::INTER_LINEAR);
        rgb_at(picture, cv::Size(width, height), scratch, guide);
        write_mask(refined(guide, soft, double(std::max(width, height)) / kSegmenterSide), matte);
        return CVISION_OK;
    });
}

void cvision_segmenter_free(cvision_segmenter *segmenter) { delete segmenter; }

cvision_status cvision_grabcut_mask(const cvision_picture *picture, float x, float y, int32_t work_side,
                                    uint8_t *mask, char *message, size_t message_size) {
    return guarded(message, message_size, [&](std::string &error) -> cvision_status {
        if (mask == nullptr) { error = "no mask"; return CVISION_ERROR_ARGUMENT; }
        WorkCopy work;
        if (!make_work_copy(picture, x, y, work_side, work, error)) return CVISION_ERROR_ARGUMENT;
        const cv::Mat &rgb = work.rgb, &bgr = work.bgr;
        const double scale = work.scale;
        const cv::Point seed = work.seed;
        const int w = bgr.cols, h = bgr.rows, side = std::min(w, h);
        // The seeds: outside a rectangle of 70 % of each side around the point, background; in
        // it, probable background; an ellipse of 18 % around the point, probable foreground; a
        // disk of 2 % (of the short side), foreground.
        cv::Mat labels(h, w, CV_8UC1, cv::Scalar(cv::GC_BGD));
        cv::Rect box(seed.x - int(0.35 * w), seed.y - int(0.35 * h), int(0.7 * w), int(0.7 * h));
        box &= cv::Rect(0, 0, w, h);
        labels(box).setTo(cv::GC_PR_BGD);
        cv::ellipse(labels, seed, cv::Size(std::max(2, int(0.18 * side)), std::max(2, int(0.18 * side))), 0, 0, 360,
                    cv::Scalar(cv::GC_PR_FGD), cv::FILLED);
        cv::circle(labels, seed, std::max(1, int(0.02 * side)), cv::Scalar(cv::GC_FGD), cv::FILLED);
        cv::Mat background, foreground;
        cv::grabCut(bgr, labels, box, background, foreground, 3, cv::GC_INIT_WITH_MASK);
        cv::Mat hard = (labels == cv::GC_FGD) | (labels == cv::GC_PR_FGD);
        // Keep the part that holds the seed.
        cv::Mat components;
        cv::connectedComponents(hard, components, 8, CV_32S);
        const int keep = components.at<int>(seed);
        cv::Mat kept = (components == keep) & hard;
        cv::Mat soft_small, soft;
        kept.convertTo(soft_small, CV_32FC1, 1.0 / 255);
        cv::resize(soft_small, soft, rgb.size(), 0, 0, cv::INTER_LINEAR);
        write_mask(refined(rgb, soft, 1.0 / scale), mask);
        return CVISION_OK;
    });
}

namespace {

/// The refinement's band, as a share of the work picture's long side: the model's edge may be
/// this far off (its 256x256 grid, enlarged), so GrabCut decides there.
constexpr double kRefineBand = 0.03;
/// The network's probability (of 255) that makes a pixel a person's, and the fainter one taken
/// when a face says a person is there but the network is unsure.
constexpr int kPersonStrong = 128, kPersonFaint = 51;

/// The 8-connected part of `binary` (CV_8U, 0 or not) that holds `seed`; all zero when the seed
/// is not in it.
cv::Mat part_at(const cv::Mat &binary, cv::Point seed) {
    if (binary.at<uint8_t>(seed) == 0) return cv::Mat::zeros(binary.size(), CV_8UC1);
    cv::Mat components;
    cv::connectedComponents(binary, components, 8, CV_32S);
    return (components == components.at<int>(seed)) & (binary != 0);
}

/// A person's likely outline under a face (a box in the work picture's pixels), drawn into
/// `probable`: the head (an ellipse a little larger than the face), the neck, and the body from
/// 0.6 face heights below the chin to the bottom edge, 5 face widths wide (shoulders span about
/// three; arms and loose clothes the rest — it is only probable: GrabCut takes back what is
/// background).
void draw_body_under(cv::Mat &probable, const cv::Rect2f &face) {
    const float cx = face.x + face.width / 2, chin = face.y + face.height;
    cv::ellipse(probable, cv::Point(int(cx), int(face.y + 0.45f * face.height)),
                cv::Size(std::max(1, int(0.75f * face.width)), std::max(1, int(0.85f * face.height))), 0, 0, 360,
                cv::Scalar(255), cv::FILLED);
    cv::rectangle(probable, cv::Point(int(cx - 0.25f * face.width), int(chin)),
                  cv::Point(int(cx + 0.25f * face.width), probable.rows), cv::Scalar(255), cv::FILLED);
    cv::rectangle(probable, cv::Point(int(cx - 2.5f * face.width), int(chin + 0.6f * face.height)),
                  cv::Point(int(cx + 2.5f * face.width), probable.rows), cv::Scalar(255), cv::FILLED);
}

}  // namespace

cvision_status cvision_person_refine(const cvision_picture *picture, const uint8_t *probability, float x, float y,
                                     const cvision_detection *face, int32_t work_side, uint8_t *mask,
                                     char *message, size_t message_size) {
    return guarded(message, message_size, [&](std::string &error) -> cvision_status {
        if (probability == nullptr || mask == nullptr) { error = "no probability or mask"; return CVISION_ERROR_ARGUMENT; }
        WorkCopy work;
        if (!make_work_copy(picture, x, y, work_side, work, error)) return CVISION_ERROR_ARGUMENT;
        const cv::Mat &rgb = work.rgb, &bgr = work.bgr;
        const double scale = work.scale;
        const cv::Point seed = work.seed;
        const cv::Size size = bgr.size();
        cv::Mat faint, full(picture->height, picture->width, CV_8UC1, const_cast<uint8_t *>(probability));
        cv::resize(full, faint, size, 0, 0, cv::INTER_AREA);
        // The network's part at the point (fainter with a face), and where the person may be.
        cv::Mat part = part_at(faint >= (face ? kPersonFaint : kPersonStrong), seed);
        if (cv::countNonZero(part) == 0) {
            error = face ? "the point is not even faintly on a person" : "the point is not on a person";
            return CVISION_ERROR_ARGUMENT;
        }
        cv::Mat probable = part.clone();
        cv::Rect2f box;
        if (face) {
            box = cv::Rect2f(float(face->x * scale), float(face->y * scale), float(face->width * scale), float(face->height * scale));
            draw_body_under(probable, box);
        }
        const int band = std::max(2, int(kRefineBand * std::max(size.width, size.height)));
        const cv::Mat round = cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(2 * band + 1, 2 * band + 1));
        cv::Mat near, core;
        cv::dilate(probable, near, round);
        cv::erode(part, core, round);
        // The labels: sure background beyond the band, probable background in it, probable
        // foreground where the person may be, sure foreground deep inside the network's part,
        // in the middle of the face, and at the point.
        cv::Mat labels(size, CV_8UC1, cv::Scalar(cv::GC_BGD));
        labels.setTo(cv::GC_PR_BGD, near);
        labels.setTo(cv::GC_PR_FGD, probable);
        labels.setTo(cv::GC_FGD, core);
        if (face) {
            cv::rectangle(labels, cv::Point(int(box.x + box.width / 4), int(box.y + box.height / 4)),
                          cv::Point(int(box.x + 3 * box.width / 4), int(box.y + 3 * box.height / 4)), cv::Scalar(cv::GC_FGD), cv::FILLED);
        }
        cv::circle(labels, seed, std::max(1, int(0.02 * std::min(size.width, size.height))), cv::Scalar(cv::GC_FGD), cv::FILLED);
        // GrabCut inside the band's bounds (what lies beyond is background either way).
        const cv::Rect roi = (cv::boundingRect(near) | cv::Rect(seed, cv::Size(1, 1))) & cv::Rect(cv::Point(0, 0), size);
        cv::Mat roi_labels = labels(roi).clone(), background, foreground;
        cv::grabCut(bgr(roi).clone(), roi_labels, cv::Rect(), background, foreground, 3, cv::GC_INIT_WITH_MASK);
        cv::Mat hard = cv::Mat::zeros(size, CV_8UC1);
        hard(roi).setTo(255, (roi_labels == cv::GC_FGD) | (roi_labels == cv::GC_PR_FGD));
        cv::Mat soft_small, soft;
        part_at(hard, seed).convertTo(soft_small, CV_32FC1, 1.0 / 255);
        cv::resize(soft_small, soft, rgb.size(), 0, 0, cv::INTER_LINEAR);
        write_mask(refined(rgb, soft, 1.0 / scale), mask);
        return CVISION_OK;
    });
}

cvision_status cvision_mask_keep_connected(uint8_t *mask, int32_t width, int32_t height, int32_t x, int32_t y,
                                           char *message, size_t message_size) {
    return guarded(message, message_size, [&](std::string &error) -> cvision_status {
        if (mask == nullptr || width <= 0 || height <= 0 || x < 0 || y < 0 || x >= width || y >= height) {
            error = "no mask, or the point is outside it";
            return CVISION_ERROR_ARGUMENT;
        }
        cv::Mat soft(height, width, CV_8UC1, mask);
        if (soft.at<uint8_t>(y, x) < 128) { error = "the point is not inside the mask"; return CVISION_ERROR_ARGUMENT; }
        // The soft edge belongs to the part it borders: the half-strength part, grown by the
        // width of the softening, decides what is kept.
        cv::Mat hard = soft >= 128, components;
        cv::connectedComponents(hard, components, 8, CV_32S);
        cv::Mat part = components == components.at<int>(y, x);
        const int grow = std::max(3, int(std::lround(std::max(width, height) * 0.012)));
        cv::dilate(part, part, cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(2 * grow + 1, 2 * grow + 1)));
        soft.setTo(0, ~part);
        return CVISION_OK;
    });
}
