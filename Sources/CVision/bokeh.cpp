// The cinematic camera's renderer (include/CVision.h, "cinematic"): a depth-dependent blur of a
// picture from its layer map (a near subject's matte and depth per cell, the background behind).
//
// Each plane (Y, then U and V at half size) is blurred through Gaussian pyramids: level k of a
// pyramid, read back bilinearly at full size, is a Gaussian of sigma_k = sqrt(4^k / 2 - 1/3)
// (the pyramid's 5-tap kernels compounded, plus the bilinear read); a blur between two levels
// blends them. A disc of radius r (the aperture's circle) has sigma r / 2 on each axis.
//
// - The background is blurred without the near subject in it: a pyramid of the picture weighted
//   by (1 - matte), divided by the pyramid of the weights (normalized convolution), so no halo
//   of the subject's colours spreads into the background around it, and the background behind
//   a blurred subject is filled from around it.
// - The near subject is blurred by its own radius (from its depth), and so is its matte, so an
//   out-of-focus subject's edge spreads over the background as a real lens spreads it.
// - out = matte' * subject + (1 - matte') * background, per pixel.
#include "CVision.h"
#include "support.hpp"

#include <opencv2/core/utility.hpp>

#include <array>
#include <cmath>
#include <vector>

using namespace cvision_support;

namespace {

constexpr int kMaxLevels = 8;

/// The sigma, in level-0 pixels, of pyramid level k read back bilinearly.
double level_sigma(int k) { return k == 0 ? 0.0 : std::sqrt(std::ldexp(1.0, 2 * k) / 2.0 - 1.0 / 3.0); }

/// The two levels (k, k + 1) and the share t of the upper one that make a Gaussian of `sigma`.
struct LevelBlend {
    int level = 0;
    float upper = 0;
};

LevelBlend blend_for(double sigma, int levels) {
    if (sigma <= 0) return {};
    for (int k = 0; k + 1 < levels; k++) {
        const double low = level_sigma(k), high = level_sigma(k + 1);
        if (sigma < high) return {k, float((sigma - low) / (high - low))};
    }
    return {levels - 1, 0};
}

/// A Gaussian pyramid of one float plane; sample() reads a level at level-0 coordinates.
struct Pyramid {
    std::vector<cv::Mat> levels;

    void build(const cv::Mat &base, int count) {
        levels.resize(size_t(count));
        base.copyTo(levels[0]);
        for (int k = 1; k < count; k++) cv::pyrDown(levels[size_t(k - 1)], levels[size_t(k)]);
    }

    float at(int k, float x, float y) const {
        const cv::Mat &m = levels[size_t(k)];
        const float scale = 1.0f / float(1 << k);
        // Level k's pixel i is centred on level 0's pixel 2^k * i (pyrDown keeps even samples).
        float u = std::min(std::max(x * scale, 0.0f), float(m.cols - 1));
        float v = std::min(std::max(y * scale, 0.0f), float(m.rows - 1));
        const int i = std::min(int(u), m.cols - 2 < 0 ? 0 : m.cols - 2), j = std::min(int(v), m.rows - 2 < 0 ? 0 : m.rows - 2);
        const float fu = m.cols > 1 ? u - float(i) : 0, fv = m.rows > 1 ? v - float(j) : 0;
        const float *r0 = m.ptr<float>(j), *r1 = m.ptr<float>(std::min(j + 1, m.rows - 1));
        const int i1 = std::min(i + 1, m.cols - 1);
        const float top = r0[i] + (r0[i1] - r0[i]) * fu, bottom = r1[i] + (r1[i1] - r1[i]) * fu;
        return top + (bottom - top) * fv;
    }

    float blurred(const LevelBlend &b, float x, float y) const {
        const float low = at(b.level, x, y);
        return b.upper > 0 ? low + (at(b.level + 1, x, y) - low) * b.upper : low;
    }
};

/// Everything one plane's rendering needs; kept between frames so nothing is allocated twice.
struct PlaneWork {
    Pyramid all, weighted, weights;
    cv::Mat src, weight, product;
};

struct Settings {
    float focus, per_dioptre, max_radius, step;
};

/// How many levels a largest sigma of `sigma` needs, and the plane allows.
int level_count(double sigma, cv::Size size) {
    int count = 1;
    while (count < kMaxLevels && level_sigma(count - 1) < sigma && std::min(size.width, size.height) >> count >= 1) count++;
    return count;
}

}  // namespace

struct cvision_bokeh {
    std::array<PlaneWork, 3> planes;
    Pyramid matte;
    cv::Mat matte_base, cell_sigma, cell_matte;
};

