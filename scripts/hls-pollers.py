#!/usr/bin/env python3
"""Many live-HLS players polling one playlist, and how fresh their answers were.

Usage: hls-pollers.py --url URL [--players 200] [--interval 1] [--seconds 20]
                      [--reference URL] [--reference-source 127.0.0.2] [--player-source ADDR]
                      [--origin-log FILE] [--answers FILE]

Each player (an asyncio task; one process for all, so 200 players cost no 200 processes) GETs
--url every --interval seconds from a random phase, half of them with Accept-Encoding: gzip,
and notes when it sent, when the answer was complete, the status, X-Cache-Status and the
newest segment the playlist lists (EXT-X-MEDIA-SEQUENCE + number of segments - 1). An answer
whose encoding is not the one asked for (gzip bytes without Content-Encoding, or gzip sent to
a player that did not accept it) counts as an error.

--reference: one more task GETs the origin's playlist directly every 50 ms from
--reference-source (another loopback address, so the origin's access log tells its requests
from the edge's). It brackets when each segment appeared on the origin: after the send time of
the last reference answer without it, no later than the receive time of the first one with it.

Freshness of a player's answer listing newest segment L: the origin had L+1 (something newer)
for at most  stale = recv - (send time of the last reference answer without L+1)  when the
player's answer was complete; 0 when the origin had nothing newer. This errs on the long side
(by up to one reference period and a round trip), never on the short one.

--origin-log: reel serve's access log; counts GETs of the playlist's path not made by the
reference (client != --reference-source) between the players' first send and last receive.

Prints one JSON object: players, answers, errors (first few), seconds, originPlaylistGets and
originGetsPerSecond, worstStaleSeconds (and the answer it was), cacheStatuses, newestSegment.
--answers FILE: every answer as one JSON line, for a closer look.
"""
import argparse
import asyncio
import gzip
import json
import random
import sys
import time
import urllib.parse


async def fetch(url, accept_gzip, source=None, timeout=5.0):
    """One GET over a new connection; returns (status, headers, body) with the body decoded."""
    parts = urllib.parse.urlsplit(url)
    local = (source, 0) if source else None
    reader, writer = await asyncio.wait_for(
        asyncio.open_connection(parts.hostname, parts.port or 80, local_addr=local), timeout)
    try:
        target = parts.path + ("?" + parts.query if parts.query else "")
        request = f"GET {target} HTTP/1.1\r\nHost: {parts.netloc}\r\nConnection: close\r\n"
        if accept_gzip:
            request += "Accept-Encoding: gzip\r\n"
        writer.write((request + "\r\n").encode())
        raw = await asyncio.wait_for(reader.read(-1), timeout)
    finally:
        writer.close()
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    if headers.get("transfer-encoding", "").lower() == "chunked":
        body = dechunk(body)
    return status, headers, body


def dechunk(data):
    out, rest = bytearray(), data
    while rest:
        size_line, _, rest = rest.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        out += rest[:size]
        rest = rest[size + 2:]
    return bytes(out)


def newest_segment(text):
    """EXT-X-MEDIA-SEQUENCE + number of segments - 1, or None without segments."""
    sequence, count = 0, 0
    for line in text.splitlines():
        if line.startswith("#EXT-X-MEDIA-SEQUENCE:"):
            sequence = int(line.split(":", 1)[1])
        elif line.startswith("#EXTINF:"):
            count += 1
    return sequence + count - 1 if count else None


async def ask(url, accept_gzip, source):
    """One poll: a record of it, with an error text when the answer is wrong."""
    sent = time.time()
    record = {"sent": sent, "gzip": accept_gzip}
    try:
        status, headers, body = await fetch(url, accept_gzip, source)
    except (OSError, asyncio.TimeoutError, ValueError, IndexError) as error:
        record.update(recv=time.time(), error=f"{type(error).__name__}: {error}")
        return record
    record.update(recv=time.time(), status=status, cache=headers.get("x-cache-status", "-"))
    encoded = headers.get("content-encoding", "") == "gzip"
    if encoded and not accept_gzip:
        record["error"] = "gzip sent to a player that did not accept it"
    elif not encoded and body[:2] == b"\x1f\x8b":
        record["error"] = "gzip bytes without Content-Encoding: gzip"
    elif status == 200:
        text = (gzip.decompress(body) if encoded else body).decode("utf-8", "replace")
        record["last"] = newest_segment(text)
    elif status != 404:  # 404: no playlist yet
        record["error"] = f"status {status}"
    return record


