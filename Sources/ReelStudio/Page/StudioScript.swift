/// The page's code: one ES module. It follows `/api/events` and fills the page from each
/// `status` event; it holds no rule of its own (every figure comes from the server).
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
          if (events) events.close();
          connection("lost", "Signed out");
          $("signed-out").hidden = false;
        }

        async function signOut() {
          const answer = await fetch("/api/sign-out", { method: "POST" });
          if (answer.ok) signedOut();
        }

        $("sign-out").addEventListener("click", signOut);
        follow();

        """
}
