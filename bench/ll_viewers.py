#!/usr/bin/python3
"""Simulated LL-HLS players on one live playlist (standard library only, one process).

    ll_viewers.py --url http://127.0.0.1:PORT/streams/ID/playlist.m3u8 --viewers 2000
                  --duration SECONDS [--mode parts|hint] [--per-address 16]
                  [--source-net 127.1] [--ramp 2] [--json FILE]

Each viewer behaves like hls.js in lowLatencyMode, on one keep-alive HTTP/1.1 connection
(hls.js runs the playlist and the part loads on two connections at once; here they take
turns on one, so a viewer holds one connection to the origin):

1. GET the playlist (a 404 before the stream exists is retried every second), then init.mp4;
   it joins PART-HOLD-BACK behind the live edge (the newest three listed parts are fetched).
2. Loop: a blocking reload `playlist.m3u8?_HLS_msn=N&_HLS_part=M` for the part the playlist's
   EXT-X-PRELOAD-HINT names (the part after the last listed one; part 0 of the next segment
   when a segment was completed), which reel serve holds until that part is listed; then
   GET every part listed that it has not fetched yet (`--mode parts`, as hls.js does).
   `--mode hint` GETs the hinted part first (reel serve holds it until it is stored), then
   makes the blocking reload for it. `--mode playlist` makes the blocking reloads only (no
   media: the cost of holding and answering them alone).
   A 503 (the hold timed out) is retried at once, as a player does after Retry-After.
   The playlist with ENDLIST ends the viewer.

Viewer i connects from the loopback address SOURCE_NET.(i // PER_ADDRESS // 250).(1 +
(i // PER_ADDRESS) % 250) so reel serve's per-address cap (32) applies unchanged.

Times are wall-clock (time.time(), the clock of reel serve's access log). For every part
the JSON holds, per viewer, when the first blocking-reload answer listing it arrived ("listed_seen")
and when its body had been read ("part_done"), as offsets in ms from "t0", so the caller can
join them with the access log. Bodies are read into one shared 256 KiB buffer; media
bodies are only counted.
"""
import argparse
import asyncio
import json
import random
import resource
import sys
import time
import urllib.parse



sys.dont_write_bytecode = True  # no bench/__pycache__ in the work tree
sys.path.insert(0, __import__("os").path.dirname(__file__))
from latency import percentile  # noqa: E402  (the same interpolation as the latency tables)


class Stats:
    def __init__(self, t0):
        self.t0 = t0
        self.counts = {}          # what -> count ("blocking 200", "blocking 503", "part 200", ...)
        self.errors = {}          # what -> count
        self.connections = 0
        self.bytes = 0
        self.connected = 0        # viewers that got their first playlist
        self.finished = 0         # viewers that saw ENDLIST
        self.blocking_ms = []     # request sent -> playlist answer read, blocking reloads (200)
        self.part_ms = []         # request sent -> part body read
        self.listed_seen = {}     # "msn.part" -> [ms after t0, one per viewer]
        self.part_done = {}       # "msn.part" -> [ms after t0, one per viewer]

    def count(self, what):
        self.counts[what] = self.counts.get(what, 0) + 1

    def error(self, what):
        self.errors[what] = self.errors.get(what, 0) + 1

    def stamp(self, table, key, when):
        table.setdefault(key, []).append(round((when - self.t0) * 1000, 1))


