// Soak of the watch route under abuse, on the REAL `brigade serve` (dist/cli/main.js, built by
// `npm run bench`) started as a child process on a temp SQLite file on 127.0.0.1, port 0.
//
// One attacker principal owns one session R in a team; it fires thousands of abusive requests at
// R's watch route over raw `node:net` sockets, a bounded number in flight, within a time budget:
//   HEAD requests (read the answer's head, then hang up), GETs abandoned at once (destroy right
//   after the request), GETs reset (RST) after the first bytes, and never-reading GETs (kept open,
//   socket paused, until the end).
// Then a teammate sends 16 KiB messages to R (within every protocol limit), the server's RSS is
// let settle, and it is compared with the RSS before the abuse; GET /v1/health latency (p50/p99,
// sequential, keep-alive) is measured before and after. A server that leaks keeps every abandoned
// stream, its subscription and timer, and buffers every message in each of them.
//
// Writes bench/results/watch-abuse.json (the machine noted) and prints a summary. Nothing is
// asserted. BENCH_WATCH_ABUSE_SERVER=<main.js> runs another build (e.g. an older checkout's) and
// BENCH_WATCH_ABUSE_OUT=<file> writes its result elsewhere, for side-by-side figures.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const serverEntry = process.env.BENCH_WATCH_ABUSE_SERVER ?? join(root, "dist/cli/main.js");
const outFile = process.env.BENCH_WATCH_ABUSE_OUT ?? join(root, "bench/results/watch-abuse.json");

const ABUSE = { head: 1500, abandoned: 1000, reset: 400, neverReading: 100 };
const IN_FLIGHT = 50;
const ABUSE_BUDGET_MS = 60_000;
const REQUEST_TIMEOUT_MS = 5_000;
const SENDER_SESSIONS = 4;
const MESSAGES_PER_SENDER = 5; // 20 in all: under every send rate and inbox cap
const BODY = "x".repeat(16_384);
const HEALTH_SAMPLES = 400;
const SETTLE_MAX_MS = 20_000;

const round = (x, digits) => Number(x.toFixed(digits));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const loadAverageAtStart = os.loadavg()[0];
const workDir = mkdtempSync(join(os.tmpdir(), "brigade-bench-watch-abuse-"));

function startServer(dataFile) {
  const child = spawn(
    process.execPath,
    [serverEntry, "serve", "--host", "127.0.0.1", "--port", "0", "--data", dataFile],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  child.stderr.resume();
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(
      () => reject(new Error("brigade serve printed no URL in 15 s")),
      15_000,
    );
    child.stdout.on("data", (chunk) => {
      out += chunk.toString("utf8");
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match === null) return;
      clearTimeout(timer);
      const url = new URL(match[1]);
      resolve({ child, host: url.hostname, port: Number(url.port) });
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`brigade serve exited early (${code ?? signal})`));
    });
  });
}

/** Resident set size of a process in bytes (Linux /proc). */
function rssBytes(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match === null ? Number.NaN : Number(match[1]) * 1024;
}

/** utime + stime of a process in ms (Linux /proc; 100 clock ticks per second). */
function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** CPU the server burns over 2 s with no request in flight, in ms. */
async function idleCpuMs() {
  const start = cpuMs(server.child.pid);
  await sleep(2000);
  return cpuMs(server.child.pid) - start;
}

const server = await startServer(join(workDir, "brigade.sqlite"));
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

