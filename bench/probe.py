#!/usr/bin/python3
"""Checks a media output with ffprobe and prints one line about it (standard library only).

    probe.py FILE_OR_PLAYLIST --video h264 --size 720x1280 --duration 60 [--frames 1800]

Prints e.g. "ok: h264 720x1280 + aac 48000 Hz 2 ch, 60.00 s, 1800 video packets" and exits
0, or prints "PROBLEM: ..." and exits 1. Video packets are counted without decoding
(ffprobe -count_packets); every warning ffprobe prints is reported.
"""
import argparse
import json
import subprocess
import sys


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path")
    parser.add_argument("--video", required=True, help="expected video codec (h264, hevc)")
    parser.add_argument("--size", required=True, help="expected WxH")
    parser.add_argument("--audio", default="aac", help="expected audio codec (default aac)")
    parser.add_argument("--duration", type=float, required=True, help="expected seconds")
    parser.add_argument("--tolerance", type=float, default=0.5, help="seconds (default 0.5)")
    parser.add_argument("--frames", type=int, help="expected video packets")
    args = parser.parse_args()

    run = subprocess.run(
        ["ffprobe", "-v", "warning", "-count_packets", "-show_entries",
         "format=duration:stream=codec_type,codec_name,width,height,sample_rate,channels,nb_read_packets",
         "-of", "json", args.path],
        capture_output=True, text=True)
    problems = []
    warnings = [line for line in run.stderr.splitlines() if line.strip()]
    if run.returncode != 0:
        print(f"PROBLEM: ffprobe failed ({run.returncode}): {' / '.join(warnings[-3:])}")
        return 1
    info = json.loads(run.stdout or "{}")
    streams = info.get("streams", [])
    video = [s for s in streams if s.get("codec_type") == "video"]
    audio = [s for s in streams if s.get("codec_type") == "audio"]
    duration = float(info.get("format", {}).get("duration", "nan"))

    desc = []
    if not video:
        problems.append("no video stream")
    else:
        v = video[0]
        size = f"{v.get('width')}x{v.get('height')}"
        desc.append(f"{v.get('codec_name')} {size}")
        if v.get("codec_name") != args.video:
            problems.append(f"video codec {v.get('codec_name')}, expected {args.video}")
        if size != args.size:
            problems.append(f"video size {size}, expected {args.size}")
    if not audio:
        problems.append("no audio stream")
    else:
        a = audio[0]
        desc.append(f"{a.get('codec_name')} {a.get('sample_rate')} Hz {a.get('channels')} ch")
        if a.get("codec_name") != args.audio:
            problems.append(f"audio codec {a.get('codec_name')}, expected {args.audio}")
    text = " + ".join(desc) + f", {duration:.2f} s"
    if not abs(duration - args.duration) <= args.tolerance:
        problems.append(f"duration {duration:.2f} s, expected {args.duration:.2f} ± {args.tolerance} s")
    if video:
        packets = int(video[0].get("nb_read_packets", -1))
        text += f", {packets} video packets"
        if args.frames is not None and packets != args.frames:
            problems.append(f"{packets} video packets, expected {args.frames}")
    if warnings:
        problems.append(f"{len(warnings)} ffprobe warnings, first: {warnings[0]}")
    if problems:
        print(f"PROBLEM: {text}: " + "; ".join(problems))
        return 1
    print(f"ok: {text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
