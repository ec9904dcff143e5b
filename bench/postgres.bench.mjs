// Brigade on PostgreSQL: durable sends/s and send→watch latency for one and for three
// `brigade serve --store postgres://…` processes on ONE database, beside the raw ceiling of the
// same SQL send function (`brigade_send`, driven directly over a pg pool as the server's own
// prepared statement) and the fsync rate of the disk under the cluster — all in one run on a
// private cluster (initdb + pg_ctl of the installed PostgreSQL, fsync on, synchronous_commit on,
// loopback only) in a temp folder.
//
// Production code runs unchanged (dist/, built by `npm run bench`); no protocol limit is lifted.
// The load stays under every limit the way bench/server.bench.mjs does: 3 sessions per principal,
// at most 20 sends per session, a session's k-th send goes k+1 places round its pool's ring, so
// no inbox cap, pair cap or window is reached. Principals, the team and sessions are created
// in process through the service on the same database (the HTTP minting limit is per address).
//
// Phases (each beside its baseline from this run):
//   1. fsync rate: 8 KiB write + fdatasync in a loop, 2 s, in the cluster's folder;
//   2. raw ceiling: 64 concurrent `SELECT * FROM brigade_send(…)` over a pool of 4 (the server's
//      default pool) and of 16 connections, 4 s each;
//   3. durable sends/s through one process, 64 concurrent keep-alive HTTP senders, 5 s;
//   4. the same through three processes (requests spread round-robin by the client);
//   5. send → watch latency at a paced 100 and then 500 sends/s for 5 s each, one process (watch
//      and send on it);
//   6. the same across processes: session i is watched on process i mod 3, every send to it goes
//      through process i+1 mod 3, so every delivery crosses processes (NOTIFY → LISTEN → read).
// Every measured phase also reports the CPU time per message of each component (the server
// processes, all of PostgreSQL's processes, this client), read from /proc around the phase: on a
// box where all of them share the cores, 1000 × cores / that sum is the most messages per second
// the box can carry (`cpuCeilingPerSecond`), which tells a goal the machine cannot reach from
// one the code misses.
// Every phase also reports the servers' CPU µs per accepted send. The servers run under
// `node --cpu-prof`; each profile's samples inside a measured phase are summarised (areas and top
// functions, bench/cpu-profile-summary.mjs) into bench/results/postgres.profile.json.
// Writes bench/results/postgres.json and prints a summary. Goals are reported, never asserted.
// BENCH_POSTGRES_MAIN=<main.js> runs another build's servers (e.g. an older checkout's
// dist/cli/main.js) and BENCH_POSTGRES_OUT=<dir> writes the two result files there instead, for
// side-by-side figures of two builds; the raw ceiling is always this tree's statement.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import {
  chownSync,
  closeSync,
  fdatasyncSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import http from "node:http";
import { createServer } from "node:net";
import os from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import {
  cpuProfileIn,
  monotonicUs,
  summariseCpuProfileFile,
  threadProfilesIn,
} from "./cpu-profile-summary.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { BrigadeService, SEND_LIMITS } = await import(join(root, "dist/service/index.js"));
const { openPostgresStore, SEND_SQL, SEND_STATEMENT } = await import(
  join(root, "dist/store/postgres/index.js")
);

const SENDS_PER_SESSION = 20;
const SESSIONS_PER_PRINCIPAL = 3;
const CONCURRENCY = 64;
const PHASE_MS = { raw: 4000, http: 5000 };
const PACED_RATE = 500;
/** A rate the box sustains even when loaded, so the push path is seen without a send queue. */
const LOW_RATE = 100;
const PACED_MS = 5000;
const DRAIN_MS = 5000;
const POOL_SESSIONS = {
  raw4: 700,
  raw16: 700,
  warm: 100,
  one: 500,
  three: 500,
  paced1: 140,
  paced3: 140,
  low1: 50,
  low3: 50,
};
const BODY =
  "Heads-up: the nightly export failed twice last night; the cause was a disk quota on worker-3. " +
  "I will rerun the export at 14:00 UTC, please hold migrations on the billing tables until then.";
const SUMMARY = "Nightly export rerun";

