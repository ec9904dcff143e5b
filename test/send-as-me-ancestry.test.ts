// `brigade send --as-me` as a real process, in a real pseudo-terminal, with none of any client's
// markers in its environment: beneath a process that looks like a coding-agent client it is
// refused (as_me_under_agent) and sends nothing; beneath any other program the same command is
// sent. Only the process ancestry tells the two runs apart (docs/43-session-cli.md, "Telling the
// person's terminal apart").
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { HttpAdapter } from "../src/adapters/http/index.ts";
import { consentRecord, serializeTeamBinding, writeConsent } from "../src/harness/binding/index.ts";
import { shellWord } from "../src/harness/host-session/index.ts";
import { BUILT_CLI, type ServerProcess } from "./support/server-process.ts";
import { sessionRegistration } from "./support/session-registration.ts";
import { startTeamServer, stopServerProcess } from "./support/team-server.ts";

let server: ServerProcess;
let root: string;
let home: string;
let checkout: string;
let bin: string;
let dana: HttpAdapter;
let lee: HttpAdapter;
let alpha: string;

beforeAll(async () => {
  if (!existsSync(BUILT_CLI)) throw new Error("dist/cli/main.js is missing: run npm run build");
  root = mkdtempSync(join(tmpdir(), "brigade-as-me-tree-"));
  home = join(root, "lee");
  const config = join(home, ".config", "brigade");
  ({
    server,
    creator: dana,
    member: lee,
  } = await startTeamServer({
    dataFile: join(root, "data", "brigade.sqlite"),
    creator: { configDir: join(root, "dana", "config"), humanLabel: "dana" },
    member: { configDir: config, humanLabel: "lee" },
  }));
  const teamRef = (await lee.teamMembers()).team_ref;
  checkout = join(home, "src", "api");
  mkdirSync(join(checkout, ".git"), { recursive: true });
  writeFileSync(
    join(checkout, ".brigade.json"),
    serializeTeamBinding({ server: server.url, team_ref: teamRef, team_name: "core" }),
  );
  writeConsent(config, consentRecord({ checkout, server: server.url, teamRef, teamName: "core" }));
  alpha = (
    await dana.sessionRegister(
      sessionRegistration("alpha", {
        harness: "claude-code",
        harness_version: "2.1.336",
        activity: "idle",
      }),
    )
  ).session_id;
  // Two stand-ins that run their arguments as a child and wait: a shebang script's process is
  // named by the script (comm), as a client's is by its executable.
  bin = join(root, "bin");
  mkdirSync(bin);
  for (const name of ["claude", "notes"]) {
    writeFileSync(join(bin, name), '#!/bin/sh\n"$@"\n');
    chmodSync(join(bin, name), 0o755);
  }
});

afterAll(async () => {
  await stopServerProcess(server);
  rmSync(root, { recursive: true, force: true });
});

/** `<bin>/<parent> node dist/cli/main.js send --as-me alpha <text>` in a pseudo-terminal (`script`). */
function sendBeneath(parent: string, text: string) {
  const command = [join(bin, parent), process.execPath, BUILT_CLI, "send", "--as-me", alpha, text]
    .map(shellWord)
    .join(" ");
  const probe = "[ -t 0 ] && [ -t 1 ] && echo both-ttys; ";
  return spawnSync("script", ["-qec", `${probe}${command}`, "/dev/null"], {
    cwd: checkout,
    // Nothing of the test runner's own environment: no client's marker can come along.
    env: {
      HOME: home,
      XDG_STATE_HOME: join(home, "state"),
      PATH: "/usr/bin:/bin",
      SHELL: "/bin/sh",
    },
    input: "",
    encoding: "utf8",
    timeout: 30_000,
  });
}

describe("brigade send --as-me beneath a coding agent's process", () => {
  test("beneath `claude`, with a terminal on stdin and stdout and no marker: refused, nothing sent; beneath another program: sent", async () => {
    const before = (await lee.messagePersonSent({ limit: 200 })).messages.length;
    const refused = sendBeneath("claude", "from beneath claude");
    expect(refused.stdout).toContain("both-ttys");
    expect(refused.status, refused.stdout).toBe(2);
    expect(refused.stdout).toContain(
      "brigade send: usage: as_me_under_agent: --as-me writes as you, the person, so it never runs beneath a coding agent's process",
    );
    expect((await lee.messagePersonSent({ limit: 200 })).messages.length).toBe(before);

    const sent = sendBeneath("notes", "from the person's terminal");
    expect(sent.stdout).toContain("both-ttys");
    expect(sent.status, sent.stdout).toBe(0);
    expect(sent.stdout).toMatch(/Sent message m-[0-9a-f]+ as you, a person, to alpha/);
    const after = (await lee.messagePersonSent({ limit: 200 })).messages;
    expect(after.length).toBe(before + 1);
    const bodies = (await dana.messageReceive(alpha, { limit: 50 })).messages.map((m) => m.body);
    expect(bodies).toEqual(["from the person's terminal"]);
  });
});
