#!/usr/bin/env python3
"""A throttling HTTP/1.1 reverse proxy for Reel's tests (Python 3 standard library only).

It stands between a player and an origin (`reel serve`) on loopback and plays a slow link
whose speed the test changes while the player runs: every request is forwarded to the
origin with its method, path and query string, `Range` and every other end-to-end header and
its body unchanged (only `Host` names the origin, and the hop-by-hop headers `Connection`,
`Keep-Alive`, `Proxy-Connection`, `TE`, `Trailer`, `Upgrade` are dropped), and the answer,
unchanged but for `Connection: close`, goes back to the client no faster than the current
rate (status line and headers included).

Usage:
    throttle_proxy.py --upstream-port PORT [--upstream-host 127.0.0.1] [--port 0] [--bps 0]
                      [--max-seconds 900]

Once it accepts connections it prints one line on standard output:
    listening on 127.0.0.1:PORT
(with --port 0 the system picks PORT). It serves 127.0.0.1 only.

The link (`--bps`, 0 = unthrottled): one link shared by every connection, as a slow access
link is: each chunk of an answer reserves the link for len*8/bps seconds after whatever was
reserved before it (first come, first served), and is written when its time is up. There
is no burst allowance: an idle link does not save up credit. A new rate applies to every
chunk reserved after it was set, in transfers already running too.

Control (answered by the proxy itself, never forwarded; paths starting with /__):
    POST /__rate?bps=N   from now on the link carries N bits per second (0 = unthrottled);
                         answers 200 with "bps=N"
    GET  /__rate         the current rate, "bps=N"
    GET  /__log          the last 500 forwarded requests, one a line, oldest first:
                         "T_MS METHOD TARGET STATUS BYTES DURATION_MS BPS_AT_START"
                         (T_MS: milliseconds since the proxy started)

Framing: one request per client connection. The origin is asked with "Connection: close"
and its answer goes back with "Connection: close"; the proxy relays it until the origin
closes (Content-Length and chunked bodies alike), then closes the client's connection.
Players open a new connection for the next request. A request body needs Content-Length
(chunked request bodies get 501).

Bounds: request and answer headers 64 KiB, request bodies 16 MiB, answers 256 MiB; 30 s for
a client to send its request, 10 s to connect to the origin, 60 s of silence from the
origin (a blocking playlist reload may be held for a while) or from a client that does not
read; 64 connections at once (more get 503); the whole process exits after --max-seconds.
"""

import argparse
import asyncio
import collections
import sys
import time
import urllib.parse

HEADER_LIMIT = 64 * 1024
REQUEST_BODY_LIMIT = 16 * 1024 * 1024
RESPONSE_LIMIT = 256 * 1024 * 1024
CLIENT_REQUEST_TIMEOUT = 30.0
UPSTREAM_CONNECT_TIMEOUT = 10.0
IDLE_TIMEOUT = 60.0
MAX_CONNECTIONS = 64
HOP_BY_HOP = {b"connection", b"keep-alive", b"proxy-connection", b"te", b"trailer", b"upgrade"}


class Link:
    """The shared link: reservations in arrival order at the current rate."""

    def __init__(self, bps):
        self.bps = bps
        self.free_at = 0.0

    def set_rate(self, bps):
        self.bps = bps
        # Whatever was reserved at the old rate keeps its slot; nothing is owed beyond now.
        self.free_at = min(self.free_at, time.monotonic())

    def chunk_size(self):
        # About 20 ms of the link a chunk (at least 512 bytes), so pacing is smooth at any rate.
        if self.bps <= 0:
            return 64 * 1024
        return max(512, min(64 * 1024, int(self.bps / 8 * 0.02)))

    async def send(self, writer, data):
        """Writes `data` to `writer`, paced."""
        view = memoryview(data)
        while view:
            size = self.chunk_size()
            chunk, view = view[:size], view[size:]
            if self.bps > 0:
                now = time.monotonic()
                start = max(now, self.free_at)
                self.free_at = start + len(chunk) * 8 / self.bps
                delay = self.free_at - now
                if delay > 0:
                    await asyncio.sleep(delay)
            writer.write(chunk)
            await asyncio.wait_for(writer.drain(), IDLE_TIMEOUT)