const loadAverageAtStart = os.loadavg()[0];
const serverMain = process.env.BENCH_POSTGRES_MAIN ?? join(root, "dist/cli/main.js");
const resultsDir = process.env.BENCH_POSTGRES_OUT ?? join(root, "bench/results");
const round = (x, digits) => Number(x.toFixed(digits));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const nowMs = () => performance.now();
function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
function latencyStats(samples) {
  const sorted = Float64Array.from(samples).sort();
  return {
    count: sorted.length,
    p50Ms: round(percentile(sorted, 50), 2),
    p90Ms: round(percentile(sorted, 90), 2),
    p99Ms: round(percentile(sorted, 99), 2),
    maxMs: round(sorted[sorted.length - 1] ?? Number.NaN, 2),
  };
}
async function inParallel(n, limit, task) {
  let next = 0;
  const out = new Array(n);
  const worker = async () => {
    for (let i = next++; i < n; i = next++) out[i] = await task(i);
  };
  await Promise.all(Array.from({ length: Math.min(limit, n) }, worker));
  return out;
}

// ---------------------------------------------------------------------------------------------
// The private cluster (PostgreSQL refuses to run as root: then it runs as `postgres`).

const bin = ["17", "16", "15"]
  .map((v) => `/usr/lib/postgresql/${v}/bin`)
  .find((d) => {
    try {
      execFileSync(join(d, "pg_ctl"), ["--version"], { stdio: "ignore" });
      return true;
    } catch {
      return false;
    }
  });
if (bin === undefined)
  throw new Error("bench: no PostgreSQL server binaries (apt-get install postgresql)");
const owner = process.getuid?.() === 0 ? "postgres" : undefined;
function runAs(tool, args) {
  const [command, full] =
    owner === undefined
      ? [join(bin, tool), args]
      : ["runuser", ["-u", owner, "--", join(bin, tool), ...args]];
  const result = spawnSync(command, full, { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${tool} failed: ${result.stderr.slice(-500)}`);
  return result.stdout;
}
function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}
const workDir = mkdtempSync(join(os.tmpdir(), "brigade-bench-pg-"));
if (owner !== undefined) {
  const uid = Number(execFileSync("id", ["-u", owner], { encoding: "utf8" }));
  const gid = Number(execFileSync("id", ["-g", owner], { encoding: "utf8" }));
  chownSync(workDir, uid, gid);
}
const dataDir = join(workDir, "data");
runAs("initdb", [
  "-D",
  dataDir,
  "-A",
  "trust",
  "-U",
  "brigade",
  "-E",
  "UTF8",
  "--locale=C.UTF-8",
  "--no-sync",
]);
const pgPort = await freePort();
runAs("pg_ctl", [
  "-D",
  dataDir,
  "-o",
  `-p ${pgPort} -k ${workDir} -c listen_addresses=127.0.0.1 -c max_connections=200`,
  "-l",
  join(workDir, "server.log"),
  "-w",
  "start",
]);
const url = `postgres://brigade@127.0.0.1:${pgPort}/postgres`;
const pgVersion = runAs("postgres", ["--version"]).trim();
const children = [];
const cleanup = () => {
  for (const child of children) child.kill("SIGKILL");
  try {
    runAs("pg_ctl", ["-D", dataDir, "-m", "immediate", "-w", "stop"]);
  } catch {}
  rmSync(workDir, { recursive: true, force: true });
};
process.on("exit", cleanup);

// ---------------------------------------------------------------------------------------------
// 1. fsync rate of the disk under the cluster.

function fsyncRate(ms) {
  const file = join(workDir, "fsync-probe");
  const fd = openSync(file, "w");
  const block = Buffer.alloc(8192, 1);
  const started = nowMs();
  let n = 0;
  while (nowMs() - started < ms) {
    writeSync(fd, block, 0, block.length, 0);
    fdatasyncSync(fd);
    n++;
  }
  const elapsed = nowMs() - started;
  closeSync(fd);
  rmSync(file);
  return { syncs: n, elapsedMs: round(elapsed, 0), perSecond: round((n / elapsed) * 1000, 1) };
}
const fsyncBefore = fsyncRate(2000);

// ---------------------------------------------------------------------------------------------
// Setup through the service, in process, on the same database.

const setupStore = await openPostgresStore(url, { poolMax: 16 });
const service = new BrigadeService(setupStore);
const totalSessions = Object.values(POOL_SESSIONS).reduce((a, b) => a + b, 0);
const principalCount = Math.ceil(totalSessions / SESSIONS_PER_PRINCIPAL);
const setupStarted = nowMs();
const principals = await inParallel(principalCount, 16, () => service.createPrincipal());
const team = await service.createTeam(principals[0].principal_ref, { team_name: "bench" });
await inParallel(principalCount - 1, 16, (i) =>
  service.joinTeam(principals[i + 1].principal_ref, { join_secret: team.join_secret }),
);
const sessions = await inParallel(principalCount * SESSIONS_PER_PRINCIPAL, 16, async (i) => {
  const p = principals[Math.floor(i / SESSIONS_PER_PRINCIPAL)];
  const r = await service.registerSession(p.principal_ref, team.team_ref, {
    harness: "bench",
    harness_version: "1",
    session_name: `bench-${i}`,
    activity: "busy",
    inbound: "accept",
    lease_seconds: 600,
  });
  return { principalRef: p.principal_ref, token: p.token, sessionId: r.session_id };
});
const setupMs = nowMs() - setupStarted;
await setupStore.close();
let cursor = 0;
const pools = {};
for (const [name, size] of Object.entries(POOL_SESSIONS)) {
  pools[name] = sessions.slice(cursor, cursor + size);
  cursor += size;
}
/** Round k: session i sends to session i+1+k of its ring (see the header). */
function scheduleOf(pool, tag) {
  const sends = [];
  for (let k = 0; k < SENDS_PER_SESSION; k++) {
    for (let i = 0; i < pool.length; i++) {
      const from = pool[i];
      const to = pool[(i + 1 + k) % pool.length];
      const seq = sends.length;
      sends.push({
        from,
        to,
        seq,
        body: `[${tag}#${seq}] ${BODY}`,
        key: `${tag}-${seq}`,
        toIndex: (i + 1 + k) % pool.length,
      });
    }
  }
  return sends;
}

/** Closed loop: `concurrency` workers, each issuing the next item as soon as the last answered. */
async function closedLoop(items, concurrency, maxMs, issue) {
  const latencies = [];
  const errors = new Map();
  const started = nowMs();
  const deadline = started + maxMs;
  let next = 0;
  let done = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length && nowMs() < deadline) {
        const item = items[next++];
        const t0 = nowMs();
        const error = await issue(item);
        latencies.push(nowMs() - t0);
        if (error === undefined) done++;
        else errors.set(error, (errors.get(error) ?? 0) + 1);
      }
    }),
  );
  const elapsedMs = nowMs() - started;
  if (errors.size > 0)
    throw new Error(`bench: refused sends ${JSON.stringify(Object.fromEntries(errors))}`);
  return {
    concurrency,
    sends: done,
    elapsedMs: round(elapsedMs, 0),
    perSecond: round((done / elapsedMs) * 1000, 1),
    latency: latencyStats(latencies),
    budgetExhausted: next >= items.length,
  };
}

