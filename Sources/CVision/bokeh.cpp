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
// - out = matte' * subject + (1 - matte') * background, per pixel (an in-focus subject's matte
//   read at full size with its edge steepened: kCoverSteepness).
#include "CVision.h"
#include "support.hpp"

#include <opencv2/core/utility.hpp>

#include <array>
#include <cmath>
#include <vector>

using namespace cvision_support;

namespace {

constexpr int kMaxLevels = 8;

/// The sigma, in level-0 pixels, of pyramid level k read back bilinearly (pyrDown's 5-tap
/// kernels compounded, (4^k - 1) / 3, plus the bilinear read's 4^k / 6).
double read_sigma(int k) {
    static const auto table = [] {
        std::array<double, kMaxLevels> t{};
        for (int i = 1; i < kMaxLevels; i++) t[size_t(i)] = std::sqrt(std::ldexp(1.0, 2 * i) / 2.0 - 1.0 / 3.0);
        return t;
    }();
    return table[size_t(k)];
}

/// The sigma of pyramid level k brought back to level 0 by pyrUp (its kernel adds as much as
/// pyrDown's took: 2 (4^k - 1) / 3).
double up_sigma(int k) {
    static const auto table = [] {
        std::array<double, kMaxLevels> t{};
        for (int i = 1; i < kMaxLevels; i++) t[size_t(i)] = std::sqrt(2.0 * (std::ldexp(1.0, 2 * i) - 1.0) / 3.0);
        return t;
    }();
    return table[size_t(k)];
}

/// The sigma, in level-0 pixels, of level k + 1 of a pyramid whose base is level 1 made of 2x2
/// means, brought back to level 1 by pyrUp and read bilinearly at level 0: the box's 1/4, what
/// pyrDown and pyrUp add between levels 1 and k + 1 (2 (4^(k+1) - 4) / 3), the read's 4/6.
double half_sigma(int k) {
    static const auto table = [] {
        std::array<double, kMaxLevels> t{};
        for (int i = 0; i < kMaxLevels; i++) t[size_t(i)] = std::sqrt(0.25 + 2.0 * (std::ldexp(1.0, 2 * i + 2) - 4.0) / 3.0 + 4.0 / 6.0);
        return t;
    }();
    return table[size_t(k)];
}

/// Below this sigma (luma pixels) a blur is not done: under a quarter of a pixel, it would only
/// soften the picture by rounding (a focus between two depth codes lands here).
constexpr double kSharpSigma = 0.25;

/// The two levels (k, k + 1) and the share t of the upper one that make a Gaussian of `sigma`.
struct LevelBlend {
    int level = 0;
    float upper = 0;
    bool sharp() const { return level == 0 && upper == 0; }
};

LevelBlend blend_for(double sigma, int levels, double (*sigma_of)(int)) {
    if (sigma < kSharpSigma) return {};
    for (int k = 0; k + 1 < levels; k++) {
        const double low = sigma_of(k), high = sigma_of(k + 1);
        if (sigma < high) return {k, float((sigma - low) / (high - low))};
    }
    return {levels - 1, 0};
}

/// How many levels (0...k) a blend to `sigma` reads, as far as the plane allows.
int level_count(double sigma, cv::Size size, double (*sigma_of)(int)) {
    int count = 1;
    while (count < kMaxLevels && sigma_of(count - 1) < sigma && std::min(size.width, size.height) >> count >= 1) count++;
    return count;
}

/// A Gaussian pyramid of one float plane; at() reads a level bilinearly at level-0 coordinates.
struct Pyramid {
    std::vector<cv::Mat> levels;

    void build(const cv::Mat &base, int count) {
        levels.resize(size_t(count));
        levels[0] = base;
        for (int k = 1; k < count; k++) cv::pyrDown(levels[size_t(k - 1)], levels[size_t(k)]);
    }

