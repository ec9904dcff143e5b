// Summarises a V8 CPU profile (`node --cpu-prof`) of a benchmarked server into a small JSON object
// that is committed beside the result it explains: where the server's CPU went inside a measured
// window, by area (our layers, the HTTP stack, the SQLite binding, the garbage collector, idle) and
// by function (self time), plus the inclusive time of the functions a reader of the send path asks
// about first. A .cpuprofile is megabytes; this is a few kilobytes and still says what costs.
//
// Profile timestamps are the monotonic clock in µs, the clock of `process.hrtime` in every process
// of the machine, so a window measured by the benchmark (hrtime around a phase) selects the
// samples of that phase.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/**
 * The newest `.cpuprofile` written into `dir` by the main thread of the process whose pid is
 * `pid` (or of any process, if none). Node names them `CPU.<date>.<time>.<pid>.<thread>.<n>`;
 * the main thread is thread 0, a worker thread writes its own file ({@link threadProfilesIn}).
 */
export function cpuProfileIn(dir, pid) {
  const files = profileFiles(dir, pid).filter((file) => file.thread === 0);
  return files.at(-1)?.path;
}

/** Every `.cpuprofile` of worker threads (thread ≠ 0) of the process `pid` in `dir`, by thread. */
export function threadProfilesIn(dir, pid) {
  return profileFiles(dir, pid).filter((file) => file.thread !== 0);
}

function profileFiles(dir, pid) {
  return readdirSync(dir)
    .map((name) => ({ name, match: /^CPU\.\d+\.\d+\.(\d+)\.(\d+)\.\d+\.cpuprofile$/.exec(name) }))
    .filter(({ match }) => match !== null && (pid === undefined || Number(match[1]) === pid))
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .map(({ name, match }) => ({ path: join(dir, name), thread: Number(match[2]) }));
}

/** The monotonic clock now, in µs (the clock of CPU profile timestamps). */
export function monotonicUs() {
  return Number(process.hrtime.bigint() / 1000n);
}

/** Which part of the server a frame's code belongs to. */
function areaOf(url, name, root) {
  if (name === "(garbage collector)") return "gc";
  if (name === "(idle)") return "idle";
  if (name === "(program)") return "program (native, outside JS)";
  if (url === "") return "native";
  if (url.startsWith("node:")) return "node internals";
  const path = url.startsWith("file://") ? new URL(url).pathname : url;
  const inRepo = relative(root, path);
  const nodeModule = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(inRepo);
  if (nodeModule !== null) return nodeModule[1];
  const layer = /^dist\/([^/]+)(?:\/([^/]+))?/.exec(inRepo);
  if (layer !== null) {
    const [, top, sub] = layer;
    return sub !== undefined && !sub.endsWith(".js") ? `brigade ${top}/${sub}` : `brigade ${top}`;
  }
  return "other";
}

function shortUrl(url, root) {
  if (url === "") return "";
  const path = url.startsWith("file://") ? new URL(url).pathname : url;
  return path.startsWith(root) ? relative(root, path) : path;
}

/**
 * The summary of the samples of `profile` taken in [fromUs, toUs] (both optional): total sampled
 * ms, the share busy (not idle), ms and share per area, the `top` functions by self time, and the
 * inclusive time of every function whose name is in `inclusive`.
 */
export function summariseCpuProfile(profile, options = {}) {
  const { fromUs = -Infinity, toUs = Infinity, top = 25, root = "", inclusive = [] } = options;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const selfUs = new Map();
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    // A sample's delta is the time since the previous one: it is charged to this sample's node.
    if (at < fromUs || at > toUs) continue;
    const id = profile.samples[i];
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  let totalUs = 0;
  let idleUs = 0;
  const byArea = new Map();
  const byFunction = new Map();
  const inclusiveUs = new Map(inclusive.map((name) => [name, 0]));
  for (const [id, us] of selfUs) {
    const node = nodes.get(id);
    const { functionName, url, lineNumber } = node.callFrame;
    const name = functionName === "" ? "(anonymous)" : functionName;
    totalUs += us;
    if (name === "(idle)") idleUs += us;
    const area = areaOf(url, name, root);
    byArea.set(area, (byArea.get(area) ?? 0) + us);
    const key = `${name} ${shortUrl(url, root)}${url === "" ? "" : `:${lineNumber + 1}`}`;
    const entry = byFunction.get(key) ?? { function: key.trim(), area, us: 0 };
    entry.us += us;
    byFunction.set(key, entry);
    // Inclusive: charge each named ancestor once per sample stack.
    const seen = new Set();
    for (let walk = id; walk !== undefined; walk = parent.get(walk)) {
      const frameName = nodes.get(walk).callFrame.functionName;
      if (inclusiveUs.has(frameName) && !seen.has(frameName)) {
        seen.add(frameName);
        inclusiveUs.set(frameName, inclusiveUs.get(frameName) + us);
      }
    }
  }
  const busyUs = totalUs - idleUs;
  const ms = (us) => Number((us / 1000).toFixed(1));
  const share = (us) => Number((busyUs === 0 ? 0 : us / busyUs).toFixed(3));
  return {
    sampledMs: ms(totalUs),
    busyMs: ms(busyUs),
    note: "shares are of busy time (all samples but idle)",
    byArea: [...byArea]
      .filter(([area]) => area !== "idle")
      .sort((a, b) => b[1] - a[1])
      .map(([area, us]) => ({ area, ms: ms(us), share: share(us) })),
    topSelf: [...byFunction.values()]
      .filter((entry) => entry.area !== "idle")
      .sort((a, b) => b.us - a.us)
      .slice(0, top)
      .map((entry) => ({
        function: entry.function,
        area: entry.area,
        ms: ms(entry.us),
        share: share(entry.us),
      })),
    inclusive: [...inclusiveUs].map(([name, us]) => ({
      function: name,
      ms: ms(us),
      share: share(us),
    })),
  };
}

/** Reads and summarises a `.cpuprofile` file; see {@link summariseCpuProfile}. */
export function summariseCpuProfileFile(file, options) {
  return summariseCpuProfile(JSON.parse(readFileSync(file, "utf8")), options);
}