class Wire(asyncio.BufferedProtocol):
    """One TCP connection's reading side: the answer to the request in flight.

    A BufferedProtocol: the kernel copies each read into one buffer shared by every
    connection (reads are handled one at a time on the event loop), and a media body is only
    counted, so 2,000 viewers reading ~3 parts a second each cost little Python work."""

    shared = memoryview(bytearray(1 << 18))

    def __init__(self, stats):
        self.stats = stats
        self.transport = None
        self.lost = False
        self.waiter = None

    def connection_made(self, transport):
        self.transport = transport

    def get_buffer(self, sizehint):
        return self.shared

    def expect(self, waiter, keep_body):
        self.head, self.status, self.left, self.close_after = bytearray(), None, 0, False
        self.body = bytearray() if keep_body else None
        self.waiter = waiter

    def buffer_updated(self, n):
        if self.waiter is None or self.waiter.done():
            return  # bytes nobody asked for: ignored
        data = self.shared[:n]
        if self.status is None:
            self.head += data
            end = self.head.find(b"\r\n\r\n")
            if end < 0:
                return
            lines = bytes(self.head[:end]).decode("latin-1").split("\r\n")
            data = memoryview(bytes(self.head[end + 4:]))
            self.status = int(lines[0].split(" ")[1])
            for line in lines[1:]:
                name, _, value = line.partition(":")
                name = name.strip().lower()
                if name == "content-length":
                    self.left = int(value.strip())
                elif name == "connection" and value.strip().lower() == "close":
                    self.close_after = True
            self.stats.bytes += self.left
        if len(data):
            take = min(len(data), self.left)
            if self.body is not None:
                self.body += data[:take]
            self.left -= take
        if self.left == 0:
            self.waiter.set_result((self.status, self.body))

    def connection_lost(self, exc):
        self.lost = True
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_exception(ConnectionError("closed by the server" if self.status is None
                                                      else "closed in the middle of a body"))


class Connection:
    """One keep-alive HTTP/1.1 connection from one source address, reopened when closed."""

    def __init__(self, host, port, source, stats, timeout):
        self.host, self.port, self.source, self.stats, self.timeout = host, port, source, stats, timeout
        self.wire = None

    async def close(self):
        if self.wire is not None and self.wire.transport is not None:
            self.wire.transport.close()
        self.wire = None

    async def get(self, path, keep_body):
        """GET path: (status, body bytes or None). Raises TimeoutError when no answer came
        within --timeout (a timer on the answer's future: asyncio.wait_for would cost a task
        per request)."""
        loop = asyncio.get_running_loop()
        for attempt in (0, 1):
            if self.wire is None or self.wire.lost:
                wire = Wire(self.stats)
                await loop.create_connection(lambda: wire, self.host, self.port,
                                             local_addr=(self.source, 0) if self.source else None)
                self.wire = wire
                self.stats.connections += 1
            wire = self.wire
            waiter = loop.create_future()
            wire.expect(waiter, keep_body)
            timer = loop.call_later(self.timeout, lambda: waiter.done() or waiter.set_exception(
                asyncio.TimeoutError(f"no answer to GET {path} in {self.timeout:.0f} s")))
            wire.transport.write(f"GET {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
                                 f"User-Agent: reel-bench-ll-viewer\r\n\r\n".encode())
            try:
                status, body = await waiter
            except asyncio.TimeoutError:
                await self.close()
                raise
            except ConnectionError:
                await self.close()
                if wire.status is not None or attempt == 1:
                    raise
                # The server closed a kept-alive connection before answering: once more on a
                # new one (counted: the origin drops idle connections when most are in use).
                self.stats.count("re-sent on a new connection")
                continue
            finally:
                timer.cancel()
            if wire.close_after:
                await self.close()
            return status, body
        raise ConnectionError("the server closed the connection twice")


def part_name(uri):
    """'part/000003.2.m4s' -> '3.2'."""
    stem = uri.rsplit("/", 1)[-1]
    msn, part, _ = stem.split(".")
    return f"{int(msn)}.{int(part)}"