namespace {

/// Per cell of the map: the near subject's blur sigma (in luma pixels) and its matte blurred by
/// that sigma (both read back bilinearly by the planes).
void prepare_cells(cvision_bokeh &r, const cvision_layers &layers, const Settings &s, double luma_per_cell) {
    const cv::Size cells(layers.width, layers.height);
    cv::Mat(cells, CV_8UC1, const_cast<uint8_t *>(layers.matte)).convertTo(r.matte_base, CV_32F, 1.0 / 255);
    const double max_sigma_cells = s.max_radius / 2 / luma_per_cell;
    const int count = level_count(max_sigma_cells, cells);
    r.matte.build(r.matte_base, count);
    r.cell_sigma.create(cells, CV_32F);
    r.cell_matte.create(cells, CV_32F);
    for (int y = 0; y < cells.height; y++) {
        const uint8_t *depth = layers.depth + size_t(y) * size_t(cells.width);
        float *sigma = r.cell_sigma.ptr<float>(y), *matte = r.cell_matte.ptr<float>(y);
        for (int x = 0; x < cells.width; x++) {
            const float radius = std::min(s.per_dioptre * std::fabs(float(depth[x]) * s.step - s.focus), s.max_radius);
            sigma[x] = radius / 2;
            matte[x] = r.matte.blurred(blend_for(sigma[x] / luma_per_cell, count), float(x), float(y));
        }
    }
}

/// Renders one plane (`scale`: the plane's pixels per luma pixel) into `out`.
void render_plane(cvision_bokeh &r, PlaneWork &w, const cv::Mat &in, cv::Mat out, double scale,
                  const cvision_layers &layers, const Settings &s) {
    const cv::Size size = in.size();
    in.convertTo(w.src, CV_32F);
    // The background's weight: 1 where no near subject covers the pixel.
    cv::Mat cover;
    cv::resize(r.matte_base, cover, size, 0, 0, cv::INTER_LINEAR);
    w.weight = 1.0f - cover;
    w.product = w.src.mul(w.weight);
    const double max_sigma = s.max_radius / 2 * scale;
    const int count = level_count(max_sigma, size);
    w.all.build(w.src, count);
    w.weighted.build(w.product, count);
    w.weights.build(w.weight, count);
    const float background_radius = std::min(s.per_dioptre * std::fabs(float(layers.background) * s.step - s.focus), s.max_radius);
    const LevelBlend back = blend_for(background_radius / 2 * scale, count);
    const float cell_x = float(layers.width) / float(size.width), cell_y = float(layers.height) / float(size.height);
    const bool sharp_background = back.level == 0 && back.upper == 0;
    cv::parallel_for_(cv::Range(0, size.height), [&](const cv::Range &rows) {
        for (int y = rows.start; y < rows.end; y++) {
            uint8_t *dst = out.ptr<uint8_t>(y);
            const float cy = std::min(std::max((float(y) + 0.5f) * cell_y - 0.5f, 0.0f), float(layers.height - 1));
            const int j = std::min(int(cy), std::max(0, layers.height - 2));
            const float fy = layers.height > 1 ? cy - float(j) : 0;
            const int j1 = std::min(j + 1, layers.height - 1);
            const float *s0 = r.cell_sigma.ptr<float>(j), *s1 = r.cell_sigma.ptr<float>(j1);
            const float *m0 = r.cell_matte.ptr<float>(j), *m1 = r.cell_matte.ptr<float>(j1);
            for (int x = 0; x < size.width; x++) {
                const float cx = std::min(std::max((float(x) + 0.5f) * cell_x - 0.5f, 0.0f), float(layers.width - 1));
                const int i = std::min(int(cx), std::max(0, layers.width - 2));
                const float fx = layers.width > 1 ? cx - float(i) : 0;
                const int i1 = std::min(i + 1, layers.width - 1);
                auto lerp2 = [&](const float *a, const float *b) {
                    const float top = a[i] + (a[i1] - a[i]) * fx, bottom = b[i] + (b[i1] - b[i]) * fx;
                    return top + (bottom - top) * fy;
                };
                const float matte = lerp2(m0, m1);
                const float fxp = float(x), fyp = float(y);
                float background = w.src.ptr<float>(y)[x];
                if (!sharp_background) {
                    // Normalized: the subject's pixels weigh nothing; where no background is
                    // near at all, the plain blur stands in.
                    const float eps = 1e-3f;
                    background = (w.weighted.blurred(back, fxp, fyp) + eps * w.all.blurred(back, fxp, fyp)) /
                                 (w.weights.blurred(back, fxp, fyp) + eps);
                }
                float value;
                const float here = w.src.ptr<float>(y)[x], uncovered_here = w.weight.ptr<float>(y)[x];
                if (matte < 1.0f / 512) {
                    value = background;
                } else {
                    const float sigma = lerp2(s0, s1) * float(scale);
                    if (sigma < 0.05f) {
                        value = (1 - uncovered_here) * here + uncovered_here * background;
                    } else {
                        // The subject premultiplied by its matte, blurred, over what is behind it
                        // (seen through the blurred matte's gaps): a lens's blurred foreground.
                        const LevelBlend b = blend_for(sigma, count);
                        const float all = w.all.blurred(b, fxp, fyp), weighted = w.weighted.blurred(b, fxp, fyp);
                        const float uncovered = w.weights.blurred(b, fxp, fyp);
                        float behind = background;
                        if (sharp_background && uncovered_here < 1) {
                            // Behind the subject the picture has no background: fill it from around.
                            const float fill = (weighted + 1e-3f * all) / (uncovered + 1e-3f);
                            behind = uncovered_here * here + (1 - uncovered_here) * fill;
                        }
                        value = (all - weighted) + uncovered * behind;
                    }
                }
                dst[x] = uint8_t(std::min(255.0f, std::max(0.0f, value + 0.5f)));
            }
        }
    });
}

}  // namespace

