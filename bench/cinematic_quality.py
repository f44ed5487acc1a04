#!/usr/bin/env python3
"""The cinematic camera's picture quality on clips whose person is known exactly (run by
bench/cinematic-quality.sh; Debian's python3-numpy and python3-pil, ffmpeg).

make CLIP.mp4 TRUTH.npz --height H --seconds S --speed PX_PER_S [--far FACE_PX]
    The astronaut of Tests/Fixtures/astronaut.png cut out once by bench/cutout.py's hand-made
    outline (ASTRONAUT_OUTER, drawn at 4x and box-reduced: the alpha), 0.9 of the picture high,
    standing on the bottom edge, composited over a still fine texture (value noise at three
    scales and pixel noise: every frequency) and moving sideways (a sine whose peak speed is
    PX_PER_S; 0: still), with a little sensor noise on every picture; H.264 CRF 16. TRUTH holds
    the alpha on the person's own square and its offset per picture.
    With --far, a second, small copy of the person stands still at the top right, its face
    FACE_PX wide (about what CenterFace at 320 finds now and then): a static subject whose id
    must hold.

score TRUTH.npz PLAIN.mp4 OUT.mp4
    Per picture, the band-pass detail (a 3x3 box minus a 7x7 box, squared) of OUT against PLAIN
    (the source re-encoded as OUT is: H.264 CRF 20 veryfast) where the truth says:
      face        the face's middle (eyes, nose, mouth): what the focus is on; goal >= 0.8
      background  16 px and more outside the person; goal <= 0.3
      fringe      outside the person by 1..12 px: the width (px) out to which the detail kept
                  stays >= 0.5 (sharp background beside the person); goal <= 2
      crown       the top 10 px inside the hair's edge: the detail kept (the matte missing it
                  blurs it); goal >= 0.8
      flicker     the spread over pictures of the detail kept 2..6 px outside (shimmer and
                  its slow swing with the sway's phase together)
      jitter      the mean change of that detail from one picture to the next (shimmer alone)
    Prints one JSON line.

ids TRUTH.npz SIDECAR
    The subjects an editable run recorded (`reel cinematic --editable`: OUT.mp4.cinematic), per
    picture: whether a face was reported on the near person's head and on the far one's (its
    centre inside the head), and how many ids each had over the clip (1: the id held; a static
    subject must keep one). Prints one JSON line.
"""
import json
import os
import subprocess
import sys

import numpy as np
from PIL import Image, ImageDraw

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from cutout import ASTRONAUT_OUTER, ASTRONAUT_TOP  # noqa: E402  (the hand-made outline)

PHOTO = os.path.join(HERE, "..", "Tests", "Fixtures", "astronaut.png")
# The face's middle and the hair's top in the photo's 512 px (eyes, nose and mouth; the crown).
FACE = (190, 95, 255, 165)
HAIR = (150, 10, 305, 70)
# The head (hair to chin) and the face's width (cheek to cheek), in the photo's 512 px.
HEAD = (150, 10, 305, 200)
FACE_WIDTH = 85


def person_square(height):
    """The person's RGB (float 0..1) and alpha on its own square, 0.9 of `height` high."""
    side = round(0.9 * height * 512 / (512 - ASTRONAUT_TOP))
    photo = Image.open(PHOTO).convert("RGB").resize((side, side), Image.LANCZOS)
    ss, s = 4, side / 512
    m = Image.new("L", (side * ss, side * ss), 0)
    ImageDraw.Draw(m).polygon([(x * s * ss, y * s * ss) for x, y in ASTRONAUT_OUTER], fill=255)
    alpha = np.asarray(m.resize((side, side), Image.BOX), np.float32) / 255
    return np.asarray(photo, np.float32) / 255, alpha, s