class Proxy:
    def __init__(self, upstream_host, upstream_port, bps):
        self.upstream = (upstream_host, upstream_port)
        self.link = Link(bps)
        self.log = collections.deque(maxlen=500)
        self.started = time.monotonic()
        self.connections = 0

    async def handle(self, reader, writer):
        self.connections += 1
        try:
            if self.connections > MAX_CONNECTIONS:
                await self.answer(writer, 503, b"too many connections\n")
                return
            await self.serve_one(reader, writer)
        except (asyncio.TimeoutError, OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError):
            pass
        except Exception as error:  # a bug here must not stop the proxy; say what it was
            print(f"throttle_proxy: {type(error).__name__}: {error}", file=sys.stderr, flush=True)
        finally:
            self.connections -= 1
            writer.close()
            try:
                await asyncio.wait_for(writer.wait_closed(), 5)
            except Exception:
                pass

    async def answer(self, writer, status, body):
        reason = {200: b"OK", 400: b"Bad Request", 404: b"Not Found", 413: b"Payload Too Large",
                  501: b"Not Implemented", 502: b"Bad Gateway", 503: b"Service Unavailable"}.get(status, b"Error")
        writer.write(b"HTTP/1.1 %d %s\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n"
                     b"Access-Control-Allow-Origin: *\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n"
                     % (status, reason, len(body)) + body)
        await asyncio.wait_for(writer.drain(), IDLE_TIMEOUT)

    async def serve_one(self, reader, writer):
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), CLIENT_REQUEST_TIMEOUT)
        lines = head[:-4].split(b"\r\n")
        parts = lines[0].split(b" ")
        if len(parts) != 3 or not parts[2].startswith(b"HTTP/1."):
            await self.answer(writer, 400, b"bad request line\n")
            return
        method, target = parts[0], parts[1]
        headers = []
        for line in lines[1:]:
            name, colon, value = line.partition(b":")
            if not colon or not name or name != name.strip():
                await self.answer(writer, 400, b"bad header line\n")
                return
            headers.append((name, value.strip()))
        names = {name.lower(): value for name, value in headers}
        if target.startswith(b"/__"):
            await self.control(writer, method, target)
            return
        if b"chunked" in names.get(b"transfer-encoding", b"").lower():
            await self.answer(writer, 501, b"chunked request bodies are not supported\n")
            return
        length = int(names.get(b"content-length", b"0") or b"0")
        if length < 0 or length > REQUEST_BODY_LIMIT:
            await self.answer(writer, 413, b"request body too large\n")
            return
        body = await asyncio.wait_for(reader.readexactly(length), CLIENT_REQUEST_TIMEOUT) if length else b""

        started, bps = time.monotonic(), self.link.bps
        try:
            up_reader, up_writer = await asyncio.wait_for(
                asyncio.open_connection(*self.upstream, limit=HEADER_LIMIT), UPSTREAM_CONNECT_TIMEOUT)
        except (OSError, asyncio.TimeoutError) as error:
            await self.answer(writer, 502, f"origin unreachable: {error}\n".encode())
            return
        status, sent = b"-", 0
        try:
            request = [method + b" " + target + b" HTTP/1.1"]
            request += [name + b": " + value for name, value in headers
                        if name.lower() not in HOP_BY_HOP and name.lower() != b"host"]
            request += [b"Host: %s:%d" % (self.upstream[0].encode(), self.upstream[1]), b"Connection: close"]
            up_writer.write(b"\r\n".join(request) + b"\r\n\r\n" + body)
            await asyncio.wait_for(up_writer.drain(), IDLE_TIMEOUT)
            answer_head = await asyncio.wait_for(up_reader.readuntil(b"\r\n\r\n"), IDLE_TIMEOUT)
            answer_lines = answer_head[:-4].split(b"\r\n")
            status = (answer_lines[0].split(b" ") + [b"-"])[1]
            kept = [line for line in answer_lines[1:] if line.partition(b":")[0].strip().lower() not in HOP_BY_HOP]
            out_head = b"\r\n".join([answer_lines[0]] + kept + [b"Connection: close"]) + b"\r\n\r\n"
            await self.link.send(writer, out_head)
            sent = len(out_head)
            while True:
                data = await asyncio.wait_for(up_reader.read(64 * 1024), IDLE_TIMEOUT)
                if not data:
                    break
                sent += len(data)
                if sent > RESPONSE_LIMIT:
                    break
                await self.link.send(writer, data)
        finally:
            up_writer.close()
            elapsed = int((time.monotonic() - started) * 1000)
            at = int((started - self.started) * 1000)
            self.log.append(f"{at} {method.decode(errors='replace')} {target.decode(errors='replace')} "
                            f"{status.decode(errors='replace')} {sent} {elapsed} {bps}")

    async def control(self, writer, method, target):
        url = urllib.parse.urlsplit(target.decode(errors="replace"))
        if url.path == "/__rate" and method == b"POST":
            values = urllib.parse.parse_qs(url.query).get("bps", [])
            try:
                bps = int(values[0])
            except (IndexError, ValueError):
                await self.answer(writer, 400, b"want /__rate?bps=N, N a whole number of bits per second\n")
                return
            if bps < 0:
                await self.answer(writer, 400, b"bps must be 0 (unthrottled) or more\n")
                return
            self.link.set_rate(bps)
            await self.answer(writer, 200, f"bps={bps}\n".encode())
        elif url.path == "/__rate" and method == b"GET":
            await self.answer(writer, 200, f"bps={self.link.bps}\n".encode())
        elif url.path == "/__log" and method == b"GET":
            await self.answer(writer, 200, ("\n".join(self.log) + "\n").encode())
        else:
            await self.answer(writer, 404, b"control paths: POST /__rate?bps=N, GET /__rate, GET /__log\n")


async def main():
    parser = argparse.ArgumentParser(description="Throttling HTTP proxy for tests (loopback only).")
    parser.add_argument("--upstream-host", default="127.0.0.1")
    parser.add_argument("--upstream-port", type=int, required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--bps", type=int, default=0)
    parser.add_argument("--max-seconds", type=float, default=900)
    arguments = parser.parse_args()
    proxy = Proxy(arguments.upstream_host, arguments.upstream_port, max(0, arguments.bps))
    server = await asyncio.start_server(proxy.handle, "127.0.0.1", arguments.port, limit=HEADER_LIMIT)
    port = server.sockets[0].getsockname()[1]
    print(f"listening on 127.0.0.1:{port}", flush=True)
    async with server:
        try:
            await asyncio.wait_for(server.serve_forever(), arguments.max_seconds)
        except asyncio.TimeoutError:
            print("throttle_proxy: --max-seconds reached, exiting", file=sys.stderr, flush=True)


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