cvision_status cvision_bokeh_open(cvision_bokeh **out, char *message, size_t message_size) {
    return guarded(message, message_size, [&](std::string &error) -> cvision_status {
        if (out == nullptr) { error = "no output handle"; return CVISION_ERROR_ARGUMENT; }
        *out = new cvision_bokeh();
        return CVISION_OK;
    });
}

cvision_status cvision_bokeh_render(cvision_bokeh *renderer, const cvision_picture *picture, const cvision_layers *layers,
                                    const cvision_blur *blur, uint8_t *const out_planes[3], const ptrdiff_t out_strides[3],
                                    char *message, size_t message_size) {
    return guarded(message, message_size, [&](std::string &error) -> cvision_status {
        if (renderer == nullptr || layers == nullptr || blur == nullptr || out_planes == nullptr || out_strides == nullptr) {
            error = "no renderer, layers, blur or output";
            return CVISION_ERROR_ARGUMENT;
        }
        if (!check_picture(picture, error)) return CVISION_ERROR_ARGUMENT;
        if (picture->format != CVISION_FORMAT_YUV420P && picture->format != CVISION_FORMAT_GRAY8) {
            error = "the renderer takes yuv420p or grey pictures";
            return CVISION_ERROR_ARGUMENT;
        }
        if (layers->width <= 0 || layers->height <= 0 || layers->matte == nullptr || layers->depth == nullptr) {
            error = "the layer map is empty";
            return CVISION_ERROR_ARGUMENT;
        }
        if (!(blur->dioptre_step > 0) || !(blur->per_dioptre >= 0) || !(blur->max_radius >= 0) || !std::isfinite(blur->focus)) {
            error = "the blur's settings are out of range";
            return CVISION_ERROR_ARGUMENT;
        }
        const int planes = picture->format == CVISION_FORMAT_YUV420P ? 3 : 1;
        for (int i = 0; i < planes; i++) {
            const int width = i == 0 ? picture->width : (picture->width + 1) / 2;
            if (out_planes[i] == nullptr || out_strides[i] < width) { error = "output plane " + std::to_string(i) + " is too small"; return CVISION_ERROR_ARGUMENT; }
        }
        const Settings s{blur->focus, blur->per_dioptre, blur->max_radius, blur->dioptre_step};
        prepare_cells(*renderer, *layers, s, double(picture->width) / layers->width);
        for (int i = 0; i < planes; i++) {
            const int width = i == 0 ? picture->width : (picture->width + 1) / 2;
            const int height = i == 0 ? picture->height : (picture->height + 1) / 2;
            // Copied to float first (render_plane), so the output may be the input.
            cv::Mat in = plane(picture, i, width, height, CV_8UC1);
            cv::Mat out(height, width, CV_8UC1, out_planes[i], size_t(out_strides[i]));
            render_plane(*renderer, renderer->planes[size_t(i)], in, out, i == 0 ? 1.0 : double(width) / picture->width,
                         *layers, s);
        }
        return CVISION_OK;
    });
}

void cvision_bokeh_free(cvision_bokeh *renderer) { delete renderer; }
