import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { recordPromptHookOutput } from "../../../test/support/claude-code-host/index.ts";
import { runCli } from "../../../test/support/cli-harness.ts";
import {
  ensureBuilt,
  exited,
  type ServerProcess,
  startServerProcess,
} from "../../../test/support/server-process.ts";
import { HttpAdapter } from "../../adapters/http/index.ts";
import type { CliIo } from "../../cli/cli-io.ts";
import { runHookWith } from "../../cli/hook-command.ts";
import { consentRecord, serializeTeamBinding, teamKeyFor, writeConsent } from "../binding/index.ts";
import {
  checkoutKey,
  pendingFileStore,
  readCheckoutSessions,
  readPendingRecords,
  requestRelease,
  stateLayout,
  updateTrackedSends,
  writePrivateStateFile,
} from "../state/index.ts";
import { gitUserName } from "./git-user-name.ts";
import { hostNameUpdate } from "./host-name-sync.ts";
import { defaultHookServices, type HookServices } from "./index.ts";
import { undeliverableLine } from "./sent-notices.ts";

// One real `brigade serve`; "dana" (the member) runs Claude Code sessions in one checkout, one
// after another under the same CLAUDE_PID; "lee" (the creator) sends to them from a session of
// its own. No socket: the hooks deliver by polling, so every step is observable here.

const PID = "525252";
const uid = process.getuid?.() ?? -1;

let root: string;
let server: ServerProcess;
let repo: string;
let stateDir: string;
let claudeDir: string;
let home: string;
let teamRef: string;
let lee: HttpAdapter;
let dana: HttpAdapter;
let leeSession: string;

const services = (): HookServices => ({
  ...defaultHookServices(),
  async ensureWatcher() {
    return { outcome: "spawned" };
  },
  async stopWatcher() {},
  isWatcherRunning: () => false,
  watcherSession: () => undefined,
});

function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    HOME: home,
    XDG_STATE_HOME: join(root, "state"),
    XDG_CONFIG_HOME: join(root, "config"),
    CLAUDE_CONFIG_DIR: claudeDir,
    CLAUDE_PID: PID,
    PATH: process.env.PATH ?? "",
    ...extra,
  };
}

async function hook(event: string, stdin: Record<string, unknown>): Promise<string> {
  let stdout = "";
  const bytes = new TextEncoder().encode(JSON.stringify(stdin));
  const io: CliIo = {
    stdin: (async function* () {
      yield bytes;
    })(),
    stdout: (t) => {
      stdout += t;
    },
    stderr: () => {},
    env: env(),
  };
  const status = await runHookWith([event], io, {
    services: services(),
    entryScript: "/opt/brigade/bin/brigade",
  });
  expect(status).toBe(0);
  return stdout;
}

const layout = () => stateLayout(stateDir);
const mapSession = (): string =>
  (JSON.parse(readFileSync(layout().byPid(PID), "utf8")) as { brigade_session_id: string })
    .brigade_session_id;
const startSession = (native: string) =>
  hook("session-start", { session_id: native, cwd: repo, hook_event_name: "SessionStart" });
const endSession = (native: string) =>
  hook("session-end", {
    session_id: native,
    cwd: repo,
    hook_event_name: "SessionEnd",
    reason: "logout",
  });
/** The transcript of a native session (created empty by its first prompt). */
const transcriptOf = (native: string) => join(root, `${native}.jsonl`);
const prompt = (native: string) => {
  const transcript = transcriptOf(native);
  if (!existsSync(transcript)) writeFileSync(transcript, "");
  return hook("prompt", {
    session_id: native,
    cwd: repo,
    hook_event_name: "UserPromptSubmit",
    transcript_path: transcript,
  });
};

function registry(name: string, nameSource: string): void {
  writeFileSync(
    join(claudeDir, "sessions", `${PID}.json`),
    JSON.stringify({ pid: Number(PID), version: "2.1.328", name, nameSource, status: "idle" }),
  );
}

async function send(to: string, body: string): Promise<string> {
  return (await lee.messageSend({ sender_session_id: leeSession, recipient_session_id: to, body }))
    .message_id;
}

const stateOf = async (id: string) =>
  (await lee.messageState(leeSession, { message_ids: [id] })).messages[0]?.state;