    float at(int k, float x, float y) const {
        const cv::Mat &m = levels[size_t(k)];
        const float scale = 1.0f / float(1 << k);
        // Level k's pixel i is centred on level 0's pixel 2^k * i (pyrDown keeps even samples).
        const float u = std::min(std::max(x * scale, 0.0f), float(m.cols - 1));
        const float v = std::min(std::max(y * scale, 0.0f), float(m.rows - 1));
        const int i = int(u), j = int(v), i1 = std::min(i + 1, m.cols - 1), j1 = std::min(j + 1, m.rows - 1);
        const float fu = u - float(i), fv = v - float(j);
        const float *r0 = m.ptr<float>(j), *r1 = m.ptr<float>(j1);
        const float top = r0[i] + (r0[i1] - r0[i]) * fu, bottom = r1[i] + (r1[i1] - r1[i]) * fu;
        return top + (bottom - top) * fv;
    }

    float blurred(const LevelBlend &b, float x, float y) const {
        const float low = at(b.level, x, y);
        return b.upper > 0 ? low + (at(b.level + 1, x, y) - low) * b.upper : low;
    }
};

/// Everything one plane's rendering needs; kept between pictures so buffers are reused.
struct PlaneWork {
    Pyramid all, weighted, weights;
    cv::Mat src, cover, weight, product, back, result;
    std::vector<cv::Mat> chain_low, chain_high;
    /// The half-size path: level 1 of the picture, of its product with the weight and of the
    /// weight; the blurred background at level 1.
    cv::Mat half_all, half_weighted, half_weights, half_back;
};

/// A bilinear read along one axis, as cv::resize's INTER_LINEAR reads: for each output index,
/// the two source indices and the share of the second (source index = (i + 0.5) * ratio - 0.5,
/// clamped).
struct Taps {
    std::vector<int> lo, hi;
    std::vector<float> t;

    void make(int count, int source, double ratio) {
        lo.resize(size_t(count));
        hi.resize(size_t(count));
        t.resize(size_t(count));
        for (int i = 0; i < count; i++) {
            const double u = std::min(std::max((i + 0.5) * ratio - 0.5, 0.0), double(source - 1));
            lo[size_t(i)] = int(u);
            hi[size_t(i)] = std::min(lo[size_t(i)] + 1, source - 1);
            t[size_t(i)] = float(u - lo[size_t(i)]);
        }
    }
};

/// How much steeper an in-focus subject's edge is drawn at full size than the cells' matte read
/// bilinearly gives it: twice, about its middle (clamped to 0...1). A cell is 4 luma pixels (2
/// chroma), so the bilinear read alone ramps a cell-wide edge over 4 px and more, and the
/// blurred background shows through the subject's own edge: the top 10 px inside a person's
/// hair kept 0.76 of their detail, 0.87 steepened, where a perfect alpha gives 0.89
/// (bench/cinematic-quality.sh's crown; the sharp fringe outside stays under 1 px).
constexpr float kCoverSteepness = 2.0f;

/// A plane's cover: how much an in-focus subject covers each pixel, read from the cells' matte
/// bilinearly (`x`, `y`: the taps) with its edge steepened by kCoverSteepness. Most of a picture
/// is background: a steepened cover is 0 wherever the four cells read are all at most
/// `kCoverSteepness`'s floor (0.25 at steepness 2), so each row of cells keeps the span of its
/// columns above that floor, and a pixel row is read only over the pixels its spans reach.
struct Cover {
    const cv::Mat &cells;
    Taps x, y;
    /// Per row of cells: the first and one past the last column above the floor (equal: none).
    std::vector<int> first, end;

    Cover(const cv::Mat &cells, cv::Size size) : cells(cells) {
        x.make(size.width, cells.cols, double(cells.cols) / size.width);
        y.make(size.height, cells.rows, double(cells.rows) / size.height);
        const float floor = 0.5f - 0.5f / kCoverSteepness;
        first.assign(size_t(cells.rows), 0);
        end.assign(size_t(cells.rows), 0);
        for (int j = 0; j < cells.rows; j++) {
            const float *row = cells.ptr<float>(j);
            int a = 0, b = cells.cols;
            while (a < b && row[a] <= floor) a++;
            while (b > a && row[b - 1] <= floor) b--;
            first[size_t(j)] = a;
            end[size_t(j)] = b;
        }
    }

