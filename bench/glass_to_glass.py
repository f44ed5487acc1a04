#!/usr/bin/env python3
"""Plays one live HLS stream in headless chromium with hls.js and prints what the page measured.

Used by bench/glass-to-glass.sh. Serves the page (Tests/Fixtures/hlsjs-g2g) and hls.js (as hls.js) from a
private loopback HTTP server, starts chromedriver (Debian's chromium-driver) with headless
chromium, opens the page on the playlist, waits SECONDS, and prints window.reelG2G.summary()
plus the raw samples as one JSON object on stdout. Standard library only.

    glass_to_glass.py --playlist URL --hlsjs FILE --seconds 60 [--low-latency]
"""
import argparse
import functools
import http.server
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request

PAGE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Fixtures", "hlsjs-g2g")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".mjs": "text/javascript", ".js": "text/javascript"}

    def log_message(self, *args):
        pass


def serve_page(folder):
    """The page, its script and hls.mjs on a loopback port, in a thread."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=folder))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def webdriver(port, method, path, body=None, timeout=60):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return json.loads(response.read())["value"]
    except urllib.error.HTTPError as error:
        raise SystemExit(f"glass_to_glass: chromedriver {method} {path}: {error.code} {error.read()[:500]!r}")


def start_chromium(profile):
    port = free_port()
    driver = subprocess.Popen(["/usr/bin/chromedriver", f"--port={port}"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, start_new_session=True)
    for _ in range(100):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                break
        except OSError:
            time.sleep(0.1)
    args = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--no-default-browser-check", "--disable-extensions", "--mute-audio", f"--user-data-dir={profile}",
            "--autoplay-policy=no-user-gesture-required", "--window-size=1280,800"]
    value = webdriver(port, "POST", "/session", {"capabilities": {"alwaysMatch": {
        "browserName": "chrome", "goog:chromeOptions": {"binary": "/usr/bin/chromium", "args": args,
                                                        "prefs": {"session.restore_on_startup": 4,
                                                                  "session.startup_urls": ["about:blank"]}}}}})
    return driver, port, value["sessionId"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--playlist", required=True)
    parser.add_argument("--hlsjs", required=True)
    parser.add_argument("--seconds", type=float, required=True)
    parser.add_argument("--low-latency", action="store_true")
    parser.add_argument("--config", default="{}", help="JSON merged into the hls.js config")
    options = parser.parse_args()

    folder = tempfile.mkdtemp(prefix="reel-g2g-page.")
    profile = tempfile.mkdtemp(prefix="reel-g2g-profile.")
    driver = None
    try:
        for name in ("index.html", "g2g.js"):
            shutil.copy(os.path.join(PAGE_DIR, name), folder)
        shutil.copy(options.hlsjs, os.path.join(folder, "hls.js"))
        server = serve_page(folder)
        query = urllib.parse.urlencode({"src": options.playlist, "low": "1" if options.low_latency else "0",
                                        "config": options.config})
        url = f"http://127.0.0.1:{server.server_address[1]}/index.html?{query}"
        driver, port, session = start_chromium(profile)
        webdriver(port, "POST", f"/session/{session}/url", {"url": url})
        time.sleep(options.seconds)
        script = "const s = window.reelG2G; return s ? Object.assign(s.summary(), {sampleList: s.samples, sampleAt: s.sampleAt, hlsLatency: s.hlsLatency}) : null;"
        result = webdriver(port, "POST", f"/session/{session}/execute/sync", {"script": script, "args": []})
        webdriver(port, "DELETE", f"/session/{session}")
        json.dump(result, sys.stdout)
        print()
    finally:
        if driver is not None:
            try:
                os.killpg(driver.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            driver.wait()
        shutil.rmtree(folder, ignore_errors=True)
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    main()
