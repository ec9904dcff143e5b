// The plugin on the real Claude Code: how long from `message send` to (1) the recipient's inbox
// socket, (2) the message in the recipient's conversation, (3) the ack on the server and (4) the
// message in the recipient's next model request, side by side in one run.
//
// The recipient is a real interactive Claude Code (the pinned version of the real-client test, or
// BENCH_CLAUDE_CODE_VERSION) under tmux, with the plugin loaded by --plugin-dir, its own home and
// config folder, and a loopback fake of the Messages API; the world (a real `brigade serve` from
// dist/, people with homes and checkouts, the plugin copied outside the repository) is the one of
// the real-client test. The support library is TypeScript, so it is loaded through Vite's module
// runner (the same transform vitest uses).
//
// Senders: four sessions of the team's founder registered in process; each send is
// HttpAdapter.messageSend from dist/, one at a time, round robin over the senders. Before each
// send the recipient is idle and at least GAP_MS have passed since the previous post, so no figure
// includes a queue (Claude Code's socket refills one post per 2 s; the watcher takes 10 per sender
// per minute; the server 20 per session and 60 per principal per minute).
//
// Measured per send, from the same clock (Date.now in this process; the watcher's log is written
// by another process on the same machine, in ms):
//   socket:       send call → the watcher's `posted` log line for that message id (the socket
//                 accepted the post; Claude Code has the bytes, nothing more);
//   conversation: send call → the watcher's `in_conversation` log line: the watcher read the
//                 frame's open tag in Claude Code's session transcript, where Claude Code records
//                 what entered the conversation. This is the case that means "in the recipient's
//                 conversation": it is the evidence the ack waits for, observed where Claude Code
//                 itself records it, so nothing earlier can vouch for it. It includes the
//                 watcher's transcript polling (every 250 ms while a post waits);
//   acked:        send call → the watcher's `ack_sent` line (the server answered the ack): what a
//                 sender's `message state` reads as `acked`, i.e. "in the conversation" plus one
//                 ack round trip;
//   model:        send call → the first request at the fake API whose body holds the message's
//                 tag (the model got it). On 2.1.334 this came before `conversation` (p50 about
//                 0.2 s earlier in the first run): Claude Code sends the request before the
//                 watcher, polling every 250 ms, reads the entry; so "in the conversation" as the
//                 ack means it is a bound the model has already met, not an earlier point.
// Writes bench/results/real-client.json and prints a table. Nothing is asserted; the run fails
// only when something did not work (a message that never arrived).
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { runnerImport } from "vite";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const SENDS = 36;
const WARMUP_SENDS = 2;
const SENDERS = 4;
const GAP_MS = 2_200;
const ARRIVAL_TIMEOUT_MS = 30_000;

const round = (x, digits) => Number(x.toFixed(digits));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

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

// Everything the run creates lives in one temp folder, removed at the end.
const tmp = mkdtempSync(join(os.tmpdir(), "brigade-bench-real-client-"));
process.env.TMPDIR = tmp;
const loadAverageAtStart = os.loadavg();

const load = async (path) =>
  (await runnerImport(join(root, path), { configFile: false, logLevel: "error" })).module;
const realClaude = await load("test/support/real-claude/index.ts");
const { PluginWorld } = await load("test/support/plugin-world.ts");
const { openHarnessAdapter } = await import(
  pathToFileURL(join(root, "dist/harness/adapter/index.js")).href
);