    /// The pixels of row `py` whose cover may be above 0: [from, to) (empty: from == to).
    std::pair<int, int> reach(int py) const {
        const size_t j0 = size_t(y.lo[size_t(py)]), j1 = size_t(y.hi[size_t(py)]);
        const bool none0 = first[j0] == end[j0], none1 = first[j1] == end[j1];
        if (none0 && none1) return {0, 0};
        const int a = none0 ? first[j1] : none1 ? first[j0] : std::min(first[j0], first[j1]);
        const int b = none0 ? end[j1] : none1 ? end[j0] : std::max(end[j0], end[j1]);
        // A pixel reads cells lo..hi (non-decreasing along the row): the first whose hi reaches
        // column a, up to the last whose lo is before b.
        const int from = int(std::lower_bound(x.hi.begin(), x.hi.end(), a) - x.hi.begin());
        const int to = int(std::lower_bound(x.lo.begin(), x.lo.end(), b) - x.lo.begin());
        return {from, std::max(from, to)};
    }

    /// Row `py` of the cover into `out` over [from, to) (``reach``; `out` elsewhere is not
    /// written); `line` holds one row of cells.
    void row(int py, std::pair<int, int> span, float *line, float *out) const {
        if (span.first == span.second) return;
        const float *a = cells.ptr<float>(y.lo[size_t(py)]), *b = cells.ptr<float>(y.hi[size_t(py)]);
        const float v = y.t[size_t(py)];
        const int c0 = x.lo[size_t(span.first)], c1 = x.hi[size_t(span.second - 1)] + 1;
        for (int c = c0; c < c1; c++) line[c] = a[c] + (b[c] - a[c]) * v;
        for (int i = span.first; i < span.second; i++) {
            const float t = x.t[size_t(i)], value = line[x.lo[size_t(i)]] + (line[x.hi[size_t(i)]] - line[x.lo[size_t(i)]]) * t;
            out[i] = std::min(std::max((value - 0.5f) * kCoverSteepness + 0.5f, 0.0f), 1.0f);
        }
    }
};

struct Settings {
    float focus, per_dioptre, max_radius, step;
};

}  // namespace

struct cvision_bokeh {
    std::array<PlaneWork, 3> planes;
    Pyramid matte;
    cv::Mat matte_base, cell_sigma, cell_matte;
    /// Per row of cells: whether a blurred subject shows in it; the largest subject sigma shown.
    std::vector<uint8_t> blurred_rows;
    double subject_sigma = 0;
    /// Whether a cell of a near subject (not the background's depth) is out of focus; when none
    /// is, the background's cells near an in-focus subject are only the background.
    bool subject_blurred = false;
};