// ---------------------------------------------------------------------------------------------
// 2. The raw ceiling: the same SQL function, over a pool, no HTTP and no service.

const limits = [
  SEND_LIMITS.sendPerMinute,
  SEND_LIMITS.sendPerHour,
  SEND_LIMITS.principalPerMinute,
  SEND_LIMITS.principalPerHour,
  SEND_LIMITS.pairCap,
  SEND_LIMITS.inboxCap,
  SEND_LIMITS.maxHopCount,
  SEND_LIMITS.implicitReplyWindowMs,
  SEND_LIMITS.capRetryAfterMs,
];
async function rawCeiling(poolMax, pool, tag) {
  const pgPool = new pg.Pool({ connectionString: url, max: poolMax });
  let n = 0;
  const result = await closedLoop(scheduleOf(pool, tag), CONCURRENCY, PHASE_MS.raw, async (s) => {
    // The server's own statement, prepared under the server's name on each connection.
    const r = await pgPool.query({
      name: SEND_STATEMENT,
      text: SEND_SQL,
      values: [
        `m-${tag}${String(n++).padStart(18, "0")}`,
        s.from.principalRef,
        team.team_ref,
        s.from.sessionId,
        s.to.sessionId,
        s.body,
        SUMMARY,
        null,
        s.key,
        limits,
      ],
    });
    const verdict = r.rows[0]?.verdict;
    return verdict === "accepted" ? undefined : `${verdict}/${r.rows[0]?.reason ?? ""}`;
  });
  await pgPool.end();
  return { poolMax, ...result };
}
const raw4 = await rawCeiling(4, pools.raw4, "ra");
const raw16 = await rawCeiling(16, pools.raw16, "rb");
const rawBest = raw16.perSecond >= raw4.perSecond ? raw16 : raw4;