def texture(width, height, rng):
    def noise(cell):
        gw, gh = int(width / cell) + 3, int(height / cell) + 3
        grid = Image.fromarray(rng.random((gh, gw), dtype=np.float32), mode="F")
        return np.asarray(grid.resize((int(gw * cell), int(gh * cell)), Image.BICUBIC), np.float32)[:height, :width]
    base = 0.45 * noise(48) + 0.3 * noise(9) + 0.25 * noise(2.5) + rng.normal(0, 0.06, (height, width)).astype(np.float32)
    tint = np.array([0.55, 0.65, 0.8], np.float32)
    return np.clip(base[..., None] * tint * 1.3, 0, 1)


def offsets(frames, fps, width, side, speed):
    """The person's left edge per picture: centred, swaying by a sine of peak speed `speed`."""
    period = 4.0
    amplitude = speed * period / (2 * np.pi)
    centre = width / 2 - side / 2
    return [int(round(centre + amplitude * np.sin(2 * np.pi * i / fps / period))) for i in range(frames)]


def far_person(back, far):
    """`back` with the person standing still at the top right, its face `far` px wide; the
    head's box in the picture (x0, y0, x1, y1, px)."""
    height, width = back.shape[:2]
    side = round(512 * far / FACE_WIDTH)
    photo = Image.open(PHOTO).convert("RGB").resize((side, side), Image.LANCZOS)
    s, ss = side / 512, 4
    m = Image.new("L", (side * ss, side * ss), 0)
    ImageDraw.Draw(m).polygon([(x * s * ss, y * s * ss) for x, y in ASTRONAUT_OUTER], fill=255)
    alpha = np.asarray(m.resize((side, side), Image.BOX), np.float32)[..., None] / 255
    x0, y0 = width - side - height // 24, height // 24
    x1, y1 = x0 + side, min(height, y0 + side)
    rgb = np.asarray(photo, np.float32)[: y1 - y0] / 255
    back[y0:y1, x0:x1] = back[y0:y1, x0:x1] * (1 - alpha[: y1 - y0]) + rgb * alpha[: y1 - y0]
    return tuple(round(v) for v in (x0 + HEAD[0] * s, y0 + HEAD[1] * s, x0 + HEAD[2] * s, y0 + HEAD[3] * s))


def make(clip, truth, height, seconds, speed, far=0):
    width, fps = height * 16 // 9, 30
    rng = np.random.default_rng(7)
    rgb, alpha, _ = person_square(height)
    side = alpha.shape[0]
    back = texture(width, height, rng)
    far_head = far_person(back, far) if far > 0 else (0, 0, 0, 0)
    frames = int(seconds * fps)
    xs = offsets(frames, fps, width, side, speed)
    oy = height - side
    encoder = subprocess.Popen(["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24",
                                "-s", f"{width}x{height}", "-r", str(fps), "-i", "-", "-c:v", "libx264", "-crf", "16",
                                "-preset", "veryfast", "-pix_fmt", "yuv420p", clip], stdin=subprocess.PIPE)
    for ox in xs:
        img = back.copy()
        x0, x1 = max(0, ox), min(width, ox + side)
        a = alpha[:, x0 - ox:x1 - ox, None]
        img[oy:, x0:x1] = img[oy:, x0:x1] * (1 - a) + rgb[:, x0 - ox:x1 - ox] * a
        img += rng.normal(0, 0.01, img.shape).astype(np.float32)
        encoder.stdin.write((np.clip(img, 0, 1) * 255 + 0.5).astype(np.uint8).tobytes())
    encoder.stdin.close()
    if encoder.wait() != 0:
        sys.exit("cinematic_quality: ffmpeg could not encode the clip")
    np.savez_compressed(truth, alpha=alpha, xs=np.array(xs), oy=oy, width=width, height=height, scale=side / 512,
                        far_head=np.array(far_head), fps=fps)


def frames_of(path, width, height):
    decoder = subprocess.Popen(["ffmpeg", "-nostdin", "-loglevel", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "gray", "-"],
                               stdout=subprocess.PIPE)
    size = width * height
    while True:
        data = decoder.stdout.read(size)
        if len(data) < size:
            break
        yield np.frombuffer(data, np.uint8).reshape(height, width).astype(np.float32)
    decoder.wait()