namespace {

/// Per cell of the map: the near subject's blur sigma (in luma pixels) and its matte blurred by
/// that sigma (both read back bilinearly by the planes). The blurred mattes are made only when a
/// near subject is out of focus: the usual picture needs neither them nor the rows they show in.
void prepare_cells(cvision_bokeh &r, const cvision_layers &layers, const Settings &s, double luma_per_cell) {
    const cv::Size cells(layers.width, layers.height);
    cv::Mat(cells, CV_8UC1, const_cast<uint8_t *>(layers.matte)).convertTo(r.matte_base, CV_32F, 1.0 / 255);
    const int count = level_count(s.max_radius / 2 / luma_per_cell, cells, read_sigma);
    r.matte.build(r.matte_base, count);
    r.cell_sigma.create(cells, CV_32F);
    r.cell_matte.create(cells, CV_32F);
    r.blurred_rows.assign(size_t(cells.height), 0);
    r.subject_sigma = 0;
    r.subject_blurred = false;
    // First the sigmas, and whether a near subject's cell is blurred where its matte shows.
    for (int y = 0; y < cells.height; y++) {
        const uint8_t *depth = layers.depth + size_t(y) * size_t(cells.width);
        float *sigma = r.cell_sigma.ptr<float>(y);
        for (int x = 0; x < cells.width; x++) {
            const float radius = std::min(s.per_dioptre * std::fabs(float(depth[x]) * s.step - s.focus), s.max_radius);
            sigma[x] = radius / 2;
            if (!r.subject_blurred && depth[x] != layers.background && sigma[x] >= kSharpSigma
                && r.matte.blurred(blend_for(sigma[x] / luma_per_cell, count, read_sigma), float(x), float(y)) >= 1.0f / 512) {
                r.subject_blurred = true;
            }
        }
    }
    if (!r.subject_blurred) return;
    for (int y = 0; y < cells.height; y++) {
        const float *sigma = r.cell_sigma.ptr<float>(y);
        float *matte = r.cell_matte.ptr<float>(y);
        for (int x = 0; x < cells.width; x++) {
            matte[x] = r.matte.blurred(blend_for(sigma[x] / luma_per_cell, count, read_sigma), float(x), float(y));
            if (matte[x] >= 1.0f / 512 && sigma[x] >= kSharpSigma) {
                r.blurred_rows[size_t(y)] = 1;
                r.subject_sigma = std::max(r.subject_sigma, double(sigma[x]));
            }
        }
    }
}

/// Level `k` of the background (the picture weighted by 1 - matte, normalized; the plain
/// picture where nothing of the background is near) brought back to level 0 by pyrUp.
const cv::Mat &background_level(PlaneWork &w, int k, std::vector<cv::Mat> &chain) {
    chain.resize(size_t(k) + 1);
    const float eps = 1e-3f;
    chain[size_t(k)] = (w.weighted.levels[size_t(k)] + eps * w.all.levels[size_t(k)]) / (w.weights.levels[size_t(k)] + eps);
    for (int j = k; j > 0; j--) cv::pyrUp(chain[size_t(j)], chain[size_t(j - 1)], w.all.levels[size_t(j - 1)].size());
    return chain[0];
}

/// The blurred background at level 0: the picture itself when the background is in focus.
const cv::Mat &background(PlaneWork &w, const LevelBlend &back) {
    if (back.sharp()) return w.src;
    const cv::Mat &low = background_level(w, back.level, w.chain_low);
    if (back.upper <= 0) return low;
    const cv::Mat &high = background_level(w, back.level + 1, w.chain_high);
    cv::addWeighted(low, 1.0 - back.upper, high, back.upper, 0, w.back);
    return w.back;
}

/// Where a near subject is out of focus: the subject premultiplied by its matte, blurred by its
/// own sigma, over what is behind it (seen through the blurred matte's gaps), as a lens blurs a
/// foreground. Overwrites those pixels of `w.result`.
void blur_subjects(const cvision_bokeh &r, PlaneWork &w, const cv::Mat &back, bool sharp_background, double scale,
                   int count, const cvision_layers &layers) {
    const cv::Size size = w.src.size();
    const float cell_x = float(layers.width) / float(size.width), cell_y = float(layers.height) / float(size.height);
    cv::parallel_for_(cv::Range(0, size.height), [&](const cv::Range &rows) {
        for (int y = rows.start; y < rows.end; y++) {
            const float cy = std::min(std::max((float(y) + 0.5f) * cell_y - 0.5f, 0.0f), float(layers.height - 1));
            const int j = int(cy), j1 = std::min(j + 1, layers.height - 1);
            if (!r.blurred_rows[size_t(j)] && !r.blurred_rows[size_t(j1)]) continue;
            const float fy = cy - float(j);
            const float *s0 = r.cell_sigma.ptr<float>(j), *s1 = r.cell_sigma.ptr<float>(j1);
            const float *m0 = r.cell_matte.ptr<float>(j), *m1 = r.cell_matte.ptr<float>(j1);
            const float *src = w.src.ptr<float>(y), *weight = w.weight.ptr<float>(y), *behind_row = back.ptr<float>(y);
            float *dst = w.result.ptr<float>(y);
            for (int x = 0; x < size.width; x++) {
                const float cx = std::min(std::max((float(x) + 0.5f) * cell_x - 0.5f, 0.0f), float(layers.width - 1));
                const int i = int(cx), i1 = std::min(i + 1, layers.width - 1);
                const float fx = cx - float(i);
                auto lerp2 = [&](const float *a, const float *b) {
                    const float top = a[i] + (a[i1] - a[i]) * fx, bottom = b[i] + (b[i1] - b[i]) * fx;
                    return top + (bottom - top) * fy;
                };
                if (lerp2(m0, m1) < 1.0f / 512) continue;
                const float sigma = lerp2(s0, s1) * float(scale);
                if (sigma < kSharpSigma) continue;
                const LevelBlend b = blend_for(sigma, count, read_sigma);
                const float fxp = float(x), fyp = float(y);
                const float all = w.all.blurred(b, fxp, fyp), weighted = w.weighted.blurred(b, fxp, fyp);
                const float uncovered = w.weights.blurred(b, fxp, fyp);
                float behind = behind_row[x];
                if (sharp_background && weight[x] < 1) {
                    // Behind the subject the picture has no background: fill it from around.
                    const float fill = (weighted + 1e-3f * all) / (uncovered + 1e-3f);
                    behind = weight[x] * src[x] + (1 - weight[x]) * fill;
                }
                dst[x] = (all - weighted) + uncovered * behind;
            }
        }
    });
}

/// `v` to the nearest byte, clamped (halves round up; plain arithmetic, so the loops vectorize).
inline uint8_t to_byte(float v) {
    return uint8_t(std::min(std::max(v + 0.5f, 0.0f), 255.0f));
}

/// Level 1 of `in`, of `in` times the background's weight (1 - the cover) and of the weight:
/// the means of 2x2 blocks, into `w`'s half planes. Where neither row is covered the weight is 1.
void halve(const cv::Mat &in, const Cover &cover, PlaneWork &w) {
    const cv::Size size = in.size(), half((size.width + 1) / 2, (size.height + 1) / 2);
    w.half_all.create(half, CV_32F);
    w.half_weighted.create(half, CV_32F);
    w.half_weights.create(half, CV_32F);
    cv::parallel_for_(cv::Range(0, half.height), [&](const cv::Range &rows) {
        std::vector<float> covers(size_t(size.width) * 2), line(size_t(cover.cells.cols));
        float *ca = covers.data(), *cb = covers.data() + size.width;
        for (int j = rows.start; j < rows.end; j++) {
            const int y0 = 2 * j, y1 = std::min(2 * j + 1, size.height - 1);
            const std::pair<int, int> s0 = cover.reach(y0), s1 = cover.reach(y1);
            cover.row(y0, s0, line.data(), ca);
            cover.row(y1, s1, line.data(), cb);
            // The half pixels either row's cover reaches; over them, a row's cover is 0 outside
            // its own span.
            const int from = std::min(s0.first == s0.second ? size.width : s0.first, s1.first == s1.second ? size.width : s1.first);
            const int to = std::max(s0.second, s1.second);
            const int i0 = std::min(from, to) / 2, i1 = std::min((to + 1) / 2, half.width), lo = 2 * i0, hi = std::min(2 * i1, size.width);
            auto clear = [&](float *c, std::pair<int, int> span) {
                std::fill(c + lo, c + std::max(lo, std::min(span.first, hi)), 0.0f);
                std::fill(c + std::min(std::max(lo, span.second), hi), c + hi, 0.0f);
            };
            clear(ca, s0);
            clear(cb, s1);
            const uint8_t *a = in.ptr<uint8_t>(y0), *b = in.ptr<uint8_t>(y1);
            float *all = w.half_all.ptr<float>(j), *weighted = w.half_weighted.ptr<float>(j), *weights = w.half_weights.ptr<float>(j);
            auto plain = [&](int start, int stop) {
                for (int i = start; i < stop; i++) {
                    const int x0 = 2 * i, x1 = std::min(2 * i + 1, size.width - 1);
                    all[i] = 0.25f * (float(a[x0]) + float(a[x1]) + float(b[x0]) + float(b[x1]));
                    weighted[i] = all[i];
                    weights[i] = 1;
                }
            };
            plain(0, i0);
            for (int i = i0; i < i1; i++) {
                const int x0 = 2 * i, x1 = std::min(2 * i + 1, size.width - 1);
                const float p0 = a[x0], p1 = a[x1], p2 = b[x0], p3 = b[x1];
                const float w0 = 1 - ca[x0], w1 = 1 - ca[x1], w2 = 1 - cb[x0], w3 = 1 - cb[x1];
                all[i] = 0.25f * (p0 + p1 + p2 + p3);
                weighted[i] = 0.25f * (p0 * w0 + p1 * w1 + p2 * w2 + p3 * w3);
                weights[i] = 0.25f * (w0 + w1 + w2 + w3);
            }
            plain(std::max(i0, i1), half.width);
        }
    });
}

/// `in` laid over `back` (the background at level 1, read bilinearly) by the cover, to bytes in
/// `out` (which may be `in`: each pixel is read before it is written). Where the cover is 0 the
/// background alone.
void lay_over(const cv::Mat &in, const Cover &cover, const cv::Mat &back, cv::Mat out) {
    const cv::Size size = in.size();
    const int half_width = back.cols;
    // Level 1's pixel i is centred between level 0's 2i and 2i + 1: level 0's 2i reads it at
    // i - 1/4, 2i + 1 at i + 1/4.
    Taps back_y;
    back_y.make(size.height, back.rows, 0.5);
    cv::parallel_for_(cv::Range(0, size.height), [&](const cv::Range &rows) {
        std::vector<float> covers(size_t(size.width)), line(size_t(cover.cells.cols)), behind(size_t(half_width) + 2);
        std::vector<float> upsampled(size_t(size.width));
        for (int y = rows.start; y < rows.end; y++) {
            const std::pair<int, int> span = cover.reach(y);
            cover.row(y, span, line.data(), covers.data());
            // The background's row at level 1, one clamped pixel each side, then at level 0.
            const float *a = back.ptr<float>(back_y.lo[size_t(y)]), *b = back.ptr<float>(back_y.hi[size_t(y)]);
            const float v = back_y.t[size_t(y)];
            float *h = behind.data() + 1, *up = upsampled.data();
            for (int i = 0; i < half_width; i++) h[i] = a[i] + (b[i] - a[i]) * v;
            h[-1] = h[0];
            h[half_width] = h[half_width - 1];
            for (int i = 0; i < size.width / 2; i++) {
                up[2 * i] = 0.25f * h[i - 1] + 0.75f * h[i];
                up[2 * i + 1] = 0.75f * h[i] + 0.25f * h[i + 1];
            }
            if (size.width % 2 == 1) up[size.width - 1] = 0.25f * h[size.width / 2 - 1] + 0.75f * h[size.width / 2];
            const uint8_t *src = in.ptr<uint8_t>(y);
            uint8_t *dst = out.ptr<uint8_t>(y);
            const float *c = covers.data();
            for (int x = 0; x < span.first; x++) dst[x] = to_byte(up[x]);
            for (int x = span.first; x < span.second; x++) dst[x] = to_byte(up[x] + (float(src[x]) - up[x]) * c[x]);
            for (int x = span.second; x < size.width; x++) dst[x] = to_byte(up[x]);
        }
    });
}

/// The usual picture — every near subject in focus, the background blurred — rendered with the
/// background at half size: level 1 (``halve``) starts the pyramids, the normalized background
/// comes back to level 1, and one pass at full size lays the picture over it by the matte
/// (``lay_over``). The blur is low-frequency: nothing of it is lost, and the full-size float
/// planes of the general path (its pyramids' first levels, its pyrUp to level 0, the composite)
/// are not made. False, with nothing done, when the background's blur is under what level 2
/// gives (about 3 px: a blend of level 1, sharper, and level 2 would not be a Gaussian between
/// them).
bool render_half(cvision_bokeh &r, PlaneWork &w, const cv::Mat &in, cv::Mat out, double scale, const cvision_layers &layers,
                 const Settings &s) {
    const float background_radius = std::min(s.per_dioptre * std::fabs(float(layers.background) * s.step - s.focus), s.max_radius);
    const double sigma = background_radius / 2 * scale;
    if (r.subject_blurred || sigma < half_sigma(1)) return false;
    const cv::Size size = in.size();
    const Cover cover(r.matte_base, size);
    halve(in, cover, w);
    const int levels = level_count(s.max_radius / 2 * scale, w.half_all.size(), half_sigma);
    const LevelBlend back = blend_for(sigma, levels, half_sigma);
    const int count = back.level + (back.upper > 0 ? 2 : 1);
    w.all.build(w.half_all, count);
    w.weighted.build(w.half_weighted, count);
    w.weights.build(w.half_weights, count);
    const cv::Mat &low = background_level(w, back.level, w.chain_low);
    if (back.upper > 0) cv::addWeighted(low, 1.0 - back.upper, background_level(w, back.level + 1, w.chain_high), back.upper, 0, w.half_back);
    else low.copyTo(w.half_back);
    lay_over(in, cover, w.half_back, out);
    return true;
}

/// Renders one plane (`scale`: the plane's pixels per luma pixel) into `out`.
void render_plane(cvision_bokeh &r, PlaneWork &w, const cv::Mat &in, cv::Mat out, double scale,
                  const cvision_layers &layers, const Settings &s) {
    if (render_half(r, w, in, out, scale, layers, s)) return;
    const cv::Size size = in.size();
    in.convertTo(w.src, CV_32F);
    cv::resize(r.matte_base, w.cover, size, 0, 0, cv::INTER_LINEAR);
    w.cover.convertTo(w.cover, CV_32F, kCoverSteepness, 0.5 * (1 - kCoverSteepness));
    cv::min(cv::max(w.cover, 0.0), 1.0, w.cover);
    const float background_radius = std::min(s.per_dioptre * std::fabs(float(layers.background) * s.step - s.focus), s.max_radius);
    const LevelBlend back = blend_for(background_radius / 2 * scale, level_count(s.max_radius / 2 * scale, size, up_sigma), up_sigma);
    const int subject_count = level_count(r.subject_sigma * scale, size, read_sigma);
    const int count = std::max(back.sharp() ? 1 : back.level + (back.upper > 0 ? 2 : 1), r.subject_sigma > 0 ? subject_count : 1);
    // The background's weight: 1 where no near subject covers the pixel.
    cv::subtract(1.0, w.cover, w.weight);
    if (count > 1) {
        cv::multiply(w.src, w.weight, w.product);
        w.all.build(w.src, count);
        w.weighted.build(w.product, count);
        w.weights.build(w.weight, count);
    }
    const cv::Mat &behind = background(w, back);
    // Subjects in focus: their own pixels over the background by the matte.
    cv::subtract(w.src, behind, w.result);
    cv::multiply(w.result, w.cover, w.result);
    cv::add(w.result, behind, w.result);
    // Only a near subject out of focus spreads (the background's cells by an in-focus one are background).
    if (r.subject_blurred) blur_subjects(r, w, behind, back.sharp(), scale, subject_count, layers);
    w.result.convertTo(out, CV_8U);
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