// ---------------------------------------------------------------------------------------------
// 3–4. Through one and three `brigade serve` processes.

const profileDir = join(workDir, "profiles");
function startServe(index) {
  const child = spawn(
    process.execPath,
    [
      "--cpu-prof",
      "--cpu-prof-dir",
      profileDir,
      serverMain,
      "serve",
      "--host",
      "127.0.0.1",
      "--port",
      "0",
      "--data",
      join(workDir, `serve-${index}`, "brigade.sqlite"),
      "--store",
      url,
      "--log-level",
      "warn",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  children.push(child);
  let err = "";
  child.stderr.on("data", (c) => {
    err += c;
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (c) => {
      out += c;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m !== null) {
        const u = new URL(m[1]);
        resolve({ child, host: u.hostname, port: Number(u.port) });
      }
    });
    child.once("exit", (code) => reject(new Error(`serve exited (${code}): ${err.slice(0, 400)}`)));
  });
}
const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
function post(server, path, token, body) {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: server.host,
        port: server.port,
        method: "POST",
        path,
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(payload),
        },
      },
      (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => {
          try {
            resolve(JSON.parse(Buffer.concat(chunks)));
          } catch (e) {
            reject(e);
          }
        });
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}
const teamPath = `/v1/teams/${team.team_ref}`;
const sendVia = (server, s) =>
  post(server, `${teamPath}/messages`, s.from.token, {
    sender_session_id: s.from.sessionId,
    recipient_session_id: s.to.sessionId,
    summary: SUMMARY,
    body: s.body,
    idempotency_key: s.key,
  }).then((e) =>
    e.ok === true ? undefined : `${e.error?.code}/${e.error?.details?.reason ?? ""}`,
  );
function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) * 10;
}

/** CPU ms of the PostgreSQL cluster: the postmaster and every backend it forked. */
function postgresCpuMs() {
  const postmaster = Number(readFileSync(join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
  let sum = cpuMs(postmaster);
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === postmaster) sum += cpuMs(Number(entry));
    } catch {
      // The backend ended meanwhile.
    }
  }
  return sum;
}
/**
 * CPU ms per message of each component over `run` (which resolves to its message count): the
 * server processes, PostgreSQL (all its processes) and this client (senders and watchers). On a
 * box whose cores they share, their sum says how many messages per second the box can carry.
 */
async function cpuPerMessage(run) {
  const before = {
    servers: servers.reduce((a, s) => a + cpuMs(s.child.pid), 0),
    postgres: postgresCpuMs(),
    client: process.cpuUsage(),
  };
  const startedUs = monotonicUs();
  const value = await run();
  value.monotonicUs = [startedUs, monotonicUs()];
  const count = value.sent ?? value.sends;
  const client = process.cpuUsage(before.client);
  const servers_ = servers.reduce((a, s) => a + cpuMs(s.child.pid), 0) - before.servers;
  const postgres = postgresCpuMs() - before.postgres;
  const clientMs = (client.user + client.system) / 1000;
  value.cpuMsPerMessage = {
    servers: round(servers_ / count, 3),
    postgres: round(postgres / count, 3),
    client: round(clientMs / count, 3),
    total: round((servers_ + postgres + clientMs) / count, 3),
  };
  value.serverCpuUsPerSend = round((servers_ * 1000) / count, 1);
  return value;
}

const servers = [await startServe(0)];
await closedLoop(scheduleOf(pools.warm, "w"), CONCURRENCY, 10_000, (s) => sendVia(servers[0], s));
let cpu0 = cpuMs(servers[0].child.pid);
const one = await cpuPerMessage(() =>
  closedLoop(scheduleOf(pools.one, "o"), CONCURRENCY, PHASE_MS.http, (s) => sendVia(servers[0], s)),
);
one.serverCpuCores = round((cpuMs(servers[0].child.pid) - cpu0) / one.elapsedMs, 2);
servers.push(await startServe(1), await startServe(2));
let rr = 0;
cpu0 = servers.reduce((a, s) => a + cpuMs(s.child.pid), 0);
const three = await cpuPerMessage(() =>
  closedLoop(scheduleOf(pools.three, "t"), CONCURRENCY, PHASE_MS.http, (s) =>
    sendVia(servers[rr++ % 3], s),
  ),
);
three.serverCpuCores = round(
  (servers.reduce((a, s) => a + cpuMs(s.child.pid), 0) - cpu0) / three.elapsedMs,
  2,
);