class Playlist:
    """What a player needs from an LL-HLS playlist: its parts, its preload hint, ENDLIST."""

    def __init__(self, text):
        self.parts = []           # URIs of EXT-X-PART lines, in order
        self.hint = None          # URI of the EXT-X-PRELOAD-HINT
        self.ended = "#EXT-X-ENDLIST" in text
        self.has_map = "#EXT-X-MAP:" in text
        for line in text.splitlines():
            if line.startswith("#EXT-X-PART:"):
                self.parts.append(line.split('URI="', 1)[1].split('"', 1)[0])
            elif line.startswith("#EXT-X-PRELOAD-HINT:"):
                self.hint = line.split('URI="', 1)[1].split('"', 1)[0]


async def viewer(index, args, host, port, path, deadline, stats):
    base = path.rsplit("/", 1)[0] + "/"
    source = None
    if args.source_net:
        group = index // args.per_address
        source = f"{args.source_net}.{group // 250}.{1 + group % 250}"
    connection = Connection(host, port, source, stats, args.timeout)
    fetched = set()
    await asyncio.sleep(random.random() * args.ramp)
    try:
        # 1. The first playlist (the stream may not exist yet).
        playlist = None
        while time.time() < deadline:
            try:
                status, body = await connection.get(path, keep_body=True)
            except (ConnectionError, OSError, asyncio.IncompleteReadError, asyncio.TimeoutError, ValueError) as error:
                stats.error(f"first {type(error).__name__}")
                await connection.close()
                await asyncio.sleep(1)
                continue
            stats.count(f"first {status}")
            if status == 200:
                playlist = Playlist(body.decode("utf-8", "replace"))
                if playlist.parts or playlist.ended:
                    break
            await asyncio.sleep(1)
        if playlist is None:
            return
        stats.connected += 1
        status, _ = await connection.get(base + "init.mp4", keep_body=False)
        stats.count(f"init {status}")
        fetched.update(playlist.parts[:-3])  # join PART-HOLD-BACK (three parts) behind the edge
        # 2. Parts, blocking reloads.
        seen = set(playlist.parts)  # only blocking reloads' answers are timed ("listed_seen")
        while time.time() < deadline:
            now = time.time()
            for uri in playlist.parts:
                if uri not in seen:
                    seen.add(uri)
                    stats.stamp(stats.listed_seen, part_name(uri), now)
            for uri in playlist.parts:
                if uri in fetched or time.time() >= deadline:
                    continue
                if args.mode == "playlist":  # blocking reloads only, no media
                    fetched.add(uri)
                    continue
                fetched.add(uri)
                t = time.time()
                status, _ = await connection.get(urllib.parse.urljoin(base, uri), keep_body=False)
                stats.count(f"part {status}")
                if status == 200:
                    stats.part_ms.append((time.time() - t) * 1000)
                    stats.stamp(stats.part_done, part_name(uri), time.time())
            if playlist.ended:
                stats.finished += 1
                return
            if playlist.hint is None:
                stats.error("no preload hint")
                return
            msn, part = part_name(playlist.hint).split(".")
            if args.mode == "hint" and playlist.hint not in fetched:
                t = time.time()
                status, _ = await connection.get(urllib.parse.urljoin(base, playlist.hint), keep_body=False)
                stats.count(f"hinted part {status}")
                if status == 200:
                    fetched.add(playlist.hint)
                    stats.part_ms.append((time.time() - t) * 1000)
                    stats.stamp(stats.part_done, part_name(playlist.hint), time.time())
            while time.time() < deadline:
                t = time.time()
                status, body = await connection.get(f"{path}?_HLS_msn={msn}&_HLS_part={part}", keep_body=True)
                stats.count(f"blocking {status}")
                if status == 200:
                    stats.blocking_ms.append((time.time() - t) * 1000)
                    playlist = Playlist(body.decode("utf-8", "replace"))
                    break
                if status != 503:  # 503: the hold ran out (three target durations): ask again
                    stats.error(f"blocking {status}")
                    await asyncio.sleep(1)
    except (ConnectionError, OSError, asyncio.IncompleteReadError, asyncio.TimeoutError, ValueError, IndexError) as error:
        stats.error(type(error).__name__)
    finally:
        await connection.close()


