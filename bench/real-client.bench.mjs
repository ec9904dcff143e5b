// Push delivery on the real clients, side by side in one run: for each push harness (Claude Code,
// Qwen Code, Codex, OpenCode), how long from `message send` to (1) the recipient's door accepting
// the post, (2) the message in the recipient's own record of the conversation, (3) the ack on the
// server and (4) the message in the recipient's next model request.
//
// One world (a real `brigade serve` from dist/, people with homes and checkouts, the plugin copied
// outside the repository; test/support/plugin-world.ts) and one recipient at a time, each a
// different person: the real interactive client of the version the real-client tests pin (or
// BENCH_CLAUDE_CODE_VERSION, BENCH_QWEN_VERSION, BENCH_CODEX_VERSION, BENCH_OPENCODE_VERSION)
// under tmux with its own home, installed the way a person does, against a loopback fake of its
// model API; the recipient closes before the next one starts, so no two clients share the CPU.
// How each is started is in bench/real-client/<harness>.mjs, from the support library of its
// real-client test (TypeScript, loaded through Vite's module runner, the transform vitest uses).
//
// BENCH_HARNESSES=qwen,codex runs a subset (names: claude, qwen, codex, opencode); the sections of
// the others stay in the results file from their own run, and the ratios are only between the
// harnesses of the newest run. BENCH_SENDS sets the measured sends per harness (default 24; fewer
// than 20 only for a smoke run: p99 needs the samples).
//
// Senders: per harness, four sessions of the team's founder registered in process; each send is
// HttpAdapter.messageSend from dist/, one at a time, round robin over the senders. Before each
// send the recipient is idle (its harness's own signal: Claude Code's session registry, Qwen Code's
// screen, Codex's thread turns, OpenCode's /session/status), its model API has been quiet for
// QUIET_MS, and GAP_MS have passed since the previous post, so no figure includes a queue: each
// sender sends one per 4 × GAP_MS (under the lanes' 10 per sender a minute), the posts stay under
// the pacers' refill (one per 2.5 s after a bucket of 25; Claude Code's socket one per 2 s after 30)
// and the server's 20 per session and 60 per principal a minute.
//
// Measured per send, from the same clock (Date.now in this process; the lane's log is written by
// another process on the same machine, ms; the fakes stamp arrivals with performance.timeOrigin +
// performance.now(), ms):
//   posted:       send call → the lane's `posted` log line (the door accepted the post: Claude
//                 Code's inbox socket, Qwen Code's peer socket, Codex's app-server, OpenCode's
//                 prompt_async);
//   conversation: send call → the lane's `in_conversation` log line (the lane read the message in
//                 the client's own record: the evidence its ack waits for);
//   acked:        send call → the lane's `ack_sent` log line (the server answered the ack: what a
//                 sender's `message state` reads as acked);
//   model:        send call → the first request at the fake model API whose body holds the
//                 message's tag.
// Writes bench/results/real-client.json and prints a table. Nothing is asserted; the run fails
// only when something did not work (a message that never arrived).
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { runnerImport } from "vite";
import { startClaudeCode } from "./real-client/claude-code.mjs";
import { startCodex } from "./real-client/codex.mjs";
import { startOpenCode } from "./real-client/opencode.mjs";
import { startQwenCode } from "./real-client/qwen-code.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const resultsFile = join(root, "bench", "results", "real-client.json");

/** The harnesses in run order: the short name BENCH_HARNESSES takes, the section, the starter. */
const HARNESSES = [
  {
    name: "claude",
    section: "claudeCode",
    label: "Claude Code",
    person: "eli",
    start: startClaudeCode,
  },
  { name: "qwen", section: "qwenCode", label: "Qwen Code", person: "lee", start: startQwenCode },
  { name: "codex", section: "codex", label: "Codex", person: "kim", start: startCodex },
  { name: "opencode", section: "openCode", label: "OpenCode", person: "max", start: startOpenCode },
];

const SENDS = Number(process.env.BENCH_SENDS ?? 24);
const WARMUP_SENDS = 2;
const SENDERS = 4;
const GAP_MS = 2_600;
const QUIET_MS = 300;
const ARRIVAL_TIMEOUT_MS = 60_000;
const IDLE_TIMEOUT_MS = 60_000;