// ---------------------------------------------------------------------------------------------
// 5–6. Paced send → watch latency.

const watchAgent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
async function pacedRun(pool, tag, watchOn, sendThrough, rate = PACED_RATE) {
  const arrivals = new Map();
  const watches = [];
  const pattern = new RegExp(`^\\[${tag}#(\\d+)\\]`);
  await inParallel(
    pool.length,
    32,
    (i) =>
      new Promise((resolve, reject) => {
        const server = watchOn(i);
        const req = http.request(
          {
            host: server.host,
            port: server.port,
            method: "GET",
            path: `${teamPath}/sessions/${pool[i].sessionId}/watch`,
            agent: watchAgent,
            headers: { authorization: `Bearer ${pool[i].token}`, accept: "text/event-stream" },
          },
          (res) => {
            if (res.statusCode !== 200) return reject(new Error(`watch HTTP ${res.statusCode}`));
            res.setEncoding("utf8");
            let buffered = "";
            res.on("data", (text) => {
              const at = nowMs();
              buffered += text;
              for (let end = buffered.indexOf("\n\n"); end !== -1; end = buffered.indexOf("\n\n")) {
                const block = buffered.slice(0, end);
                buffered = buffered.slice(end + 2);
                if (block.startsWith("event: ready")) resolve();
                else if (block.startsWith("event: message")) {
                  const data = block.slice(block.indexOf("data: ") + 6);
                  const m = pattern.exec(JSON.parse(data).body);
                  if (m !== null && !arrivals.has(Number(m[1]))) arrivals.set(Number(m[1]), at);
                }
              }
            });
          },
        );
        req.on("error", reject);
        req.end();
        watches.push(req);
      }),
  );
  const schedule = scheduleOf(pool, tag);
  const count = Math.min(schedule.length, Math.floor((rate * PACED_MS) / 1000));
  const sentAt = new Float64Array(count);
  const answeredAt = new Float64Array(count);
  const inFlight = [];
  const errors = new Map();
  const started = nowMs();
  for (let issued = 0; issued < count; ) {
    const due = Math.min(count, Math.floor(((nowMs() - started) * rate) / 1000) + 1);
    for (; issued < due; issued++) {
      const s = schedule[issued];
      const seq = issued;
      sentAt[seq] = nowMs();
      inFlight.push(
        sendVia(sendThrough(s.toIndex), s).then((e) => {
          answeredAt[seq] = nowMs();
          if (e !== undefined) errors.set(e, (errors.get(e) ?? 0) + 1);
        }),
      );
    }
    await sleep(1);
  }
  await Promise.all(inFlight);
  const sendMs = nowMs() - started;
  const deadline = nowMs() + DRAIN_MS;
  while (arrivals.size < count && nowMs() < deadline) await sleep(10);
  for (const req of watches) req.destroy();
  if (errors.size > 0)
    throw new Error(`bench: refused paced sends ${JSON.stringify(Object.fromEntries(errors))}`);
  const lat = [];
  // From the send's answer (the commit is durable) to the event: the push path alone.
  const push = [];
  for (const [seq, at] of arrivals) {
    lat.push(at - sentAt[seq]);
    push.push(Math.max(0, at - answeredAt[seq]));
  }
  return {
    rate,
    sent: count,
    achievedRate: round((count / sendMs) * 1000, 1),
    delivered: arrivals.size,
    missing: count - arrivals.size,
    watchers: pool.length,
    delivery: latencyStats(lat),
    afterAnswer: latencyStats(push),
  };
}
// The low rate first: the 500/s runs may leave a queue behind them on a slow disk.
const low1 = await cpuPerMessage(() =>
  pacedRun(
    pools.low1,
    "l1",
    () => servers[0],
    () => servers[0],
    LOW_RATE,
  ),
);
const low3 = await cpuPerMessage(() =>
  pacedRun(
    pools.low3,
    "l3",
    (i) => servers[i % 3],
    (i) => servers[(i + 1) % 3],
    LOW_RATE,
  ),
);

