/// The viewer's script (served at `/viewer.js`). Plain JavaScript, no build step: it polls
/// `/api/streams` every second, picks the stream (the pinned one on `/watch/{id}`, else the
/// newest live one, else the newest), plays it, and shows LIVE / ENDED / WAITING /
/// SERVER ERROR with how far behind the live edge the player is.
enum ViewerScript {
    static let source = #"""
        "use strict";
        (() => {
          const POLL_MS = 1000;          // how often the stream list is read
          const REQUEST_TIMEOUT_MS = 5000;
          const STALE_SECONDS = 30;      // a live stream with no new playlist for this long is waiting
          const RECENT_LIMIT = 20;
          const GO_LIVE_AFTER_SECONDS = 6;

          const body = document.body;
          const pinned = body.dataset.stream || "";
          const hlsJsURL = body.dataset.hlsJs || "";
          const params = new URLSearchParams(location.search);
          const debug = params.get("debug") === "1";
          const $ = (id) => document.getElementById(id);
          const video = $("video"), badge = $("state"), nameLabel = $("stream-name"), behindLabel = $("behind"),
                goLive = $("go-live"), notice = $("notice"), detailLine = $("detail"), list = $("streams");
          // ?player=hlsjs prefers the operator's hls.js even where the browser plays HLS itself.
          const nativeHls = params.get("player") !== "hlsjs" && video.canPlayType("application/vnd.apple.mpegurl") !== "";

          let current = { state: "", stream: "", detail: "" };
          let attached = "";      // the playlist the player is on
          let hls = null;         // the hls.js player, when hls.js plays
          let hlsLibrary = null;  // the promise of hls.js loading
          let playlistWrittenAt = performance.now();  // when the shown stream's playlist was last written, on this page's clock

          function log(kind, value) { console.info(kind + " " + JSON.stringify(value)); }

          function report(state, stream, detail) {
            const changed = state !== current.state || stream !== current.stream;
            current = { state, stream, detail };
            badge.textContent = state;
            badge.className = "state state-" + state.toLowerCase().replace(/\s+/g, "-");
            nameLabel.textContent = stream;
            detailLine.textContent = detail;
            document.title = (stream ? stream + " · " : "") + state + " · Reel";
            if (changed) log("reel-viewer", current);
            updateBehind();
          }

          function showNotice(text) { notice.textContent = text; notice.hidden = false; }
          function hideNotice() { notice.hidden = true; }

          function ago(seconds) {
            if (seconds < 5) return "just now";
            if (seconds < 90) return Math.round(seconds) + " s ago";
            if (seconds < 5400) return Math.round(seconds / 60) + " min ago";
            if (seconds < 129600) return Math.round(seconds / 3600) + " h ago";
            return Math.round(seconds / 86400) + " days ago";
          }

          // " in 3 renditions" for an ABR ladder (whose counts are its rungs', see /api/streams), else "".
          function renditionsOf(stream) {
            const names = Array.isArray(stream.renditions) ? stream.renditions : [];
            return names.length > 1 ? " in " + names.length + " renditions" : "";
          }

          function ageOf(stream, now) { return Math.max(0, (now - Date.parse(stream.updatedAt)) / 1000); }
          function isLive(stream, now) { return !stream.isFinished && stream.segmentCount > 0 && ageOf(stream, now) <= STALE_SECONDS; }

          function choose(streams, now) {
            if (pinned) return streams.find((s) => s.streamId === pinned) || null;
            return streams.find((s) => isLive(s, now)) || streams[0] || null;
          }

          async function fetchStreams() {
            const abort = new AbortController();
            const timer = setTimeout(() => abort.abort(), REQUEST_TIMEOUT_MS);
            try {
              const response = await fetch("/api/streams", { cache: "no-store", signal: abort.signal });
              if (!response.ok) throw new Error("it answered HTTP " + response.status);
              return await response.json();
            } finally {
              clearTimeout(timer);
            }
          }

          async function poll() {
            let answer;
            try {
              answer = await fetchStreams();
            } catch (error) {
              const reason = error.name === "AbortError" ? "no answer within " + REQUEST_TIMEOUT_MS / 1000 + " s" : error.message;
              report("SERVER ERROR", current.stream, "The origin did not answer the stream list (" + reason + "). Trying again every second.");
              return;
            }
            const streams = Array.isArray(answer.streams) ? answer.streams : [];
            const now = Date.parse(answer.serverTime) || Date.now();
            renderList(streams, now);
            const stream = choose(streams, now);
            if (!stream) {
              detach();
              showNotice(pinned ? "Waiting for stream “" + pinned + "”…" : "Waiting for a stream…");
              report("WAITING", pinned, pinned ? "There is no stream “" + pinned + "” on this origin (yet)."
                : "No stream has been published to this origin yet.");
              return;
            }
            const id = stream.streamId, age = ageOf(stream, now), segments = stream.segmentCount;
            playlistWrittenAt = performance.now() - age * 1000;
            if (segments === 0) {
              showNotice("Stream “" + id + "” has started; its first segment is on its way…");
              report("WAITING", id, "The publisher has announced the stream; no segment yet.");
              return;
            }
            play(stream);
            const count = segments + (segments === 1 ? " segment" : " segments") + renditionsOf(stream);
            if (stream.isFinished) {
              report("ENDED", id, "The stream ended " + ago(age) + " (" + count + "); it stays playable from the start.");
            } else if (age > STALE_SECONDS) {
              report("WAITING", id, "No new segment for " + Math.round(age) + " s: the publisher may have stopped or lost its connection.");
            } else {
              report("LIVE", id, count + ", updated " + ago(age) + ".");
            }
          }

          function detach() {
            if (!attached) return;
            attached = "";
            if (hls) { hls.destroy(); hls = null; }
            video.removeAttribute("src");
            video.load();
          }

          function play(stream) {
            const url = stream.playlistURL;
            if (attached === url) return;
            detach();
            attached = url;
            if (nativeHls) {
              hideNotice();
              video.src = url;
              video.play().catch(() => {});
              return;
            }
            if (!hlsJsURL) {
              showNotice("This browser cannot play HLS by itself. Open this page in Safari or Chromium, or play " +
                new URL(url, location.href).href + " in an HLS player (VLC, ffplay). The operator can also start " +
                "'reel serve --hls-js URL' to have the page use hls.js.");
              log("reel-viewer-player", { player: "none", reason: "no native HLS and no hls.js configured" });
              return;
            }
            loadHlsJs().then((Hls) => {
              if (attached !== url) return;
              if (!Hls.isSupported()) {
                showNotice("This browser supports neither HLS nor Media Source Extensions; play " + url + " in an HLS player.");
                return;
              }
              hideNotice();
              hls = new Hls({ liveSyncDurationCount: 3 });
              hls.on(Hls.Events.ERROR, (_, data) => {
                if (!data.fatal) return;
                detailLine.textContent = "Playback failed (" + data.type + ": " + data.details + "); retrying.";
                detach();
              });
              hls.loadSource(url);
              hls.attachMedia(video);
              video.play().catch(() => {});
              log("reel-viewer-player", { player: "hls.js", source: hlsJsURL });
            }).catch((error) => {
              attached = "";
              showNotice("Could not load hls.js from " + hlsJsURL + " (" + error.message + ").");
            });
          }

          function loadHlsJs() {
            if (!hlsLibrary) {
              hlsLibrary = new Promise((resolve, reject) => {
                const script = document.createElement("script");
                script.src = hlsJsURL;
                script.onload = () => window.Hls ? resolve(window.Hls) : reject(new Error("the script defines no Hls"));
                script.onerror = () => { hlsLibrary = null; reject(new Error("the script did not load")); };
                document.head.append(script);
              });
            }
            return hlsLibrary;
          }

          // How far behind live the player is, in seconds: from the newest media it can reach
          // (its seekable end where the player reports one, as Safari and hls.js do; else the end
          // of what it has buffered, as Chromium's own HLS) to its position, plus the time since
          // the origin last received a playlist, during which live moved on. An estimate within
          // about one segment.
          function liveEdge() {
            const ranges = video.seekable.length ? video.seekable : video.buffered;
            const end = ranges.length ? ranges.end(ranges.length - 1) : NaN;
            return isFinite(end) && end > 0 ? end : NaN;
          }

          function updateBehind() {
            const edge = liveEdge();
            if (current.state !== "LIVE" || !isFinite(edge) || video.readyState < 2) {
              behindLabel.hidden = true;
              goLive.hidden = true;
              return NaN;
            }
            const sincePublished = Math.max(0, (performance.now() - playlistWrittenAt) / 1000);
            const behind = Math.max(0, edge - video.currentTime) + sincePublished;
            behindLabel.hidden = false;
            behindLabel.textContent = "about " + behind.toFixed(1) + " s behind live";
            goLive.hidden = edge - video.currentTime < GO_LIVE_AFTER_SECONDS;
            return Math.round(behind * 1000) / 1000;
          }

          function renderList(streams, now) {
            const items = streams.slice(0, RECENT_LIMIT).map((stream) => {
              const item = document.createElement("li");
              if (stream.streamId === current.stream) item.className = "current";
              const link = document.createElement("a");
              link.href = "/watch/" + encodeURIComponent(stream.streamId);
              link.textContent = stream.streamId;
              const tag = document.createElement("span");
              const kind = stream.isFinished ? "ended" : isLive(stream, now) ? "live" : "idle";
              tag.className = "tag tag-" + kind;
              tag.textContent = kind;
              const meta = document.createElement("span");
              meta.className = "meta";
              meta.textContent = stream.segmentCount + " seg" + renditionsOf(stream).replace(" in ", " · ") + " · " + ago(ageOf(stream, now));
              item.append(link, tag, meta);
              return item;
            });
            if (!items.length) {
              const empty = document.createElement("li");
              empty.className = "empty";
              empty.textContent = "No streams yet.";
              items.push(empty);
            }
            list.replaceChildren(...items);
          }

          video.addEventListener("error", () => {
            const error = video.error;
            if (!error || !attached) return;
            detailLine.textContent = "The player stopped (" + (error.message || "media error " + error.code) + "); reloading.";
            log("reel-viewer-error", { code: error.code, message: error.message || "" });
            attached = "";  // the next poll attaches again
          });
          video.addEventListener("timeupdate", updateBehind);
          goLive.addEventListener("click", () => {
            const edge = liveEdge();
            if (isFinite(edge)) video.currentTime = Math.max(0, edge - 1);
            video.play().catch(() => {});
          });

          if (debug) {
            setInterval(() => log("reel-viewer-playback", {
              currentTime: Math.round(video.currentTime * 1000) / 1000, behind: updateBehind(),
              readyState: video.readyState, paused: video.paused, native: nativeHls,
            }), 1000);
          }

          (async function loop() {
            await poll();
            setTimeout(loop, POLL_MS);
          })();
        })();

        """#
}