function call(method, path, token, body) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers = {};
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  // Every POST declares JSON, even an empty one (the server refuses it otherwise: 415).
  if (method === "POST") headers["content-type"] = "application/json";
  if (payload !== undefined) headers["content-length"] = Buffer.byteLength(payload);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: server.host, port: server.port, method, path, headers, agent },
      (res) => {
        const chunks = [];
        res.on("data", (chunk) => chunks.push(chunk));
        res.on("end", () => {
          try {
            resolve(JSON.parse(Buffer.concat(chunks)));
          } catch (error) {
            reject(error);
          }
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

async function must(method, path, token, body) {
  const envelope = await call(method, path, token, body);
  if (envelope.ok !== true) throw new Error(`${method} ${path}: ${JSON.stringify(envelope.error)}`);
  return envelope.result;
}

async function healthLatency() {
  const samples = [];
  for (let i = 0; i < HEALTH_SAMPLES; i++) {
    const started = performance.now();
    const health = await call("GET", "/v1/health");
    if (health.status !== "ok") throw new Error("health is not ok");
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  const at = (p) =>
    samples[Math.min(samples.length - 1, Math.ceil((p / 100) * samples.length) - 1)];
  return { samples: samples.length, p50Ms: round(at(50), 3), p99Ms: round(at(99), 3) };
}

/** Polls RSS every 250 ms until two readings 1 s apart differ by under 1 %, or the budget ends. */
async function settledRss() {
  const deadline = performance.now() + SETTLE_MAX_MS;
  let last = rssBytes(server.child.pid);
  while (performance.now() < deadline) {
    await sleep(1000);
    const now = rssBytes(server.child.pid);
    if (Math.abs(now - last) < last * 0.01) return now;
    last = now;
  }
  return last;
}

// ---------------------------------------------------------------------------------------------
// Setup: attacker B owns R; teammate A sends from four sessions.

const registration = (name) => ({
  harness: "bench",
  harness_version: "1",
  session_name: name,
  activity: "busy",
  inbound: "accept",
});
const a = (await must("POST", "/v1/principals")).token;
const b = (await must("POST", "/v1/principals")).token;
const team = await must("POST", "/v1/teams", a, { team_name: "soak" });
await must("POST", "/v1/teams/join", b, { join_secret: team.join_secret });
const senders = [];
for (let i = 0; i < SENDER_SESSIONS; i++) {
  senders.push(
    (await must("POST", `/v1/teams/${team.team_ref}/sessions`, a, registration(`s${i}`)))
      .session_id,
  );
}
const recipient = (await must("POST", `/v1/teams/${team.team_ref}/sessions`, b, registration("r")))
  .session_id;
const watchPath = `/v1/teams/${team.team_ref}/sessions/${recipient}/watch`;

await healthLatency(); // warm-up
const before = {
  rssBytes: await settledRss(),
  idleCpuMs: await idleCpuMs(),
  health: await healthLatency(),
};

// ---------------------------------------------------------------------------------------------
// The abuse.

const neverReading = [];
const statusCounts = {};

/** One abusive request; resolves when the client side is done with it. */
function abuse(kind) {
  return new Promise((resolve) => {
    const socket = net.connect(server.port, server.host);
    let head = "";
    let settled = false;
    const done = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      socket.destroy();
      done();
    }, REQUEST_TIMEOUT_MS);
    socket.on("error", done);
    socket.on("close", done);
    const method = kind === "head" ? "HEAD" : "GET";
    socket.write(
      `${method} ${watchPath} HTTP/1.1\r\nHost: ${server.host}\r\nAuthorization: Bearer ${b}\r\n\r\n`,
    );
    if (kind === "abandoned") {
      socket.destroy();
      return;
    }
    if (kind === "neverReading") {
      neverReading.push(socket);
      // Reads nothing after the answer's status line (so the count of refusals is known).
      socket.once("data", (chunk) => {
        const status = /^HTTP\/1\.1 (\d{3})/.exec(chunk.toString("latin1"))?.[1] ?? "none";
        statusCounts[`${kind} ${status}`] = (statusCounts[`${kind} ${status}`] ?? 0) + 1;
        socket.pause();
        done();
      });
      return;
    }
    socket.on("data", (chunk) => {
      head += chunk.toString("latin1");
      if (!head.includes("\r\n")) return;
      const status = /^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? "none";
      statusCounts[`${kind} ${status}`] = (statusCounts[`${kind} ${status}`] ?? 0) + 1;
      if (kind === "reset") socket.resetAndDestroy();
      else socket.destroy();
      done();
    });
  });
}

const plan = [];
for (const [kind, count] of Object.entries(ABUSE)) for (let i = 0; i < count; i++) plan.push(kind);
// Mix the kinds (a fixed-seed shuffle, so every run fires the same sequence).
let seed = 0x9e3779b9;
for (let i = plan.length - 1; i > 0; i--) {
  seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
  const j = seed % (i + 1);
  [plan[i], plan[j]] = [plan[j], plan[i]];
}
const abuseStarted = performance.now();
const fired = { head: 0, abandoned: 0, reset: 0, neverReading: 0 };
let next = 0;
async function worker() {
  while (next < plan.length && performance.now() - abuseStarted < ABUSE_BUDGET_MS) {
    const kind = plan[next++];
    fired[kind]++;
    await abuse(kind);
  }
}
await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
const abuseMs = performance.now() - abuseStarted;
const afterAbuseRss = await settledRss();

// ---------------------------------------------------------------------------------------------
// Messages to the abused session, then the figures after.

for (let round_ = 0; round_ < MESSAGES_PER_SENDER; round_++) {
  for (const sender of senders) {
    await must("POST", `/v1/teams/${team.team_ref}/messages`, a, {
      sender_session_id: sender,
      recipient_session_id: recipient,
      body: BODY,
    });
  }
}
const after = {
  rssBytes: await settledRss(),
  idleCpuMs: await idleCpuMs(),
  health: await healthLatency(),
};
for (const socket of neverReading) socket.destroy();
await sleep(1000);
const afterHangUpRss = rssBytes(server.child.pid);

server.child.kill("SIGTERM");
await new Promise((resolve) => server.child.once("exit", resolve));
agent.destroy();
rmSync(workDir, { recursive: true, force: true });

const mib = (bytes) => round(bytes / 2 ** 20, 1);
const cpus = os.cpus();
const report = {
  suite: "watch-abuse",
  date: new Date().toISOString(),
  machine: {
    cpu: cpus[0]?.model ?? "unknown",
    cores: cpus.length,
    memoryBytes: os.totalmem(),
    loadAverage1mAtStart: round(loadAverageAtStart, 2),
    loadAverage1m: round(os.loadavg()[0], 2),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
  },
  method: {
    server: `${serverEntry === join(root, "dist/cli/main.js") ? "dist/cli/main.js" : serverEntry} serve, temp SQLite file, 127.0.0.1, port 0, default limits`,
    abuse: `raw node:net sockets at one session's watch route, ${IN_FLIGHT} in flight, at most ${ABUSE_BUDGET_MS} ms: HEAD (hang up after the answer's head), GET abandoned at once, GET reset (RST) after the first bytes, GET never read (kept open to the end)`,
    messages: `${SENDER_SESSIONS * MESSAGES_PER_SENDER} messages of a 16,384-byte body to the abused session after the abuse`,
    rss: "VmRSS of the server process, read when two readings 1 s apart differ by under 1 % (at most 20 s)",
    health: `${HEALTH_SAMPLES} sequential GET /v1/health over one keep-alive connection`,
  },
  fired,
  answers: statusCounts,
  abuseMs: round(abuseMs, 0),
  rssMiB: {
    before: mib(before.rssBytes),
    afterAbuse: mib(afterAbuseRss),
    afterMessages: mib(after.rssBytes),
    afterNeverReadingHungUp: mib(afterHangUpRss),
    growth: mib(after.rssBytes - before.rssBytes),
  },
  idleCpuMsPer2s: { before: before.idleCpuMs, after: after.idleCpuMs },
  healthMs: { before: before.health, after: after.health },
};

mkdirSync(dirname(outFile), { recursive: true });
writeFileSync(outFile, `${JSON.stringify(report, null, 2)}\n`);

const m = report.machine;
console.log(
  `${m.cpu}, ${m.cores} cores, ${(m.memoryBytes / 2 ** 30).toFixed(1)} GiB, node ${m.node}, ` +
    `load ${m.loadAverage1m}, ${report.date}`,
);
console.log(
  `fired ${JSON.stringify(fired)} in ${report.abuseMs} ms; answers ${JSON.stringify(statusCounts)}`,
);
console.log(
  `RSS MiB: before ${report.rssMiB.before}, after abuse ${report.rssMiB.afterAbuse}, after messages ` +
    `${report.rssMiB.afterMessages} (growth ${report.rssMiB.growth}), after hang-up ${report.rssMiB.afterNeverReadingHungUp}`,
);
console.log(`server CPU ms per idle 2 s: before ${before.idleCpuMs}, after ${after.idleCpuMs}`);
console.log(
  `health p50/p99 ms: before ${before.health.p50Ms}/${before.health.p99Ms}, after ${after.health.p50Ms}/${after.health.p99Ms}`,
);