const paced1 = await cpuPerMessage(() =>
  pacedRun(
    pools.paced1,
    "p1",
    () => servers[0],
    () => servers[0],
  ),
);
const paced3 = await cpuPerMessage(() =>
  pacedRun(
    pools.paced3,
    "p3",
    (i) => servers[i % 3],
    (i) => servers[(i + 1) % 3],
  ),
);

const fsyncAfter = fsyncRate(2000);
for (const s of servers) s.child.kill("SIGTERM");
await Promise.all(
  servers.map(
    (s) => new Promise((r) => (s.child.exitCode !== null ? r() : s.child.once("exit", r))),
  ),
);
agent.destroy();
watchAgent.destroy();

// The profiles are written when the servers exit: per phase, each server that took part.
const inclusive = ["sendMessage", "readJsonBody", "authenticate", "responseViaResponseObject"];
function profilesOf(phase, serverIndexes) {
  return serverIndexes.map((index) => {
    const pid = servers[index].child.pid;
    const file = cpuProfileIn(profileDir, pid);
    const window = { fromUs: phase.monotonicUs[0], toUs: phase.monotonicUs[1], root };
    return {
      server: index,
      main: file === undefined ? null : summariseCpuProfileFile(file, { ...window, inclusive }),
      workerThreads: threadProfilesIn(profileDir, pid).map(({ path, thread }) => ({
        thread,
        busyMs: summariseCpuProfileFile(path, window).busyMs,
      })),
    };
  });
}
const profiles = {
  oneProcessSends: profilesOf(one, [0]),
  threeProcessSends: profilesOf(three, [0, 1, 2]),
  watchOneProcess: profilesOf(paced1, [0]),
  watchCrossProcess: profilesOf(paced3, [0, 1, 2]),
};

// ---------------------------------------------------------------------------------------------
// Report.

