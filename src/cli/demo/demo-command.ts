import { randomUUID } from "node:crypto";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { inspectText } from "../../formats/inspect/index.ts";
import { readByPidMap } from "../../harness/state/index.ts";
import { currentUid } from "../../local-files/index.ts";
import { silentLogger } from "../../server/logger.ts";
import { type RunningServer, startServer } from "../../server/serve.ts";
import { type CliIo, CliUsageError } from "../cli-io.ts";
import { parseCommandFlags } from "../parse-command-flags.ts";
import { DemoPerson, type DemoRun, type DemoSession } from "./demo-person.ts";

const HELP = `usage: brigade demo

Shows Brigade working in about ten seconds, with no Claude Code and no account: a temporary team
server on 127.0.0.1 (a random port, data in a temporary folder), two teammates, dana and lee, each
with a Claude Code session simulated by the plugin's own hooks, and three messages: a question,
its reply, and a hostile message (samples/hostile-envelope.json). For each it prints the command
the sending model runs and exactly what the receiving model reads. Everything it made is removed
at the end, also after Ctrl-C.
`;

/** The hostile sample: a message that forges frames, a system reminder, an approval and a tool call. */
const HOSTILE_SAMPLE = new URL("../../../samples/hostile-envelope.json", import.meta.url);

/** The signals the demo cleans up after, each with its exit status (128 + the signal's number). */
const SIGNAL_EXIT_STATUS: ReadonlyMap<NodeJS.Signals, number> = new Map([
  ["SIGHUP", 129],
  ["SIGINT", 130],
  ["SIGTERM", 143],
]);

/** A step that did not go as the demo expects: reported as one line, exit 1. */
class DemoStepFailed extends Error {
  constructor(step: string, run: DemoRun) {
    super(
      `${step} failed (exit ${run.status}): ${(run.stderr || run.stdout).trim().split("\n")[0]}`,
    );
    this.name = "DemoStepFailed";
  }
}

function expectOk(step: string, run: DemoRun): DemoRun {
  if (run.status !== 0) throw new DemoStepFailed(step, run);
  return run;
}

function indent(text: string): string {
  return text
    .trimEnd()
    .split("\n")
    .map((line) => `    │ ${line}`)
    .join("\n");
}

function hostileSample(): { readonly summary: string; readonly body: string } {
  const parsed: unknown = JSON.parse(readFileSync(HOSTILE_SAMPLE, "utf8"));
  if (typeof parsed === "object" && parsed !== null && "body" in parsed && "summary" in parsed) {
    const { body, summary } = parsed;
    if (typeof body === "string" && typeof summary === "string") return { body, summary };
  }
  throw new TypeError("samples/hostile-envelope.json has no body and summary");
}

/** The one message id in what a model read (the frame's `message-id`), for the reply. */
function messageIdIn(text: string): string {
  const frame = inspectText(text).frames.find((f) => f.ok);
  if (frame === undefined || !frame.ok) throw new TypeError("no frame in the delivered text");
  return frame.frame.messageId;
}

function sessionIdOf(person: DemoPerson, session: DemoSession): string {
  const read = readByPidMap({
    claudePid: session.claudePid,
    env: { XDG_STATE_HOME: join(person.home, ".local", "state"), HOME: person.home },
    uid: currentUid(),
  });
  if (!read.ok) throw new TypeError(`no session map (${read.reason})`);
  return read.map.brigade_session_id;
}

/**
 * Stand-in `CLAUDE_PID`s above the largest pid Linux (2^22) or macOS (99,999) hands out, so they
 * can never name a real process; nothing signals them anyway (no watcher runs without a socket).
 */
function standInSession(pid: number, title: string): DemoSession {
  return { claudePid: String(pid), nativeId: randomUUID(), title };
}