async def run(args, stats):
    url = urllib.parse.urlsplit(args.url)
    host, port, path = url.hostname, url.port or 80, url.path
    deadline = time.time() + args.duration
    tasks = [asyncio.create_task(viewer(i, args, host, port, path, deadline, stats)) for i in range(args.viewers)]
    await asyncio.gather(*tasks)


def main():
    ap = argparse.ArgumentParser(description="simulated LL-HLS players (blocking reload) on one playlist")
    ap.add_argument("--url", required=True, help="the playlist URL")
    ap.add_argument("--viewers", type=int, default=2000)
    ap.add_argument("--duration", type=float, required=True, help="seconds to run at most (ENDLIST ends a viewer sooner)")
    ap.add_argument("--mode", choices=["parts", "hint", "playlist"], default="parts",
                    help="parts: GET each part once listed (hls.js); hint: GET the hinted part, held until stored; "
                         "playlist: blocking reloads only, no media")
    ap.add_argument("--source-net", default="127.1",
                    help="first two bytes of the loopback source addresses ('' binds no address)")
    ap.add_argument("--per-address", type=int, default=16, help="viewers per source address")
    ap.add_argument("--ramp", type=float, default=2.0, help="viewers start spread over this many seconds")
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds a request may take before it counts as an error")
    ap.add_argument("--json", help="write the results here")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    random.seed(args.seed)
    t0 = time.time()
    stats = Stats(t0)
    started = time.monotonic()
    try:
        asyncio.run(run(args, stats))
    except KeyboardInterrupt:
        stats.error("interrupted")
    wall = time.monotonic() - started
    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu = usage.ru_utime + usage.ru_stime
    blocking = {k: v for k, v in stats.counts.items() if k.startswith("blocking")}
    try:  # on CPU, waiting for a CPU while runnable (ns): starvation on a shared machine shows here
        on_cpu, waited, _ = (int(x) for x in open("/proc/self/schedstat").read().split())
    except (OSError, ValueError):
        on_cpu = waited = 0
    result = {
        "viewers": args.viewers, "mode": args.mode, "t0": t0, "wall_s": round(wall, 2), "cpu_s": round(cpu, 2),
        "max_rss_mb": round(usage.ru_maxrss / 1024), "runqueue_wait_s": round(waited / 1e9, 2), "connected": stats.connected, "finished": stats.finished,
        "connections": stats.connections, "mb": round(stats.bytes / 1e6, 1), "counts": stats.counts,
        "errors": stats.errors,
        "blocking_ms": {"p50": percentile(stats.blocking_ms, 50), "p95": percentile(stats.blocking_ms, 95),
                        "max": max(stats.blocking_ms, default=float("nan"))},
        "part_ms": {"p50": percentile(stats.part_ms, 50), "p95": percentile(stats.part_ms, 95),
                    "max": max(stats.part_ms, default=float("nan"))},
        "listed_seen": stats.listed_seen, "part_done": stats.part_done,
    }
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, separators=(",", ":"))
    errors = sum(stats.errors.values())
    print(f"{args.viewers} viewers ({args.mode}), {wall:.0f} s: {stats.connected} got the stream, {stats.finished} saw ENDLIST, "
          f"{stats.connections} connections; blocking reloads {blocking}; "
          f"part GETs {stats.counts.get('part 200', 0) + stats.counts.get('hinted part 200', 0)}; "
          f"{stats.bytes / 1e6:.0f} MB; {errors} errors {stats.errors or ''}; "
          f"blocking reload answered p50 {result['blocking_ms']['p50']:.0f} ms (held) p95 {result['blocking_ms']['p95']:.0f} ms; "
          f"viewers' CPU {cpu:.1f} s ({100 * cpu / wall:.0f} % of one core), runnable but waiting for a CPU "
          f"{waited / 1e9:.1f} s, max RSS {result['max_rss_mb']} MB")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
