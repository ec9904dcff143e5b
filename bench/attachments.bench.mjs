// Attachment throughput on loopback against `cp`, side by side in one run, on the REAL
// `brigade serve` (dist/cli/main.js, built by `npm run bench`) started as a child process on a
// temp SQLite file on 127.0.0.1, port 0.
//
// Five distinct files of 25 MiB (the largest a message may carry) are made once. Then, per file,
// in this order: `cp` of the file to a new file in the same folder; an upload (PUT, the body
// streamed from the file over one keep-alive connection, the answer awaited: the bytes are hashed,
// checked and durable in the store); a download (GET, the body streamed into a new file, then
// fsynced, so its bytes are on disk as the upload's are); and `cp` followed by `sync -f` of the
// copy (cp's bytes on disk too). The same bytes uploaded again (no new space: only read and
// hashed) are measured once per file as well. The server's RSS is sampled every 10 ms during each
// phase (its peak) and read when idle before and after.
//
// Writes bench/results/attachments.json (the machine noted) and prints a summary. Nothing is
// asserted. BENCH_ATTACHMENTS_OUT=<file> writes the result elsewhere.
import { spawn, spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import {
  closeSync,
  createReadStream,
  createWriteStream,
  fsyncSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import http from "node:http";
import os from "node:os";
import { dirname, join } from "node:path";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const serverEntry = join(root, "dist/cli/main.js");
const outFile = process.env.BENCH_ATTACHMENTS_OUT ?? join(root, "bench/results/attachments.json");

const SIZE = 25 * 1024 * 1024;
const FILES = 5;
const MIB = 2 ** 20;

const round = (x, digits) => Number(x.toFixed(digits));
const loadAverageAtStart = os.loadavg()[0];
const workDir = mkdtempSync(join(os.tmpdir(), "brigade-bench-attachments-"));

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

/** Resident set size of a process in MiB (Linux /proc). */
function rssMiB(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match === null ? Number.NaN : Number(match[1]) / 1024;
}

const server = await startServer(join(workDir, "brigade.sqlite"));
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One request; `body` a string (JSON) or a readable stream; `sink` a writable for the answer. */
function request(method, path, { token, json, stream, sink } = {}) {
  const headers = {};
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  let payload;
  if (json !== undefined) {
    payload = JSON.stringify(json);
    headers["content-type"] = "application/json";
    headers["content-length"] = Buffer.byteLength(payload);
  } else if (method === "POST") {
    payload = "{}";
    headers["content-type"] = "application/json";
  }
  if (stream !== undefined) headers["content-type"] = "application/octet-stream";
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: server.host, port: server.port, method, path, headers, agent },
      async (res) => {
        try {
          if (sink !== undefined && res.statusCode === 200) {
            await pipeline(res, sink);
            resolve({ status: res.statusCode });
            return;
          }
          const chunks = [];
          for await (const chunk of res) chunks.push(chunk);
          resolve({ status: res.statusCode, json: JSON.parse(Buffer.concat(chunks)) });
        } catch (error) {
          reject(error);
        }
      },
    );
    req.on("error", reject);
    if (stream !== undefined) stream.pipe(req);
    else req.end(payload);
  });
}

/** Peak RSS of the server while `work` runs, sampled every 10 ms, with the work's wall time. */
async function measured(work) {
  let peak = rssMiB(server.child.pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMiB(server.child.pid));
  }, 10);
  const started = performance.now();
  try {
    const value = await work();
    return {
      value,
      ms: performance.now() - started,
      peak: Math.max(peak, rssMiB(server.child.pid)),
    };
  } finally {
    clearInterval(timer);
  }
}

function timedSync(argv) {
  const started = performance.now();
  const run = spawnSync(argv[0], argv.slice(1), { stdio: "ignore" });
  if (run.status !== 0) throw new Error(`${argv[0]} failed`);
  return performance.now() - started;
}

const token = (await request("POST", "/v1/principals")).json.result.token;
const team = (await request("POST", "/v1/teams", { token, json: { team_name: "bench" } })).json
  .result;

const files = [];
for (let i = 0; i < FILES; i++) {
  const path = join(workDir, `source-${i}.bin`);
  const bytes = randomBytes(SIZE);
  writeFileSync(path, bytes);
  files.push({ path, sha256: createHash("sha256").update(bytes).digest("hex") });
}
spawnSync("sync", { stdio: "ignore" });
const idleBefore = rssMiB(server.child.pid);