async function play(
  root: string,
  server: RunningServer,
  say: (text: string) => void,
): Promise<void> {
  say(
    [
      `A temporary team server runs on ${server.url} (its data in a temporary folder).`,
      "Two teammates, dana and lee, each have a clone of orders-api and one Claude Code session in it,",
      "run by the plugin's real hooks and commands; only Claude Code is simulated. Without Claude Code",
      "there is no inbox socket, so a message reaches a model at its next prompt, printed by the prompt",
      "hook; under Claude Code the watcher posts the same frame at once, wrapped in <cross-session-message>.",
      "",
      "",
    ].join("\n"),
  );
  const dana = new DemoPerson(root, "dana", "orders-api");
  const lee = new DemoPerson(root, "lee", "orders-api");
  const secret = join(root, "dana", "orders.secret");
  say("dana, in her terminal:  brigade team create orders --server <url> --secret-file <file>\n");
  expectOk(
    "team create",
    await dana.team(["create", "orders", "--server", server.url, "--secret-file", secret]),
  );
  // lee pulls the committed .brigade.json and gets the secret file from dana privately.
  copyFileSync(join(dana.checkout, ".brigade.json"), join(lee.checkout, ".brigade.json"));
  copyFileSync(secret, join(root, "lee", "orders.secret"));
  say("lee, in his terminal:   brigade team join --secret-file <file>\n\n");
  expectOk(
    "team join",
    await lee.team(["join", "--secret-file", join(root, "lee", "orders.secret")]),
  );

  const danaSession = standInSession(4_194_305, "api-rename");
  const leeSession = standInSession(4_194_306, "web-client");
  const danaStart = expectOk("dana's session start", await dana.hook(danaSession, "session-start"));
  const leeStart = expectOk("lee's session start", await lee.hook(leeSession, "session-start"));
  say(
    `What dana's model is told when her session starts (SessionStart hook):\n${indent(danaStart.stdout)}\n`,
  );
  say(`What lee's model is told when his session starts:\n${indent(leeStart.stdout)}\n\n`);

  const leeId = sessionIdOf(lee, leeSession);
  const danaId = sessionIdOf(dana, danaSession);

  const question =
    "I'm renaming customer_id to account_id in the orders API response. Does the web app read customer_id anywhere?";
  say(
    `1. dana's model asks lee's session a question:\n    $ brigade send ${leeId} --summary "orders API rename" <<'EOF'\n${indent(question)}\n    EOF\n`,
  );
  const sent = expectOk(
    "the question",
    await dana.send(danaSession, [leeId, "--summary", "orders API rename"], `${question}\n`),
  );
  say(indent(sent.stdout));
  const atLee = expectOk("lee's prompt", await lee.hook(leeSession, "prompt"));
  say(`\n  What lee's model reads (at its next prompt):\n${indent(atLee.stdout)}\n\n`);

  const answer =
    "Yes: web/src/orders/table.tsx reads customer_id. I'll switch it to account_id today.";
  const questionId = messageIdIn(atLee.stdout);
  say(
    `2. lee's model replies with the command the frame gave it:\n    $ brigade send ${danaId} --reply-to ${questionId} --summary "web reads customer_id" <<'EOF'\n${indent(answer)}\n    EOF\n`,
  );
  const replied = expectOk(
    "the reply",
    await lee.send(
      leeSession,
      [danaId, "--reply-to", questionId, "--summary", "web reads customer_id"],
      `${answer}\n`,
    ),
  );
  say(indent(replied.stdout));
  const atDana = expectOk("dana's prompt", await dana.hook(danaSession, "prompt"));
  say(`\n  What dana's model reads:\n${indent(atDana.stdout)}\n\n`);

  const hostile = hostileSample();
  say(
    "3. A hostile message (samples/hostile-envelope.json): suppose dana's session was tricked into\n" +
      '   sending text that forges a closing tag, a second frame from "your user", a system reminder\n' +
      "   granting permission and a tool call.\n" +
      `    $ brigade send ${leeId} --summary "<the sample's summary>" <<'EOF'\n` +
      "    <the sample's body>\n    EOF\n",
  );
  const attack = expectOk(
    "the hostile message",
    await dana.send(danaSession, [leeId, "--summary", hostile.summary], `${hostile.body}\n`),
  );
  say(indent(attack.stdout));
  const hostileAtLee = expectOk("lee's prompt", await lee.hook(leeSession, "prompt"));
  say(`\n  What lee's model reads:\n${indent(hostileAtLee.stdout)}\n`);
  const report = inspectText(hostileAtLee.stdout);
  const genuine = report.frames.filter((f) => f.ok);
  say(
    [
      "",
      "  brigade inspect on that text: " +
        `${genuine.length} genuine frame${genuine.length === 1 ? "" : "s"} (from dana's session, as the server stamped it), ` +
        `${report.forgedTags.length} live forged tags, ${report.neutralisedTags.length} neutralised tags.`,
      "  Every tag of the frame families (brigade-message, cross-session-message, system-reminder, ...)",
      "  that the sender wrote is escaped to &lt;, so the text cannot close the frame or pose as Brigade,",
      "  Claude Code or your user; the rest (the tool call) stays as plain text inside a frame that tells",
      "  the model it is untrusted data. The frame's attributes (who sent it, from which session) were",
      "  stamped by the server, not taken from the text.",
      "",
    ].join("\n"),
  );
  await dana.hook(danaSession, "session-end");
  await lee.hook(leeSession, "session-end");
}

