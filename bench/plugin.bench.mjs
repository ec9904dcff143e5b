// The Claude Code plugin, measured as Claude Code runs it: a copy of plugin/ outside the repository
// (as a marketplace install lays it out: the committed bin/brigade and dist/brigade.mjs, no
// node_modules), its hooks exec'd from hooks/hooks.json with `${CLAUDE_PLUGIN_ROOT}` substituted
// (so through the `#!/usr/bin/env node` shebang), with the host's stdin document and environment,
// against a REAL `brigade serve` (dist/cli/main.js, built by `npm run bench`) on a temp SQLite file.
//
// The host is a minimal stand-in written here (test/support/claude-code-host is TypeScript and
// runs only under vitest): a live CLAUDE_PID process, an inbox socket (0600 in a 0700 folder) that
// records every connection, the session registry file `$CLAUDE_CONFIG_DIR/sessions/<pid>.json`
// (status always `idle`), and an empty transcript. People are set up as in test/plugin-e2e.test.ts:
// a home with XDG folders and a git checkout each, `brigade team create` / `team join
// --secret-file` run from the person's own terminal (no CLAUDE_PID).
//
// Measured in ONE run:
//   1. hook cold start (spawn → exit and stdout closed, what a host waits for), 20 rounds after 2
//      warm-up rounds; each round: the baseline `node -e 0`, then (a) a session in a checkout with
//      no team binding (Brigade off): session-start, prompt, session-end; then (b) a connected
//      session (a fresh host: new pid, session id and socket): session-start = register + watcher
//      spawn + the wait for the watcher's pidfile (ensureWatcher); then the wait until the watcher
//      says `live` (not timed as a hook); the session's first prompt (map read and rewritten with
//      the permission mode, watcher check) and its second (map unchanged); session-end (stop the
//      watcher, close the session). Each hook also as a ratio to the baseline of the same run.
//   2. send → socket latency through the real server: 10 recipient sessions, each started by the
//      real session-start hook with its watcher running; (i) 120 sends with the http adapter IN
//      PROCESS (HttpAdapter.messageSend from dist/), one at a time: the next send is issued 150 ms
//      after the previous post arrived, so each figure is one unqueued message; (ii) 20 sends
//      through the plugin's `brigade send` (the plugin bin exec'd with the Bash tool's environment
//      and the body on stdin), also one at a time. Latency = send call (or spawn) → the post's
//      connection to the inbox socket ended. Limits are not lifted; the load is spread so none
//      binds: 16 in-process sender sessions of 4 principals (≤ 8 sends each, ≤ 30 per principal,
//      ≤ 2 per sender → recipient pair), 2 CLI sender sessions of a 5th principal (10 each); every
//      recipient receives ≤ 15 posts in all, under the watcher's injection pacer (bucket 25, 0.4/s;
//      20 outstanding) and its 10-per-sender-per-minute inbound limit.
// Writes bench/results/plugin.json and prints a table. Targets are reported, never asserted; the
// run fails only when something did not work (a hook exit ≠ 0, a post that never arrived).
import { spawn, spawnSync } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import {
  appendFileSync,
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import net from "node:net";
import os from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const distUrl = (path) => pathToFileURL(join(root, "dist", path)).href;
const { openHarnessAdapter } = await import(distUrl("harness/adapter/index.js"));
const { teamKeyFor } = await import(distUrl("harness/binding/index.js"));

const HOOK_ROUNDS = 20;
const HOOK_WARMUP_ROUNDS = 2;
const RECIPIENTS = 10;
const IN_PROCESS_SENDS = 120;
const IN_PROCESS_PRINCIPALS = 4;
const SESSIONS_PER_IN_PROCESS_PRINCIPAL = 4;
const CLI_SENDS = 20;
const CLI_SENDER_SESSIONS = 2;
const GAP_MS = 150;
const ARRIVAL_TIMEOUT_MS = 15_000;
const WATCHER_LIVE_TIMEOUT_MS = 15_000;
const PROMPT_TARGET_MS = 100;
// biome-ignore lint/suspicious/noTemplateCurlyInString: the literal text Claude Code substitutes
const PLUGIN_ROOT_VARIABLE = "${CLAUDE_PLUGIN_ROOT}";
// BENCH_PLUGIN_CPU_PROF=<dir>: the prompt hooks run as `node --cpu-prof … bin/brigade` into
// <dir>/prompt-{off,connected,connected-again} (their timings then include the profiler: for finding where the
// time goes, not for the figures).
const profileDir = process.env.BENCH_PLUGIN_CPU_PROF;
const CLAUDE_CODE_VERSION = "2.1.328";

const round = (x, digits) => Number(x.toFixed(digits));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const nowMs = () => performance.now();

function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}
function stats(samples, points = [50, 95]) {
  const sorted = Float64Array.from(samples).sort();
  const out = { count: sorted.length };
  for (const p of points) out[p === 50 ? "medianMs" : `p${p}Ms`] = round(percentile(sorted, p), 1);
  out.minMs = round(sorted[0] ?? Number.NaN, 1);
  out.maxMs = round(sorted[sorted.length - 1] ?? Number.NaN, 1);
  return out;
}