if (!Number.isInteger(SENDS) || SENDS < 1) {
  process.stderr.write("bench: BENCH_SENDS must be a whole number (20 or more for figures)\n");
  process.exit(2);
}
const asked = (process.env.BENCH_HARNESSES ?? HARNESSES.map((h) => h.name).join(","))
  .split(",")
  .map((n) => n.trim())
  .filter((n) => n !== "");
const known = HARNESSES.map((h) => h.name);
if (asked.length === 0 || asked.some((n) => !known.includes(n))) {
  process.stderr.write(`bench: BENCH_HARNESSES names harnesses among ${known.join(", ")}\n`);
  process.exit(2);
}
const chosen = HARNESSES.filter((h) => asked.includes(h.name));

const round = (x, digits) => Number(x.toFixed(digits));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const loadNow = () => os.loadavg().map((x) => round(x, 2));

/** Resolves once `check()` is truthy (checked every `everyMs`); rejects after `ms` naming `what`. */
async function until(check, ms, what, everyMs = 50) {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`bench: timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}
function stats(samples) {
  const sorted = Float64Array.from(samples).sort();
  return {
    count: sorted.length,
    p50Ms: round(percentile(sorted, 50), 1),
    p90Ms: round(percentile(sorted, 90), 1),
    p99Ms: round(percentile(sorted, 99), 1),
    minMs: round(sorted[0] ?? Number.NaN, 1),
    maxMs: round(sorted[sorted.length - 1] ?? Number.NaN, 1),
  };
}

/** The sections of an earlier run kept for the harnesses this run leaves out. */
function earlierSections() {
  try {
    const earlier = JSON.parse(readFileSync(resultsFile, "utf8"));
    return typeof earlier.harnesses === "object" && earlier.harnesses !== null
      ? earlier.harnesses
      : {};
  } catch {
    return {};
  }
}

/**
 * The time (ms since the epoch) of the first `event` log line for `messageId` in any lane log of
 * `stateDir` (`logs/watcher-<host pid>.log`): `posted` names it in `item`, `in_conversation` and
 * `ack_sent` in `message_id`.
 */
function loggedAt(stateDir, event, messageId) {
  const folder = join(stateDir, "logs");
  let names = [];
  try {
    names = readdirSync(folder);
  } catch {
    return undefined;
  }
  for (const name of names) {
    let text = "";
    try {
      text = readFileSync(join(folder, name), "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n")) {
      if (!line.includes(`"${event}"`) || !line.includes(messageId)) continue;
      let entry;
      try {
        entry = JSON.parse(line);
      } catch {
        continue;
      }
      if (entry.event === event && (entry.item === messageId || entry.message_id === messageId))
        return Date.parse(entry.at);
    }
  }
  return undefined;
}

/** The lane log lines naming `messageId`, then the last 20 lines of each lane log (ids and events only). */
function laneLines(stateDir, messageId) {
  const folder = join(stateDir, "logs");
  const out = [];
  try {
    for (const name of readdirSync(folder)) {
      const lines = readFileSync(join(folder, name), "utf8").split("\n");
      out.push(
        `-- ${name}`,
        ...lines.filter((l) => l.includes(messageId)),
        "-- last 20",
        ...lines.slice(-21),
      );
    }
  } catch {
    out.push("(no lane log)");
  }
  return out.join("\n");
}

async function waitLogged(stateDir, event, messageId, what) {
  let at;
  await until(
    () => {
      at = loggedAt(stateDir, event, messageId);
      return at !== undefined;
    },
    ARRIVAL_TIMEOUT_MS,
    `the ${event} log line of ${what}`,
    20,
  );
  return at;
}

/** Measures one harness: its recipient started, the warm-up and measured sends, closed. */
async function measure(world, harness, load, openHarnessAdapter) {
  const loadAtStart = loadNow();
  const person = await world.join(harness.person);
  const recipient = await harness.start({ world, person, load, until });
  try {
    const adapter = openHarnessAdapter({
      configDir: world.founder.configDir,
      teamKey: recipient.teamKey,
    });
    const senders = [];
    for (let s = 0; s < SENDERS; s++) {
      const registered = await adapter.sessionRegister({
        harness: "bench",
        harness_version: "1",
        session_name: `${harness.name}-sender-${s}`,
        activity: "busy",
        inbound: "accept",
      });
      senders.push(registered.session_id);
    }
    let lastPost = 0;
    async function sendOne(k) {
      await recipient.waitIdle(IDLE_TIMEOUT_MS);
      // Quiet: no request at the model API for QUIET_MS (the turn's tail is over).
      let count = recipient.mark();
      let since = Date.now();
      await until(
        () => {
          const now = recipient.mark();
          if (now !== count) {
            count = now;
            since = Date.now();
          }
          return Date.now() - since >= QUIET_MS;
        },
        IDLE_TIMEOUT_MS,
        `${harness.label}'s model API quiet`,
        20,
      );
      await sleep(Math.max(0, lastPost + GAP_MS - Date.now()));
      const tag = `bench-${k}-${randomBytes(4).toString("hex")}`;
      const from = recipient.mark();
      const t0 = Date.now();
      const sent = await adapter.messageSend({
        sender_session_id: senders[k % senders.length],
        recipient_session_id: recipient.sessionId,
        summary: "Nightly export rerun",
        body: `Heads-up (${tag}): the nightly export failed twice; I will rerun it at 14:00 UTC, please hold migrations on the billing tables until then.`,
        idempotency_key: tag,
      });
      let modelAt;
      try {
        await until(
          () => {
            modelAt = recipient.arrival(tag, from);
            return modelAt !== undefined;
          },
          ARRIVAL_TIMEOUT_MS,
          `message ${k} in ${harness.label}'s model request`,
          20,
        );
      } catch (error) {
        process.stderr.write(
          `${harness.label}'s screen:\n${recipient.screen()}\nThe lane's log lines of the message and its last 20:\n${laneLines(person.stateDir, sent.message_id)}\n`,
        );
        throw error;
      }
      const what = `${harness.label}'s message ${k}`;
      const posted = await waitLogged(person.stateDir, "posted", sent.message_id, what);
      const conversation = await waitLogged(
        person.stateDir,
        "in_conversation",
        sent.message_id,
        what,
      );
      const acked = await waitLogged(person.stateDir, "ack_sent", sent.message_id, what);
      lastPost = posted;
      return {
        postedMs: posted - t0,
        conversationMs: conversation - t0,
        ackedMs: acked - t0,
        modelMs: modelAt - t0,
      };
    }
    for (let k = 0; k < WARMUP_SENDS; k++) await sendOne(SENDS + k);
    const samples = { postedMs: [], conversationMs: [], ackedMs: [], modelMs: [] };
    const started = Date.now();
    for (let k = 0; k < SENDS; k++) {
      const one = await sendOne(k);
      for (const key of Object.keys(samples)) samples[key].push(one[key]);
    }
    const durationMs = Date.now() - started;
    return {
      harness: harness.label,
      version: recipient.version,
      package: recipient.package,
      mode: recipient.mode,
      date: new Date().toISOString(),
      loadAverageAtStart: loadAtStart,
      loadAverageAtEnd: loadNow(),
      durationMs,
      results: {
        posted: {
          case: "send → the recipient's door accepted the post",
          ...stats(samples.postedMs),
        },
        conversation: {
          case: "send → in the recipient's own record of the conversation",
          ...stats(samples.conversationMs),
        },
        acked: { case: "send → acked on the server", ...stats(samples.ackedMs) },
        model: { case: "send → the recipient's next model request", ...stats(samples.modelMs) },
      },
    };
  } finally {
    await recipient.close();
  }
}

