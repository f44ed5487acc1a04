#!/usr/bin/env python3
"""The pictures, the two peers and the figures of bench/cutout.sh (read its header first).

    cutout.py run JSON                        makes the pictures, runs Reel and the peers on each,
                                              prints the result block (the venv's python: numpy,
                                              Pillow, onnxruntime; JSON: the settings cutout.sh
                                              passes: work, reel, photo, model, runs, ...)
    cutout.py make WORK PHOTO                 only the pictures, their truths and manifest.json
    cutout.py grabcut-worker SIDE RECT ITERS  the GrabCut peer (any python with cv2 and numpy:
                                              Debian's python3-opencv)
    cutout.py u2netp-worker MODEL             the u2netp peer (the venv's python)

A worker reads one job a line on stdin ({"path", "tap": [fx, fy], "out", "part"}) and answers one
JSON line on stdout; its first line says it is ready (with its version and load time).
"""
import json
import os
import re
import statistics
import subprocess
import sys
import time

# ---------------------------------------------------------------------------------------------
# The person reference: Tests/Fixtures/astronaut.png (512x512, NASA, public domain).
#
# OUTER is the outline of everything in front of the backdrop: the astronaut (hair, face, neck
# ring, suit, the glove at the bottom) and the helmet she holds, in the photo's pixel
# coordinates (x right, y down; a vertex at 31,512 is on the bottom edge). It was drawn by hand
# on 4x-6x enlargements of the photo with a 10-pixel grid, except the hair above the face
# (y < 110 left, y < 128 right), which follows a colour threshold (red - blue > 30 in 8-bit
# values: the hair is warm, the grey backdrop is not; per 3rd row, the outermost run of three
# such pixels), then checked by cutting the photo out with it over pure green and looking at
# the cut-out and at what was left, enlarged. It is within about 1 pixel of the visible edge
# along the hair, face, ring and shoulders, about 2 pixels along the left arm against the red
# stripes and where the suit meets the dark table at the right, and up to 3 pixels in the
# shadowed lower left corner (suit in shadow against a red stripe). The scored outline is about
# 960 pixels long (the bottom edge and the helmet's surroundings are not scored) around 108,000
# pixels of person: a 1.5-pixel error all round moves an IoU by about 0.013, so the person
# figures are good to about +-0.02, not better.
#
# HELMET is the helmet's outline (the white rim, the black dome, the latch at the right). The
# reference person is OUTER minus HELMET; the helmet, grown by HELMET_MARGIN pixels, is left out
# of the score ("don't care"): whether a cut-out of the astronaut should take the helmet she
# holds is a matter of taste, and its boundary with the suit is the least certain part.
ASTRONAUT_OUTER = [
    (31, 512), (30, 500), (29, 490), (28, 480), (26.7, 470), (24, 460), (23, 450), (22.5, 440), (21.7, 420), (22, 400),
    (22.5, 380), (24, 370), (25, 360), (26, 350), (27.5, 345), (29, 335), (30, 325), (32.5, 315), (35, 305), (41, 295),
    (44, 285), (47.5, 275), (51, 267.5), (56, 257.5), (62.5, 247.5), (70, 240), (80, 232.5), (90, 225), (97, 216),
    (104, 210), (111.7, 206.7), (114, 203), (113, 196.7), (112.5, 190), (115, 185), (122.5, 180), (126, 176.7), (128, 170),
    (133, 163.3), (140, 156.7), (150, 151.7), (161.7, 148.3), (185.5, 148.5), (185, 140), (182, 137), (179, 130),
    (176, 127), (167.5, 120), (161, 110), (162, 109.5), (159, 106.5), (157, 103.5), (156, 100.5), (155, 97.5), (155, 94.5),
    (154, 91.5), (154, 88.5), (153, 85.5), (153, 82.5), (154, 79.5), (153, 76.5), (153, 73.5), (153, 70.5), (154, 67.5),
    (154, 64.5), (155, 61.5), (157, 58.5), (159, 55.5), (162, 52.5), (166, 49.5), (169, 46.5), (174, 43.5), (181, 40.5),
    (189, 37.5), (190, 34.5), (192, 31.5), (195, 28.5), (198, 25.5), (208, 22.5), (219, 19.5), (227, 16.5), (242, 16.5),
    (251, 19.5), (258, 22.5), (264, 25.5), (270, 28.5), (276, 31.5), (280, 34.5), (284, 37.5), (287, 40.5), (289, 43.5),
    (290, 46.5), (292, 49.5), (294, 52.5), (295, 55.5), (296, 58.5), (297, 61.5), (297, 64.5), (298, 67.5), (299, 70.5),
    (300, 73.5), (300, 76.5), (301, 79.5), (301, 82.5), (301, 85.5), (302, 88.5), (301, 91.5), (300, 94.5), (300, 97.5),
    (298, 100.5), (297, 103.5), (297, 106.5), (296, 109.5), (294, 112.5), (293, 115.5), (290, 118.5), (287, 121.5),
    (283, 124.5), (281, 127.5), (280, 128.3), (275, 134), (270, 136), (267.5, 137), (266.7, 143), (264, 151.7), (261, 158),
    (258, 165), (256, 171.7), (255, 174), (261.7, 178.3), (270, 183.3), (285, 192.5), (294, 202.5), (299, 210), (301, 220),
    (304, 230), (305, 232.5), (312, 237.5), (322, 244), (330, 250), (337.5, 257.5), (344, 266), (347.5, 275), (351, 285),
    (355, 295), (359, 305), (361, 317.5), (362.5, 330), (364, 340), (367, 348), (380, 343.5), (397, 341.5), (421, 346.5),
    (446, 358), (467, 373), (480, 389), (489, 401), (493, 410), (495.5, 420), (497.5, 430), (499, 440), (499, 448),
    (503, 457), (505, 467), (508, 480), (511, 490), (512, 512),
]
ASTRONAUT_HELMET = [
    (350, 355), (327, 363), (307, 377), (293, 393), (285, 410), (280, 430), (277, 450), (273, 470), (272, 490), (270, 512),
    (512, 512), (511, 490), (508, 480), (505, 467), (503, 457), (499, 448), (499, 440), (497.5, 430), (495.5, 420),
    (493, 410), (489, 401), (480, 389), (467, 373), (446, 358), (421, 346.5), (397, 341.5), (380, 343.5), (367, 349),
]
HELMET_MARGIN = 4        # source pixels of "don't care" around the helmet
ASTRONAUT_TAP = (200, 320)  # where the person pictures are tapped: the suit's chest, left of the zipper
ASTRONAUT_TOP = 15       # the top of her hair; she is cut by the photo's bottom edge (y = 512)
# Crops of the photo used as background texture: no part of the person in any of them.
TEXTURES = {"flag": (0, 0, 95, 210), "shuttle": (372, 0, 512, 330), "suit": (60, 300, 260, 500)}

