#!/usr/bin/python3
"""Independent checks of Reel's photos: builds a colour chart and measures photos.

Reel's own code is not used here. Colours are computed from the ICC profile embedded in each
file, parsed by this script (rXYZ/gXYZ/bXYZ and the TRC of a matrix-shaper profile), into
CIELAB (D50, ICC's connection space); differences are CIEDE2000. Pixels are read by Pillow
(JPEG, PNG), heif-convert (HEIC) and ImageMagick (16-bit TIFF).

  stills.py chart OUT.png PROFILE.icc WIDTH HEIGHT   writes the chart, prints its layout (JSON)
  stills.py measure PHOTO LAYOUT.json                 prints each patch's Lab and ΔE, the gradient
  stills.py png OUT WIDTH HEIGHT R,G,B,A [ICC|broken]  a 16-bit RGBA PNG of one colour (0…65535)
  stills.py oversized OUT WIDTH HEIGHT                 a PNG whose header claims WIDTHxHEIGHT (tiny data)
  stills.py halves OUT.y4m WIDTH HEIGHT                one Y4M frame: left half red, right half blue (BT.601)
"""
import json, math, os, struct, subprocess, sys, tempfile, zlib

# Patches in Display P3 code values (0…1): inside sRGB's gamut, except "p3-green".
PATCHES = [
    ("grey-10", (0.10, 0.10, 0.10)), ("grey-25", (0.25, 0.25, 0.25)), ("grey-50", (0.50, 0.50, 0.50)),
    ("grey-75", (0.75, 0.75, 0.75)), ("grey-95", (0.95, 0.95, 0.95)), ("skin", (0.78, 0.60, 0.50)),
    ("brick", (0.60, 0.36, 0.30)), ("sage", (0.45, 0.55, 0.42)), ("slate", (0.34, 0.40, 0.55)),
    ("sand", (0.82, 0.76, 0.58)), ("plum", (0.50, 0.34, 0.48)), ("p3-green", (0.0, 1.0, 0.0)),
]
GRADIENT = (0.25, 0.35)  # grey ramp across the width, in 16-bit steps


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def chart(out, icc_path, width, height):
    cols, rows = 3, 4
    patch_h = int(height * 0.8) // rows
    patch_w = width // cols
    layout = {"width": width, "height": height, "patches": [], "gradient": None}
    pixels = [[(0, 0, 0)] * width for _ in range(height)]
    for i, (name, rgb) in enumerate(PATCHES):
        x0, y0 = (i % cols) * patch_w, (i // cols) * patch_h
        value = tuple(round(c * 65535) for c in rgb)
        for y in range(y0, y0 + patch_h):
            row = pixels[y]
            for x in range(x0, x0 + patch_w):
                row[x] = value
        layout["patches"].append({"name": name, "p3": rgb, "x": x0 + patch_w // 2, "y": y0 + patch_h // 2,
                                  "radius": min(patch_w, patch_h) // 4})
    gy0, gy1 = rows * patch_h, height
    lo, hi = GRADIENT
    for y in range(gy0, gy1):
        pixels[y] = [(v, v, v) for v in (round((lo + (hi - lo) * x / (width - 1)) * 65535) for x in range(width))]
    layout["gradient"] = {"y": (gy0 + gy1) // 2, "low": lo, "high": hi}
    raw = b"".join(b"\x00" + b"".join(struct.pack(">HHHH", r, g, b, 65535) for (r, g, b) in row) for row in pixels)
    icc = open(icc_path, "rb").read()
    png = (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 16, 6, 0, 0, 0))
           + png_chunk(b"iCCP", b"Display P3\x00\x00" + zlib.compress(icc))
           + png_chunk(b"IDAT", zlib.compress(raw, 6)) + png_chunk(b"IEND", b""))
    open(out, "wb").write(png)
    layout["icc"] = icc_path
    print(json.dumps(layout))


def png_file(out, width, height, rgba, icc):
    row = b"\x00" + struct.pack(">HHHH", *rgba) * width
    chunks = [png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 16, 6, 0, 0, 0))]
    if icc == "broken":
        chunks.append(png_chunk(b"iCCP", b"Broken\x00\x00" + zlib.compress(b"\x00\x00\x02\x00not an ICC profile at all" * 20)))
    elif icc:
        chunks.append(png_chunk(b"iCCP", b"Embedded\x00\x00" + zlib.compress(open(icc, "rb").read())))
    chunks.append(png_chunk(b"IDAT", zlib.compress(row * height)))
    open(out, "wb").write(b"\x89PNG\r\n\x1a\n" + b"".join(chunks) + png_chunk(b"IEND", b""))


