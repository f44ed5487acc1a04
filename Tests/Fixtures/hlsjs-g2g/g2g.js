// Glass-to-glass latency of live HLS as a viewer sees it: hls.js plays ?src= in a <video>, and
// on every picture the browser presents (requestVideoFrameCallback) the page draws the video
// into a canvas and reads the wall-clock strip Reel's test source draws above its frame-number
// strip (Sources/ReelMedia/Sources/TestPattern.swift): the milliseconds modulo 2^32 at which
// the picture was made, 32 cells. Each new value gives one sample: Date.now() − that capture
// time. Source and browser share this machine's clock, so no offset is needed. (The frame
// number is not read: its cells are whole pixels of the source's width, so where they fall in
// a picture scaled to another size depends on a size the page does not know.)
//
// Query: src (the playlist URL, required), low=1 (hls.js lowLatencyMode: true), hls (the hls.js
// ES module, default ./hls.js), config (JSON merged into the hls.js config).
// Everything is kept in window.reelG2G; window.reelG2G.summary() is what WebDriver reads.
//
// ABR (an ABR ladder's multivariant playlist): the summary also has the rungs hls.js read
// (levels: height, width, BANDWIDTH as bitrate, AVERAGE-BANDWIDTH), every LEVEL_SWITCHED
// (switches: the level, its height and BANDWIDTH, when: the rung of the picture on show
// changed) and LEVEL_SWITCHING (loadSwitches: the rung hls.js loads from next, with its
// bandwidth estimate then), currentLevel, loadLevel, bandwidthEstimate, and playback progress:
// currentTime, presentedFrames, and longestFreezeMs, the longest time video.currentTime did
// not advance (sampled every 200 ms) since summary(sinceMs)'s sinceMs (page time, ms since the
// page started: pageMs). Times in the summary are page times. The ABR test
// (Tests/ReelOriginTests/HLSJSLadderSwitchingTests.swift) passes
// config={"abrEwmaFastLive":1,"abrEwmaSlowLive":3}: on loopback hls.js's bandwidth estimate
// starts near 16 Mbps, and with two rungs its emergency down switch never fires, so with the
// default half-lives (3 s, 9 s) it takes several too-slow fragments to switch down; the test
// explains the numbers.

const params = new URLSearchParams(location.search);
const lowLatencyMode = params.get("low") === "1";
const state = {
  phase: "loading", error: null, hlsVersion: null, lowLatencyMode, startedAt: Date.now(),
  firstPictureAt: null, samples: [], sampleAt: [], frames: 0, lastClock: -1, callbacks: 0, unreadable: 0, implausible: [],
  errors: [], fatalErrors: [], levelSwitches: [], hlsLatency: [], targetLatency: null,
  playlistLoads: 0, playlistLoadsWithDirectives: 0, stalls: 0, size: null,
  hls: null, loadSwitches: [], emergencyAborts: 0, progress: [], presentedFrames: 0,
};
window.reelG2G = state;

const CLOCK_BITS = 32, WRAP = 2 ** 32;
const video = document.getElementById("video");
const canvas = document.getElementById("canvas");
const context = canvas.getContext("2d", { willReadFrequently: true });

// Nearest-rank percentile of a sorted array.
function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

// The longest run of progress samples at or after sinceMs in which currentTime did not advance.
function longestFreeze(sinceMs) {
  let longest = 0, previous = null, advancedAt = null;
  for (const sample of state.progress) {
    if (sample.at < sinceMs) { previous = sample.t; continue; }
    if (advancedAt === null) advancedAt = sample.at;
    if (previous === null || sample.t > previous) advancedAt = sample.at;
    else longest = Math.max(longest, sample.at - advancedAt);
    previous = sample.t;
  }
  return longest;
}

function describeLevel(index) {
  const level = state.hls && state.hls.levels ? state.hls.levels[index] : null;
  return level ? { height: level.height, width: level.width, bitrate: level.maxBitrate, averageBitrate: level.averageBitrate } : {};
}

