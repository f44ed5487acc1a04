#!/usr/bin/python3
"""Publish latency of HLS streams PUT to a local origin (standard library only).

    latency.py --log ORIGIN/logs/access.log --www ORIGIN/www [--fps 30]
               [--log-format nginx|reel] [--goal-ratio R]
               [--started ID=UNIX_TIME ...] CANDIDATE [BASELINE]

Each ID is a stream under /streams/ID/ on the origin; its final playlist is read from
WWW/streams/ID/playlist.m3u8. The access log is the tab-separated one of
scripts/nginx-origin.sh: msec, method, uri, status, body_bytes_sent, request_length,
content_length, request_time (msec = when nginx finished the request, i.e. stored the file);
or, with --log-format reel, the access log of `reel serve` (time the request ended, with
milliseconds; client; method; path; status; bytes; duration), which has no Content-Length,
so playlist PUTs are counted by order (see below).

For each segment k of the final playlist:

  captured(k)  = EXT-X-PROGRAM-DATE-TIME(k) + EXTINF(k) - one frame
                 (the wall-clock capture time of its last frame, as the stream states it)
  stored(k)    = msec of the first successful PUT of the segment's URI
  listed(k)    = msec of the first successful playlist PUT that lists segment k
  available(k) = max(stored(k), listed(k))       when a player can first fetch it
  latency(k)   = available(k) - captured(k)

Which segments a playlist PUT lists is read from its size: the final playlist gives every
earlier version byte for byte (the header, then one block per segment, without ENDLIST), so a
PUT whose Content-Length equals the size of the version with n segments listed n. A PUT
whose size matches no version is counted by order instead (it lists the segments whose PUTs
completed before it) and reported as unverified.

The brief's simpler rule, "the first playlist PUT after segment k's PUT", is printed too: it
equals available(k) when a publisher PUTs each segment before the playlist that lists it
(Reel), but not for ffmpeg's HLS muxer, which PUTs the playlist listing segment k just
*before* segment k, so that rule would charge ffmpeg a whole segment more.
"""
import argparse
import datetime as dt
import re
import statistics
import sys
import urllib.parse

SEGMENT_TAGS = ("#EXTINF", "#EXT-X-PROGRAM-DATE-TIME", "#EXT-X-DISCONTINUITY", "#EXT-X-BYTERANGE",
                "#EXT-X-GAP", "#EXT-X-KEY", "#EXT-X-BITRATE")


def parse_date(text):
    text = text.strip().replace("Z", "+00:00")
    text = re.sub(r"([+-]\d\d)(\d\d)$", r"\1:\2", text)  # +0000 -> +00:00 (ffmpeg)
    return dt.datetime.fromisoformat(text).timestamp()


class Playlist:
    """The final playlist: header, one block of lines per segment, trailer (ENDLIST)."""

    def __init__(self, path):
        raw = open(path, "rb").read()
        lines = raw.decode("utf-8").splitlines(keepends=True)
        self.header, self.blocks, self.trailer = b"", [], b""
        block, started = [], False
        for line in lines:
            s = line.strip()
            if not started and not s.startswith(SEGMENT_TAGS):
                if s.startswith("#") or not s:
                    self.header += line.encode()
                    continue
            started = True
            block.append(line)
            if s and not s.startswith("#"):
                self.blocks.append(block)
                block = []
        self.trailer = "".join(block).encode()
        self.segments = []
        for b in self.blocks:
            seg = {"uri": b[-1].strip(), "pdt": None, "extinf": None, "bytes": len("".join(b).encode())}
            for line in b:
                if line.startswith("#EXT-X-PROGRAM-DATE-TIME:"):
                    seg["pdt"] = parse_date(line.split(":", 1)[1])
                elif line.startswith("#EXTINF:"):
                    seg["extinf"] = float(line.split(":", 1)[1].split(",")[0])
            self.segments.append(seg)
        self.endlist = b"#EXT-X-ENDLIST" in self.trailer
        # size of the version listing n segments, with and without the trailer
        self.sizes = {}
        size = len(self.header)
        self.sizes[size] = 0
        for n, seg in enumerate(self.segments, start=1):
            size += seg["bytes"]
            self.sizes.setdefault(size, n)
        self.sizes.setdefault(size + len(self.trailer), len(self.segments))