def oversized(out, width, height):
    open(out, "wb").write(b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
                          + png_chunk(b"IDAT", zlib.compress(b"\x00" * 64)) + png_chunk(b"IEND", b""))


def halves(out, width, height):
    """Left half red, right half blue, as BT.601 limited-range 4:2:0 (what a camera sends)."""
    def yuv(r, g, b):
        y = 16 + 219 * (0.299 * r + 0.587 * g + 0.114 * b)
        return round(y), round(128 + 224 * (b - (0.299 * r + 0.587 * g + 0.114 * b)) / 1.772), \
            round(128 + 224 * (r - (0.299 * r + 0.587 * g + 0.114 * b)) / 1.402)
    red, blue = yuv(1, 0, 0), yuv(0, 0, 1)
    ys = bytes((red if x < width // 2 else blue)[0] for x in range(width)) * height
    us = bytes((red if x < width // 4 else blue)[1] for x in range(width // 2)) * (height // 2)
    vs = bytes((red if x < width // 4 else blue)[2] for x in range(width // 2)) * (height // 2)
    with open(out, "wb") as f:
        f.write(b"YUV4MPEG2 W%d H%d F30:1 Ip A1:1 C420jpeg XCOLORRANGE=LIMITED\n" % (width, height))
        for _ in range(3):
            f.write(b"FRAME\n" + ys + us + vs)


def marked(out, width, height):
    """A landscape camera picture no turn or mirror leaves alike: the top-left quarter red, the
    top-right quarter blue, the bottom half grey (BT.601 limited-range 4:2:0)."""
    def yuv(r, g, b):
        y = 0.299 * r + 0.587 * g + 0.114 * b
        return round(16 + 219 * y), round(128 + 224 * (b - y) / 1.772), round(128 + 224 * (r - y) / 1.402)
    red, blue, grey = yuv(1, 0, 0), yuv(0, 0, 1), yuv(0.5, 0.5, 0.5)

    def colour(x, y, w, h):
        return grey if y >= h // 2 else (red if x < w // 2 else blue)
    ys = bytes(colour(x, y, width, height)[0] for y in range(height) for x in range(width))
    cw, ch = width // 2, height // 2
    us = bytes(colour(x, y, cw, ch)[1] for y in range(ch) for x in range(cw))
    vs = bytes(colour(x, y, cw, ch)[2] for y in range(ch) for x in range(cw))
    with open(out, "wb") as f:
        f.write(b"YUV4MPEG2 W%d H%d F30:1 Ip A1:1 C420jpeg XCOLORRANGE=LIMITED\n" % (width, height))
        for _ in range(3):
            f.write(b"FRAME\n" + ys + us + vs)


def shown(path):
    """The picture a viewer shows, decoded by the format's reference reader: a HEIC by
    heif-convert (libheif, turned by irot/imir), a JPEG by libjpeg and a TIFF by libtiff, each
    turned by its Orientation tag (ImageMagick's -auto-orient). Its size and the colour at the
    middle of each quarter (top-left, top-right, bottom-left, bottom-right)."""
    from PIL import Image
    with tempfile.TemporaryDirectory() as tmp:
        png = os.path.join(tmp, "shown.png")
        if os.path.splitext(path)[1].lower() == ".heic":
            subprocess.run(["heif-convert", path, png], check=True, capture_output=True)
        else:
            subprocess.run(["convert", path, "-auto-orient", "-depth", "8", png], check=True, capture_output=True)
        image = Image.open(png).convert("RGB")
        w, h = image.size

        def name(rgb):
            r, g, b = rgb
            if r > 150 and g < 90 and b < 90:
                return "red"
            if b > 150 and r < 90 and g < 90:
                return "blue"
            return "grey" if max(rgb) - min(rgb) < 40 else "other %d,%d,%d" % rgb
        quarters = [name(image.getpixel((int(fx * w), int(fy * h)))) for fy in (0.25, 0.75) for fx in (0.25, 0.75)]
        print(json.dumps({"width": w, "height": h, "quarters": quarters}))


# --- ICC (matrix-shaper) -------------------------------------------------------------------

def s15(b):
    return struct.unpack(">i", b)[0] / 65536.0


def parse_icc(data):
    count = struct.unpack(">I", data[128:132])[0]
    tags = {}
    for i in range(count):
        sig, off, size = struct.unpack(">4sII", data[132 + 12 * i:144 + 12 * i])
        tags[sig.decode("latin-1")] = data[off:off + size]
    def xyz(tag):
        t = tags[tag]
        return [s15(t[8:12]), s15(t[12:16]), s15(t[16:20])]
    def trc(tag):
        t = tags[tag]
        if t[:4] == b"para":
            kind = struct.unpack(">H", t[8:10])[0]
            p = [s15(t[12 + 4 * k:16 + 4 * k]) for k in range({0: 1, 1: 3, 2: 4, 3: 5, 4: 7}[kind])]
            if kind == 0:
                return lambda x: x ** p[0]
            if kind == 3:
                g, a, b, c, d = p[:5]
                return lambda x: (a * x + b) ** g if x >= d else c * x
            raise SystemExit("parametric curve type %d not handled" % kind)
        if t[:4] == b"curv":
            n = struct.unpack(">I", t[8:12])[0]
            if n == 0:
                return lambda x: x
            if n == 1:
                g = struct.unpack(">H", t[12:14])[0] / 256.0
                return lambda x: x ** g
            table = [struct.unpack(">H", t[12 + 2 * k:14 + 2 * k])[0] / 65535.0 for k in range(n)]
            def lookup(x):
                f = x * (n - 1); i = min(int(f), n - 2); w = f - i
                return table[i] * (1 - w) + table[i + 1] * w
            return lookup
        raise SystemExit("TRC type %r not handled" % t[:4])
    desc = tags.get("desc", b"")
    name = ""
    if desc[:4] == b"mluc":
        n_rec = struct.unpack(">I", desc[8:12])[0]
        length, offset = struct.unpack(">II", desc[20:28])
        name = desc[offset:offset + length].decode("utf-16-be") if n_rec else ""
    elif desc[:4] == b"desc":
        length = struct.unpack(">I", desc[8:12])[0]
        name = desc[12:12 + length].rstrip(b"\x00").decode("latin-1")
    columns = [xyz("rXYZ"), xyz("gXYZ"), xyz("bXYZ")]
    matrix = [[columns[c][r] for c in range(3)] for r in range(3)]
    return {"name": name, "matrix": matrix, "trc": [trc("rTRC"), trc("gTRC"), trc("bTRC")]}


def to_xyz(profile, rgb):
    lin = [profile["trc"][i](max(0.0, min(1.0, rgb[i]))) for i in range(3)]
    return [sum(profile["matrix"][r][c] * lin[c] for c in range(3)) for r in range(3)]


def invert3(m):
    a, b, c = m[0]; d, e, f = m[1]; g, h, i = m[2]
    det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    return [[(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det],
            [(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det],
            [(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det]]


def clip_into(profile, xyz):
    """The colour a relative-colorimetric conversion into `profile` keeps: linear RGB clipped."""
    lin = [sum(row[c] * xyz[c] for c in range(3)) for row in invert3(profile["matrix"])]
    lin = [max(0.0, min(1.0, v)) for v in lin]
    return [sum(profile["matrix"][r][c] * lin[c] for c in range(3)) for r in range(3)]


D50 = (0.9642, 1.0, 0.8249)


def lab(xyz):
    def f(t):
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29
    fx, fy, fz = (f(xyz[i] / D50[i]) for i in range(3))
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def de2000(l1, l2):
    L1, a1, b1 = l1; L2, a2, b2 = l2
    C1, C2 = math.hypot(a1, b1), math.hypot(a2, b2)
    Cm = (C1 + C2) / 2
    G = 0.5 * (1 - math.sqrt(Cm ** 7 / (Cm ** 7 + 25 ** 7)))
    a1p, a2p = (1 + G) * a1, (1 + G) * a2
    C1p, C2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360
    h2p = math.degrees(math.atan2(b2, a2p)) % 360
    dLp, dCp = L2 - L1, C2p - C1p
    dhp = 0 if C1p * C2p == 0 else (h2p - h1p if abs(h2p - h1p) <= 180 else h2p - h1p - 360 if h2p > h1p else h2p - h1p + 360)
    dHp = 2 * math.sqrt(C1p * C2p) * math.sin(math.radians(dhp / 2))
    Lpm, Cpm = (L1 + L2) / 2, (C1p + C2p) / 2
    if C1p * C2p == 0:
        hpm = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hpm = (h1p + h2p) / 2
    else:
        hpm = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    T = (1 - 0.17 * math.cos(math.radians(hpm - 30)) + 0.24 * math.cos(math.radians(2 * hpm))
         + 0.32 * math.cos(math.radians(3 * hpm + 6)) - 0.20 * math.cos(math.radians(4 * hpm - 63)))
    dtheta = 30 * math.exp(-(((hpm - 275) / 25) ** 2))
    Rc = 2 * math.sqrt(Cpm ** 7 / (Cpm ** 7 + 25 ** 7))
    Sl = 1 + 0.015 * (Lpm - 50) ** 2 / math.sqrt(20 + (Lpm - 50) ** 2)
    Sc, Sh = 1 + 0.045 * Cpm, 1 + 0.015 * Cpm * T
    Rt = -math.sin(math.radians(2 * dtheta)) * Rc
    return math.sqrt((dLp / Sl) ** 2 + (dCp / Sc) ** 2 + (dHp / Sh) ** 2 + Rt * (dCp / Sc) * (dHp / Sh))


# --- reading photos --------------------------------------------------------------------------

def embedded_icc(path):
    return subprocess.run(["exiftool", "-icc_profile", "-b", path], check=True, capture_output=True).stdout


def read_pixels(path, tmp):
    """(width, height, maxval, get(x, y) -> (r, g, b) code values)."""
    ext = os.path.splitext(path)[1].lower()
    if ext in (".tif", ".tiff"):
        raw = os.path.join(tmp, "photo.rgb")
        info = subprocess.run(["identify", "-format", "%w %h %z", path], check=True, capture_output=True, text=True).stdout.split()
        w, h, depth = int(info[0]), int(info[1]), int(info[2])
        subprocess.run(["convert", path, "-depth", "16", "-endian", "LSB", "rgb:" + raw], check=True)
        data = open(raw, "rb").read()
        return w, h, 65535, depth, lambda x, y: struct.unpack_from("<HHH", data, (y * w + x) * 6)
    from PIL import Image
    if ext == ".heic":
        png = os.path.join(tmp, "photo.png")
        subprocess.run(["heif-convert", path, png], check=True, capture_output=True)
        path = png
    image = Image.open(path).convert("RGB")
    pixels = image.load()
    return image.width, image.height, 255, 8, lambda x, y: pixels[x, y]


def measure(photo, layout_path):
    layout = json.load(open(layout_path))
    chart_profile = parse_icc(open(layout["icc"], "rb").read())
    icc = embedded_icc(photo)
    profile = parse_icc(icc)
    result = {"profile": profile["name"], "patches": []}
    with tempfile.TemporaryDirectory() as tmp:
        w, h, maxval, depth, get = read_pixels(photo, tmp)
        result.update({"width": w, "height": h, "depth": depth})
        sx, sy = w / layout["width"], h / layout["height"]
        for patch in layout["patches"]:
            cx, cy, r = int(patch["x"] * sx), int(patch["y"] * sy), max(1, int(patch["radius"] * min(sx, sy)))
            samples = [get(x, y) for y in range(cy - r, cy + r) for x in range(cx - r, cx + r)]
            mean = [sum(s[c] for s in samples) / len(samples) / maxval for c in range(3)]
            expected_xyz = to_xyz(chart_profile, patch["p3"])
            clipped = clip_into(profile, expected_xyz)
            got = lab(to_xyz(profile, mean))
            result["patches"].append({"name": patch["name"], "rgb": mean, "lab": got,
                                      "deltaE": de2000(lab(expected_xyz), got),
                                      "deltaEClipped": de2000(lab(clipped), got),
                                      "inGamut": max(abs(a - b) for a, b in zip(clipped, expected_xyz)) < 1e-4})
        gy = int(layout["gradient"]["y"] * sy)
        row = [get(x, gy)[1] for x in range(w)]
        result["gradient"] = {"distinct": len(set(row)), "width": w, "first": row[0], "last": row[-1]}
    print(json.dumps(result))


if __name__ == "__main__":
    if sys.argv[1] == "chart":
        chart(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
    elif sys.argv[1] == "measure":
        measure(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "png":
        png_file(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), [int(v) for v in sys.argv[5].split(",")],
                 sys.argv[6] if len(sys.argv) > 6 else None)
    elif sys.argv[1] == "oversized":
        oversized(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif sys.argv[1] == "marked":
        marked(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif sys.argv[1] == "shown":
        shown(sys.argv[2])
    elif sys.argv[1] == "halves":
        halves(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        raise SystemExit(__doc__)
