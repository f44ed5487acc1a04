#!/usr/bin/python3
"""Simulated HLS viewers polling one live playlist (standard library only, one process).

    viewers.py --url http://127.0.0.1:PORT/streams/ID/playlist.m3u8 --viewers 500
               --duration SECONDS [--interval 1.0] [--no-segments] [--json FILE]

Each viewer behaves like a player watching live: one keep-alive HTTP/1.1 connection; every
INTERVAL seconds (each viewer at its own random phase, so the polls are spread over the
second, as real viewers are) it GETs the playlist with `Accept-Encoding: gzip` (as browsers
send it), gunzips it, and fetches, one after the other on the same connection, the init
segment once and every media segment it has not fetched yet (at the start only the newest
one: a player joins at the live edge). A 404 (the stream has not started yet) is waited out.
`--no-segments` polls the playlist only.

Media bodies are read in 64 KiB pieces and dropped (only counted), so the viewers' own CPU
stays small; the summary says how much they used (getrusage of this process).
Prints a one-line summary and, with --json, writes the counts and the GET latencies.
"""
import argparse
import asyncio
import json
import random
import resource
import sys
import time
import urllib.parse
import zlib


sys.dont_write_bytecode = True  # no bench/__pycache__ in the work tree
sys.path.insert(0, __import__("os").path.dirname(__file__))
from latency import percentile  # noqa: E402  (the same interpolation as the latency tables)


class Stats:
    def __init__(self):
        self.playlist_gets = 0
        self.playlist_404 = 0
        self.segment_gets = 0
        self.init_gets = 0
        self.bytes = 0
        self.errors = {}          # what -> count
        self.connections = 0      # connections opened (about one per viewer when keep-alive holds)
        self.playlist_ms = []     # latency of each playlist GET (request sent -> body read)
        self.segment_ms = []
        self.late_polls = 0       # polls started more than one interval late (the viewer was busy)

    def error(self, what):
        self.errors[what] = self.errors.get(what, 0) + 1


class Connection:
    """One keep-alive HTTP/1.1 connection, reconnected when the server closes it."""

    def __init__(self, host, port, stats):
        self.host, self.port, self.stats = host, port, stats
        self.reader = self.writer = None

    async def close(self):
        if self.writer is not None:
            self.writer.close()
            try:
                await self.writer.wait_closed()
            except (ConnectionError, OSError):
                pass
        self.reader = self.writer = None

    async def get(self, path, keep_body, gzip=False):
        """GET path: (status, body bytes if keep_body else None, body length)."""
        for attempt in (0, 1):
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection(self.host, self.port, limit=1 << 16)
                self.stats.connections += 1
            request = f"GET {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\nUser-Agent: reel-bench-viewer\r\n"
            if gzip:
                request += "Accept-Encoding: gzip\r\n"
            self.writer.write((request + "\r\n").encode())
            try:
                head = await self.reader.readuntil(b"\r\n\r\n")
            except (asyncio.IncompleteReadError, ConnectionError, OSError):
                await self.close()  # the server closed a kept-alive connection: once more on a new one
                continue
            lines = head.decode("latin-1").split("\r\n")
            status = int(lines[0].split(" ")[1])
            length, encoding, close = 0, "", False
            for line in lines[1:]:
                name, _, value = line.partition(":")
                name = name.strip().lower()
                if name == "content-length":
                    length = int(value.strip())
                elif name == "content-encoding":
                    encoding = value.strip().lower()
                elif name == "connection" and value.strip().lower() == "close":
                    close = True
            body = bytearray() if keep_body else None
            left = length
            while left > 0:
                chunk = await self.reader.read(min(left, 1 << 16))
                if not chunk:
                    raise ConnectionError("closed in the middle of a body")
                left -= len(chunk)
                if keep_body:
                    body += chunk
            if close:
                await self.close()
            self.stats.bytes += length
            if keep_body and encoding == "gzip":
                body = zlib.decompress(bytes(body), 31)
            return status, body, length
        raise ConnectionError("the server closed the connection twice")