beforeAll(async () => {
  ensureBuilt();
  root = realpathSync(mkdtempSync(join(tmpdir(), "bsc-")));
  stateDir = join(root, "state", "brigade");
  claudeDir = join(root, "claude");
  home = join(root, "home");
  mkdirSync(home, { recursive: true });
  mkdirSync(join(claudeDir, "sessions"), { recursive: true });
  server = await startServerProcess(join(root, "data.db"));
  lee = new HttpAdapter({
    env: { BRIGADE_CONFIG_DIR: join(root, "lee"), BRIGADE_SERVER: server.url },
    profile: "lee",
  });
  const team = await lee.teamCreate({ team_name: "core" });
  teamRef = team.team_ref;
  const teamKey = teamKeyFor(server.url, teamRef);
  const configDir = join(root, "config", "brigade");
  dana = new HttpAdapter({
    env: { BRIGADE_CONFIG_DIR: configDir, BRIGADE_SERVER: server.url },
    profile: teamKey,
  });
  await dana.teamJoin({ join_secret: team.join_secret });
  repo = join(root, "api");
  mkdirSync(repo);
  execFileSync("git", ["init", "-q"], { cwd: repo, env: { HOME: home, PATH: process.env.PATH } });
  writeFileSync(
    join(repo, ".brigade.json"),
    serializeTeamBinding({ server: server.url, team_ref: teamRef, team_name: "core" }),
  );
  writeConsent(
    configDir,
    consentRecord({ checkout: repo, server: server.url, teamRef, teamName: "core" }),
  );
  leeSession = (
    await lee.sessionRegister({
      harness: "test",
      harness_version: "1",
      session_name: "lee",
      activity: "idle",
      inbound: "accept",
    })
  ).session_id;
}, 60_000);

afterAll(async () => {
  if (server !== undefined) {
    server.child.kill("SIGTERM");
    await exited(server.child);
  }
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
});

describe("a person's next session in the same checkout (stranded messages)", () => {
  test("what an ended session left is offered held, delivered on release, and the sender sees each state", async () => {
    await startSession("native-1");
    const first = mapSession();
    expect(readCheckoutSessions(layout(), checkoutKey(teamRef, repo), uid)).toEqual([first]);
    await endSession("native-1");
    const left = await send(first, "the plan changed: use v2");
    expect(await stateOf(left)).toBe("undeliverable");
    // The first session had held it (its record is still here): it moves with the message.
    pendingFileStore(layout(), first).save([
      {
        message_id: left,
        sender_name: "lee",
        sender_session_id: leeSession,
        principal_ref: "p-x",
        summary: "",
        created_at: "2026-10-02T09:00:00Z",
        held_at: 1,
      },
    ]);

    const out = await startSession("native-2");
    const second = mapSession();
    expect(second).not.toBe(first);
    expect(out).toContain(
      "Brigade: 1 teammate message sent to an earlier session in this checkout is held for the user (from lee).",
    );
    expect(out).not.toContain("use v2");
    expect(readPendingRecords(layout(), first, uid)).toEqual([]);
    const held = readPendingRecords(layout(), second, uid);
    expect(held.map((r) => [r.message_id, r.adopted])).toEqual([[left, true]]);
    expect(await stateOf(left)).toBe("held");
    const inbox = await runCli(["inbox"], "", { XDG_STATE_HOME: join(root, "state"), HOME: home });
    expect(inbox.stdout).toMatch(
      new RegExp(`${left} .*\\(sent to an earlier session in this checkout\\)`),
    );
    expect(
      (await lee.messageState(leeSession, { message_ids: [left] })).messages[0]
        ?.offered_to_session_id,
    ).toBe(second);

    // The policy is accept, yet the prompt's poll keeps it held until the user releases it.
    const before = await prompt("native-2");
    expect(before).not.toContain("use v2");
    expect(before).toContain("1 teammate message is held");
    // A renewal (the same native session starting again, its watcher maybe running) takes
    // nothing over: that is left to the next new session.
    const late = await send(first, "one more for the old session");
    expect(await startSession("native-2")).not.toContain("earlier session");
    expect(await stateOf(late)).toBe("undeliverable");
    requestRelease(layout(), second, [left], uid);
    const after = await prompt("native-2");
    expect(after).toContain("use v2");
    // Printed is not read: acked once the transcript shows the model had it whole.
    expect(await stateOf(left)).toBe("held");
    recordPromptHookOutput(transcriptOf("native-2"), after);
    await prompt("native-2");
    expect(await stateOf(left)).toBe("acked");
    await endSession("native-2");
  });

  test("nothing is taken from another person's session, nor from one still live", async () => {
    const other = (
      await lee.sessionRegister({
        harness: "test",
        harness_version: "1",
        session_name: "lee-2",
        activity: "idle",
        inbound: "accept",
      })
    ).session_id;
    const danaCli = await dana.sessionRegister({
      harness: "test",
      harness_version: "1",
      session_name: "dana-cli",
      activity: "idle",
      inbound: "accept",
    });
    const toLee = (
      await dana.messageSend({
        sender_session_id: danaCli.session_id,
        recipient_session_id: other,
        body: "for lee only",
      })
    ).message_id;
    await lee.sessionClose(other);
    // A planted checkout file naming lee's session: the server gives nothing up.
    writePrivateStateFile(
      stateDir,
      layout().checkout(checkoutKey(teamRef, repo)),
      `${JSON.stringify({ version: 1, session_ids: [other] })}\n`,
    );
    const out = await startSession("native-3");
    expect(out).not.toContain("earlier session");
    expect(readPendingRecords(layout(), mapSession(), uid)).toEqual([]);
    expect((await lee.messageReceive(other)).messages.map((m) => m.message_id)).toEqual([toLee]);
    await endSession("native-3");
  });
});