const rows = [];
for (const [i, file] of files.entries()) {
  const cpMs = timedSync(["cp", file.path, join(workDir, `cp-${i}.bin`)]);
  const blobPath = `/v1/teams/${team.team_ref}/blobs/${file.sha256}`;
  const up = await measured(() =>
    request("PUT", `${blobPath}?size=${SIZE}`, { token, stream: createReadStream(file.path) }),
  );
  if (up.value.status !== 200) throw new Error(`upload answered ${up.value.status}`);
  const target = join(workDir, `down-${i}.bin`);
  const down = await measured(async () => {
    const answer = await request("GET", blobPath, { token, sink: createWriteStream(target) });
    const fd = openSync(target, "r");
    fsyncSync(fd);
    closeSync(fd);
    return answer;
  });
  if (down.value.status !== 200) throw new Error(`download answered ${down.value.status}`);
  const got = createHash("sha256").update(readFileSync(target)).digest("hex");
  if (got !== file.sha256) throw new Error("the downloaded file differs");
  const again = await measured(() =>
    request("PUT", `${blobPath}?size=${SIZE}`, { token, stream: createReadStream(file.path) }),
  );
  const cpSyncedMs = timedSync([
    "sh",
    "-c",
    `cp "$0" "$1" && sync -f "$1"`,
    file.path,
    join(workDir, `cps-${i}.bin`),
  ]);
  rows.push({
    cpMs,
    cpSyncedMs,
    uploadMs: up.ms,
    downloadMs: down.ms,
    sameBytesAgainMs: again.ms,
    uploadPeakRssMiB: up.peak,
    downloadPeakRssMiB: down.peak,
  });
}
await new Promise((resolve) => setTimeout(resolve, 2000));
const idleAfter = rssMiB(server.child.pid);

server.child.kill("SIGTERM");
await new Promise((resolve) => server.child.once("exit", resolve));
agent.destroy();
rmSync(workDir, { recursive: true, force: true });

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const ms = (key) => round(median(rows.map((r) => r[key])), 1);
const rate = (msValue) => round(SIZE / MIB / (msValue / 1000), 1);
const cpus = os.cpus();
const report = {
  suite: "attachments",
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
    server: "dist/cli/main.js serve, temp SQLite file, 127.0.0.1, port 0, default limits",
    file: `${FILES} distinct files of ${SIZE} bytes (random), each measured once per row; medians`,
    cp: "cp to a new file in the same folder (page cache only), and cp then sync -f of the copy",
    upload:
      "PUT /v1/teams/<team>/blobs/<sha256>?size=N, body streamed from the file over one keep-alive connection, until the answer (hashed, checked, durable)",
    download: "GET of the blob, body streamed into a new file, then fsync",
    sameBytesAgain: "the same upload again: read and hashed, nothing stored",
    rss: "VmRSS of the server, sampled every 10 ms during each transfer (peak), and idle before and after",
  },
  medianMs: {
    cp: ms("cpMs"),
    cpThenSync: ms("cpSyncedMs"),
    upload: ms("uploadMs"),
    download: ms("downloadMs"),
    sameBytesAgain: ms("sameBytesAgainMs"),
  },
  medianMiBPerSecond: {
    cp: rate(ms("cpMs")),
    cpThenSync: rate(ms("cpSyncedMs")),
    upload: rate(ms("uploadMs")),
    download: rate(ms("downloadMs")),
    sameBytesAgain: rate(ms("sameBytesAgainMs")),
  },
  serverRssMiB: {
    idleBefore: round(idleBefore, 1),
    uploadPeak: round(Math.max(...rows.map((r) => r.uploadPeakRssMiB)), 1),
    downloadPeak: round(Math.max(...rows.map((r) => r.downloadPeakRssMiB)), 1),
    idleAfter: round(idleAfter, 1),
  },
  rows: rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, round(v, 1)]))),
};

mkdirSync(dirname(outFile), { recursive: true });
writeFileSync(outFile, `${JSON.stringify(report, null, 2)}\n`);

const m = report.machine;
console.log(
  `${m.cpu}, ${m.cores} cores, ${(m.memoryBytes / 2 ** 30).toFixed(1)} GiB, node ${m.node}, ` +
    `load ${m.loadAverage1mAtStart} → ${m.loadAverage1m}, ${report.date}`,
);
const r = report.medianMiBPerSecond;
console.log(
  `25 MiB, median MiB/s: cp ${r.cp}, cp+sync ${r.cpThenSync}, upload ${r.upload}, ` +
    `download ${r.download}, same bytes again ${r.sameBytesAgain}`,
);
const s = report.serverRssMiB;
console.log(
  `server RSS MiB: idle ${s.idleBefore}, upload peak ${s.uploadPeak}, download peak ${s.downloadPeak}, idle after ${s.idleAfter}`,
);