def box(img, r):
    """The mean over a (2r+1)^2 box (edges clamped), by running sums."""
    p = np.pad(img, r + 1, mode="edge")
    c = p.cumsum(0).cumsum(1)
    n = 2 * r + 1
    s = c[n:, n:] - c[:-n, n:] - c[n:, :-n] + c[:-n, :-n]
    return s[:img.shape[0], :img.shape[1]] / (n * n)


def detail(img):
    band = box(img, 1) - box(img, 3)
    return band * band


def rings(alpha, steps):
    """Rings outside the person (1..steps px: chessboard distance from alpha >= 0.02) and the
    region 16 px and more outside, on the person's square grown by `steps` + 16 each side."""
    margin = 16 + steps
    inside = np.pad(alpha >= 0.02, margin)
    grown, out = inside.copy(), []
    for _ in range(max(steps, 16)):
        g = grown.copy()
        g[1:] |= grown[:-1]; g[:-1] |= grown[1:]
        g[:, 1:] |= grown[:, :-1]; g[:, :-1] |= grown[:, 1:]
        g[1:, 1:] |= grown[:-1, :-1]; g[:-1, :-1] |= grown[1:, 1:]
        g[1:, :-1] |= grown[:-1, 1:]; g[:-1, 1:] |= grown[1:, :-1]
        out.append(g & ~grown)
        grown = g
    return out[:steps], ~grown, margin


def crown(alpha, scale, depth=10):
    """The top `depth` px inside the hair's edge (alpha >= 0.98 and within `depth` of its outside)."""
    solid = alpha >= 0.98
    eroded = solid.copy()
    for _ in range(depth):
        e = eroded.copy()
        e[1:] &= eroded[:-1]; e[:-1] &= eroded[1:]; e[:, 1:] &= eroded[:, :-1]; e[:, :-1] &= eroded[:, 1:]
        eroded = e
    band = solid & ~eroded
    x0, y0, x1, y1 = (round(v * scale) for v in HAIR)
    keep = np.zeros_like(band)
    keep[y0:y1, x0:x1] = True
    return band & keep


def score(truth, plain, out):
    t = np.load(truth)
    alpha, xs, oy, width, height, scale = t["alpha"], t["xs"], int(t["oy"]), int(t["width"]), int(t["height"]), float(t["scale"])
    steps = 12
    ring_masks, far_square, margin = rings(alpha, steps)
    top = crown(alpha, scale)
    fx0, fy0, fx1, fy1 = (round(v * scale) for v in FACE)
    sums = {"face": [0.0, 0.0], "background": [0.0, 0.0], "crown": [0.0, 0.0]}
    ring_sums = np.zeros((steps, 2))
    per_frame_fringe = []
    pictures = 0
    for i, (p, o) in enumerate(zip(frames_of(plain, width, height), frames_of(out, width, height))):
        if i >= len(xs):
            break
        dp, do = detail(p), detail(o)
        ox = int(xs[i])
        # The person's square grown by the margin, placed in the picture (clipped).
        gx0, gy0 = ox - margin, oy - margin
        h, w = far_square.shape
        px0, py0, px1, py1 = max(0, gx0), max(0, gy0), min(width, gx0 + w), min(height, gy0 + h)
        sx, sy = px0 - gx0, py0 - gy0
        view_p, view_o = dp[py0:py1, px0:px1], do[py0:py1, px0:px1]
        cut = (slice(sy, sy + py1 - py0), slice(sx, sx + px1 - px0))
        near = np.zeros((height, width), bool)
        near[py0:py1, px0:px1] = ~far_square[cut]
        far = ~near
        sums["background"][0] += do[far].sum(); sums["background"][1] += dp[far].sum()
        kept_frame = []
        for k, ring in enumerate(ring_masks):
            m = ring[cut]
            a, b = view_o[m].sum(), view_p[m].sum()
            ring_sums[k] += (a, b)
            if 1 <= k <= 5:
                kept_frame.append(a / max(b, 1e-9))
        per_frame_fringe.append(float(np.mean(kept_frame)))
        face = (slice(oy + fy0, oy + fy1), slice(max(0, ox + fx0), min(width, ox + fx1)))
        sums["face"][0] += do[face].sum(); sums["face"][1] += dp[face].sum()
        cy, cx = np.nonzero(top)
        keep = (cx + ox >= 0) & (cx + ox < width)
        sums["crown"][0] += do[cy[keep] + oy, cx[keep] + ox].sum(); sums["crown"][1] += dp[cy[keep] + oy, cx[keep] + ox].sum()
        pictures += 1
    ratio = {k: v[0] / max(v[1], 1e-9) for k, v in sums.items()}
    kept = ring_sums[:, 0] / np.maximum(ring_sums[:, 1], 1e-9)
    fringe = 0
    while fringe < steps and kept[fringe] >= 0.5:
        fringe += 1
    print(json.dumps({"pictures": pictures, "face": round(ratio["face"], 3), "background": round(ratio["background"], 3),
                      "fringe_px": fringe, "kept_by_px": [round(float(v), 2) for v in kept],
                      "crown": round(ratio["crown"], 3), "flicker": round(float(np.std(per_frame_fringe)), 3),
                      "jitter": round(float(np.mean(np.abs(np.diff(per_frame_fringe)))) if pictures > 1 else 0.0, 3)}))