def percentile(values, p):
    v = sorted(values)
    if not v:
        return float("nan")
    k = (len(v) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)


def analyse(stream, log, www, fps, started):
    prefix = f"/streams/{stream}/"
    playlist_uri = prefix + "playlist.m3u8"
    pl = Playlist(f"{www}/streams/{stream}/playlist.m3u8")
    mine = [r for r in log if r["uri"].startswith(prefix) and r["method"] == "PUT" and r["status"].startswith("2")]
    failed = [r for r in log if r["uri"].startswith(prefix) and r["method"] == "PUT" and not r["status"].startswith("2")]
    seg_uris = {urllib.parse.urljoin(playlist_uri, s["uri"]): i for i, s in enumerate(pl.segments, start=1)}

    # Log lines are in completion order: "after" means a later line (same-ms ties kept in order).
    stored = {}          # k -> (msec, line index) of its first successful PUT
    playlists = []       # (msec, line index, listed_by_size or None, listed_by_order)
    for i, r in enumerate(mine):
        if r["uri"] in seg_uris:
            stored.setdefault(seg_uris[r["uri"]], (r["msec"], i))
        elif r["uri"] == playlist_uri:
            by_size = pl.sizes.get(r["content_length"]) if r["content_length"] is not None else None
            playlists.append((r["msec"], i, by_size, len(stored)))

    frame = 1.0 / fps
    rows, problems = [], []
    verified = sum(1 for p in playlists if p[2] is not None)
    more = sum(1 for p in playlists if p[2] is not None and p[2] > p[3])
    fewer = sum(1 for p in playlists if p[2] is not None and p[2] < p[3])
    for k, seg in enumerate(pl.segments, start=1):
        if seg["pdt"] is None or seg["extinf"] is None:
            problems.append(f"segment {k} has no PROGRAM-DATE-TIME or EXTINF")
            continue
        if k not in stored:
            problems.append(f"segment {k} ({seg['uri']}) has no successful PUT in the log")
            continue
        captured = seg["pdt"] + seg["extinf"] - frame
        t_stored, i_stored = stored[k]
        listing = next((p for p in playlists if (p[2] if p[2] is not None else p[3]) >= k), None)
        after = next((p for p in playlists if p[1] > i_stored), None)
        if listing is None:
            problems.append(f"segment {k} is in no playlist PUT")
            continue
        rows.append({"k": k, "captured": captured, "stored": t_stored, "listed": listing[0],
                     "listed_first": listing[1] < i_stored,
                     "available": max(t_stored, listing[0]),
                     "brief": after[0] if after is not None else None})
    lat = [r["available"] - r["captured"] for r in rows]
    # Tool-neutral: a real-time reader cannot have read the last frame of segment k before
    # launch + (media time at its end) - one frame. Includes the tool's start-up.
    launch = []
    if stream in started:
        end = 0.0
        media_end = {}
        for k, seg in enumerate(pl.segments, start=1):
            end += seg["extinf"] or 0.0
            media_end[k] = end
        launch = [r["available"] - (started[stream] + media_end[r["k"]] - frame) for r in rows]
    brief = [r["brief"] - r["captured"] for r in rows if r["brief"] is not None]
    listed_first = sum(1 for r in rows if r["listed_first"])
    # PDT continuity: each segment should start where the previous one ended.
    gaps = [abs(b["pdt"] - (a["pdt"] + a["extinf"])) for a, b in zip(pl.segments, pl.segments[1:])
            if a["pdt"] is not None and b["pdt"] is not None]
    out = {
        "stream": stream, "segments": len(pl.segments), "playlist_puts": len(playlists),
        "verified": verified, "more": more, "fewer": fewer, "endlist": pl.endlist, "failed": len(failed),
        "lat": lat, "launch": launch, "brief": brief, "listed_first": listed_first, "problems": problems,
        "pdt_gap_max": max(gaps) if gaps else 0.0, "rows": rows,
    }
    if stream in started and pl.segments and pl.segments[0]["pdt"] is not None:
        out["first_pdt_after_start"] = pl.segments[0]["pdt"] - started[stream]
        if rows:
            out["first_available_after_start"] = rows[0]["available"] - started[stream]
    return out