const version = process.env.BENCH_CLAUDE_CODE_VERSION ?? realClaude.PINNED_CLAUDE_CODE_VERSION;
let world;
let recipient;
let report;
try {
  const executable = await realClaude.claudeCodeExecutable(version);
  world = await PluginWorld.start("dana");
  const eli = await world.join("eli");
  recipient = await realClaude.RealClaudeSession.start(world, eli, { executable });
  const recipientId = recipient.brigadeSessionId();
  const watcherLog = join(eli.stateDir, "logs", `watcher-${recipient.claudePid}.log`);

  const founder = world.founder;
  const teamKey = world.mapOf(eli, { claudePid: recipient.claudePid }).team_key;
  const adapter = openHarnessAdapter({ configDir: founder.configDir, teamKey });
  const senders = [];
  for (let s = 0; s < SENDERS; s++) {
    const registered = await adapter.sessionRegister({
      harness: "bench",
      harness_version: "1",
      session_name: `sender-${s}`,
      activity: "busy",
      inbound: "accept",
    });
    senders.push(registered.session_id);
  }

  /**
   * The time (ms since the epoch) of the watcher's first `event` log line for `messageId`, once
   * logged: `posted` names it in `item`, `in_conversation` and `ack_sent` in `message_id`.
   */
  function loggedAt(event, messageId) {
    let text = "";
    try {
      text = readFileSync(watcherLog, "utf8");
    } catch {
      return undefined;
    }
    for (const line of text.split("\n")) {
      if (!line.includes(`"${event}"`) || !line.includes(messageId)) continue;
      const entry = JSON.parse(line);
      if (entry.event === event && (entry.item === messageId || entry.message_id === messageId))
        return Date.parse(entry.at);
    }
    return undefined;
  }

  async function waitLogged(event, messageId, k) {
    const deadline = Date.now() + ARRIVAL_TIMEOUT_MS;
    let at = loggedAt(event, messageId);
    while (at === undefined) {
      if (Date.now() > deadline) throw new Error(`bench: no ${event} log line for message ${k}`);
      await sleep(20);
      at = loggedAt(event, messageId);
    }
    return at;
  }

  let lastPost = 0;
  async function sendOne(k) {
    await recipient.waitForIdle(ARRIVAL_TIMEOUT_MS);
    await sleep(Math.max(0, lastPost + GAP_MS - Date.now()));
    const tag = `bench-${k}-${randomBytes(4).toString("hex")}`;
    const from = recipient.api.requests.length;
    const t0 = Date.now();
    const sent = await adapter.messageSend({
      sender_session_id: senders[k % senders.length],
      recipient_session_id: recipientId,
      summary: "Nightly export rerun",
      body: `Heads-up (${tag}): the nightly export failed twice; I will rerun it at 14:00 UTC, please hold migrations on the billing tables until then.`,
      idempotency_key: tag,
    });
    const request = await recipient.api.waitForRequest(
      (r) => r.conversation && r.raw.includes(tag),
      ARRIVAL_TIMEOUT_MS,
      `message ${k} in a model request`,
      from,
    );
    const posted = await waitLogged("posted", sent.message_id, k);
    const inConversation = await waitLogged("in_conversation", sent.message_id, k);
    const acked = await waitLogged("ack_sent", sent.message_id, k);
    lastPost = posted;
    return {
      socketMs: posted - t0,
      conversationMs: inConversation - t0,
      ackedMs: acked - t0,
      modelMs: request.at - t0,
    };
  }

  for (let k = 0; k < WARMUP_SENDS; k++) await sendOne(SENDS + k);
  const socket = [];
  const conversation = [];
  const acked = [];
  const model = [];
  const started = Date.now();
  for (let k = 0; k < SENDS; k++) {
    const one = await sendOne(k);
    socket.push(one.socketMs);
    conversation.push(one.conversationMs);
    acked.push(one.ackedMs);
    model.push(one.modelMs);
  }
  const cpus = os.cpus();
  const socketStats = stats(socket);
  const conversationStats = stats(conversation);
  const ackedStats = stats(acked);
  const modelStats = stats(model);
  report = {
    suite: "real-client",
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
    claudeCode: {
      version,
      package: `${realClaude.CLAUDE_CODE_PACKAGE}@${version}`,
      mode: "interactive under tmux, --plugin-dir, its default permission mode, a loopback fake of the Messages API",
    },
    method: {
      sends: `${WARMUP_SENDS} warm-up sends dropped, then ${SENDS}, one at a time, round robin over ${SENDERS} in-process sender sessions (HttpAdapter.messageSend from dist/), each after the recipient was idle and ${GAP_MS} ms after the previous post`,
      socket:
        "send call → the watcher's `posted` log line (the socket accepted the post); ms resolution",
      conversation:
        "send call → the watcher's `in_conversation` log line (the frame's tag read in Claude Code's session transcript, the evidence the ack waits for; transcript polled every 250 ms while a post waits); ms resolution",
      acked:
        "send call → the watcher's `ack_sent` log line (the server answered the ack; what `message state` then reads as acked); ms resolution",
      model: "send call → the fake Messages API received the first request holding the message",
      percentiles: `nearest rank of ${SENDS} samples (p99 is the largest)`,
      durationMs: Date.now() - started,
    },
    results: [
      { case: "send → recipient's inbox socket", ...socketStats },
      { case: "send → in the recipient's conversation", ...conversationStats },
      { case: "send → acked on the server", ...ackedStats },
      { case: "send → recipient's next model request", ...modelStats },
    ],
    ratios: {
      conversationOverSocketP50: round(conversationStats.p50Ms / socketStats.p50Ms, 2),
      conversationOverSocketP99: round(conversationStats.p99Ms / socketStats.p99Ms, 2),
      ackedOverSocketP50: round(ackedStats.p50Ms / socketStats.p50Ms, 2),
      ackedOverSocketP99: round(ackedStats.p99Ms / socketStats.p99Ms, 2),
      modelOverSocketP50: round(modelStats.p50Ms / socketStats.p50Ms, 2),
      modelOverSocketP99: round(modelStats.p99Ms / socketStats.p99Ms, 2),
    },
  };
} finally {
  await recipient?.close();
  await world?.close();
  rmSync(tmp, { recursive: true, force: true });
}

mkdirSync(join(root, "bench", "results"), { recursive: true });
writeFileSync(
  join(root, "bench", "results", "real-client.json"),
  `${JSON.stringify(report, null, 2)}\n`,
);
const m = report.machine;
console.log(
  `Claude Code ${version}; ${m.cpu}, ${m.cores} cores, node ${m.node}, load ${m.loadAverageAtStart[0]} → ${m.loadAverageAtEnd[0]}, ${report.date}`,
);
console.log(["case", "n", "p50 ms", "p90 ms", "p99 ms", "min ms", "max ms"].join("\t"));
for (const r of report.results)
  console.log([r.case, r.count, r.p50Ms, r.p90Ms, r.p99Ms, r.minMs, r.maxMs].join("\t"));
const r = report.ratios;
console.log(
  `conversation / socket: p50 ×${r.conversationOverSocketP50}, p99 ×${r.conversationOverSocketP99}; acked / socket: p50 ×${r.ackedOverSocketP50}, p99 ×${r.ackedOverSocketP99}; model / socket: p50 ×${r.modelOverSocketP50}, p99 ×${r.modelOverSocketP99}`,
);