state.summary = (sinceMs = 0) => {
  const sorted = state.samples.slice().sort((a, b) => a - b);
  const latency = state.hlsLatency.map((s) => s.latency).sort((a, b) => a - b);
  return {
    phase: state.phase, error: state.error, hlsVersion: state.hlsVersion, lowLatencyMode,
    frames: state.frames, samples: sorted.length, callbacks: state.callbacks, unreadable: state.unreadable,
    implausible: state.implausible.length, implausibleExamples: state.implausible.slice(0, 5),
    p50: percentile(sorted, 50), p95: percentile(sorted, 95), min: sorted[0] ?? null, max: sorted[sorted.length - 1] ?? null,
    firstPictureAfterMs: state.firstPictureAt === null ? null : state.firstPictureAt - state.startedAt,
    hlsLatencyP50: percentile(latency, 50), targetLatency: state.targetLatency,
    errors: state.errors.length, errorDetails: [...new Set(state.errors.map((e) => e.details))],
    fatalErrors: state.fatalErrors, levelSwitches: state.levelSwitches.length,
    playlistLoads: state.playlistLoads, playlistLoadsWithDirectives: state.playlistLoadsWithDirectives,
    stalls: state.stalls, size: state.size,
    pageMs: Date.now() - state.startedAt,
    levels: state.hls && state.hls.levels ? state.hls.levels.map((_, i) => describeLevel(i)) : [],
    switches: state.levelSwitches, loadSwitches: state.loadSwitches, emergencyAborts: state.emergencyAborts,
    currentLevel: state.hls ? state.hls.currentLevel : null, loadLevel: state.hls ? state.hls.loadLevel : null,
    bandwidthEstimate: state.hls ? Math.round(state.hls.bandwidthEstimate) : null,
    currentTime: video.currentTime, presentedFrames: state.presentedFrames,
    longestFreezeMs: longestFreeze(sinceMs), sinceMs,
  };
};

// The 32 clock cells on `row` of the RGBA rows read: cell i's centre is at (i + ½)/32 of the
// width in any picture scaled from the source's (TestPattern.drawClock), its value the mean luma
// of the 3x3 pixels there thresholded at mid-grey, most significant first.
function readClock(pixels, width, row) {
  if (width / CLOCK_BITS < 4) return null;
  let value = 0;
  for (let bit = 0; bit < CLOCK_BITS; bit += 1) {
    const x = Math.floor(((2 * bit + 1) * width) / (2 * CLOCK_BITS));
    let sum = 0;
    for (let dy = -1; dy <= 1; dy += 1) {
      for (let dx = -1; dx <= 1; dx += 1) {
        const i = ((row + dy) * width + x + dx) * 4;
        sum += 0.299 * pixels[i] + 0.587 * pixels[i + 1] + 0.114 * pixels[i + 2];
      }
    }
    value = value * 2 + (sum / 9 > 128 ? 1 : 0);
  }
  return value;
}

// Reads the capture clock from the picture on show: the strip just above the bottom one.
function readPictureClock() {
  const w = video.videoWidth, h = video.videoHeight;
  if (w === 0 || h === 0) return null;
  if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; state.size = `${w}x${h}`; }
  const strip = Math.max(8, Math.floor(h / 16)) & ~1;
  context.drawImage(video, 0, 0, w, h);
  const pixels = context.getImageData(0, h - 2 * strip, w, strip).data;
  return readClock(pixels, w, Math.floor(strip / 2));
}

// One rendered picture: a new one (another capture time than the last) gives one sample.
function onPicture() {
  state.callbacks += 1;
  const now = Date.now();
  const clock = readPictureClock();
  if (clock === null) { state.unreadable += 1; return; }
  if (clock === state.lastClock) return;
  state.lastClock = clock;
  // now and the clock are both milliseconds modulo 2^32; the difference, as a signed number.
  let age = (now % WRAP) - clock;
  if (age > WRAP / 2) age -= WRAP;
  if (age < -WRAP / 2) age += WRAP;
  if (age < -2000 || age > 120000) {
    if (state.implausible.length < 100) state.implausible.push({ clock, age });
    return;
  }
  state.frames += 1;
  if (state.firstPictureAt === null) state.firstPictureAt = now;
  state.samples.push(age);
  state.sampleAt.push(now - state.startedAt);
}