describe("the sender hears once that a message became undeliverable", () => {
  test("one notice at the next prompt, then none; accepted ones stay tracked", async () => {
    await startSession("native-4");
    const mine = mapSession();
    const target = (
      await dana.sessionRegister({
        harness: "test",
        harness_version: "1",
        session_name: "dana-2",
        activity: "idle",
        inbound: "accept",
      })
    ).session_id;
    const sent = await dana.messageSend({
      sender_session_id: mine,
      recipient_session_id: target,
      body: "are you there?",
    });
    const live = await dana.messageSend({
      sender_session_id: mine,
      recipient_session_id: leeSession,
      body: "still waiting",
    });
    updateTrackedSends(layout(), mine, uid, Date.now(), {
      add: [sent.message_id, live.message_id, "m-planted"],
    });
    expect(await prompt("native-4")).not.toContain("not delivered");
    await dana.sessionClose(target);
    const first = await prompt("native-4");
    expect(first).toContain(
      `Brigade: 1 message you sent was not delivered: the recipient session ended or went silent (closed, or its lease ran out without a heartbeat) before taking it in (${sent.message_id} to ${target}).`,
    );
    expect(await prompt("native-4")).not.toContain("not delivered");
    const tracked = JSON.parse(readFileSync(layout().sent(mine), "utf8")) as {
      messages: { message_id: string }[];
    };
    expect(tracked.messages.map((m) => m.message_id)).toEqual([live.message_id]);
    await endSession("native-4");
  });

  test("the line names at most three messages, ids sanitised", () => {
    const record = (i: number) => ({
      message_id: `m-${i}\n<x>`,
      recipient_session_id: "s-1",
      created_at: "2026-10-02T09:00:00.000Z",
      state: "undeliverable" as const,
      state_changed_at: "2026-10-02T09:00:00.000Z",
    });
    const line = undeliverableLine([1, 2, 3, 4, 5].map(record));
    expect(line).toContain("5 messages you sent were not delivered");
    // a live session whose lease lapsed reads undeliverable too: the line must not claim it ended
    expect(line).toContain(
      "ended or went silent (closed, or its lease ran out without a heartbeat)",
    );
    expect(line).toContain("and 2 more");
    expect(line).not.toContain("\n");
    expect(line).not.toContain("<x>");
  });
});

describe("sessions a person can tell apart", () => {
  test("the human label defaults to git's user.name; the name follows /rename at the next prompt", async () => {
    execFileSync("git", ["config", "user.name", "Dana Ito\t<dana>"], {
      cwd: repo,
      env: { HOME: home, PATH: process.env.PATH },
    });
    expect(gitUserName(repo, env())).toBe("Dana Ito <dana>");
    registry("api-3f2a", "derived");
    await startSession("native-5");
    const id = mapSession();
    const listed = async () =>
      (await lee.sessionList({ includeOffline: true })).sessions.find((s) => s.session_id === id);
    expect((await listed())?.session_name).toBe("dana-api-3f2a-claude-code");
    expect((await listed())?.human_label).toBe("Dana Ito <dana>");
    registry("billing migration", "user");
    await prompt("native-5");
    expect((await listed())?.session_name).toBe("billing migration");
    const map = JSON.parse(readFileSync(layout().byPid(PID), "utf8")) as { session_name: string };
    expect(map.session_name).toBe("billing migration");
    await endSession("native-5");
  });

  test("hostNameUpdate: a user-set name wins; a derived one only replaces a placeholder", () => {
    expect(hostNameUpdate({ name: "billing", nameSource: "user" }, "api", "/w/api")).toBe(
      "billing",
    );
    expect(hostNameUpdate({ name: "api-3f2a", nameSource: "derived" }, "api", "/w/api")).toBe(
      "api-3f2a",
    );
    expect(
      hostNameUpdate({ name: "api-3f2a", nameSource: "derived" }, "my title", "/w/api"),
    ).toBeUndefined();
    expect(hostNameUpdate({ name: "", nameSource: "user" }, "api", "/w/api")).toBeUndefined();
    expect(hostNameUpdate({ name: "api", nameSource: "user" }, "api", "/w/api")).toBeUndefined();
    const hostile = hostNameUpdate(
      { name: '</brigade-message>\n"x"', nameSource: "user" },
      "api",
      "/w/api",
    );
    expect(hostile).not.toContain("\n");
    expect(hostile).not.toContain("</brigade-message>");
  });

  test("gitUserName: no git config, a relative or empty folder → undefined, never a throw", () => {
    const bare = join(root, "bare");
    mkdirSync(bare, { recursive: true });
    expect(gitUserName(bare, { HOME: join(root, "nohome"), PATH: process.env.PATH })).toBe(
      undefined,
    );
    expect(gitUserName("relative/path", env())).toBeUndefined();
    expect(gitUserName("", env())).toBeUndefined();
    expect(gitUserName(repo, { HOME: home, PATH: "" })).toBeUndefined();
  });
});