async def viewer(args, host, port, path, deadline, stats):
    base = path.rsplit("/", 1)[0] + "/"
    connection = Connection(host, port, stats)
    fetched = set()
    have_init = False
    started = False
    phase = random.random() * args.interval
    next_poll = time.monotonic() + phase
    try:
        while True:
            now = time.monotonic()
            if next_poll > now:
                await asyncio.sleep(next_poll - now)
            elif now - next_poll > args.interval:
                stats.late_polls += 1
                next_poll = now
            if time.monotonic() >= deadline:
                return
            next_poll += args.interval
            try:
                t0 = time.monotonic()
                status, body, _ = await connection.get(path, keep_body=True, gzip=True)
                stats.playlist_gets += 1
                stats.playlist_ms.append((time.monotonic() - t0) * 1000)
                if status == 404:
                    stats.playlist_404 += 1
                    continue
                if status != 200:
                    stats.error(f"playlist {status}")
                    continue
                if not args.segments:
                    continue
                text = body.decode("utf-8", "replace")
                uris = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]
                if not started:
                    fetched.update(uris[:-1])  # join at the live edge: the newest segment only
                    started = True
                if not have_init and 'URI="init.mp4"' in text:
                    status, _, _ = await connection.get(base + "init.mp4", keep_body=False)
                    stats.init_gets += 1
                    if status != 200:
                        stats.error(f"init {status}")
                    have_init = True
                for uri in uris:
                    if uri in fetched or time.monotonic() >= deadline:
                        continue
                    t0 = time.monotonic()
                    status, _, _ = await connection.get(urllib.parse.urljoin(base, uri), keep_body=False)
                    stats.segment_gets += 1
                    stats.segment_ms.append((time.monotonic() - t0) * 1000)
                    if status != 200:
                        stats.error(f"segment {status}")
                    fetched.add(uri)
            except (ConnectionError, OSError, asyncio.IncompleteReadError, ValueError, IndexError) as error:
                stats.error(type(error).__name__)
                await connection.close()
    finally:
        await connection.close()


async def run(args):
    url = urllib.parse.urlsplit(args.url)
    host, port, path = url.hostname, url.port or 80, url.path
    stats = Stats()
    deadline = time.monotonic() + args.duration
    tasks = [asyncio.create_task(viewer(args, host, port, path, deadline, stats)) for _ in range(args.viewers)]
    await asyncio.gather(*tasks)
    return stats


def main():
    ap = argparse.ArgumentParser(description="simulated HLS viewers polling one playlist")
    ap.add_argument("--url", required=True, help="the playlist URL")
    ap.add_argument("--viewers", type=int, default=500)
    ap.add_argument("--interval", type=float, default=1.0, help="seconds between playlist polls of one viewer")
    ap.add_argument("--duration", type=float, required=True, help="seconds to run")
    ap.add_argument("--no-segments", dest="segments", action="store_false", help="poll the playlist only")
    ap.add_argument("--json", help="write the results here")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    random.seed(args.seed)
    started = time.monotonic()
    stats = asyncio.run(run(args))
    wall = time.monotonic() - started
    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu = usage.ru_utime + usage.ru_stime
    result = {
        "viewers": args.viewers, "interval": args.interval, "segments": args.segments, "wall_s": round(wall, 2),
        "cpu_s": round(cpu, 2), "playlist_gets": stats.playlist_gets, "playlist_404": stats.playlist_404,
        "segment_gets": stats.segment_gets, "init_gets": stats.init_gets, "mb": round(stats.bytes / 1e6, 1),
        "errors": stats.errors, "connections": stats.connections, "late_polls": stats.late_polls,
        "playlist_ms": {"p50": percentile(stats.playlist_ms, 50), "p95": percentile(stats.playlist_ms, 95),
                        "p99": percentile(stats.playlist_ms, 99), "max": max(stats.playlist_ms, default=float("nan"))},
        "segment_ms": {"p50": percentile(stats.segment_ms, 50), "p95": percentile(stats.segment_ms, 95),
                       "p99": percentile(stats.segment_ms, 99), "max": max(stats.segment_ms, default=float("nan"))},
    }
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
    errors = sum(stats.errors.values())
    print(f"{args.viewers} viewers, {wall:.0f} s: {stats.playlist_gets} playlist GETs ({stats.playlist_404} before the stream), "
          f"{stats.segment_gets} segment GETs, {stats.bytes / 1e6:.0f} MB, {stats.connections} connections, "
          f"{errors} errors {stats.errors or ''}; "
          f"playlist GET p50 {result['playlist_ms']['p50']:.1f} ms p95 {result['playlist_ms']['p95']:.1f} ms; "
          f"viewers' CPU {cpu:.1f} s ({100 * cpu / wall:.0f} % of one core)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
