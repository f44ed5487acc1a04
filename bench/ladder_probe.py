#!/usr/bin/python3
"""Checks an HLS ABR ladder with ffprobe and prints one line per rung (standard library only).

    ladder_probe.py MULTIVARIANT.m3u8 --rung high=720x1280 --rung medium=720x1280 \\
        --rung low=480x854 --frames 1800 --gop 60 [--same-keyframes]

Reads the multivariant playlist (EXT-X-STREAM-INF + URI), finds each expected rung by its
folder name in the URI (high/playlist.m3u8), and probes each variant playlist: video h264 at
the rung's size, an audio stream (aac), the video frame count (packets, not decoded) within
--slack (2) of --frames, and key frames exactly every --gop frames (frame 0, 60, 120, ...).
With --same-keyframes, every rung's key frames must also be at the same presentation times.
Prints the rungs' figures (size, frames, key frames, measured video kbps), then "ok" or
"PROBLEM: ..." as the last line; exits 0 or 1.
"""
import argparse
import json
import os
import subprocess
import sys


def variants(master: str) -> dict:
    """URI -> the EXT-X-STREAM-INF attributes, as written."""
    found, pending = {}, None
    with open(master, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line.startswith("#EXT-X-STREAM-INF:"):
                pending = line.split(":", 1)[1]
            elif line and not line.startswith("#") and pending is not None:
                found[line] = pending
                pending = None
    return found


def probe(path: str):
    streams = subprocess.run(
        ["ffprobe", "-v", "error", "-show_entries", "stream=index,codec_type,codec_name,width,height",
         "-of", "json", path], capture_output=True, text=True, check=True)
    info = json.loads(streams.stdout or "{}").get("streams", [])
    packets = subprocess.run(
        ["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
         "packet=pts_time,flags,size", "-of", "csv=p=0", path],
        capture_output=True, text=True, check=True)
    rows = []
    for line in packets.stdout.splitlines():
        parts = line.split(",")
        if len(parts) >= 3:
            rows.append((float(parts[0]), int(parts[1]), "K" in parts[2]))
    return info, rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("master")
    parser.add_argument("--rung", action="append", required=True, help="NAME=WxH")
    parser.add_argument("--frames", type=int, required=True)
    parser.add_argument("--slack", type=int, default=2)
    parser.add_argument("--gop", type=int, required=True)
    parser.add_argument("--same-keyframes", action="store_true")
    args = parser.parse_args()

    problems, keytimes = [], {}
    try:
        listed = variants(args.master)
    except OSError as e:
        print(f"PROBLEM: no multivariant playlist: {e}")
        return 1
    if len(listed) != len(args.rung):
        problems.append(f"{len(listed)} variants listed, expected {len(args.rung)}")
    base = os.path.dirname(args.master)
    for spec in args.rung:
        name, size = spec.split("=")
        uri = next((u for u in listed if u.split("/")[0] == name), None)
        if uri is None:
            problems.append(f"{name}: not listed")
            continue
        try:
            info, rows = probe(os.path.join(base, uri))
        except subprocess.CalledProcessError as e:
            problems.append(f"{name}: ffprobe failed: {e.stderr.strip()[-200:]}")
            continue
        video = [s for s in info if s.get("codec_type") == "video"]
        audio = [s for s in info if s.get("codec_type") == "audio"]
        got = f"{video[0].get('width')}x{video[0].get('height')}" if video else "none"
        if not video or video[0].get("codec_name") != "h264" or got != size:
            problems.append(f"{name}: video {video[0].get('codec_name') if video else 'none'} {got}, expected h264 {size}")
        if not audio or audio[0].get("codec_name") != "aac":
            problems.append(f"{name}: no aac audio")
        rows.sort(key=lambda r: r[0])  # presentation order (no B-frames: the same as decode order)
        n = len(rows)
        if abs(n - args.frames) > args.slack:
            problems.append(f"{name}: {n} frames, expected {args.frames} ± {args.slack}")
        keys = [i for i, r in enumerate(rows) if r[2]]
        want = list(range(0, n, args.gop))
        if keys != want:
            odd = sorted(set(keys) ^ set(want))[:5]
            problems.append(f"{name}: key frames not every {args.gop} frames ({len(keys)} key frames; first differences at frames {odd})")
        keytimes[name] = [round(rows[i][0], 3) for i in keys]
        seconds = (rows[-1][0] - rows[0][0]) * n / (n - 1) if n > 1 else 0
        kbps = sum(r[1] for r in rows) * 8 / seconds / 1000 if seconds > 0 else 0
        print(f"{name} {got} {n} frames, {len(keys)} key frames, video {kbps:.0f} kbps, first pts {rows[0][0] if rows else 0:.3f} s")
    if len(keytimes) > 1:
        sets = list(keytimes.values())
        same = all(s == sets[0] for s in sets)
        print("key frames: " + ("at the same times in every rung" if same else "NOT at the same times in every rung: " +
              "; ".join(f"{k} {v[:4]}" for k, v in keytimes.items())))
        if args.same_keyframes and not same:
            problems.append("the rungs' key frames are not at the same times")
    if problems:
        print("PROBLEM: " + "; ".join(problems))
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