def read_reel_log(path):
    """reel serve's access log: `2026-11-30T03:40:00.123Z 127.0.0.1 PUT /streams/a/x 201 0 3.2ms`."""
    rows = []
    for line in open(path, encoding="utf-8", errors="replace"):
        f = line.split()
        if len(f) < 7:
            continue
        try:
            when = dt.datetime.fromisoformat(f[0].replace("Z", "+00:00")).timestamp()
            rows.append({"msec": when, "method": f[2], "uri": urllib.parse.unquote(f[3]), "status": f[4],
                         "content_length": None})
        except ValueError:
            continue
    return rows


def read_log(path):
    rows = []
    for line in open(path, encoding="utf-8", errors="replace"):
        f = line.rstrip("\n").split("\t")
        if len(f) < 8:
            continue
        try:
            cl = int(f[6]) if f[6] not in ("", "-") else None
            rows.append({"msec": float(f[0]), "method": f[1], "uri": f[2], "status": f[3],
                         "content_length": cl})
        except ValueError:
            continue
    return rows


def fmt(x):
    return f"{x:.3f}" if x == x else "nan"


def main():
    ap = argparse.ArgumentParser(description="HLS publish latency from an nginx access log")
    ap.add_argument("--log", required=True)
    ap.add_argument("--www", required=True)
    ap.add_argument("--fps", type=float, default=30)
    ap.add_argument("--started", action="append", default=[], help="ID=UNIX_TIME the process was launched")
    ap.add_argument("--csv", help="write per-segment rows here")
    ap.add_argument("--goal-p95", type=float, default=0.3, help="seconds (default 0.3)")
    ap.add_argument("--log-format", choices=["nginx", "reel"], default="nginx",
                    help="nginx: scripts/nginx-origin.sh's tab-separated log; reel: reel serve's access log")
    ap.add_argument("--goal-ratio", type=float,
                    help="instead of the p95 goals: PASS when CANDIDATE's p95 is at most this times BASELINE's")
    ap.add_argument("streams", nargs="+")
    args = ap.parse_args()
    started = {}
    for s in args.started:
        k, v = s.split("=", 1)
        started[k] = float(v)
    log = read_reel_log(args.log) if args.log_format == "reel" else read_log(args.log)
    results = [analyse(s, log, args.www, args.fps, started) for s in args.streams]

    if args.csv:
        with open(args.csv, "w") as f:
            f.write("stream,segment,captured,stored,listed,available,latency,brief_rule_latency\n")
            for r in results:
                for row in r["rows"]:
                    b = row["brief"] - row["captured"] if row["brief"] is not None else ""
                    f.write(f"{r['stream']},{row['k']},{row['captured']:.3f},{row['stored']:.3f},"
                            f"{row['listed']:.3f},{row['available']:.3f},"
                            f"{row['available'] - row['captured']:.3f},{b if b == '' else f'{b:.3f}'}\n")

    width = max(max(len(r["stream"]) for r in results), 12)

    def table(key, title):
        print(f"  {title}")
        print(f"    {'':{width}}  segments  p50 s   p95 s   max s")
        for r in results:
            v = r[key]
            print(f"    {r['stream']:{width}}  {len(v):8d}  {fmt(percentile(v, 50)):7} {fmt(percentile(v, 95)):7} "
                  f"{fmt(max(v) if v else float('nan')):7}")
        if len(results) >= 2 and results[0][key] and results[1][key]:
            a, b = results[0], results[1]
            r50 = percentile(a[key], 50) / percentile(b[key], 50)
            r95 = percentile(a[key], 95) / percentile(b[key], 95)
            name = f"{a['stream']}/{b['stream']}"
            print(f"    {name:{width}}  p50 {r50:.2f}x, p95 {r95:.2f}x")

    table("lat", "latency = available - last frame's capture time by the stream's PROGRAM-DATE-TIME:")
    if all(r["launch"] for r in results):
        table("launch", "latency from launch = available - (launch + media time of the last frame) (start-up included):")
    print("  checks:")
    for r in results:
        order_note = ""
        if not r["more"] and not r["fewer"]:
            order_note = " (each lists exactly the segments stored before it)"
        elif r["fewer"]:
            order_note = f" ({r['fewer']} miss a segment stored before them)"
        notes = [f"{r['playlist_puts']} playlist PUTs, {r['verified']} identified by size" + order_note,
                 "ENDLIST" if r["endlist"] else "NO ENDLIST",
                 f"{r['failed']} failed PUTs",
                 f"PROGRAM-DATE-TIME continuity within {r['pdt_gap_max'] * 1000:.0f} ms"]
        if r["listed_first"]:
            notes.append(f"{r['listed_first']} segments listed in a playlist stored before the segment itself")
        if "first_pdt_after_start" in r:
            notes.append(f"first segment's PROGRAM-DATE-TIME {r['first_pdt_after_start']:.2f} s after launch, "
                         f"available {r['first_available_after_start']:.2f} s after launch")
        print(f"    {r['stream']}: " + "; ".join(notes))
        bl = r["brief"]
        if bl:
            print(f"    {r['stream']}: brief's rule (first playlist PUT after the segment's PUT): "
                  f"p50 {fmt(percentile(bl, 50))} s, p95 {fmt(percentile(bl, 95))} s, max {fmt(max(bl))} s")
        for p in r["problems"][:5]:
            print(f"    {r['stream']}: PROBLEM: {p}")
        if len(r["problems"]) > 5:
            print(f"    {r['stream']}: ... {len(r['problems']) - 5} more problems")
    bad = any(r["problems"] or not r["lat"] for r in results)
    a = results[0]
    verdict = []
    p95 = percentile(a["lat"], 95)
    verdict.append(f"{a['stream']} p95 {fmt(p95)} s {'<' if p95 < args.goal_p95 else '>='} {args.goal_p95} s")
    if len(results) >= 2:
        b = results[1]
        for key, what in (("lat", "by PROGRAM-DATE-TIME"), ("launch", "from launch")):
            if a[key] and b[key]:
                x, y = percentile(a[key], 95), percentile(b[key], 95)
                verdict.append(f"{what} {a['stream']} p95 is {'below' if x < y else 'NOT below'} {b['stream']}'s ({fmt(x)} vs {fmt(y)} s)")
    met = p95 < args.goal_p95 and (len(results) < 2 or percentile(a["lat"], 95) < percentile(results[1]["lat"], 95))
    if args.goal_ratio is not None and len(results) >= 2:
        ratio = p95 / percentile(results[1]["lat"], 95)
        verdict = [f"{a['stream']}/{results[1]['stream']} p95 {ratio:.2f}x ({fmt(p95)} vs {fmt(percentile(results[1]['lat'], 95))} s), "
                   f"goal at most {args.goal_ratio:.2f}x"]
        met = ratio <= args.goal_ratio
    print(f"result: {'PASS' if met and not bad else 'FAIL'}: " + "; ".join(verdict)
          + ("; latency.py found problems (see checks)" if bad else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