async def poll(url, interval, until, accept_gzip, source, phase, sink):
    await asyncio.sleep(phase)
    while time.time() < until:
        started = time.monotonic()
        sink.append(await ask(url, accept_gzip, source))
        await asyncio.sleep(max(0.0, interval - (time.monotonic() - started)))


def appeared(reference):
    """Segment -> send time of the last reference answer that did not list it yet (it appeared later)."""
    bound, newest, last_sent_without = {}, None, None
    for r in sorted((r for r in reference if "error" not in r), key=lambda r: r["sent"]):
        last = r.get("last")  # None: no playlist (404) or no segment yet
        if last is not None and (newest is None or last > newest):
            if last_sent_without is not None:
                for segment in range(newest + 1 if newest is not None else 0, last + 1):
                    bound[segment] = last_sent_without
            newest = last
        last_sent_without = r["sent"]
    return bound


def origin_gets(log_path, path, exclude_client, start, end):
    """GETs of path in reel serve's access log (ISO time, client, method, path, …) in [start, end]."""
    from datetime import datetime
    count = 0
    with open(log_path, encoding="utf-8", errors="replace") as log:
        for line in log:
            fields = line.split()
            if len(fields) < 5 or fields[2] != "GET" or fields[3] != path or fields[1] == exclude_client:
                continue
            when = datetime.fromisoformat(fields[0].replace("Z", "+00:00")).timestamp()
            if start <= when <= end:
                count += 1
    return count


def summarize(args, answers, reference):
    bound = appeared(reference)
    errors = [a for a in answers if "error" in a]
    worst, worst_answer = 0.0, None
    for a in answers:
        if a.get("last") is None:
            continue
        since = bound.get(a["last"] + 1)
        if since is not None and a["recv"] - since > worst:
            worst, worst_answer = a["recv"] - since, a
    start = min(a["sent"] for a in answers)
    end = max(a["recv"] for a in answers)
    summary = {"players": args.players, "answers": len(answers), "errors": len(errors),
               "firstErrors": [a["error"] for a in errors[:5]], "seconds": round(end - start, 3),
               "worstStaleSeconds": round(worst, 3), "worstAnswer": worst_answer,
               "newestSegment": max((a["last"] for a in answers if a.get("last") is not None), default=None),
               "referenceAnswers": len(reference), "segmentsBracketed": len(bound),
               "cacheStatuses": {}}
    for a in answers:
        key = a.get("cache", "none")
        summary["cacheStatuses"][key] = summary["cacheStatuses"].get(key, 0) + 1
    if args.origin_log:
        gets = origin_gets(args.origin_log, urllib.parse.urlsplit(args.url).path, args.reference_source, start, end)
        summary["originPlaylistGets"] = gets
        summary["originGetsPerSecond"] = round(gets / (end - start), 3)
    return summary


async def main():
    parser = argparse.ArgumentParser(description="Many HLS players polling one playlist.")
    parser.add_argument("--url", required=True)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--interval", type=float, default=1.0)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--reference")
    parser.add_argument("--reference-source", default="127.0.0.2")
    parser.add_argument("--player-source")
    parser.add_argument("--origin-log")
    parser.add_argument("--answers")
    args = parser.parse_args()
    until = time.time() + args.seconds
    answers, reference = [], []
    tasks = [poll(args.url, args.interval, until, i % 2 == 0, args.player_source, random.uniform(0, args.interval), answers)
             for i in range(args.players)]
    if args.reference:
        tasks.append(poll(args.reference, 0.05, until + 0.5, False, args.reference_source, 0, reference))
    await asyncio.gather(*tasks)
    if args.answers:
        with open(args.answers, "w", encoding="utf-8") as out:
            for a in answers:
                out.write(json.dumps(dict(a, who="player")) + "\n")
            for r in reference:
                out.write(json.dumps(dict(r, who="reference")) + "\n")
    if not answers:
        print(json.dumps({"error": "no answers"}))
        return 1
    print(json.dumps(summarize(args, answers, reference)))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