/** The sections in the order of HARNESSES (Claude Code first: the ratios' baseline). */
function ordered(sections) {
  return Object.fromEntries(
    HARNESSES.filter((h) => sections[h.section] !== undefined).map((h) => [
      h.section,
      sections[h.section],
    ]),
  );
}

/** Each harness of this run over the first one measured, for the model and acked p50 and p99. */
function ratios(sections, runDate) {
  const inRun = Object.entries(sections).filter(
    ([, s]) => s.run === runDate && s.failed === undefined,
  );
  if (inRun.length < 2) return undefined;
  const [baseName, base] = inRun[0];
  const over = (key, p) =>
    Object.fromEntries(
      inRun.slice(1).map(([name, s]) => [name, round(s.results[key][p] / base.results[key][p], 2)]),
    );
  return {
    run: runDate,
    baseline: baseName,
    note: `each harness's figure over ${base.harness}'s, all measured in the run of ${runDate} at the load of that run`,
    modelP50: over("model", "p50Ms"),
    modelP99: over("model", "p99Ms"),
    ackedP50: over("acked", "p50Ms"),
    ackedP99: over("acked", "p99Ms"),
  };
}

// Everything the run creates lives in one temp folder (a short name: the clients' sockets live
// below it), removed at the end.
const tmp = mkdtempSync(join(os.tmpdir(), "bcb-"));
process.env.TMPDIR = tmp;
const runDate = new Date().toISOString();
const loadAverageAtStart = loadNow();
const load = async (path) =>
  (await runnerImport(join(root, path), { configFile: false, logLevel: "error" })).module;