function watchPictures() {
  const next = () => video.requestVideoFrameCallback((_, metadata) => {
    state.presentedFrames = metadata.presentedFrames;
    try { onPicture(); } catch (e) { state.error = "reading a picture: " + e.message; }
    next();
  });
  next();
}

// The Hls class: the module's own export (hls.js's ESM build), or, in gradio's bundle whose
// exports are minified names, taken from the instance its "create an Hls for a video" export
// returns (found by what its source calls).
async function loadHls(url) {
  const mod = await import(url);
  const exports = Object.values(mod).filter((v) => typeof v === "function");
  const direct = exports.find((v) => typeof v.isSupported === "function" && v.Events);
  if (direct) return direct;
  for (const create of exports) {
    const text = Function.prototype.toString.call(create);
    if (!text.includes("loadSource") || !text.includes("attachMedia")) continue;
    let made = null;
    try { made = create(document.createElement("video"), "data:application/vnd.apple.mpegurl,", () => {}); } catch { continue; }
    const Hls = made && made.constructor;
    try { made.destroy(); } catch { /* nothing to free */ }
    if (Hls && typeof Hls.isSupported === "function" && Hls.Events) return Hls;
  }
  throw new Error(`no export of ${url} is or creates an Hls (exports: ${Object.keys(mod).join(", ")})`);
}

function listen(hls, Hls) {
  hls.on(Hls.Events.MANIFEST_PARSED, () => { video.play().catch((e) => { state.error = "play: " + e.message; }); });
  hls.on(Hls.Events.LEVEL_LOADING, (_, data) => {
    state.playlistLoads += 1;
    if (data.deliveryDirectives) state.playlistLoadsWithDirectives += 1;
  });
  hls.on(Hls.Events.LEVEL_SWITCHED, (_, data) => {
    state.levelSwitches.push(Object.assign({ level: data.level, at: Date.now() - state.startedAt }, describeLevel(data.level)));
  });
  hls.on(Hls.Events.LEVEL_SWITCHING, (_, data) => {
    if (state.loadSwitches.length < 500) {
      state.loadSwitches.push({ level: data.level, at: Date.now() - state.startedAt, bandwidthEstimate: Math.round(hls.bandwidthEstimate) });
    }
  });
  hls.on(Hls.Events.FRAG_LOAD_EMERGENCY_ABORTED, () => { state.emergencyAborts += 1; });
  hls.on(Hls.Events.ERROR, (_, data) => {
    const entry = { type: data.type, details: data.details, fatal: !!data.fatal, at: Date.now() - state.startedAt };
    if (state.errors.length < 500) state.errors.push(entry);
    if (!data.fatal) return;
    state.fatalErrors.push(entry);
    // What a player does: retry the network, recover the media, else give up.
    if (data.type === Hls.ErrorTypes.NETWORK_ERROR) hls.startLoad();
    else if (data.type === Hls.ErrorTypes.MEDIA_ERROR) hls.recoverMediaError();
    else { state.phase = "failed"; hls.destroy(); }
  });
  video.addEventListener("waiting", () => { state.stalls += 1; });
  setInterval(() => {
    const latency = hls.latency;
    if (Number.isFinite(latency) && latency > 0) state.hlsLatency.push({ at: Date.now() - state.startedAt, latency });
    if (Number.isFinite(hls.targetLatency)) state.targetLatency = hls.targetLatency;
  }, 500);
  setInterval(() => {
    if (state.progress.length < 6000) state.progress.push({ at: Date.now() - state.startedAt, t: video.currentTime });
  }, 200);
}

async function start() {
  const src = params.get("src");
  if (!src) throw new Error("no ?src= playlist");
  const Hls = await loadHls(params.get("hls") || "./hls.js");
  state.hlsVersion = Hls.version;
  if (!Hls.isSupported()) throw new Error("hls.js says this browser has no MSE");
  const config = Object.assign({ lowLatencyMode }, JSON.parse(params.get("config") || "{}"));
  const hls = new Hls(config);
  state.hls = hls;
  listen(hls, Hls);
  hls.loadSource(src);
  hls.attachMedia(video);
  watchPictures();
  state.phase = "playing";
}

start().catch((e) => { state.phase = "failed"; state.error = String(e && e.message || e); });
