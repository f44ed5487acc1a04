#!/usr/bin/python3
"""Publish latency of LL-HLS parts PUT to `reel serve` (standard library only).

    ll_latency.py --log ACCESS_LOG --www DATA [--fps 30] [--viewers-json ID=FILE]
                  [--csv FILE] CANDIDATE [BASELINE]

The part-aware variant of bench/latency.py. Each ID is a stream `reel live --low-latency`
published to `reel serve`; its final playlist is DATA/streams/ID/playlist.m3u8 and the
access log is reel serve's (the time a request ended, to the millisecond; client; method;
path without the query; status; bytes; duration).

For part P of segment k (streams/ID/part/00000k.P.m4s):

  captured(k.P) = PROGRAM-DATE-TIME(k) + the durations of parts 0..P - one frame
                  (the capture time of the part's last frame, as the stream states it).
                  The final playlist lists the parts of its last segments only (those ending
                  within three target durations of its end); for older segments every part
                  but the last lasts the nominal part length (the listed parts' DURATION
                  rounded to whole frames: ten frames at 30 fps, which is how reel live cuts
                  them from a steady source) and the last one ends with the segment's EXTINF.
  stored(k.P)   = the end of the first successful PUT of the part.
  listed(k.P)   = the end of the first successful playlist PUT that *began* after the part
                  was stored. reel live renders a playlist when it starts its PUT, from the
                  parts whose PUTs it has seen succeed, and keeps one playlist PUT in flight;
                  reel serve's log has no Content-Length, so the listing PUT is found by time
                  (begin = end - duration) rather than by size as latency.py does.
  latency(k.P)  = listed(k.P) - captured(k.P)   (listed >= stored, so this is when a player
                                                 can first know of it and fetch it)

Segments get the same treatment (captured = PDT + EXTINF - one frame), for reference.

With --viewers-json ID=FILE (bench/ll_viewers.py's JSON of the viewers watching ID):
  answer delay   = when a viewer's playlist answer first listing the part arrived - stored(k.P)
                   (also - listed(k.P): how long the origin took to release a held reload)
  part at viewer = when a viewer had read the part's body - captured(k.P)
over every (viewer, part) pair, and the origin's answers to the viewers by status from the log.
"""
import argparse
import datetime as dt
import json
import re
import sys
import urllib.parse

sys.dont_write_bytecode = True  # no bench/__pycache__ in the work tree
sys.path.insert(0, __import__("os").path.dirname(__file__))
from latency import parse_date, percentile  # noqa: E402

PART_RE = re.compile(r"/part/(\d+)\.(\d+)\.m4s$")
SEG_RE = re.compile(r"/seg/(\d+)\.m4s$")


def read_log(path):
    """reel serve's access log: `2026-11-30T03:40:00.123Z 127.0.0.1 PUT /streams/a/x 201 0 3.2ms`."""
    rows = []
    for line in open(path, encoding="utf-8", errors="replace"):
        f = line.split()
        if len(f) < 7:
            continue
        try:
            end = dt.datetime.fromisoformat(f[0].replace("Z", "+00:00")).timestamp()
            took = float(f[6][:-2]) / 1000 if f[6].endswith("ms") else 0.0
            rows.append((end, f[1], f[2], urllib.parse.unquote(f[3]), f[4], took))
        except ValueError:
            continue
    return rows


def read_playlist(path):
    """Segments of the final playlist: msn, PDT, EXTINF, listed part durations (or None)."""
    segments, parts, pdt = [], [], None
    for line in open(path, encoding="utf-8"):
        s = line.strip()
        if s.startswith("#EXT-X-PROGRAM-DATE-TIME:"):
            pdt = parse_date(s.split(":", 1)[1])
        elif s.startswith("#EXT-X-PART:"):
            parts.append(float(re.search(r"DURATION=([0-9.]+)", s).group(1)))
        elif s.startswith("#EXTINF:"):
            extinf = float(s.split(":", 1)[1].split(",")[0])
        elif s and not s.startswith("#"):
            m = SEG_RE.search("/" + s)
            segments.append({"msn": int(m.group(1)), "pdt": pdt, "extinf": extinf, "parts": parts or None})
            parts, pdt = [], None
    return segments, "#EXT-X-ENDLIST" in open(path, encoding="utf-8").read()