const { PluginWorld } = await load("test/support/plugin-world.ts");
const { openHarnessAdapter } = await import(
  pathToFileURL(join(root, "dist/harness/adapter/index.js")).href
);

const sections = earlierSections();
const cpus = os.cpus();
let failures = 0;
let world;
try {
  world = await PluginWorld.start("dana");
  for (const harness of chosen) {
    process.stdout.write(`${harness.label}…\n`);
    try {
      const section = await measure(world, harness, load, openHarnessAdapter);
      sections[harness.section] = { run: runDate, ...section };
    } catch (error) {
      // One harness that did not work loses none of the others' figures.
      failures++;
      const reason = error instanceof Error ? error.message : String(error);
      process.stderr.write(`bench: ${harness.label}: ${reason}\n`);
      sections[harness.section] = { run: runDate, harness: harness.label, failed: reason };
    }
    writeReport();
  }
} finally {
  await world?.close();
  rmSync(tmp, { recursive: true, force: true });
}

/** Writes bench/results/real-client.json with every section so far. */
function writeReport() {
  mkdirSync(dirname(resultsFile), { recursive: true });
  writeFileSync(resultsFile, `${JSON.stringify(report(), null, 2)}\n`);
}

function report() {
  return {
    suite: "real-client",
    date: runDate,
    machine: {
      cpu: cpus[0]?.model ?? "unknown",
      cores: cpus.length,
      memoryBytes: os.totalmem(),
      loadAverageAtStart,
      loadAverageAtEnd: loadNow(),
      os: `${os.type()} ${os.release()} ${os.arch()}`,
      node: process.version,
      note: "load average (1, 5, 15 min) of the whole machine; the figures hold at that load, not on a quiet machine",
    },
    method: {
      harnesses: `run this time: ${chosen.map((h) => h.label).join(", ")}; each section names the run it is from`,
      sends: `per harness ${WARMUP_SENDS} warm-up sends dropped, then ${SENDS}, one at a time, round robin over ${SENDERS} in-process sender sessions (HttpAdapter.messageSend from dist/ to a real brigade serve), each after the recipient was idle, its model API quiet for ${QUIET_MS} ms, and ${GAP_MS} ms after the previous post`,
      posted:
        "send call → the lane's `posted` log line (the client's door accepted the post); ms resolution",
      conversation:
        "send call → the lane's `in_conversation` log line (the message read in the client's own record of the conversation, the evidence the ack waits for); ms resolution",
      acked:
        "send call → the lane's `ack_sent` log line (the server answered the ack; what `message state` then reads as acked); ms resolution",
      model: "send call → the fake model API received the first request holding the message",
      percentiles: `nearest rank of ${SENDS} samples per harness (p99 is the largest)`,
    },
    harnesses: ordered(sections),
    ratios: ratios(ordered(sections), runDate),
  };
}

writeReport();
const final = report();
const m = final.machine;
console.log(
  `${m.cpu}, ${m.cores} cores, node ${m.node}, load ${m.loadAverageAtStart.join("/")} → ${m.loadAverageAtEnd.join("/")}, ${final.date}`,
);
console.log(
  ["harness", "version", "case", "n", "p50 ms", "p90 ms", "p99 ms", "min ms", "max ms"].join("\t"),
);
for (const s of Object.values(ordered(sections))) {
  if (s.run !== runDate) continue;
  if (s.failed !== undefined) {
    console.log([s.harness, "-", `failed: ${s.failed}`].join("\t"));
    continue;
  }
  for (const r of Object.values(s.results))
    console.log(
      [s.harness, s.version, r.case, r.count, r.p50Ms, r.p90Ms, r.p99Ms, r.minMs, r.maxMs].join(
        "\t",
      ),
    );
}
if (final.ratios !== undefined) console.log(JSON.stringify(final.ratios));
if (failures > 0) process.exit(1);