const report = {
  suite: "postgres",
  date: new Date().toISOString(),
  machine: {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? "unknown",
    memoryGiB: round(os.totalmem() / 2 ** 30, 1),
    loadAverageAtStart: round(loadAverageAtStart, 2),
    loadAverageAtEnd: round(os.loadavg()[0], 2),
    node: process.version,
    postgres: pgVersion,
    server: serverMain === join(root, "dist/cli/main.js") ? "dist/cli/main.js" : serverMain,
    note: "shared 2-core virtual machine: loadAverageAtStart says whether other work ran (a benchmark run just before leaves about 2-3); its disk's fsync rate moves several-fold between runs",
  },
  fsync: { before: fsyncBefore, after: fsyncAfter },
  setup: { principals: principalCount, sessions: sessions.length, ms: round(setupMs, 0) },
  raw: { pool4: raw4, pool16: raw16 },
  http: { oneProcess: one, threeProcesses: three },
  watch: {
    oneProcess: paced1,
    crossProcess: paced3,
    oneProcessLowRate: low1,
    crossProcessLowRate: low3,
  },
  ratios: {
    onePerRawSamePool: round(one.perSecond / raw4.perSecond, 3),
    onePerRawCeiling: round(one.perSecond / rawBest.perSecond, 3),
    threePerRawCeiling: round(three.perSecond / rawBest.perSecond, 3),
    rawCeilingPerFsync: round(rawBest.perSecond / fsyncBefore.perSecond, 2),
  },
  // What the box's cores could carry at each phase's CPU cost per message, were nothing else
  // running on them: a goal above this cannot be met on this machine.
  cpuCeilingPerSecond: {
    oneProcessSends: round((os.cpus().length * 1000) / one.cpuMsPerMessage.total, 0),
    watchOneProcess: round((os.cpus().length * 1000) / paced1.cpuMsPerMessage.total, 0),
    watchCrossProcess: round((os.cpus().length * 1000) / paced3.cpuMsPerMessage.total, 0),
  },
  goals: [
    {
      goal: ">= 0.9 x the raw function at the same pool size (4) through one process",
      measured: round(one.perSecond / raw4.perSecond, 3),
      met: one.perSecond >= 0.9 * raw4.perSecond,
      // What this run measured, should the goal be missed: the CPU the box would need at this
      // cost per send, and what the server process got.
      measuredReason: `${one.cpuMsPerMessage.total} ms CPU per send (servers ${one.cpuMsPerMessage.servers}, PostgreSQL ${one.cpuMsPerMessage.postgres}, client ${one.cpuMsPerMessage.client}): the ${os.cpus().length} cores carry at most ${round((os.cpus().length * 1000) / one.cpuMsPerMessage.total, 0)}/s, the goal asks ${round(0.9 * raw4.perSecond, 0)}/s; the server process got ${one.serverCpuCores} cores; machine load ${round(os.loadavg()[0], 1)}`,
    },
    {
      goal: `send -> watch p99 < 100 ms at ${PACED_RATE} sends/s across three processes`,
      measured: paced3.delivery.p99Ms,
      met: paced3.delivery.p99Ms < 100 && paced3.missing === 0,
      measuredReason: `${paced3.cpuMsPerMessage.total} ms CPU per message (servers ${paced3.cpuMsPerMessage.servers}, PostgreSQL ${paced3.cpuMsPerMessage.postgres}, client ${paced3.cpuMsPerMessage.client}): the cores carry at most ${round((os.cpus().length * 1000) / paced3.cpuMsPerMessage.total, 0)}/s against ${PACED_RATE}/s asked; from the send's answer to the event p99 ${paced3.afterAnswer.p99Ms} ms; machine load ${round(os.loadavg()[0], 1)}`,
    },
  ].map(({ measuredReason, ...goal }) => (goal.met ? goal : { ...goal, measuredReason })),
  serverCpuUsPerSend: {
    oneProcessSends: one.serverCpuUsPerSend,
    threeProcessSends: three.serverCpuUsPerSend,
    watchOneProcess: paced1.serverCpuUsPerSend,
    watchCrossProcess: paced3.serverCpuUsPerSend,
  },
};
mkdirSync(resultsDir, { recursive: true });
writeFileSync(join(resultsDir, "postgres.json"), `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(
  join(resultsDir, "postgres.profile.json"),
  `${JSON.stringify({ suite: "postgres", date: report.date, machine: report.machine, phases: profiles }, null, 2)}\n`,
);
console.log(`fsync: ${fsyncBefore.perSecond}/s before, ${fsyncAfter.perSecond}/s after`);
console.log(
  `raw brigade_send: pool 4 ${raw4.perSecond}/s, pool 16 ${raw16.perSecond}/s (64 in flight)`,
);
console.log(
  `HTTP sends: one process ${one.perSecond}/s (${report.ratios.onePerRawSamePool} of raw pool 4, ${report.ratios.onePerRawCeiling} of the best raw), three ${three.perSecond}/s (${report.ratios.threePerRawCeiling})`,
);
console.log(
  `watch @${PACED_RATE}/s: one process p50 ${paced1.delivery.p50Ms} p99 ${paced1.delivery.p99Ms} ms (missing ${paced1.missing}); cross-process p50 ${paced3.delivery.p50Ms} p99 ${paced3.delivery.p99Ms} ms (missing ${paced3.missing})`,
);
console.log(
  `watch @${LOW_RATE}/s: one process p50 ${low1.delivery.p50Ms} p99 ${low1.delivery.p99Ms} ms; cross-process p50 ${low3.delivery.p50Ms} p99 ${low3.delivery.p99Ms} ms (after the answer: p99 ${low3.afterAnswer.p99Ms} ms)`,
);
const cpuLine = (name, r) =>
  `${name} ${r.cpuMsPerMessage.servers}+${r.cpuMsPerMessage.postgres}+${r.cpuMsPerMessage.client}=${r.cpuMsPerMessage.total}`;
console.log(
  `CPU ms per message (servers+postgres+client): ${cpuLine("sends one process", one)}; ${cpuLine("watch @500 one", paced1)}; ${cpuLine("watch @500 cross", paced3)}; the ${os.cpus().length} cores carry at most ${JSON.stringify(report.cpuCeilingPerSecond)}/s`,
);
console.log(`server CPU µs per accepted send: ${JSON.stringify(report.serverCpuUsPerSend)}`);
for (const g of report.goals) {
  console.log(
    `goal: ${g.goal}: ${g.measured} ${g.met ? "met" : "NOT met"}` +
      (g.measuredReason === undefined ? "" : `\n  ${g.measuredReason}`),
  );
}
process.exit(0);