def analyse(stream, log, www, fps):
    prefix = f"/streams/{stream}/"
    playlist_path = prefix + "playlist.m3u8"
    frame = 1.0 / fps
    segments, ended = read_playlist(f"{www}/streams/{stream}/playlist.m3u8")
    listed_durations = [d for s in segments if s["parts"] for d in s["parts"][:-1]]
    if listed_durations:
        nominal = round(sorted(listed_durations)[len(listed_durations) // 2] * fps) / fps
    else:
        nominal = 10 / fps
    part_stored, seg_stored, playlist_puts, failed = {}, {}, [], 0
    part_put_ms, playlist_put_ms = [], []  # reel serve's own time for each PUT (its log's duration)
    for end, client, method, uri, status, took in log:
        if method != "PUT" or not uri.startswith(prefix):
            continue
        if not status.startswith("2"):
            failed += 1
            continue
        m = PART_RE.search(uri)
        if m:
            part_stored.setdefault((int(m.group(1)), int(m.group(2))), end)
        elif SEG_RE.search(uri):
            seg_stored.setdefault(int(SEG_RE.search(uri).group(1)), end)
        elif uri == playlist_path:
            playlist_puts.append((end - took, end))
        if PART_RE.search(uri):
            part_put_ms.append(took * 1000)
        elif uri == playlist_path:
            playlist_put_ms.append(took * 1000)

    ambiguous = 0

    def listed_after(stored):
        # The log's end times are to the millisecond and are taken after the answer is queued,
        # so a playlist PUT that reel live began on the part's 201 can appear to begin up to
        # a few ms before the part's logged end: 3 ms are allowed (counted as "ambiguous").
        nonlocal ambiguous
        for b, e in playlist_puts:
            if b >= stored - 0.003:
                ambiguous += b < stored
                return e
        return None

    parts, segs, problems = [], [], []
    skipped = 0
    for s in segments:
        if s["pdt"] is None:
            problems.append(f"segment {s['msn']} has no PROGRAM-DATE-TIME")
            continue
        count = len(s["parts"]) if s["parts"] else max(1, round(s["extinf"] / nominal))
        offset = 0.0
        for p in range(count):
            if s["parts"]:
                offset += s["parts"][p]
            else:
                offset = s["extinf"] if p == count - 1 else offset + nominal
            key = (s["msn"], p)
            if key not in part_stored:
                skipped += 1
                continue
            captured = s["pdt"] + offset - frame
            listed = listed_after(part_stored[key])
            if listed is None:
                problems.append(f"part {s['msn']}.{p} is in no playlist PUT after it was stored")
                continue
            parts.append({"key": f"{s['msn']}.{p}", "captured": captured, "stored": part_stored[key], "listed": listed})
        if s["msn"] in seg_stored:
            listed = listed_after(seg_stored[s["msn"]])
            if listed is not None:
                segs.append({"msn": s["msn"], "captured": s["pdt"] + s["extinf"] - frame, "listed": listed})
    return {"stream": stream, "segments": len(segments), "ended": ended, "nominal": nominal, "parts": parts,
            "segs": segs, "part_put_ms": part_put_ms, "playlist_put_ms": playlist_put_ms, "skipped": skipped, "ambiguous": ambiguous, "failed": failed, "playlist_puts": len(playlist_puts),
            "problems": problems, "lat": [r["listed"] - r["captured"] for r in parts],
            "stored_lat": [r["stored"] - r["captured"] for r in parts],
            "seg_lat": [r["listed"] - r["captured"] for r in segs]}


def viewer_delays(result, path, log):
    data = json.load(open(path))
    t0 = data["t0"]
    by_key = {r["key"]: r for r in result["parts"]}
    answer, answer_listed, at_viewer, early = [], [], [], 0
    for key, stamps in data["listed_seen"].items():
        r = by_key.get(key)
        if r is None:
            continue
        for ms in stamps:
            t = t0 + ms / 1000
            answer.append(t - r["stored"])
            answer_listed.append(t - r["listed"])
            if t < r["listed"] - 0.010:
                early += 1  # a viewer saw it listed before the PUT this script calls the listing one
    for key, stamps in data["part_done"].items():
        r = by_key.get(key)
        if r is None:
            continue
        at_viewer.extend(t0 + ms / 1000 - r["captured"] for ms in stamps)
    prefix = f"/streams/{result['stream']}/"
    statuses, held, playlist_gets = {}, 0, 0
    for end, client, method, uri, status, took in log:
        if method == "GET" and uri.startswith(prefix):
            what = "playlist" if uri.endswith(".m3u8") else "part" if "/part/" in uri else "other"
            statuses[f"{what} {status}"] = statuses.get(f"{what} {status}", 0) + 1
            if what == "playlist" and status == "200":
                playlist_gets += 1
                held += took > 0.010
    return {"answer": answer, "answer_listed": answer_listed, "at_viewer": at_viewer, "early": early,
            "statuses": statuses, "held": held, "playlist_gets": playlist_gets, "data": data}


def fmt(x):
    return f"{x:.3f}" if x == x else "nan"


def line(name, values, width, unit="s"):
    return (f"    {name:{width}}  {len(values):8d}  {fmt(percentile(values, 50)):7} {fmt(percentile(values, 95)):7} "
            f"{fmt(max(values) if values else float('nan')):7}")


def main():
    ap = argparse.ArgumentParser(description="LL-HLS part publish latency from reel serve's access log")
    ap.add_argument("--log", required=True)
    ap.add_argument("--www", required=True, help="reel serve's data folder")
    ap.add_argument("--fps", type=float, default=30)
    ap.add_argument("--viewers-json", action="append", default=[], help="ID=FILE from bench/ll_viewers.py")
    ap.add_argument("--csv", help="write per-part rows here")
    ap.add_argument("streams", nargs="+")
    args = ap.parse_args()
    log = read_log(args.log)
    results = [analyse(s, log, args.www, args.fps) for s in args.streams]
    width = max(max(len(r["stream"]) for r in results), 14)

    if args.csv:
        with open(args.csv, "w") as f:
            f.write("stream,part,captured,stored,listed,latency\n")
            for r in results:
                for p in r["parts"]:
                    f.write(f"{r['stream']},{p['key']},{p['captured']:.3f},{p['stored']:.3f},{p['listed']:.3f},"
                            f"{p['listed'] - p['captured']:.3f}\n")

    def table(key, title, unit="parts"):
        print(f"  {title}")
        print(f"    {'':{width}}  {unit:>8}  p50 s   p95 s   max s")
        for r in results:
            print(line(r["stream"], r[key], width))
        if len(results) >= 2 and results[0][key] and results[1][key]:
            a, b = results[0], results[1]
            print(f"    {a['stream'] + '/' + b['stream']:{width}}  p50 {percentile(a[key], 50) / percentile(b[key], 50):.2f}x, "
                  f"p95 {percentile(a[key], 95) / percentile(b[key], 95):.2f}x")

    table("lat", "part publish latency = listed (end of the first playlist PUT begun after the part was stored) - capture of its last frame:")
    table("stored_lat", "part stored - capture of its last frame (the part PUT alone):")
    table("seg_lat", "segment publish latency (listed - capture of its last frame), for reference:", "segments")
    print("  checks:")
    bad = False
    for r in results:
        notes = [f"{r['segments']} segments, {len(r['parts'])} parts measured (nominal {r['nominal'] * 1000:.1f} ms)",
                 f"{r['skipped']} parts never stored (skipped by the publisher)",
                 f"{r['playlist_puts']} playlist PUTs ({r['ambiguous']} named as listing a part began 0-3 ms before "
                 f"its PUT's logged end)", f"{r['failed']} failed PUTs",
                 "ENDLIST" if r["ended"] else "NO ENDLIST"]
        print(f"    {r['stream']}: " + "; ".join(notes))
        print(f"    {r['stream']}: reel serve's time per PUT (the duration its log gives): part p50 "
              f"{percentile(r['part_put_ms'], 50):.1f} ms p95 {percentile(r['part_put_ms'], 95):.1f} ms max "
              f"{max(r['part_put_ms'], default=float('nan')):.1f} ms; playlist p50 {percentile(r['playlist_put_ms'], 50):.1f} ms "
              f"p95 {percentile(r['playlist_put_ms'], 95):.1f} ms max {max(r['playlist_put_ms'], default=float('nan')):.1f} ms")
        for p in r["problems"][:5]:
            print(f"    {r['stream']}: PROBLEM: {p}")
        bad = bad or bool(r["problems"]) or not r["lat"]
    for spec in args.viewers_json:
        stream, path = spec.split("=", 1)
        r = next(x for x in results if x["stream"] == stream)
        v = viewer_delays(r, path, log)
        d = v["data"]
        print(f"  the viewers of {stream} ({d['viewers']} simulated LL-HLS players, mode {d['mode']}; every (viewer, part) pair):")
        print(f"    {'':{width}}  {'samples':>8}  p50 s   p95 s   max s")
        print(line("answer-stored", v["answer"], width) + "   (playlist answer first listing the part - part stored)")
        print(line("answer-listed", v["answer_listed"], width) + "   (the same - listing playlist stored)")
        print(line("part-captured", v["at_viewer"], width) + "   (part body read by the viewer - capture of its last frame)")
        print(f"    cross-check: {v['early']} answers arrived over 10 ms before the end of the playlist PUT this script "
              f"names as listing the part (0 expected: else the listing rule is late)")
        print(f"    origin's answers to GETs under /streams/{stream}/ (access log): "
              + ", ".join(f"{k}: {n}" for k, n in sorted(v["statuses"].items())))
        print(f"    held by the origin: {v['held']} of {v['playlist_gets']} playlist answers took over 10 ms in reel serve "
              f"(its log's duration): the rest were answered at once, the part being listed already when the "
              f"reload came (viewers behind the live edge)")
        blocking = {k: n for k, n in d["counts"].items() if k.startswith("blocking")}
        print(f"    viewers: {d['connected']} of {d['viewers']} got the stream, {d['finished']} saw ENDLIST, "
              f"{d['connections']} connections; blocking reloads {blocking}; part GETs {d['counts'].get('part 200', 0)}; "
              f"errors {d['errors'] or 0}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
