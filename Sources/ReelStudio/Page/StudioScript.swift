/// The page's code: one ES module. It follows `/api/events` and fills the page from each
/// `status`, `camera` and `recording` event, and sends the buttons to the JSON API; it holds
/// no rule of its own (every figure and every check comes from the server).
enum StudioScript {
    static let source = """
        const $ = (id) => document.getElementById(id);

        function bytes(n) {
          if (n === null || n === undefined) return "unknown";
          const units = ["B", "KB", "MB", "GB", "TB"];
          let value = n, unit = 0;
          while (value >= 1000 && unit < units.length - 1) { value /= 1000; unit += 1; }
          return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
        }

        function duration(seconds) {
          const h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
          return h > 0 ? `${h} h ${m} min` : m > 0 ? `${m} min ${s} s` : `${s} s`;
        }

        function clock(seconds) {
          const whole = Math.floor(seconds ?? 0);
          const two = (n) => String(n).padStart(2, "0");
          return `${Math.floor(whole / 3600)}:${two(Math.floor((whole % 3600) / 60))}:${two(whole % 60)}`;
        }

        async function post(path, body) {
          const options = { method: "POST" };
          if (body !== undefined) {
            options.headers = { "Content-Type": "application/json" };
            options.body = JSON.stringify(body);
          }
          const answer = await fetch(path, options);
          if (answer.status === 401) { signedOut(); return null; }
          if (!answer.ok) { say(await answer.text(), "bad"); return null; }
          return answer.status === 204 ? {} : answer.json();
        }

        function say(text, tone) {
          const line = $("rec-message");
          line.textContent = text ?? "";
          line.dataset.tone = tone ?? "";
        }

        // Record: the source, the preview and the recording.

        const stateNames = { idle: "Not recording", starting: "Starting…", recording: "Recording", paused: "Paused",
                             interrupted: "Interrupted: the source stopped", finishing: "Finishing…", finished: "Finished",
                             failed: "Failed" };
        let recording = { state: "idle" };
        const active = () => ["starting", "recording", "paused", "interrupted", "finishing"].includes(recording.state);

        function showRecording(snapshot) {
          recording = snapshot;
          const state = $("rec-state");
          state.textContent = stateNames[snapshot.state] ?? snapshot.state;
          state.dataset.state = snapshot.state;
          const shown = snapshot.state !== "idle";
          $("rec-active").textContent = shown ? clock(snapshot.activeSeconds) : "–";
          $("rec-wall").textContent = shown ? clock(snapshot.wallSeconds) : "–";
          $("rec-frames").textContent = shown ? String(snapshot.framesWritten) : "–";
          $("rec-size").textContent = shown ? bytes(snapshot.fileBytes) : "–";
          $("rec-estimate").textContent = snapshot.hoursLeft == null ? "–"
            : `${snapshot.hoursLeft >= 100 ? Math.round(snapshot.hoursLeft) : snapshot.hoursLeft.toFixed(1)} h (${bytes(snapshot.freeBytes)} free)`;
          $("rec-load").textContent = shown ? snapshot.load + (snapshot.loadReason ? `: ${snapshot.loadReason}` : "") : "–";
          const running = active();
          $("start").disabled = running;
          $("pause").disabled = !running || snapshot.state === "finishing" || snapshot.state === "starting";
          $("stop").disabled = !running || snapshot.state === "finishing";
          $("pause").textContent = snapshot.state === "paused" ? "Resume" : "Pause";
          $("source-choice").disabled = running;
          if (snapshot.state === "finished") {
            const saved = `Saved ${snapshot.outputPath}` + (snapshot.sessionRegistered ? " (in the library)" : "");
            if (snapshot.error) say(`${saved}. It stopped early: ${snapshot.error}`, "warn");
            else say(saved, "ok");
          }
          else if (snapshot.state === "failed") say(snapshot.error ?? "The recording failed.", "bad");
          else if (snapshot.message) say(snapshot.message, snapshot.state === "interrupted" ? "warn" : "");
          showFace(snapshot);
        }

        function showFace(snapshot) {
          const box = $("face-box"), face = snapshot.face;
          if (!active() || !face || face.kind === "defaultRegion") { box.hidden = true; return; }
          box.hidden = false;
          box.style.left = `${face.x * 100}%`;
          box.style.top = `${face.y * 100}%`;
          box.style.width = `${face.width * 100}%`;
          box.style.height = `${face.height * 100}%`;
          box.dataset.kind = face.kind;
        }

        function showCamera(camera) {
          const note = $("preview-note");
          if (camera.problem) note.textContent = `No picture: ${camera.problem}`;
          else if (!camera.source) note.textContent = "Choose a source to see its picture.";
          else note.textContent = `${camera.source}${active() ? " (recording)" : ""}`;
          const choice = $("source-choice");
          if (camera.source && choice.value !== camera.source) selectSource(camera.source);
          sourceChosen = Boolean(camera.source);
          startPreview();
        }

        function option(value, text) {
          const item = document.createElement("option");
          item.value = value;
          item.textContent = text;
          return item;
        }

        function selectSource(value) {
          const choice = $("source-choice");
          if (![...choice.options].some((item) => item.value === value)) choice.add(option(value, value), choice.options.length - 1);
          choice.value = value;
        }

        async function loadSources() {
          const answer = await fetch("/api/sources");
          if (!answer.ok) return;
          const sources = await answer.json();
          const choice = $("source-choice");
          choice.replaceChildren(option("", "Choose a source…"));
          for (const camera of sources.cameras) {
            const format = camera.formats[0];
            const detail = format ? ` — ${format.fourcc} ${format.sizes.at(-1) ?? ""}` : "";
            choice.add(option(`v4l2:${camera.path}`, `${camera.name} (${camera.path})${detail}`));
          }
          if (sources.cameras.length === 0) {
            const none = option("", "No camera found");
            none.disabled = true;
            choice.add(none);
          }
          choice.add(option("test:1280x720@15", "Test pattern, 1280x720 at 15 fps"));
          choice.add(option("file", "A video file…"));
          if (sources.chosen) selectSource(sources.chosen);
        }

        async function chooseSource(value) {
          $("file-row").hidden = value !== "file";
          if (value === "file") { $("source-file").focus(); return; }
          if (!value) return;
          const camera = await post("/api/source", { source: value });
          if (camera) { say(""); showCamera(camera); }
        }

        async function start(event) {
          event.preventDefault();
          const mode = document.querySelector("input[name=mode]:checked").value;
          const request = { mode, title: $("title").value, tags: $("tags").value.split(",").map((t) => t.trim()).filter((t) => t) };
          if (mode === "timelapse") request.interval = Number($("interval").value);
          say("");
          const snapshot = await post("/api/recording/start", request);
          if (snapshot) showRecording(snapshot);
        }

        async function control(action) {
          const snapshot = await post(`/api/recording/${action}`);
          if (snapshot) showRecording(snapshot);
        }

        function typing(target) {
          return target instanceof HTMLInputElement || target instanceof HTMLSelectElement
            || target instanceof HTMLTextAreaElement || target instanceof HTMLButtonElement;
        }

        function keys(event) {
          if (event.code !== "Space" || event.repeat || typing(event.target) || !active()) return;
          event.preventDefault();
          control("toggle");
        }

        // The preview is a stream that never ends: it starts after the page has loaded (an
        // image still loading would hold the page's load event) and once there is a source.
        let pageLoaded = false, sourceChosen = false, signedOutNow = false;
        function startPreview() {
          const img = $("preview");
          if (pageLoaded && sourceChosen && !signedOutNow && !document.hidden && !img.getAttribute("src")) img.src = "/api/preview";
        }

        // A tab out of sight closes its preview (the studio then encodes nothing for it) and
        // opens it again when shown.
        // A preview that ended (the source delivered nothing for a while, the studio restarted)
        // is asked for again after 2 s.
        function previewEnded() {
          $("preview").removeAttribute("src");
          setTimeout(startPreview, 2000);
        }

        function visibility() {
          if (document.hidden) $("preview").removeAttribute("src");
          else startPreview();
        }

        function connection(state, text) {
          const line = $("connection");
          line.dataset.state = state;
          line.textContent = text;
        }

        function showStatus(status) {
          $("library-path").textContent = status.library.path;
          $("library-sessions").textContent = status.library.sessions ?? `cannot be read: ${status.library.problem}`;
          $("disk-free").textContent = bytes(status.disk.freeBytes);
          $("source").textContent = status.source ?? "none chosen";
          $("streams").textContent = String(status.eventStreams);
          $("uptime").textContent = duration(status.uptimeSeconds);
          $("version").textContent = status.version;
          document.body.dataset.updated = String(Date.now());
        }

        let events = null;

        function follow() {
          events = new EventSource("/api/events");
          events.addEventListener("open", () => connection("live", "Live"));
          events.addEventListener("status", (event) => {
            connection("live", "Live");
            showStatus(JSON.parse(event.data));
          });
          events.addEventListener("recording", (event) => showRecording(JSON.parse(event.data)));
          events.addEventListener("camera", (event) => showCamera(JSON.parse(event.data)));
          events.addEventListener("error", async () => {
            connection("lost", "Connection lost, retrying…");
            // A studio that restarted has forgotten this session: say so instead of retrying for ever.
            try {
              const answer = await fetch("/api/status");
              if (answer.status === 401) signedOut();
            } catch (_) { /* the studio is not there: EventSource keeps retrying */ }
          });
        }

        function signedOut() {
          signedOutNow = true;
          if (events) events.close();
          $("preview").removeAttribute("src");
          connection("lost", "Signed out");
          $("signed-out").hidden = false;
        }

        async function signOut() {
          const answer = await fetch("/api/sign-out", { method: "POST" });
          if (answer.ok) signedOut();
        }

        $("sign-out").addEventListener("click", signOut);
        $("record-form").addEventListener("submit", start);
        $("pause").addEventListener("click", () => control("toggle"));
        $("stop").addEventListener("click", () => control("stop"));
        $("source-choice").addEventListener("change", (event) => chooseSource(event.target.value));
        $("use-file").addEventListener("click", () => chooseSource(`file:${$("source-file").value.trim()}`));
        for (const radio of document.querySelectorAll("input[name=mode]")) {
          radio.addEventListener("change", () => { $("interval").disabled = radio.value === "full" && radio.checked; });
        }
        document.addEventListener("keydown", keys);
        document.addEventListener("visibilitychange", visibility);
        $("preview").addEventListener("error", previewEnded);
        window.addEventListener("load", () => { pageLoaded = true; startPreview(); });
        follow();
        loadSources();

        """
}
