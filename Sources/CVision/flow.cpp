// The cinematic camera's tracking between detections (include/CVision.h, "cinematic"): each
// subject's box moved by the sparse optical flow of the points inside it, from the previous
// picture to this one.
//
// The luma is reduced to at most kWidth pixels wide; inside each box (shrunk by a tenth on each
// side, away from the background at its edge) up to kPoints corners (Shi-Tomasi) are followed by
// pyramidal Lucas-Kanade, and the box moves by the median of the followed points' motion (robust
// to a few points that slide on the background). A box with fewer than kMinPoints followed
// points stays where it was.
#include "CVision.h"
#include "support.hpp"

#include <opencv2/imgproc.hpp>
#include <opencv2/video/tracking.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace cvision_support;

namespace {

constexpr int kWidth = 320;
constexpr int kPoints = 40;
constexpr int kMinPoints = 4;

float median(std::vector<float> &values) {
    auto middle = values.begin() + std::ptrdiff_t(values.size() / 2);
    std::nth_element(values.begin(), middle, values.end());
    return *middle;
}

} // namespace

struct cvision_flow {
    cv::Mat previous, current;
    bool has_previous = false;
};

cvision_status cvision_flow_open(cvision_flow **out, char *message, size_t message_size) {
    return guarded(message, message_size, [&](std::string &error) -> cvision_status {
        if (out == nullptr) { error = "no output handle"; return CVISION_ERROR_ARGUMENT; }
        *out = new cvision_flow();
        return CVISION_OK;
    });
}

cvision_status cvision_flow_track(cvision_flow *flow, const cvision_picture *picture, float *boxes, int32_t count,
                                  char *message, size_t message_size) {
    return guarded(message, message_size, [&](std::string &error) -> cvision_status {
        if (flow == nullptr || count < 0 || (count > 0 && boxes == nullptr)) { error = "no tracker or no boxes"; return CVISION_ERROR_ARGUMENT; }
        if (!check_picture(picture, error)) return CVISION_ERROR_ARGUMENT;
        int w = std::min(kWidth, int(picture->width));
        int h = std::max(2, int(std::lround(double(picture->height) * w / picture->width)));
        grey_at(picture, cv::Size(w, h), flow->current);
        if (flow->has_previous && flow->previous.size() == flow->current.size()) {
            std::vector<cv::Point2f> from, to;
            std::vector<uchar> found;
            std::vector<float> error_values, dx, dy;
            for (int32_t i = 0; i < count; i++) {
                float *box = boxes + size_t(i) * 4;
                cv::Rect area(int(std::lround((box[0] + box[2] * 0.1f) * w)), int(std::lround((box[1] + box[3] * 0.1f) * h)),
                              int(std::lround(box[2] * 0.8f * w)), int(std::lround(box[3] * 0.8f * h)));
                area &= cv::Rect(0, 0, w, h);
                if (area.width < 4 || area.height < 4) continue;
                cv::Mat mask = cv::Mat::zeros(h, w, CV_8UC1);
                mask(area).setTo(255);
                from.clear();
                cv::goodFeaturesToTrack(flow->previous, from, kPoints, 0.01, 2.0, mask, 3);
                if (int(from.size()) < kMinPoints) continue;
                cv::calcOpticalFlowPyrLK(flow->previous, flow->current, from, to, found, error_values, cv::Size(15, 15), 2);
                dx.clear();
                dy.clear();
                for (size_t p = 0; p < from.size(); p++) {
                    if (!found[p]) continue;
                    dx.push_back(to[p].x - from[p].x);
                    dy.push_back(to[p].y - from[p].y);
                }
                if (int(dx.size()) < kMinPoints) continue;
                box[0] += median(dx) / float(w);
                box[1] += median(dy) / float(h);
            }
        }
        std::swap(flow->previous, flow->current);
        flow->has_previous = true;
        return CVISION_OK;
    });
}

void cvision_flow_free(cvision_flow *flow) { delete flow; }