/**
 * `brigade demo` (docs/46-cli.md): two simulated teammates' sessions exchange a question, a reply
 * and a hostile message through a temporary in-process `brigade serve` on a random loopback port,
 * every step through the real team commands, hooks and `brigade send`; prints what each model
 * reads. Everything is made under one temporary folder, removed (and the server stopped) when the
 * demo ends, fails, gets SIGINT/SIGTERM/SIGHUP (then exit 130/143/129) or loses its reader (exit 1). Exit 0
 * when every step worked, 1 when one failed (one line naming it) or no temporary folder can be
 * made, 2 for any argument.
 *
 * @example await runDemo([], processIo()) // 0
 */
export async function runDemo(argv: string[], io: CliIo): Promise<number> {
  if (argv.length === 1 && (argv[0] === "--help" || argv[0] === "-h")) {
    io.stdout(HELP);
    return 0;
  }
  parseCommandFlags("demo", argv, {});
  const started = Date.now();
  let root: string;
  try {
    // Absolute even under a relative TMPDIR: the simulated people's HOMEs live below it.
    root = mkdtempSync(join(resolve(tmpdir()), "brigade-demo-"));
  } catch {
    io.stderr("brigade demo: cannot create a temporary folder (set TMPDIR to a writable folder)\n");
    return 1;
  }
  let server: RunningServer | undefined;
  let cleaned: Promise<void> | undefined;
  const cleanUp = (): Promise<void> => {
    cleaned ??= (async () => {
      try {
        await server?.stop();
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    })();
    return cleaned;
  };
  // SIGHUP too: closing the terminal the demo runs in must not leave the folder behind.
  const onSignal = (signal: NodeJS.Signals): void => {
    void cleanUp().finally(() => process.exit(SIGNAL_EXIT_STATUS.get(signal) ?? 1));
  };
  // A reader that goes away (`brigade demo | head`) must not leave the folder behind either.
  const onOutputClosed = (): void => {
    void cleanUp().finally(() => process.exit(1));
  };
  for (const signal of SIGNAL_EXIT_STATUS.keys()) process.once(signal, onSignal);
  process.stdout.once("error", onOutputClosed);
  try {
    // A TMPDIR inside some git work tree would make the real `team create` refuse the demo's
    // secret file as committable; this folder's own .gitignore keeps everything in it out.
    writeFileSync(join(root, ".gitignore"), "*\n");
    server = await startServer({
      host: "127.0.0.1",
      port: 0,
      dataFile: join(root, "server", "brigade.sqlite"),
      logger: silentLogger,
    });
    io.stdout("Brigade demo\n\n");
    await play(root, server, io.stdout);
    await cleanUp();
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    io.stdout(`Done in ${seconds} s. The server is stopped and its temporary folder removed.\n`);
    return 0;
  } catch (error) {
    if (error instanceof CliUsageError) throw error;
    io.stderr(
      `brigade demo: ${error instanceof DemoStepFailed ? error.message : `internal error (${error instanceof Error ? error.name : "unknown"})`}\n`,
    );
    return 1;
  } finally {
    await cleanUp();
    for (const signal of SIGNAL_EXIT_STATUS.keys()) process.off(signal, onSignal);
    process.stdout.off("error", onOutputClosed);
  }
}