U2NETP_MEAN = (0.485, 0.456, 0.406)
U2NETP_STD = (0.229, 0.224, 0.225)
U2NETP_SIDE = 320
TWELVE_MP = 12_000_000


def log(message):
    print(f"cutout: {message}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# Pictures

def make_pictures(work, photo_path):
    """Writes every picture (JPEG, quality 92) and its truth (PNG, L: 255 subject, 0 background,
    128 not scored) into WORK/pictures; returns the manifest."""
    import numpy as np
    from PIL import Image, ImageDraw

    out_dir = os.path.join(work, "pictures")
    os.makedirs(out_dir, exist_ok=True)
    photo = Image.open(photo_path).convert("RGB")
    photo_np = np.asarray(photo, np.float32) / 255

    def supersampled(size, draw, ss=4):
        """Alpha 0..1 (h, w) of a shape that draw(ImageDraw, ss) draws at ss times the size."""
        w, h = size
        m = Image.new("L", (w * ss, h * ss), 0)
        draw(ImageDraw.Draw(m), ss)
        return np.asarray(m.resize((w, h), Image.BOX), np.float32) / 255

    def value_noise(rng, w, h, cell):
        """Smooth noise 0..1 (h, w) with features about CELL pixels across."""
        gw, gh = max(2, int(w / cell) + 3), max(2, int(h / cell) + 3)
        grid = Image.fromarray(rng.random((gh, gw), dtype=np.float32), mode="F")
        big = grid.resize((int(gw * cell), int(gh * cell)), Image.BICUBIC)
        return np.clip(np.asarray(big, np.float32)[:h, :w], 0, 1)

    def grids(w, h):
        return (np.arange(w, dtype=np.float32)[None, :] + 0.5), (np.arange(h, dtype=np.float32)[:, None] + 0.5)

    # --- backgrounds -------------------------------------------------------------------------
    def background(kind, w, h, rng):
        xx, yy = grids(w, h)
        if kind == "plain":
            colour = rng.uniform(0.25, 0.85, 3).astype(np.float32)
            img = np.broadcast_to(colour, (h, w, 3)).copy()
            # the light falls off a little towards the corners, as in a photo
            r2 = ((xx / w - 0.5) ** 2 + (yy / h - 0.5) ** 2)
            img *= (1 - 0.25 * r2)[..., None]
        elif kind == "gradient":
            a, b = rng.uniform(0.1, 0.9, 3), rng.uniform(0.1, 0.9, 3)
            angle = rng.uniform(0, np.pi)
            t = (xx * np.cos(angle) / w + yy * np.sin(angle) / h)
            t = (t - t.min()) / (t.max() - t.min())
            img = a[None, None, :] * (1 - t[..., None]) + b[None, None, :] * t[..., None]
            img = img.astype(np.float32) + 0.06 * (value_noise(rng, w, h, w / 4) - 0.5)[..., None]
        elif kind == "noise":
            img = np.stack([0.55 * value_noise(rng, w, h, w / 40) + 0.35 * value_noise(rng, w, h, w / 9) + 0.1
                            for _ in range(3)], axis=-1)
        elif kind == "stripes":
            colours = rng.uniform(0.05, 0.95, (4, 3)).astype(np.float32)
            period = w / rng.uniform(9, 16)
            angle = rng.uniform(0.3, 1.2)
            u = (xx * np.cos(angle) + yy * np.sin(angle)) / period
            index = np.floor(u).astype(np.int64) % 4
            img = colours[index]
            img = img + 0.04 * (value_noise(rng, w, h, w / 30) - 0.5)[..., None]
        elif kind.startswith("texture:"):
            x0, y0, x1, y1 = TEXTURES[kind.split(":")[1]]
            crop = photo.crop((x0, y0, x1, y1))
            scale = (h / 2.2) / crop.height
            tile = np.asarray(crop.resize((max(1, round(crop.width * scale)), max(1, round(crop.height * scale))),
                                          Image.BICUBIC), np.float32) / 255
            reps_y, reps_x = -(-h // tile.shape[0]) + 1, -(-w // tile.shape[1]) + 1
            # mirrored tiles, so no seams
            row = np.concatenate([tile if i % 2 == 0 else tile[:, ::-1] for i in range(reps_x)], axis=1)
            img = np.concatenate([row if j % 2 == 0 else row[::-1] for j in range(reps_y)], axis=0)
            oy, ox = rng.integers(0, tile.shape[0]), rng.integers(0, tile.shape[1])
            img = img[oy:oy + h, ox:ox + w].copy()
            if img.shape[0] < h or img.shape[1] < w:
                img = np.pad(img, ((0, h - img.shape[0]), (0, w - img.shape[1]), (0, 0)), mode="symmetric")
        else:
            raise ValueError(kind)
        return np.clip(img, 0, 1).astype(np.float32)

    # --- objects: each returns (rgb (h, w, 3), alpha (h, w), tap (x, y) in its box) ------------
    light = np.array([-0.45, -0.55, 0.70], np.float32)
    light /= np.linalg.norm(light)
    half = light + np.array([0, 0, 1], np.float32)
    half /= np.linalg.norm(half)

    def ball(d, rng):
        colour = rng.uniform(0.15, 0.95, 3).astype(np.float32)
        xx, yy = grids(d, d)
        nx, ny = (xx - d / 2) / (d / 2), (yy - d / 2) / (d / 2)
        nz = np.sqrt(np.clip(1 - nx ** 2 - ny ** 2, 0, 1))
        diffuse = np.clip(nx * light[0] + ny * light[1] + nz * light[2], 0, 1)
        spec = np.clip(nx * half[0] + ny * half[1] + nz * half[2], 0, 1) ** 40
        texture = 1 + 0.12 * (value_noise(rng, d, d, d / 14) - 0.5)
        rgb = colour * ((0.22 + 0.78 * diffuse) * texture)[..., None] + 0.55 * spec[..., None]
        alpha = supersampled((d, d), lambda dr, s: dr.ellipse((0, 0, d * s - 1, d * s - 1), fill=255))
        return rgb, alpha, (d / 2, d / 2)

    def box(w, h, rng):
        dark, pale = rng.uniform(0.1, 0.6, 3).astype(np.float32), rng.uniform(0.4, 1.0, 3).astype(np.float32)
        xx, yy = grids(w, h)
        angle, period = rng.uniform(0, np.pi), min(w, h) / rng.uniform(6, 12)
        u = xx * np.cos(angle) + yy * np.sin(angle)
        grain = 0.5 + 0.5 * np.sin(2 * np.pi * u / period + 7 * value_noise(rng, w, h, min(w, h) / 5))
        rgb = dark * (1 - grain[..., None]) + pale * grain[..., None]
        edge = np.minimum(np.minimum(xx, w - xx), np.minimum(yy, h - yy))
        bevel = 0.72 + 0.28 * np.clip(edge / (0.07 * min(w, h)), 0, 1)
        lit = 1.08 - 0.22 * (xx / w + yy / h) / 2
        rgb = rgb * (bevel * lit)[..., None]
        radius = 0.14 * min(w, h)
        alpha = supersampled((w, h), lambda dr, s: dr.rounded_rectangle((0, 0, w * s - 1, h * s - 1), radius=radius * s, fill=255))
        return rgb, alpha, (w / 2, h / 2)

    def star(d, rng):
        a, b = rng.uniform(0.3, 1.0, 3).astype(np.float32), rng.uniform(0.1, 0.7, 3).astype(np.float32)
        turn = rng.uniform(0, 2 * np.pi / 5)
        r_out, r_in = d / 2 * 0.98, d / 2 * 0.98 * 0.45
        points = []
        for k in range(10):
            ang = -np.pi / 2 + turn + k * np.pi / 5
            r = r_out if k % 2 == 0 else r_in
            points.append((d / 2 + r * np.cos(ang), d / 2 + r * np.sin(ang)))
        xx, yy = grids(d, d)
        t = np.clip(yy / d + 0 * xx, 0, 1)
        rgb = a * (1 - t[..., None]) + b * t[..., None]
        theta = np.arctan2(yy - d / 2, xx - d / 2) - turn
        facets = 0.8 + 0.2 * np.sign(np.sin(5 * (theta + np.pi / 2)))  # each arm lit on one side
        rgb = rgb * facets[..., None]
        alpha = supersampled((d, d), lambda dr, s: dr.polygon([(x * s, y * s) for x, y in points], fill=255))
        return rgb, alpha, (d / 2, d / 2)

    def mug(body_w, body_h, rng):
        colour, band = rng.uniform(0.2, 0.95, 3).astype(np.float32), rng.uniform(0.05, 0.9, 3).astype(np.float32)
        w, h = int(body_w * 1.36), body_h
        xx, yy = grids(w, h)
        u = np.clip((xx - body_w / 2) / (body_w / 2), -1, 1)
        cylinder = 0.3 + 0.7 * np.clip(np.sqrt(1 - u ** 2) * 0.85 - 0.25 * u, 0, 1)
        rgb = np.broadcast_to(colour, (h, w, 3)).copy()
        banded = (yy > 0.38 * h) & (yy < 0.56 * h)
        rgb = np.where(banded[..., None], band, rgb) * cylinder[..., None]
        # the handle: lit by the angle round its ring
        hx, hy = body_w, h * 0.5
        ang = np.arctan2(yy - hy, xx - hx)
        handle = colour * (0.55 + 0.35 * np.cos(ang + 0.8))[..., None]
        rgb = np.where((xx > body_w)[..., None], handle, rgb)
        ro_x, ro_y, ri_x, ri_y = 0.34 * body_w, 0.30 * h, 0.2 * body_w, 0.17 * h

        def draw(dr, s):
            dr.ellipse(((hx - ro_x) * s, (hy - ro_y) * s, (hx + ro_x) * s, (hy + ro_y) * s), fill=255)
            dr.ellipse(((hx - ri_x) * s, (hy - ri_y) * s, (hx + ri_x) * s, (hy + ri_y) * s), fill=0)
            dr.rounded_rectangle((0, 0, body_w * s - 1, h * s - 1), radius=0.07 * body_w * s, fill=255)
        alpha = supersampled((w, h), draw)
        return rgb.astype(np.float32), alpha, (body_w / 2, h / 2)

    def save(name, cls, img, truth, tap, rng, extra):
        h, w = truth.shape
        noisy = img + rng.normal(0, 1.5 / 255, img.shape).astype(np.float32)  # a little sensor noise
        path = os.path.join(out_dir, f"{name}.jpg")
        Image.fromarray(np.clip(noisy * 255 + 0.5, 0, 255).astype(np.uint8), "RGB").save(path, quality=92)
        truth_path = os.path.join(out_dir, f"{name}.truth.png")
        Image.fromarray(truth, "L").save(truth_path, compress_level=1)
        tx, ty = int(tap[0]), int(tap[1])
        assert truth[ty, tx] == 255, f"{name}: the tap {tx},{ty} is not on the subject"
        manifest.append(dict(name=name, cls=cls, path=path, truth=truth_path, width=w, height=h,
                             tap=[(tx + 0.5) / w, (ty + 0.5) / h], **extra))

    manifest = []
    # --- objects ------------------------------------------------------------------------------
    sizes = [(640, 480), (1024, 768), (1600, 1200), (768, 1024), (1280, 960)]
    backgrounds = ["plain", "gradient", "noise", "stripes", "texture"]
    textures = ["flag", "shuttle", "suit"]
    shapes = ["ball", "box", "star", "mug"]
    seed = 1000
    jobs = []
    for i, bg in enumerate(backgrounds):
        for j, shape in enumerate(shapes):
            jobs.append((bg, shape, sizes[(i * 4 + j) % len(sizes)]))
    jobs.append(("texture", "box", (4000, 3000)))  # the 12 MP picture
    for n, (bg, shape, (w, h)) in enumerate(jobs):
        seed += 1
        rng = np.random.default_rng(seed)
        kind = f"texture:{textures[n % 3]}" if bg == "texture" else bg
        short = min(w, h)
        if shape == "ball":
            rgb, alpha, tap = ball(int(short * rng.uniform(0.3, 0.45)), rng)
        elif shape == "box":
            rgb, alpha, tap = box(int(short * rng.uniform(0.35, 0.5)), int(short * rng.uniform(0.25, 0.4)), rng)
        elif shape == "star":
            rgb, alpha, tap = star(int(short * rng.uniform(0.35, 0.5)), rng)
        else:
            rgb, alpha, tap = mug(int(short * rng.uniform(0.22, 0.3)), int(short * rng.uniform(0.3, 0.42)), rng)
        oh, ow = alpha.shape
        # anywhere that keeps the object's box inside the middle 80 % of the picture
        ox = int(rng.uniform(0.1 * w, 0.9 * w - ow)) if 0.8 * w > ow else (w - ow) // 2
        oy = int(rng.uniform(0.1 * h, 0.9 * h - oh)) if 0.8 * h > oh else (h - oh) // 2
        img = background(kind, w, h, rng)
        region = img[oy:oy + oh, ox:ox + ow]
        img[oy:oy + oh, ox:ox + ow] = region * (1 - alpha[..., None]) + np.clip(rgb, 0, 1) * alpha[..., None]
        truth = np.zeros((h, w), np.uint8)
        truth[oy:oy + oh, ox:ox + ow] = np.where(alpha >= 0.5, 255, 0)
        cls = {"plain": "objects-plain", "gradient": "objects-gradient"}.get(bg, "objects-busy")
        name = f"{shape}-{kind.replace('texture:', 'photo-')}-{w}x{h}"
        save(name, cls, img, truth, (ox + tap[0], oy + tap[1]), rng, dict(subject=shape, background=kind))
        log(f"made {name}")

    # --- people -------------------------------------------------------------------------------
    people = [("plain", (1024, 768), False), ("gradient", (800, 600), True), ("noise", (1600, 1200), False),
              ("stripes", (960, 1280), True), ("texture:flag", (1280, 960), False), ("texture:shuttle", (768, 1024), True),
              ("gradient", (4000, 3000), False)]
    outer_ss, helmet_ss = ASTRONAUT_OUTER, ASTRONAUT_HELMET
    for kind, (w, h), flip in people:
        seed += 1
        rng = np.random.default_rng(seed)
        frac = 0.55 if w >= h else 0.45         # the person's height in the picture (see the header)
        s = frac * h / (512 - ASTRONAUT_TOP)
        side = round(512 * s)
        src = photo.transpose(Image.FLIP_LEFT_RIGHT) if flip else photo
        person = np.asarray(src.resize((side, side), Image.LANCZOS), np.float32) / 255

        def mirror(points):
            return [((512 - x) if flip else x, y) for x, y in points]
        outer = supersampled((side, side), lambda dr, ss: dr.polygon([(x * s * ss, y * s * ss) for x, y in mirror(outer_ss)], fill=255))
        helmet = supersampled((side, side), lambda dr, ss: dr.polygon([(x * s * ss, y * s * ss) for x, y in mirror(helmet_ss)], fill=255))

        def grown(dr, ss):
            pts = [(x * s * ss, y * s * ss) for x, y in mirror(helmet_ss)]
            dr.polygon(pts, fill=255)
            dr.line(pts + [pts[0]], fill=255, width=max(1, round(2 * HELMET_MARGIN * s * ss)), joint="curve")
        dont_care = supersampled((side, side), grown)
        img = background(kind, w, h, rng)
        centre = 512 - 267 if flip else 267    # the middle of the person with the helmet
        ox = int(w / 2 - centre * s + rng.uniform(-0.05, 0.05) * w)
        oy = h - side
        # the person's square may stick out of the picture at the sides: clip it
        x0, x1 = max(0, ox), min(w, ox + side)
        sx0, sx1 = x0 - ox, x1 - ox
        a = outer[:, sx0:sx1, None]
        img[oy:, x0:x1] = img[oy:, x0:x1] * (1 - a) + person[:, sx0:sx1] * a
        truth = np.zeros((h, w), np.uint8)
        person_only = (outer >= 0.5) & (helmet < 0.5)
        part = np.where(person_only, 255, 0).astype(np.uint8)
        part[dont_care >= 0.5] = 128
        truth[oy:, x0:x1] = part[:, sx0:sx1]
        tap_x = (512 - ASTRONAUT_TAP[0] if flip else ASTRONAUT_TAP[0]) * s + ox
        tap_y = ASTRONAUT_TAP[1] * s + oy
        name = f"person-{kind.replace('texture:', 'photo-')}-{w}x{h}{'-mirrored' if flip else ''}"
        save(name, "people", img, truth, (tap_x, tap_y), rng, dict(subject="astronaut", background=kind))
        log(f"made {name}")
    with open(os.path.join(work, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    return manifest


# ---------------------------------------------------------------------------------------------
# Workers (one process each, fed one picture at a time)

def bounds(mask):
    """(x0, y0, x1, y1) of the true values of a 2-D bool array, grown by 2 pixels; None if none."""
    import numpy as np
    rows, cols = np.flatnonzero(mask.any(axis=1)), np.flatnonzero(mask.any(axis=0))
    if len(rows) == 0:
        return None
    h, w = mask.shape
    return max(0, cols[0] - 2), max(0, rows[0] - 2), min(w, cols[-1] + 3), min(h, rows[-1] + 3)


def grabcut_worker(side, rect_frac, iterations):
    import cv2
    import numpy as np
    cv2.setRNGSeed(0)
    print(json.dumps({"ready": True, "version": cv2.__version__, "load": 0.0}), flush=True)
    for line in sys.stdin:
        job = json.loads(line)
        try:
            t0 = time.perf_counter()
            img = cv2.imread(job["path"], cv2.IMREAD_COLOR)
            t1 = time.perf_counter()
            H, W = img.shape[:2]
            f = min(1.0, side / max(W, H))
            small = cv2.resize(img, (max(1, round(W * f)), max(1, round(H * f))), interpolation=cv2.INTER_AREA) if f < 1 else img
            h, w = small.shape[:2]
            px, py = min(w - 1, int(job["tap"][0] * w)), min(h - 1, int(job["tap"][1] * h))
            rx0, ry0 = max(0, round(px + 0.5 - rect_frac * w / 2)), max(0, round(py + 0.5 - rect_frac * h / 2))
            rx1, ry1 = min(w, round(px + 0.5 + rect_frac * w / 2)), min(h, round(py + 0.5 + rect_frac * h / 2))
            mask = np.zeros((h, w), np.uint8)
            bgd, fgd = np.zeros((1, 65), np.float64), np.zeros((1, 65), np.float64)
            cv2.grabCut(small, mask, (rx0, ry0, rx1 - rx0, ry1 - ry0), bgd, fgd, iterations, cv2.GC_INIT_WITH_RECT)
            fg = np.where((mask == cv2.GC_FGD) | (mask == cv2.GC_PR_FGD), 255, 0).astype(np.uint8)
            full = cv2.resize(fg, (W, H), interpolation=cv2.INTER_LINEAR) if f < 1 else fg
            binary = full >= 128
            t2 = time.perf_counter()
            box = bounds(binary)
            if box is not None:
                x0, y0, x1, y1 = box
                cut = cv2.cvtColor(img[y0:y1, x0:x1], cv2.COLOR_BGR2BGRA)
                cut[..., 3] = np.where(binary[y0:y1, x0:x1], 255, 0)
                cv2.imwrite(job["out"], cut)
            t3 = time.perf_counter()
            # For context only (not timed): the part of GrabCut's mask connected to the point.
            n, labels = cv2.connectedComponents(binary.astype(np.uint8), connectivity=8)
            tx, ty = min(W - 1, int(job["tap"][0] * W)), min(H - 1, int(job["tap"][1] * H))
            label = labels[ty, tx]
            part = (labels == label) & binary if binary[ty, tx] else np.zeros_like(binary)
            cv2.imwrite(job["part"], np.where(part, 255, 0).astype(np.uint8))
            answer = {"ok": box is not None, "box": [int(v) for v in box] if box else None, "read": t1 - t0,
                      "mask": t2 - t1, "total": t3 - t0, "work": [w, h]}
            if box is None:
                answer["error"] = "an empty mask"
        except Exception as error:  # noqa: BLE001 - a failed picture is a result, not the end
            answer = {"ok": False, "error": repr(error)}
        print(json.dumps(answer), flush=True)


def component_at(binary, x, y):
    """The 8-connected part of a 2-D bool array holding (x, y) (all False if that pixel is False)."""
    import numpy as np
    h, w = binary.shape
    out = np.zeros_like(binary)
    if not binary[y, x]:
        return out
    flat, seen = binary.ravel(), out.ravel()
    stack = [y * w + x]
    seen[y * w + x] = True
    while stack:
        i = stack.pop()
        cy, cx = divmod(i, w)
        for dy in (-1, 0, 1):
            ny = cy + dy
            if ny < 0 or ny >= h:
                continue
            for dx in (-1, 0, 1):
                nx = cx + dx
                if 0 <= nx < w:
                    j = ny * w + nx
                    if flat[j] and not seen[j]:
                        seen[j] = True
                        stack.append(j)
    return out


def u2netp_worker(model):
    import numpy as np
    import onnxruntime as ort
    from PIL import Image
    t = time.perf_counter()
    session = ort.InferenceSession(model, providers=["CPUExecutionProvider"])
    name = session.get_inputs()[0].name
    mean, std = np.array(U2NETP_MEAN, np.float32), np.array(U2NETP_STD, np.float32)
    session.run(None, {name: np.zeros((1, 3, U2NETP_SIDE, U2NETP_SIDE), np.float32)})  # warm-up
    print(json.dumps({"ready": True, "version": ort.__version__, "load": time.perf_counter() - t}), flush=True)
    for line in sys.stdin:
        job = json.loads(line)
        try:
            t0 = time.perf_counter()
            im = Image.open(job["path"]).convert("RGB")
            t1 = time.perf_counter()
            W, H = im.size
            x = np.asarray(im.resize((U2NETP_SIDE, U2NETP_SIDE), Image.LANCZOS), np.float32) / 255
            x = ((x - mean) / std).transpose(2, 0, 1)[None].astype(np.float32)
            d0 = session.run(None, {name: x})[0][0, 0]          # the first output (d0)
            d0 = (d0 - d0.min()) / max(1e-12, float(d0.max() - d0.min()))
            # Keep the salient part holding the tapped point (8-connected at 320x320, with its
            # soft edge: the ring of pixels around it), then enlarge the map and threshold.
            tx, ty = min(U2NETP_SIDE - 1, int(job["tap"][0] * U2NETP_SIDE)), min(U2NETP_SIDE - 1, int(job["tap"][1] * U2NETP_SIDE))
            part = component_at(d0 >= 0.5, tx, ty)
            grown = part.copy()
            grown[1:] |= part[:-1]; grown[:-1] |= part[1:]
            grown2 = grown.copy()
            grown2[:, 1:] |= grown[:, :-1]; grown2[:, :-1] |= grown[:, 1:]
            soft = np.where(grown2, d0, 0)
            alpha = np.asarray(Image.fromarray((soft * 255).astype(np.uint8), "L").resize((W, H), Image.LANCZOS))
            binary = alpha >= 128
            t2 = time.perf_counter()
            box = bounds(binary)
            if box is not None:
                x0, y0, x1, y1 = box
                rgba = np.dstack([np.asarray(im.crop((x0, y0, x1, y1))), alpha[y0:y1, x0:x1]])
                Image.fromarray(rgba, "RGBA").save(job["out"], compress_level=1)
            t3 = time.perf_counter()
            answer = {"ok": box is not None, "box": [int(v) for v in box] if box else None, "read": t1 - t0,
                      "mask": t2 - t1, "total": t3 - t0}
            if box is None:
                answer["error"] = "nothing salient at the point (d0 < 0.5 there)" if not part.any() else "an empty mask"
        except Exception as error:  # noqa: BLE001
            answer = {"ok": False, "error": repr(error)}
        print(json.dumps(answer), flush=True)


class Worker:
    def __init__(self, argv, env=None):
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
        ready = self.process.stdout.readline()
        if not ready:
            raise RuntimeError(f"{argv[0]} did not start: {' '.join(argv)}")
        self.hello = json.loads(ready)

    def ask(self, job):
        self.process.stdin.write(json.dumps(job) + "\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def close(self):
        self.process.stdin.close()
        self.process.wait()


# ---------------------------------------------------------------------------------------------
# Scoring

def alpha_of(png, box, width, height):
    """The full-size alpha (uint8) of a cut-out PNG placed at box's corner."""
    import numpy as np
    from PIL import Image
    full = np.zeros((height, width), np.uint8)
    if png is None or box is None or not os.path.exists(png):
        return full
    im = Image.open(png)
    im.load()
    if im.mode not in ("RGBA", "LA"):
        im = im.convert("RGBA")
    a = np.asarray(im.getchannel("A"))
    if a.dtype != np.uint8:  # 16-bit PNGs
        a = (a.astype(np.uint32) >> 8).astype(np.uint8)
    x0, y0 = box[0], box[1]
    full[y0:y0 + a.shape[0], x0:x0 + a.shape[1]] = a
    return full


def iou(pred, truth):
    """IoU of pred (bool) against truth (255 subject, 0 background, 128 not scored)."""
    import numpy as np
    care = truth != 128
    gt = truth == 255
    inter = np.count_nonzero(pred & gt & care)
    union = np.count_nonzero((pred | gt) & care)
    return inter / union if union else 1.0


REEL_LINE = re.compile(r"cut out an? (\w+): (\d+)x(\d+) at (\d+),(\d+), ([\d.]+) % of the photo, ([\d.]+) s")


def run_reel(reel, picture, method, out):
    argv = [reel, "overlay", "cutout", picture["path"], "--at", f"{picture['tap'][0]:.6f},{picture['tap'][1]:.6f}",
            "--method", method, "-o", out, "--force"]
    t0 = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    m = REEL_LINE.search(done.stdout)
    if done.returncode != 0 or not m:
        reason = (done.stderr.strip() or done.stdout.strip()).splitlines()
        return {"ok": False, "total": wall, "error": reason[-1] if reason else f"exit {done.returncode}"}
    return {"ok": True, "total": wall, "inside": float(m.group(7)), "method": m.group(1),
            "box": [int(m.group(4)), int(m.group(5))]}


def machine_busy():
    with open("/proc/stat") as f:
        fields = f.readline().split()[1:]
    values = [int(v) for v in fields]
    hz = os.sysconf("SC_CLK_TCK")
    return (values[0] + values[1] + values[2] + values[5] + values[6] + values[7]) / hz


def fmt(v, digits=3):
    return "-" if v is None else f"{v:.{digits}f}"


def run(args):
    import numpy as np
    from PIL import Image
    work, reel = args["work"], args["reel"]
    log("making the pictures")
    t = time.perf_counter()
    pictures = make_pictures(work, args["photo"])
    log(f"made {len(pictures)} pictures in {time.perf_counter() - t:.1f} s")
    outs = os.path.join(work, "out")
    os.makedirs(outs, exist_ok=True)

    busy0, cpu0 = machine_busy(), os.times()
    tools = ["reel", "reel-object", "grabcut", "u2netp"]
    workers = {}
    if args["grabcut_python"]:
        workers["grabcut"] = Worker([args["grabcut_python"], __file__, "grabcut-worker", str(args["grabcut_side"]),
                                     str(args["grabcut_rect"]), str(args["grabcut_iterations"])])
    else:
        tools.remove("grabcut")
    workers["u2netp"] = Worker([sys.executable, __file__, "u2netp-worker", args["model"]])
    results = {}  # (picture name, tool) -> list of run answers
    t_start = time.perf_counter()
    rounds = 0
    for index, picture in enumerate(pictures):
        big = picture["width"] * picture["height"] >= TWELVE_MP
        runs = args["runs_12mp"] if big else args["runs"]
        for r in range(runs):
            order = tools[(index + r) % len(tools):] + tools[:(index + r) % len(tools)]  # turned each time
            for tool in order:
                out = os.path.join(outs, f"{picture['name']}.{tool}.png")
                if tool in ("reel", "reel-object"):
                    answer = run_reel(reel, picture, "auto" if tool == "reel" else "object", out)
                else:
                    answer = workers[tool].ask({"path": picture["path"], "tap": picture["tap"], "out": out,
                                                "part": os.path.join(outs, f"{picture['name']}.{tool}.part.png")})
                answer["out"] = out
                results.setdefault((picture["name"], tool), []).append(answer)
            rounds += 1
        summary = []
        for tool in tools:
            a = results[(picture["name"], tool)][0]
            summary.append(f"{tool} {'%.2f s' % a['total'] if a.get('ok') else 'FAILED'}")
        log(f"{index + 1}/{len(pictures)} {picture['name']}: " + ", ".join(summary))
    hellos = {tool: w.hello for tool, w in workers.items()}
    for w in workers.values():
        w.close()
    timed = time.perf_counter() - t_start
    cpu1 = os.times()
    used = (cpu1.user - cpu0.user) + (cpu1.system - cpu0.system) + (cpu1.children_user - cpu0.children_user) \
        + (cpu1.children_system - cpu0.children_system)
    other_load = max(0.0, machine_busy() - busy0 - used)

    # --- scores ---------------------------------------------------------------------------------
    rows = []
    for picture in pictures:
        truth = np.asarray(Image.open(picture["truth"]))
        row = {"picture": picture}
        for tool in tools:
            answers = results[(picture["name"], tool)]
            first = answers[0]
            if first.get("ok"):
                box = first["box"]
                alpha = alpha_of(first["out"], box, picture["width"], picture["height"])
                score = iou(alpha >= 128, truth)
            else:
                score = 0.0
            entry = {"iou": score, "ok": bool(first.get("ok")), "error": first.get("error"),
                     "time": statistics.median(a.get("total", float("nan")) for a in answers),
                     "inside": statistics.median(a["inside"] for a in answers) if first.get("ok") and "inside" in first else None,
                     "mask": statistics.median(a["mask"] for a in answers) if first.get("ok") and "mask" in first else None,
                     "method": first.get("method")}
            if tool == "grabcut" and first.get("ok"):
                part = np.asarray(Image.open(os.path.join(outs, f"{picture['name']}.grabcut.part.png"))) >= 128
                entry["part_iou"] = iou(part, truth)
            row[tool] = entry
        rows.append(row)

    # --- the block ------------------------------------------------------------------------------
    names = {"reel": "Reel auto", "reel-object": "Reel object", "grabcut": "GrabCut", "u2netp": "u2netp"}
    classes = ["people", "objects-plain", "objects-gradient", "objects-busy", "objects (all)"]

    def members(cls):
        return [r for r in rows if (r["picture"]["cls"].startswith("objects") if cls == "objects (all)" else r["picture"]["cls"] == cls)]

    lines = []
    p = lines.append
    p("")
    p(f"==== cutout: reel overlay cutout against GrabCut alone and u2netp, {len(pictures)} pictures with known masks ({time.strftime('%Y-%m-%dT%H:%MZ', time.gmtime())}) ====")
    p(f"reel:     {args['reel_version']}; models {args['models_dir']}")
    if "grabcut" in tools:
        p(f"GrabCut:  cv2.grabCut, OpenCV {hellos['grabcut']['version']} ({args['grabcut_from']}); rectangle {args['grabcut_rect']:.0%} of each side around the point, "
          f"{args['grabcut_iterations']} iterations, at {args['grabcut_side']} px on the long side, mask enlarged bilinearly")
    else:
        p(f"GrabCut:  SKIPPED: {args['grabcut_from']}")
    p(f"u2netp:   {args['model']} (sha256 {args['model_sha'][:16]}…), onnxruntime {hellos['u2netp']['version']} on the CPU, "
      f"{U2NETP_SIDE}x{U2NETP_SIDE}, threshold 0.5, the part at the point (model loaded once: {hellos['u2netp']['load']:.2f} s, not counted)")
    p(f"machine:  {args['machine']}")
    p(f"runs:     {args['runs']} per picture, {args['runs_12mp']} for 12 MP pictures; times are medians (s per picture)")
    p("")
    header = f"{'class':<17} {'n':>2}  " + "  ".join(f"{names[t] + ' IoU mean/min':>25}" for t in tools)
    p("IoU against the known mask (alpha >= 0.5), mean / worst picture:")
    p(header)
    for cls in classes:
        m = members(cls)
        if not m:
            continue
        cells = []
        for t in tools:
            v = [r[t]["iou"] for r in m]
            cells.append(f"{statistics.mean(v):.3f} / {min(v):.3f}".rjust(25))
        p(f"{cls:<17} {len(m):>2}  " + "  ".join(cells))
    p("")
    p("wall time per picture, median s (Reel: the whole command, start-up and model load included; "
      "peers: read + mask + write the cut-out PNG in a running process):")
    p(f"{'class':<17} {'sizes':<34}" + "".join(f"{names[t]:>13}" for t in tools) + f"{'Reel inside':>13}")
    for cls in classes:
        m = members(cls)
        if not m:
            continue
        sizes = sorted({(r['picture']['width'], r['picture']['height']) for r in m}, key=lambda s: s[0] * s[1])
        size_text = ", ".join(f"{w}x{h}" for w, h in sizes) if len(sizes) <= 3 else f"{sizes[0][0]}x{sizes[0][1]} … {sizes[-1][0]}x{sizes[-1][1]}"
        cells = "".join(f"{statistics.median(r[t]['time'] for r in m):>13.2f}" for t in tools)
        inside = [r["reel"]["inside"] for r in m if r["reel"]["inside"] is not None]
        p(f"{cls:<17} {size_text:<34}{cells}{(statistics.median(inside) if inside else float('nan')):>13.2f}")
    p("")
    p("12 MP (4000x3000 JPEG), median of runs, s:")
    big = [r for r in rows if r["picture"]["width"] * r["picture"]["height"] >= TWELVE_MP]
    for r in big:
        cells = ", ".join(f"{names[t]} {r[t]['time']:.2f} (IoU {r[t]['iou']:.3f})" for t in tools)
        p(f"  {r['picture']['name']}: {cells}; Reel auto inside the process {fmt(r['reel']['inside'], 2)} s ({r['reel']['method'] or 'failed'})")
    p("")
    p("per picture: IoU (Reel auto's method)" + ("; GrabCut's part at the point in brackets" if "grabcut" in tools else ""))
    for r in rows:
        pic = r["picture"]
        cells = []
        for t in tools:
            e = r[t]
            text = f"{names[t]} {e['iou']:.3f}"
            if t == "reel":
                text += f" ({e['method'] or 'FAILED'})"
            if t == "grabcut" and e.get("part_iou") is not None:
                text += f" [{e['part_iou']:.3f}]"
            cells.append(text)
        p(f"  {pic['name']:<38} " + ", ".join(cells))
    failures = [(r["picture"]["name"], t, r[t]["error"]) for r in rows for t in tools if not r[t]["ok"]]
    if failures:
        p("failed runs (IoU counted as 0):")
        for name, t, error in failures:
            p(f"  {name} {names[t]}: {error}")
    chose = {}
    for r in rows:
        cls = "people" if r["picture"]["cls"] == "people" else "objects"
        chose.setdefault(cls, []).append(r["reel"]["method"] or "failed")
    p("Reel auto chose: " + "; ".join(f"{cls}: " + ", ".join(f"{m} {v.count(m)}" for m in sorted(set(v))) for cls, v in chose.items()))
    p("")

    def mean(cls, t):
        return statistics.mean(r[t]["iou"] for r in members(cls))
    verdicts = []
    peers = [t for t in ("grabcut", "u2netp") if t in tools]
    best = max(peers, key=lambda t: mean("people", t))
    ok = mean("people", "reel") >= mean("people", best)
    verdicts.append(f"people IoU {mean('people', 'reel'):.3f} >= best peer ({names[best]} {mean('people', best):.3f}): {'PASS' if ok else 'FAIL'}")
    if "grabcut" in tools:
        ok = mean("objects (all)", "reel") >= mean("objects (all)", "grabcut")
        verdicts.append(f"objects IoU {mean('objects (all)', 'reel'):.3f} >= GrabCut {mean('objects (all)', 'grabcut'):.3f}: {'PASS' if ok else 'FAIL'}")
    else:
        verdicts.append("objects >= GrabCut: not measured (GrabCut skipped)")
    slowest = max((r["reel"]["time"] for r in big), default=float("nan"))
    verdicts.append(f"12 MP <= 1 s: Reel's whole command {slowest:.2f} s at most: {'PASS' if slowest <= 1.0 else 'FAIL'}")
    p("goals: " + "; ".join(verdicts))
    p(f"other load: {other_load:.1f} CPU-s used by other processes during {timed:.0f} s of runs")
    print("\n".join(lines))


def main():
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "grabcut-worker":
        grabcut_worker(int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]))
    elif command == "u2netp-worker":
        u2netp_worker(sys.argv[2])
    elif command == "make":
        make_pictures(sys.argv[2], sys.argv[3])
    elif command == "run":
        args = json.loads(sys.argv[2])
        run(args)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