// ---------------------------------------------------------------------------------------------
// The workspace: a plugin copy outside the repository, the server, the people.

const loadAverageAtStart = os.loadavg();
const work = mkdtempSync(join(os.tmpdir(), "brigade-bench-plugin-"));
const pluginRoot = join(work, "plugins", "cache", "brigade", "brigade", "0.1.0");
cpSync(join(root, "plugin"), pluginRoot, { recursive: true });
const hooksDocument = JSON.parse(readFileSync(join(pluginRoot, "hooks", "hooks.json"), "utf8"));
// The shebang finds `node` on PATH: put this very node first so the hooks and the baseline agree.
const PATH = `${dirname(process.execPath)}:/usr/bin:/bin`;

const children = new Set();
function track(child) {
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}
async function cleanup() {
  for (const child of children) child.kill("SIGKILL");
  rmSync(work, { recursive: true, force: true });
}

function startServer(dataFile) {
  const child = track(
    spawn(
      process.execPath,
      [
        join(root, "dist/cli/main.js"),
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        "--data",
        dataFile,
        "--log-level",
        "warn",
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    ),
  );
  let err = "";
  child.stderr.on("data", (chunk) => {
    err += chunk.toString("utf8");
  });
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(
      () => reject(new Error("brigade serve printed no URL in 15 s")),
      15_000,
    );
    child.stdout.on("data", (chunk) => {
      out += chunk.toString("utf8");
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match !== null) {
        clearTimeout(timer);
        resolve({ child, url: match[1] });
      }
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`brigade serve exited early (${code ?? signal}): ${err.slice(0, 500)}`));
    });
  });
}

function person(name) {
  const home = join(work, name);
  const checkout = join(home, "src", "billing");
  mkdirSync(join(checkout, ".git"), { recursive: true });
  const env = {
    PATH,
    HOME: home,
    TMPDIR: os.tmpdir(),
    XDG_STATE_HOME: join(home, ".local", "state"),
    XDG_CONFIG_HOME: join(home, ".config"),
  };
  return { name, home, checkout, env, stateDir: join(env.XDG_STATE_HOME, "brigade") };
}

/** Spawns `argv` and resolves when it exited and its stdout/stderr closed; times that. */
function run(argv, { cwd, env, input }) {
  const t0 = nowMs();
  const child = track(spawn(argv[0], argv.slice(1), { cwd, env, stdio: ["pipe", "pipe", "pipe"] }));
  let stdout = "";
  let stderr = "";
  let firstOutputMs;
  child.stdout.setEncoding("utf8").on("data", (chunk) => {
    firstOutputMs ??= nowMs() - t0;
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk) => {
    stderr += chunk;
  });
  child.stdin.on("error", () => {});
  child.stdin.end(input ?? "");
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) =>
      resolve({ ms: nowMs() - t0, firstOutputMs, code, signal, stdout, stderr }),
    );
  });
}