def sidecar_records(path):
    """The JSON records of a cinematic sidecar (docs/cinematic.md: a magic line, a header line,
    then per picture a 4-byte length and JSON, a 4-byte length and the layer map; a length of
    0xFFFFFFFF starts the video's identity)."""
    with open(path, "rb") as f:
        data = f.read()
    at = data.index(b"\n", data.index(b"\n") + 1) + 1
    records = []
    while at + 4 <= len(data):
        length = int.from_bytes(data[at:at + 4], "big")
        if length == 0xFFFFFFFF or at + 4 + length + 4 > len(data):
            break
        records.append(json.loads(data[at + 4:at + 4 + length]))
        at += 4 + length
        at += 4 + int.from_bytes(data[at:at + 4], "big")
    return records


def ids(truth, sidecar):
    t = np.load(truth)
    xs, oy, width, height, scale = t["xs"], int(t["oy"]), int(t["width"]), int(t["height"]), float(t["scale"])
    fps, far = int(t["fps"]), [float(v) for v in t["far_head"]]
    heads = {"near": [], "far": []}
    records = sidecar_records(sidecar)
    first = records[0]["ticks"] if records else 0
    for record in records:
        i = round((record["ticks"] - first) * fps / 90000)
        if i >= len(xs):
            break
        near = (xs[i] + HEAD[0] * scale, oy + HEAD[1] * scale, xs[i] + HEAD[2] * scale, oy + HEAD[3] * scale)
        for name, (x0, y0, x1, y1) in (("near", near), ("far", far)):
            if x1 <= x0:
                continue
            on = [s["id"] for s in record["subjects"] if s["kind"] == "face"
                  and x0 <= (s["x"] + s["width"] / 2) * width <= x1 and y0 <= (s["y"] + s["height"] / 2) * height <= y1]
            heads[name].append(on[0] if on else None)
    out = {"pictures": len(records)}
    for name, seen in heads.items():
        if not seen:
            continue
        found = [v for v in seen if v is not None]
        out[name + "_found"] = round(len(found) / len(seen), 3)
        out[name + "_ids"] = len(set(found))
    print(json.dumps(out))


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "make":
        clip, truth = sys.argv[2], sys.argv[3]
        options = dict(zip(sys.argv[4::2], sys.argv[5::2]))
        make(clip, truth, int(options.get("--height", 720)), float(options.get("--seconds", 8)), float(options.get("--speed", 300)),
             float(options.get("--far", 0)))
    elif len(sys.argv) == 5 and sys.argv[1] == "score":
        score(*sys.argv[2:5])
    elif len(sys.argv) == 4 and sys.argv[1] == "ids":
        ids(*sys.argv[2:4])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
