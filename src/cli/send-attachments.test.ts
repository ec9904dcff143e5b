import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sampleByPidMap } from "../../test/support/by-pid-map.ts";
import { runCli } from "../../test/support/cli-harness.ts";
import type { ServerProcess } from "../../test/support/server-process.ts";
import { sessionRegistration } from "../../test/support/session-registration.ts";
import { startTeamServer, stopServerProcess } from "../../test/support/team-server.ts";
import type { HttpAdapter } from "../adapters/http/index.ts";
import { type ByPidMap, stateLayout, writeByPidMap } from "../harness/state/index.ts";

// One real `brigade serve` and two principals; A's session (a by-pid map whose checkout is a git
// repository) sends with --attach through the real command table, B reads what arrived.

const PID = "4343";
const TEAM_KEY_A = "team-aaaaaaaaaaaaaaaa";

let server: ServerProcess;
let root: string;
let project: string;
let configA: string;
let adapterA: HttpAdapter;
let adapterB: HttpAdapter;
let alpha: string;
let bravo: string;
let teamRef: string;

function env(): Record<string, string> {
  return {
    CLAUDE_PID: PID,
    XDG_STATE_HOME: join(root, "xdg-state"),
    HOME: root,
    PATH: process.env.PATH ?? "/usr/bin:/bin",
  };
}

function writeMap(withCheckout = true): void {
  const map: ByPidMap = sampleByPidMap({
    claude_pid: Number(PID),
    brigade_session_id: alpha,
    team_ref: teamRef,
    session_name: "alpha",
    socket_path: "",
    team_key: TEAM_KEY_A,
    config_dir: configA,
    ...(withCheckout ? { checkout: project } : {}),
  });
  writeByPidMap(stateLayout(join(root, "xdg-state", "brigade")), map);
}

const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

async function inboxOfBravo() {
  return (await adapterB.messageReceive(bravo, { limit: 100 })).messages;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "brigade-send-attach-"));
  configA = join(root, "a", "config");
  project = join(root, "project");
  mkdirSync(join(project, "logs"), { recursive: true });
  execFileSync("git", ["init", "-q", project]);
  writeFileSync(join(project, ".gitignore"), "*.secret\n");
  ({
    server,
    teamRef,
    creator: adapterA,
    member: adapterB,
  } = await startTeamServer({
    dataFile: join(root, "data", "brigade.sqlite"),
    creator: { configDir: configA, profile: TEAM_KEY_A },
    member: { configDir: join(root, "b", "config"), profile: "team-bbbbbbbbbbbbbbbb" },
  }));
  alpha = (await adapterA.sessionRegister(sessionRegistration("alpha"))).session_id;
  bravo = (await adapterB.sessionRegister(sessionRegistration("bravo"))).session_id;
  writeMap();
});

afterAll(async () => {
  await stopServerProcess(server);
  rmSync(root, { recursive: true, force: true });
});

describe("brigade send --attach", () => {
  test("files of the project arrive with the message, verified, and their bytes download whole", async () => {
    const log = Buffer.from("error: the build failed\n".repeat(20_000));
    const binary = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 37) % 256));
    writeFileSync(join(project, "logs", "build.log"), log);
    writeFileSync(join(project, "shot.png"), binary);
    const run = await runCli(
      [
        "send",
        bravo,
        "--attach",
        join(project, "logs", "build.log"),
        "--attach",
        join(project, "shot.png"),
        "--wait=0",
      ],
      "see the two files\n",
      env(),
    );
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(
      `Attached: build.log (${log.length} bytes), shot.png (${binary.length} bytes).`,
    );
    const [message] = (await inboxOfBravo()).filter((m) => m.body === "see the two files");
    expect(message?.attachments).toEqual([
      { sha256: sha(log), size: log.length, name: "build.log" },
      { sha256: sha(binary), size: binary.length, name: "shot.png" },
    ]);
    const download = await adapterB.messageDownload(sha(binary));
    const chunks: Buffer[] = [];
    for await (const chunk of download.body) chunks.push(Buffer.from(chunk));
    expect(Buffer.concat(chunks).equals(binary)).toBe(true);
  });

  test("a refused file sends nothing and prints one line naming the rule and the person's setting", async () => {
    const ssh = join(root, ".ssh");
    mkdirSync(ssh, { recursive: true });
    writeFileSync(join(ssh, "id_ed25519"), "-----BEGIN OPENSSH PRIVATE KEY-----\n");
    writeFileSync(join(project, ".env"), "API_KEY=x\n");
    writeFileSync(join(project, "token.secret"), "ignored\n");
    const token = JSON.parse(
      readFileSync(join(configA, "credentials", `${TEAM_KEY_A}.json`), "utf8"),
    ).token as string;
    writeFileSync(join(project, "copy.txt"), `here it is: ${token}\n`);
    const before = (await inboxOfBravo()).length;
    const settings = / in ~\/a\/config\/attachments\.json$/;
    const cases: [string, RegExp][] = [
      [join(ssh, "id_ed25519"), /is outside this session's project folder.*"extra_folders"/],
      [join(project, ".env"), /has a name credentials are kept under.*"allow_names"/],
      [join(project, "token.secret"), /is ignored by git.*"allow_git_ignored": true/],
      [
        join(project, "copy.txt"),
        /holds a Brigade join secret or credential.*can never be attached/,
      ],
      [join(configA, "credentials", `${TEAM_KEY_A}.json`), /Brigade's own configuration/],
    ];
    for (const [index, [path, line]] of cases.entries()) {
      const run = await runCli(
        ["send", bravo, "--attach", join(project, "shot.png"), "--attach", path, "--wait=0"],
        "should not arrive\n",
        env(),
      );
      expect(run.status, path).toBe(3);
      expect(run.stdout).toBe("");
      expect(run.stderr).toMatch(/^brigade send: invalid_input: attachment 2 /);
      expect(run.stderr).toMatch(line);
      expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
      expect(run.stderr).not.toContain(root);
      // The rules a person may widen name the settings file; Brigade's own secrets name none.
      if (index < 3) expect(run.stderr.trimEnd()).toMatch(settings);
      else expect(run.stderr).not.toContain("attachments.json");
    }
    expect((await inboxOfBravo()).length).toBe(before);
  });

  test("the person's settings widen a rule, never for Brigade's own secrets", async () => {
    const settings = join(configA, "attachments.json");
    writeFileSync(settings, JSON.stringify({ allow_git_ignored: true, allow_names: [".env"] }), {
      mode: 0o600,
    });
    try {
      const ok = await runCli(
        ["send", bravo, "--attach", join(project, "token.secret"), "--wait=0"],
        "an ignored file, allowed\n",
        env(),
      );
      expect(ok.status).toBe(0);
      const refused = await runCli(
        ["send", bravo, "--attach", join(project, "copy.txt"), "--wait=0"],
        "a token, never\n",
        env(),
      );
      expect(refused.status).toBe(3);
    } finally {
      rmSync(settings);
    }
  });

  test("a session that recorded no project folder attaches nothing by default", async () => {
    writeMap(false);
    try {
      const run = await runCli(
        ["send", bravo, "--attach", join(project, "shot.png"), "--wait=0"],
        "no project\n",
        env(),
      );
      expect(run.status).toBe(3);
      expect(run.stderr).toContain("recorded no project folder");
    } finally {
      writeMap();
    }
  });
});