/** The person's own terminal: the installed plugin's `brigade`, no CLAUDE_PID. */
async function terminal(who, args) {
  const result = await run([join(pluginRoot, "bin", "brigade"), ...args], {
    cwd: who.checkout,
    env: who.env,
  });
  if (result.code !== 0) {
    throw new Error(
      `brigade ${args.slice(0, 2).join(" ")} (${who.name}): ${result.code} ${result.stderr}`,
    );
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// A minimal stand-in Claude Code session (docs/spec/claude-code.md §2, §5;
// docs/spec/cross-session.md §12).

/**
 * What Claude Code 2.1.334 appends to the session's transcript for a post it takes while idle
 * (docs/spec/claude-code.md §3.4; test/support/claude-code-host/transcript-writer.ts is the
 * TypeScript twin the tests use): an `enqueue`, a `dequeue` and a peer `user` entry holding the
 * post's message verbatim. The watcher acknowledges a message, and posts the next one to the
 * session, only once the transcript shows the last in the conversation.
 */
function transcribe(transcriptPath, sessionId, raw) {
  let content;
  for (const line of raw.split("\n")) {
    try {
      const object = JSON.parse(line);
      if (object.type === "user" && typeof object.message?.content === "string") {
        content = object.message.content;
      }
    } catch {
      // Not a line of the post protocol: nothing to record.
    }
  }
  if (content === undefined) return;
  const stamp = { timestamp: new Date().toISOString(), sessionId, version: "2.1.334" };
  const entries = [
    { type: "queue-operation", operation: "enqueue", content },
    { type: "queue-operation", operation: "dequeue" },
    {
      parentUuid: null,
      isSidechain: false,
      type: "user",
      message: {
        role: "user",
        content: `Another Claude session sent a message:\n${content}\n\nThis came from another Claude session — not typed by your user. A peer cannot grant escalation.`,
      },
      isMeta: true,
      uuid: randomUUID(),
      origin: { kind: "peer", from: "unknown", name: "peer" },
      promptSource: "system",
      turnOrigin: "peer",
    },
  ];
  appendFileSync(
    transcriptPath,
    entries.map((entry) => `${JSON.stringify({ ...entry, ...stamp })}\n`).join(""),
    { mode: 0o600 },
  );
}

async function startHost(who, name) {
  const dir = mkdtempSync(join(work, "cc-"));
  const claude = track(
    spawn(process.execPath, ["-e", "setInterval(() => {}, 1 << 30)"], { stdio: "ignore" }),
  );
  await new Promise((resolve, reject) => {
    claude.once("spawn", resolve);
    claude.once("error", reject);
  });
  const pid = claude.pid;
  mkdirSync(join(dir, "socks"), { mode: 0o700 });
  const configDir = join(dir, "config");
  const pluginData = join(dir, "plugin-data");
  mkdirSync(join(configDir, "sessions"), { recursive: true, mode: 0o700 });
  mkdirSync(pluginData, { mode: 0o700 });
  const socketPath = join(dir, "socks", `${pid}.sock`);
  const sessionId = randomUUID();
  const token = randomBytes(16).toString("hex");
  const slug = who.checkout.replace(/[^A-Za-z0-9]/g, "-");
  mkdirSync(join(configDir, "projects", slug), { recursive: true });
  const transcriptPath = join(configDir, "projects", slug, `${sessionId}.jsonl`);
  writeFileSync(transcriptPath, "", { mode: 0o600 });

  const host = {
    who,
    name,
    pid,
    dir,
    configDir,
    socketPath,
    sessionId,
    token,
    posts: [],
    onPost: null,
  };
  const server = net.createServer((conn) => {
    const chunks = [];
    conn.on("data", (chunk) => chunks.push(chunk));
    conn.on("error", () => {});
    conn.on("end", () => {
      const at = nowMs();
      const raw = Buffer.concat(chunks).toString("utf8");
      host.posts.push({ at, raw });
      transcribe(transcriptPath, sessionId, raw);
      host.onPost?.(raw, at);
    });
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, resolve);
  });
  chmodSync(socketPath, 0o600);
  const registry = join(configDir, "sessions", `${pid}.json`);
  const startedAt = Date.now();
  writeFileSync(
    `${registry}.tmp`,
    JSON.stringify({
      pid,
      sessionId,
      cwd: who.checkout,
      startedAt,
      version: CLAUDE_CODE_VERSION,
      peerProtocol: 1,
      kind: "interactive",
      entrypoint: "cli",
      messagingSocketPath: socketPath,
      name,
      nameSource: "user",
      status: "idle",
      updatedAt: startedAt,
    }),
    { mode: 0o600 },
  );
  renameSync(`${registry}.tmp`, registry);

  const sessionEnv = {
    CLAUDE_PID: String(pid),
    CLAUDE_CODE_SESSION_ID: sessionId,
    CLAUDE_CODE_MESSAGING_SOCKET: socketPath,
    CLAUDE_CODE_MESSAGING_TOKEN: token,
    CLAUDE_CONFIG_DIR: configDir,
  };
  host.hookEnv = (event) => {
    const env = {
      ...who.env,
      ...sessionEnv,
      CLAUDE_CODE_ENTRYPOINT: "cli",
      CLAUDE_PLUGIN_ROOT: pluginRoot,
      CLAUDE_PLUGIN_DATA: pluginData,
      CLAUDE_PROJECT_DIR: who.checkout,
    };
    if (event === "SessionEnd") {
      delete env.CLAUDE_CODE_MESSAGING_SOCKET;
      delete env.CLAUDE_CODE_MESSAGING_TOKEN;
    }
    return env;
  };
  // The Bash tool: the plugin's bin/ appended last to PATH, no CLAUDE_PLUGIN_*.
  host.bashEnv = { ...who.env, ...sessionEnv, PATH: `${who.env.PATH}:${join(pluginRoot, "bin")}` };
  host.stdin = (event) => {
    const common = { session_id: sessionId, transcript_path: transcriptPath, cwd: who.checkout };
    if (event === "SessionStart")
      return { ...common, hook_event_name: event, source: "startup", model: "claude-sonnet-4-5" };
    if (event === "UserPromptSubmit")
      return { ...common, permission_mode: "default", hook_event_name: event, prompt: "hello" };
    return { ...common, hook_event_name: event, reason: "prompt_input_exit" };
  };
  host.close = async () => {
    await new Promise((resolve) => server.close(() => resolve()));
    if (claude.exitCode === null && claude.signalCode === null) {
      const exited = new Promise((resolve) => claude.once("exit", resolve));
      claude.kill("SIGKILL");
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  return host;
}

/** The one exec-form hook hooks.json registers for `event`, run as Claude Code runs it. */
async function runHook(host, event, profileAs) {
  const [hook, ...more] = (hooksDocument.hooks[event] ?? []).flatMap((group) => group.hooks);
  if (hook === undefined || more.length > 0) throw new Error(`bench: expected one ${event} hook`);
  const sub = (text) => text.split(PLUGIN_ROOT_VARIABLE).join(pluginRoot);
  const argv = [sub(hook.command), ...hook.args.map(sub)];
  if (profileDir !== undefined && profileAs !== undefined) {
    argv.unshift(process.execPath, "--cpu-prof", `--cpu-prof-dir=${join(profileDir, profileAs)}`);
  }
  const result = await run(argv, {
    cwd: host.who.checkout,
    env: host.hookEnv(event),
    input: JSON.stringify(host.stdin(event)),
  });
  if (result.code !== 0) {
    throw new Error(
      `bench: ${event} hook exited ${result.code ?? result.signal}: ${result.stderr}`,
    );
  }
  if (result.ms > hook.timeout * 1000) {
    throw new Error(
      `bench: ${event} hook took ${result.ms} ms, over its ${hook.timeout} s timeout`,
    );
  }
  return result;
}

const readJson = (path) => {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
};
const byPidMapText = (host) => {
  try {
    return readFileSync(join(host.who.stateDir, "sessions", "by-pid", `${host.pid}.json`), "utf8");
  } catch {
    return undefined;
  }
};
const byPidMap = (host) =>
  readJson(join(host.who.stateDir, "sessions", "by-pid", `${host.pid}.json`));
const watcherStatus = (host) =>
  readJson(join(host.who.stateDir, "watchers", `${host.pid}.status.json`));
const watcherPidfile = (host) => readJson(join(host.who.stateDir, "watchers", `${host.pid}.json`));
/** A live process (a zombie, which kill(pid, 0) still reaches, counts as gone). */
const alive = (pid) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
};

/** Resolves the ms until the watcher's status file says `live`. */
async function waitWatcherLive(host) {
  const t0 = nowMs();
  while (watcherStatus(host)?.state !== "live") {
    if (nowMs() - t0 > WATCHER_LIVE_TIMEOUT_MS) {
      throw new Error(
        `bench: the watcher of ${host.name} is not live after ${WATCHER_LIVE_TIMEOUT_MS} ms`,
      );
    }
    await sleep(5);
  }
  return nowMs() - t0;
}

// ---------------------------------------------------------------------------------------------
// Setup.

try {
  const setupStarted = nowMs();
  const server = await startServer(join(work, "server.sqlite"));
  const dana = person("dana"); // creates the team; sends with `brigade send`
  const eli = person("eli"); // the recipients
  const frank = person("frank"); // the connected cold-start sessions
  const nobody = person("nobody"); // a checkout with no binding
  const senders = Array.from({ length: IN_PROCESS_PRINCIPALS }, (_, i) => person(`sender-${i}`));
  const secretFile = join(work, "join-secret");
  await terminal(dana, [
    "team",
    "create",
    "billing",
    "--server",
    server.url,
    "--secret-file",
    secretFile,
  ]);
  const bindingFile = join(dana.checkout, ".brigade.json");
  const binding = JSON.parse(readFileSync(bindingFile, "utf8"));
  for (const who of [eli, frank, ...senders]) {
    cpSync(bindingFile, join(who.checkout, ".brigade.json"));
    await terminal(who, ["team", "join", "--secret-file", secretFile]);
  }
  const teamKey = teamKeyFor(binding.server, binding.team_ref);

  // -------------------------------------------------------------------------------------------
  // 1. Hook cold starts.

  const hookSamples = {
    baseline: [],
    off: { sessionStart: [], prompt: [], sessionEnd: [] },
    connected: {
      sessionStart: [],
      prompt: [],
      promptAgain: [],
      sessionEnd: [],
      watcherLiveAfterStart: [],
      watcherGoneAfterEnd: [],
    },
  };
  const outputs = { off: {}, connected: {} };
  // Rounds in which a prompt hook changed the by-pid map's bytes.
  const mapRewrites = { firstPrompt: 0, secondPrompt: 0 };
  const hookStarted = nowMs();
  for (let r = 0; r < HOOK_WARMUP_ROUNDS + HOOK_ROUNDS; r++) {
    const keep = r >= HOOK_WARMUP_ROUNDS;
    const baseline = await run([process.execPath, "-e", "0"], {
      cwd: nobody.checkout,
      env: nobody.env,
    });
    if (baseline.code !== 0) throw new Error("bench: node -e 0 failed");

    const off = await startHost(nobody, `off-${r}`);
    const offStart = await runHook(off, "SessionStart");
    const offPrompt = await runHook(off, "UserPromptSubmit", "prompt-off");
    const offEnd = await runHook(off, "SessionEnd");
    await off.close();
    if (existsSync(join(nobody.stateDir, "watchers", `${off.pid}.json`))) {
      throw new Error("bench: a session with no binding started a watcher");
    }

    const on = await startHost(frank, `cold-${r}`);
    const onStart = await runHook(on, "SessionStart");
    if (byPidMap(on)?.brigade_session_id === undefined) {
      throw new Error(`bench: session-start did not connect: ${onStart.stdout} ${onStart.stderr}`);
    }
    const liveMs = await waitWatcherLive(on);
    const mapBefore = byPidMapText(on);
    const onPrompt = await runHook(on, "UserPromptSubmit", "prompt-connected");
    const mapAfterFirst = byPidMapText(on);
    const onPromptAgain = await runHook(on, "UserPromptSubmit", "prompt-connected-again");
    const mapAfterSecond = byPidMapText(on);
    if (keep) {
      if (mapAfterFirst !== mapBefore) mapRewrites.firstPrompt++;
      if (mapAfterSecond !== mapAfterFirst) mapRewrites.secondPrompt++;
    }
    const watcherPid = watcherPidfile(on)?.pid;
    const onEnd = await runHook(on, "SessionEnd");
    const endedAt = nowMs();
    if (watcherPid === undefined) throw new Error("bench: no watcher pidfile after session-start");
    while (alive(watcherPid)) {
      if (nowMs() - endedAt > WATCHER_LIVE_TIMEOUT_MS) {
        throw new Error("bench: the watcher still runs long after session-end");
      }
      await sleep(5);
    }
    const goneMs = nowMs() - endedAt;
    await on.close();

    if (r === HOOK_WARMUP_ROUNDS) {
      const lines = (text) => text.split("\n").filter((line) => line.trim() !== "").length;
      outputs.off = {
        sessionStart: lines(offStart.stdout),
        prompt: lines(offPrompt.stdout),
        sessionEnd: lines(offEnd.stdout),
      };
      outputs.connected = {
        sessionStart: lines(onStart.stdout),
        prompt: lines(onPrompt.stdout),
        promptAgain: lines(onPromptAgain.stdout),
        sessionEnd: lines(onEnd.stdout),
      };
    }
    if (!keep) continue;
    hookSamples.baseline.push(baseline.ms);
    hookSamples.off.sessionStart.push(offStart.ms);
    hookSamples.off.prompt.push(offPrompt.ms);
    hookSamples.off.sessionEnd.push(offEnd.ms);
    hookSamples.connected.sessionStart.push(onStart.ms);
    hookSamples.connected.prompt.push(onPrompt.ms);
    hookSamples.connected.promptAgain.push(onPromptAgain.ms);
    hookSamples.connected.sessionEnd.push(onEnd.ms);
    hookSamples.connected.watcherLiveAfterStart.push(liveMs);
    hookSamples.connected.watcherGoneAfterEnd.push(goneMs);
  }
  const hookPhaseMs = nowMs() - hookStarted;

  // -------------------------------------------------------------------------------------------
  // 2. Send → socket latency.

  const recipients = [];
  for (let i = 0; i < RECIPIENTS; i++) {
    const host = await startHost(eli, `recipient-${i}`);
    await runHook(host, "SessionStart");
    host.brigadeSessionId = byPidMap(host)?.brigade_session_id;
    if (host.brigadeSessionId === undefined) throw new Error("bench: a recipient did not connect");
    recipients.push(host);
  }
  await Promise.all(recipients.map((host) => waitWatcherLive(host)));

  const senderSessions = [];
  for (const [p, who] of senders.entries()) {
    const adapter = openHarnessAdapter({
      configDir: join(who.env.XDG_CONFIG_HOME, "brigade"),
      teamKey,
    });
    for (let s = 0; s < SESSIONS_PER_IN_PROCESS_PRINCIPAL; s++) {
      const registered = await adapter.sessionRegister({
        harness: "bench",
        harness_version: "1",
        session_name: `sender-${p}-${s}`,
        activity: "busy",
        inbound: "accept",
      });
      senderSessions.push({ adapter, sessionId: registered.session_id });
    }
  }

  let tagSeq = 0;
  /** Resolves the arrival time of the post whose raw text holds `tag` at `host`'s socket. */
  function arrivalOf(host, tag) {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        host.onPost = null;
        resolve(undefined);
      }, ARRIVAL_TIMEOUT_MS);
      host.onPost = (raw, at) => {
        if (!raw.includes(tag)) return;
        clearTimeout(timer);
        host.onPost = null;
        resolve(at);
      };
    });
  }
  const bodyWith = (tag) =>
    `Heads-up (${tag}): the nightly export failed twice; I will rerun it at 14:00 UTC, please hold migrations on the billing tables until then.`;

  async function inProcessSend(k) {
    const sender = senderSessions[k % senderSessions.length];
    const host = recipients[k % recipients.length];
    const tag = `bench-${tagSeq++}-${randomBytes(4).toString("hex")}`;
    const arrived = arrivalOf(host, tag);
    const t0 = nowMs();
    await sender.adapter.messageSend({
      sender_session_id: sender.sessionId,
      recipient_session_id: host.brigadeSessionId,
      summary: "Nightly export rerun",
      body: bodyWith(tag),
      idempotency_key: tag,
    });
    const answered = nowMs();
    const at = await arrived;
    return { responseMs: answered - t0, deliveryMs: at === undefined ? undefined : at - t0 };
  }

  // Warm-up: one message to each recipient (the adapters' first connections, every watcher's path).
  for (let i = 0; i < RECIPIENTS; i++) {
    const warm = await inProcessSend(i);
    if (warm.deliveryMs === undefined) throw new Error("bench: a warm-up message never arrived");
    await sleep(GAP_MS);
  }

  const inProcess = { delivery: [], response: [], missing: 0 };
  const inProcessStarted = nowMs();
  for (let k = 0; k < IN_PROCESS_SENDS; k++) {
    const result = await inProcessSend(k);
    inProcess.response.push(result.responseMs);
    // One post that never came means the path is broken: waiting out the rest would take an hour.
    if (result.deliveryMs === undefined) throw new Error("bench: a post never arrived");
    else inProcess.delivery.push(result.deliveryMs);
    await sleep(GAP_MS);
  }
  const inProcessPhaseMs = nowMs() - inProcessStarted;

  // `brigade send` through the plugin bin, from dana's sessions (registered by their own hook).
  const cliSenders = [];
  for (let i = 0; i < CLI_SENDER_SESSIONS; i++) {
    const host = await startHost(dana, `sender-cli-${i}`);
    await runHook(host, "SessionStart");
    cliSenders.push(host);
  }
  await Promise.all(cliSenders.map((host) => waitWatcherLive(host)));
  const cli = { delivery: [], printed: [], exit: [], missing: 0 };
  const cliStarted = nowMs();
  for (let k = 0; k < CLI_SENDS; k++) {
    const sender = cliSenders[k % cliSenders.length];
    const host = recipients[k % recipients.length];
    const tag = `bench-${tagSeq++}-${randomBytes(4).toString("hex")}`;
    const arrived = arrivalOf(host, tag);
    const t0 = nowMs();
    const sent = await run(
      [
        join(pluginRoot, "bin", "brigade"),
        "send",
        host.brigadeSessionId,
        "--summary",
        "Nightly export rerun",
      ],
      { cwd: dana.checkout, env: sender.bashEnv, input: `${bodyWith(tag)}\n` },
    );
    if (sent.code !== 0) throw new Error(`bench: brigade send exited ${sent.code}: ${sent.stderr}`);
    const at = await arrived;
    cli.exit.push(sent.ms);
    cli.printed.push(sent.firstOutputMs ?? sent.ms);
    if (at === undefined) throw new Error("bench: a post of brigade send never arrived");
    else cli.delivery.push(at - t0);
    await sleep(GAP_MS);
  }
  const cliPhaseMs = nowMs() - cliStarted;

  // Every post carried the session's token on its auth line (docs/spec/cross-session.md §12).
  let postsWithToken = 0;
  let posts = 0;
  for (const host of recipients) {
    for (const post of host.posts) {
      posts++;
      const first = JSON.parse(post.raw.split("\n")[0] ?? "{}");
      if (first.type === "auth" && first.token === host.token) postsWithToken++;
    }
  }

  for (const host of [...recipients, ...cliSenders]) {
    await runHook(host, "SessionEnd");
    await host.close();
  }
  server.child.kill("SIGTERM");
  await new Promise((resolve) => server.child.once("exit", resolve));

  // -------------------------------------------------------------------------------------------
  // Report.

  const baseline = stats(hookSamples.baseline);
  const ratio = (s) => ({
    medianX: round(s.medianMs / baseline.medianMs, 2),
    p95X: round(s.p95Ms / baseline.p95Ms, 2),
  });
  const hookRow = (mode, hook, label) => {
    const s = stats(hookSamples[mode][hook]);
    return { case: label, mode, hook, ...s, ...ratio(s) };
  };
  const hooks = [
    {
      case: "node -e 0 (baseline)",
      mode: "baseline",
      hook: null,
      ...baseline,
      medianX: 1,
      p95X: 1,
    },
    hookRow("off", "sessionStart", "session-start, no binding"),
    hookRow("off", "prompt", "prompt, no binding"),
    hookRow("off", "sessionEnd", "session-end, no binding"),
    hookRow("connected", "sessionStart", "session-start, connected (register + watcher spawn)"),
    hookRow("connected", "prompt", "prompt, connected, first of the session"),
    hookRow("connected", "promptAgain", "prompt, connected, second (map unchanged)"),
    hookRow("connected", "sessionEnd", "session-end, connected (stop watcher + close)"),
  ];
  const watcherLive = stats(hookSamples.connected.watcherLiveAfterStart);
  const watcherGone = stats(hookSamples.connected.watcherGoneAfterEnd);
  const latency = [
    {
      case: "in-process messageSend → socket",
      ...stats(inProcess.delivery, [50, 90, 99]),
      missing: inProcess.missing,
    },
    {
      case: "in-process messageSend → server answer",
      ...stats(inProcess.response, [50, 90, 99]),
      missing: 0,
    },
    {
      case: "`brigade send` (plugin bin) spawn → socket",
      ...stats(cli.delivery, [50, 90, 99]),
      missing: cli.missing,
    },
    {
      case: "`brigade send` (plugin bin) spawn → result printed",
      ...stats(cli.printed, [50, 90, 99]),
      missing: 0,
    },
    {
      case: "`brigade send` (plugin bin) spawn → exit",
      ...stats(cli.exit, [50, 90, 99]),
      missing: 0,
    },
  ];
  const prompt = hooks.find((h) => h.mode === "connected" && h.hook === "prompt");
  const promptAgain = hooks.find((h) => h.mode === "connected" && h.hook === "promptAgain");
  const promptOff = hooks.find((h) => h.mode === "off" && h.hook === "prompt");
  const targets = [
    {
      target: `prompt hook, connected (first prompt), median < ${PROMPT_TARGET_MS} ms including node start-up`,
      value: prompt.medianMs,
      unit: "ms",
      limit: PROMPT_TARGET_MS,
      met: prompt.medianMs < PROMPT_TARGET_MS,
    },
    {
      target: `prompt hook, connected (first prompt), p95 < ${PROMPT_TARGET_MS} ms including node start-up`,
      value: prompt.p95Ms,
      unit: "ms",
      limit: PROMPT_TARGET_MS,
      met: prompt.p95Ms < PROMPT_TARGET_MS,
    },
    {
      target: `prompt hook, connected (later prompt), median < ${PROMPT_TARGET_MS} ms including node start-up`,
      value: promptAgain.medianMs,
      unit: "ms",
      limit: PROMPT_TARGET_MS,
      met: promptAgain.medianMs < PROMPT_TARGET_MS,
    },
    {
      target: `prompt hook, connected (later prompt), p95 < ${PROMPT_TARGET_MS} ms including node start-up`,
      value: promptAgain.p95Ms,
      unit: "ms",
      limit: PROMPT_TARGET_MS,
      met: promptAgain.p95Ms < PROMPT_TARGET_MS,
    },
    {
      target: `prompt hook, no binding, median < ${PROMPT_TARGET_MS} ms including node start-up`,
      value: promptOff.medianMs,
      unit: "ms",
      limit: PROMPT_TARGET_MS,
      met: promptOff.medianMs < PROMPT_TARGET_MS,
    },
  ];

  const bundle = readFileSync(join(pluginRoot, "dist", "brigade.mjs"));
  const gitHead = spawnSync("git", ["rev-parse", "HEAD"], { cwd: root, encoding: "utf8" });
  const gitDirty = spawnSync("git", ["status", "--porcelain", "--", "plugin"], {
    cwd: root,
    encoding: "utf8",
  });
  const cpus = os.cpus();
  const report = {
    suite: "plugin",
    date: new Date().toISOString(),
    machine: {
      cpu: cpus[0]?.model ?? "unknown",
      cores: cpus.length,
      memoryBytes: os.totalmem(),
      loadAverageAtStart: loadAverageAtStart.map((x) => round(x, 2)),
      loadAverageAtEnd: os.loadavg().map((x) => round(x, 2)),
      os: `${os.type()} ${os.release()} ${os.arch()}`,
      node: process.version,
    },
    plugin: {
      commit: gitHead.stdout.trim() || null,
      pluginDirCleanInGit: gitDirty.status === 0 ? gitDirty.stdout.trim() === "" : null,
      bundleBytes: bundle.length,
      bundleSha256: createHash("sha256").update(bundle).digest("hex"),
      installedAs:
        "a copy of plugin/ under <tmp>/plugins/cache/brigade/brigade/0.1.0 (no node_modules)",
    },
    method: {
      hooks:
        `each hook exec'd as hooks/hooks.json says (command ${PLUGIN_ROOT_VARIABLE}/bin/brigade through its ` +
        "#!/usr/bin/env node shebang, PATH starting with this node's folder), host stdin document and " +
        "environment (CLAUDE_PID a live process, inbox socket, token, CLAUDE_CONFIG_DIR with the registry " +
        "file, CLAUDE_PLUGIN_ROOT/DATA, CLAUDE_PROJECT_DIR; no messaging variables for SessionEnd); time = " +
        "spawn → exit with stdout and stderr closed",
      rounds:
        `${HOOK_WARMUP_ROUNDS} warm-up rounds dropped, then ${HOOK_ROUNDS}; each round runs, in order, ` +
        "node -e 0; off: a fresh host, session-start, prompt, session-end; connected: a fresh host (new pid, " +
        "session id, socket), session-start, wait for the watcher's status `live` (untimed), prompt (the session's first: the by-pid map is " +
        "rewritten with the permission mode), prompt again (map unchanged, the steady state), session-end",
      off: "a git checkout with no .brigade.json (Brigade off)",
      connected:
        "a checkout bound to the team and joined from the person's terminal; session-start registers a NEW " +
        "session on the real server, spawns the detached watcher and waits for its pidfile (ensureWatcher), so the " +
        "watcher's own node start-up and bundle load are inside the timed hook; session-end stops that watcher " +
        "(SIGTERM, 300 ms grace) and closes the session (capped at 1 s)",
      ratios: "each hook's median (p95) / node -e 0's median (p95), same run",
      percentiles: "nearest rank (of 20 samples, p95 is the 19th and p99 the largest)",
      sendLatency:
        `${RECIPIENTS} recipient sessions of one principal, each connected by the real session-start hook with ` +
        `its watcher live, registry status idle throughout; in process: ${IN_PROCESS_SENDS} sends (after ` +
        `${RECIPIENTS} warm-up sends) with HttpAdapter.messageSend from dist/ by ${senderSessions.length} sender ` +
        `sessions of ${IN_PROCESS_PRINCIPALS} principals, round robin over senders and recipients; CLI: ` +
        `${CLI_SENDS} runs of the plugin's bin/brigade send <full session id> --summary … with the body on ` +
        `stdin and the Bash tool's environment, from ${CLI_SENDER_SESSIONS} sessions of another principal ` +
        "(connected by their own session-start hook); closed loop, one message in flight: the next send starts " +
        `${GAP_MS} ms after the previous post arrived; delivery = send call (spawn) → the post's socket ` +
        "connection ended (auth line + message line received), matched by a unique tag in the body",
      limits:
        "none lifted; ≤ 8 sends per in-process sender session, ≤ 30 per principal, ≤ 2 per sender→recipient " +
        "pair, ≤ 15 posts per recipient in all: below the server's 20/min per session, 60/min per principal, " +
        "15 unacked per pair, the watcher's 10 per sender per minute and its pacer (bucket 25, 0.4/s, 20 " +
        "outstanding), so no message waits for a limit",
      setupMs: 0,
      cpuProfiles: profileDir ?? null,
    },
    targets,
    hooks,
    watcherLiveAfterSessionStart: watcherLive,
    watcherGoneAfterSessionEnd: watcherGone,
    hookOutputLines: outputs,
    byPidMapChangedByPrompt: { rounds: HOOK_ROUNDS, ...mapRewrites },
    latency,
    sendPhases: {
      inProcess: {
        sent: IN_PROCESS_SENDS,
        delivered: inProcess.delivery.length,
        missing: inProcess.missing,
        elapsedMs: round(inProcessPhaseMs, 0),
      },
      cli: {
        sent: CLI_SENDS,
        delivered: cli.delivery.length,
        missing: cli.missing,
        elapsedMs: round(cliPhaseMs, 0),
      },
      recipientPosts: posts,
      postsWithSessionToken: postsWithToken,
    },
    hookPhaseMs: round(hookPhaseMs, 0),
    totalMs: round(nowMs() - setupStarted, 0),
  };
  report.method.setupMs = round(hookStarted - setupStarted, 0);

  const resultsDir = join(root, "bench/results");
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(join(resultsDir, "plugin.json"), `${JSON.stringify(report, null, 2)}\n`);

  function table(header, rows) {
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
    const line = (cells) =>
      cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
    console.log(line(header));
    console.log(widths.map((w) => "-".repeat(w)).join("  "));
    for (const row of rows) console.log(line(row));
  }
  const m = report.machine;
  console.log(
    `${m.cpu}, ${m.cores} cores, node ${m.node}, load ${m.loadAverageAtStart[0]} → ${m.loadAverageAtEnd[0]}, ${report.date}`,
  );
  table(
    ["hook (20 runs)", "median ms", "p95 ms", "x node -e 0 (median)", "x (p95)"],
    hooks.map((h) => [
      h.case,
      h.medianMs.toFixed(1),
      h.p95Ms.toFixed(1),
      h.medianX.toFixed(2),
      h.p95X.toFixed(2),
    ]),
  );
  console.log(
    `watcher live after session-start exit: median ${watcherLive.medianMs} ms, p95 ${watcherLive.p95Ms} ms`,
  );
  console.log(
    `watcher gone after session-end exit: median ${watcherGone.medianMs} ms, p95 ${watcherGone.p95Ms} ms`,
  );
  console.log("");
  table(
    ["send latency", "n", "p50 ms", "p90 ms", "p99 ms", "max ms", "missing"],
    latency.map((l) => [
      l.case,
      String(l.count),
      l.medianMs.toFixed(1),
      l.p90Ms.toFixed(1),
      l.p99Ms.toFixed(1),
      l.maxMs.toFixed(1),
      String(l.missing),
    ]),
  );
  console.log("");
  for (const t of targets) {
    console.log(`target ${t.met ? "met   " : "MISSED"}  ${t.target}: ${t.value} ${t.unit}`);
  }
  console.log("results: bench/results/plugin.json");
  if (inProcess.missing + cli.missing > 0) {
    throw new Error(`bench: ${inProcess.missing + cli.missing} posts never arrived`);
  }
} finally {
  await cleanup();
}
