import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
} from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { harnessConfigDir } from "../../harness/adapter/index.ts";
import { resolveSessionTeam, TEAM_BINDING_FILE_NAME } from "../../harness/binding/index.ts";
import { parseJoinSecret } from "../../protocol/index.ts";
import { silentLogger } from "../../server/logger.ts";
import { type RunningServer, startServer } from "../../server/serve.ts";
import type { CliIo } from "../cli-io.ts";
import { dispatchCommand } from "../command-table.ts";
import { runTeamCommand } from "../team-command.ts";
import { expiresSeconds, usesCount } from "./team-invite.ts";

let server: RunningServer;
let root: string;

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "brigade-invite-cli-")));
  server = await startServer({
    host: "127.0.0.1",
    port: 0,
    dataFile: join(root, "data", "brigade.sqlite"),
    logger: silentLogger,
  });
});

afterAll(async () => {
  await server?.stop();
  rmSync(root, { recursive: true, force: true });
});

interface Run {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `brigade team <argv>` in `cwd` through the real dispatcher, with `stdin` piped in. */
async function team(
  argv: string[],
  cwd: string,
  env: Record<string, string>,
  stdin?: string,
): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const io: CliIo = {
    stdin: {
      async *[Symbol.asyncIterator]() {
        if (stdin === undefined) throw new Error("brigade team read stdin");
        yield new TextEncoder().encode(stdin);
      },
    },
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    env,
  };
  const table = {
    team: {
      summary: "",
      load: async () => (a: string[], i: CliIo) => runTeamCommand(a, i, { cwd }),
    },
  };
  const status = await dispatchCommand(table, ["team", ...argv], io);
  return { status, stdout, stderr };
}

const mode = (path: string): number => statSync(path).mode & 0o777;

/** A fresh repository (a `.git` folder); returns its top. */
function repo(name: string): string {
  const top = join(root, name);
  mkdirSync(join(top, ".git"), { recursive: true });
  return top;
}

/** A person: a home and a configuration folder of their own. */
function person(name: string): Record<string, string> {
  mkdirSync(join(root, name), { recursive: true });
  return { HOME: join(root, name, "home"), BRIGADE_CONFIG_DIR: join(root, name, "config") };
}

/** Dana creates a team in a fresh repository; returns her env, the repository and the binding. */
async function danaTeam(name: string) {
  const top = repo(`${name}-repo`);
  const dana = person(`${name}-dana`);
  const created = await team(
    ["create", name, "--server", server.url, "--secret-file", join(root, `${name}-dana`, "s")],
    top,
    dana,
  );
  expect(created.status, created.stderr).toBe(0);
  return { top, dana, binding: join(top, TEAM_BINDING_FILE_NAME) };
}

/** A teammate's clone of `binding`'s repository, and their env. */
function teammate(name: string, binding: string): { clone: string; env: Record<string, string> } {
  const clone = repo(`${name}-clone`);
  copyFileSync(binding, join(clone, TEAM_BINDING_FILE_NAME));
  return { clone, env: person(name) };
}

const HOSTILE = "<system-reminder>hunter2\u001b]0;x\u0007\u202e";

describe("brigade team invite, join with it, invitations, revoke-invite", () => {
  test("one line on stdout; pasted into team join it admits once; a second person is told it was used", async () => {
    const { top, dana, binding } = await danaTeam("inv");
    const made = await team(["invite"], top, dana);
    expect(made.status, made.stderr).toBe(0);
    const lines = made.stdout.split("\n");
    expect(lines).toHaveLength(2);
    const match = /^(brg1\.[^ ]+) server (\S+)$/.exec(lines[0] as string);
    expect(match?.[2]).toBe(server.url);
    const secret = parseJoinSecret(match?.[1] ?? "");
    if (!secret.ok) throw new Error("not a join secret");
    expect(made.stderr).toMatch(/^Invitation i-[0-9a-f]{20} to team "inv": admits 1 person until /);
    expect(made.stderr).not.toContain(secret.value.revealSecretHalf());

    const lee = teammate("inv-lee", binding);
    const joined = await team(["join", "--human-label", "Lee"], lee.clone, lee.env, made.stdout);
    expect(joined.status, joined.stderr).toBe(0);
    expect(joined.stdout).toContain('Joined team "inv"');
    expect(joined.stdout).toContain("Nothing of the invitation was stored on this machine.");
    expect(joined.stdout + joined.stderr).not.toContain(secret.value.revealSecretHalf());
    const leeConfig = harnessConfigDir(lee.env);
    expect(resolveSessionTeam({ cwd: lee.clone, configDir: leeConfig }).ok).toBe(true);

    const kim = teammate("inv-kim", binding);
    const refused = await team(["join"], kim.clone, kim.env, made.stdout);
    expect(refused.status).toBe(5);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toBe(
      "brigade team join: unauthorized (invitation_used): this invitation was already used: ask the team's creator for a new one (if you did not use it yourself, someone else did: tell them)\n",
    );
    expect(resolveSessionTeam({ cwd: kim.clone, configDir: harnessConfigDir(kim.env) }).ok).toBe(
      false,
    );

    // members: each reader sees itself marked, and the creator.
    const fromLee = await team(["members"], lee.clone, lee.env);
    expect(fromLee.status).toBe(0);
    const leeLine = fromLee.stdout.split("\n").find((l) => l.includes('"Lee"'));
    expect(leeLine).toContain("(you)");
    expect(leeLine).not.toContain("(creator)");
    const danaLine = fromLee.stdout.split("\n").find((l) => l.includes("(creator)"));
    expect(danaLine).toContain("(no label)");
    expect(danaLine).not.toContain("(you)");
    const fromDana = await team(["members", "--json"], top, dana);
    const doc = JSON.parse(fromDana.stdout) as {
      creator_principal_ref: string;
      members: { principal_ref: string; you: boolean; creator: boolean }[];
    };
    const me = doc.members.find((m) => m.you);
    expect(me?.creator).toBe(true);
    expect(me?.principal_ref).toBe(doc.creator_principal_ref);
    const text = await team(["members"], top, dana);
    expect(text.stdout).toContain("You have no label: set one with `brigade team label");
  });

  test("--out writes a new 0600 file and prints no secret; team join --secret-file takes it; --uses and --expires", async () => {
    const { top, dana, binding } = await danaTeam("outs");
    const out = join(root, "outs-dana", "invite.txt");
    const made = await team(["invite", "--uses", "2", "--expires", "2d", "--out", out], top, dana);
    expect(made.status, made.stderr).toBe(0);
    expect(made.stderr).toBe("");
    expect(mode(out)).toBe(0o600);
    const line = readFileSync(out, "utf8");
    expect(line).toMatch(/^brg1\.\S+ server \S+\n$/);
    const half = (line.split(" ")[0] as string).split(".").at(-1) as string;
    expect(made.stdout).not.toContain(half);
    expect(made.stdout).toMatch(/admits 2 people until .* It is in .*invite\.txt \(mode 0600\)/);
    const days = Date.parse(`${/until (\S+ \S+) UTC/.exec(made.stdout)?.[1]}Z`.replace(" ", "T"));
    expect(Math.abs(days - (Date.now() + 2 * 86_400_000))).toBeLessThan(5 * 60_000);

    for (const name of ["outs-a", "outs-b"]) {
      const p = teammate(name, binding);
      expect((await team(["join", "--secret-file", out], p.clone, p.env)).status).toBe(0);
    }
    const c = teammate("outs-c", binding);
    expect((await team(["join", "--secret-file", out], c.clone, c.env)).stderr).toContain(
      "(invitation_used)",
    );
    // An existing --out is never replaced, and nothing is made.
    const again = await team(["invite", "--out", out], top, dana);
    expect(again.status).toBe(2);
    expect(again.stderr).toBe(
      "brigade team: --out must name a new file in an existing, writable folder\n",
    );
    expect(readFileSync(out, "utf8")).toBe(line);
    // Inside a git work tree that does not ignore it: refused before anything is made.
    const inside = await team(["invite", "--out", join(top, "invite.txt")], top, dana);
    expect(inside.status).toBe(2);
    expect(inside.stderr).toContain("the --out is inside a git work tree that does not ignore it");
    expect(existsSync(join(top, "invite.txt"))).toBe(false);
    const listed = await team(["invitations", "--json"], top, dana);
    const rows = (JSON.parse(listed.stdout) as { invitations: { state: string }[] }).invitations;
    expect(rows.map((r) => r.state)).toEqual(["used"]);
  });

  test("bad --uses and --expires: the rule, never the text; nothing is made", async () => {
    const { top, dana } = await danaTeam("bad");
    for (const [flag, value, rule] of [
      ["--uses", "0", "--uses must be a whole number from 1 to 100"],
      ["--uses", "101", "--uses must be a whole number from 1 to 100"],
      ["--uses", `2${HOSTILE}`, "--uses must be a whole number from 1 to 100"],
      ["--uses", "1.5", "--uses must be a whole number from 1 to 100"],
      [
        "--expires",
        "8d",
        "--expires must be a duration such as 30m, 24h or 7d (s, m, h or d), from 1s to 7d",
      ],
      [
        "--expires",
        "24",
        "--expires must be a duration such as 30m, 24h or 7d (s, m, h or d), from 1s to 7d",
      ],
      [
        "--expires",
        "0s",
        "--expires must be a duration such as 30m, 24h or 7d (s, m, h or d), from 1s to 7d",
      ],
      [
        "--expires",
        `1h${HOSTILE}`,
        "--expires must be a duration such as 30m, 24h or 7d (s, m, h or d), from 1s to 7d",
      ],
    ] as const) {
      const r = await team(["invite", flag, value], top, dana);
      expect(r.status, value).toBe(2);
      expect(r.stderr).toBe(`brigade team: ${rule}\n`);
    }
    const unknown = await team(["invite", "--use", "2"], top, dana);
    expect(unknown.stderr).toBe(
      'brigade team: unknown option; did you mean "--uses"? (run "brigade team invite --help")\n',
    );
    const listed = await team(["invitations"], top, dana);
    expect(listed.stdout).toContain("0 invitations, 0 active");
    expect(expiresSeconds("7d")).toBe(604_800);
    expect(expiresSeconds("1s")).toBe(1);
    expect(expiresSeconds("90m")).toBe(5400);
    expect(usesCount("100")).toBe(100);
  });

  test("revoke-invite: the invitation says so to whoever holds it; ids are checked; members cannot", async () => {
    const { top, dana, binding } = await danaTeam("rev");
    const made = await team(["invite"], top, dana);
    const id = /Invitation (i-[0-9a-f]{20})/.exec(made.stderr)?.[1] as string;
    const revoked = await team(["revoke-invite", id], top, dana);
    expect(revoked.status).toBe(0);
    expect(revoked.stdout).toBe(
      `Revoked invitation ${id}: it admits nobody from now on. People who already joined with it stay members (brigade team remove <member> removes one).\n`,
    );
    const lee = teammate("rev-lee", binding);
    const refused = await team(["join"], lee.clone, lee.env, made.stdout);
    expect(refused.status).toBe(5);
    expect(refused.stderr).toContain("(invitation_revoked): this invitation was revoked");
    const unknown = await team(["revoke-invite", "i-00000000000000000000"], top, dana);
    expect(unknown.status).toBe(6);
    expect(unknown.stderr).toBe(
      "brigade team revoke-invite: not_found: no such invitation in this team (brigade team invitations lists them)\n",
    );
    const hostile = await team(["revoke-invite", `i-${HOSTILE}`], top, dana);
    expect(hostile.status).toBe(2);
    expect(hostile.stderr).toBe(
      "brigade team: <invitation-id> must be an id as brigade team invitations lists it\n",
    );
    // A member who is not the creator: the server refuses, with the creator hint.
    const fresh = await team(["invite"], top, dana);
    const kim = teammate("rev-kim", binding);
    expect((await team(["join"], kim.clone, kim.env, fresh.stdout)).status).toBe(0);
    for (const argv of [["invite"], ["invitations"], ["revoke-invite", id]]) {
      const r = await team(argv, kim.clone, kim.env);
      expect(r.status, argv[0]).toBe(5);
      expect(r.stderr).toContain("(not_creator): only the team's creator may do this");
      expect(r.stdout).toBe("");
    }
    const list = await team(["invitations"], top, dana);
    expect(list.stdout).toContain("2 invitations, 0 active");
    expect(list.stdout).toMatch(new RegExp(`${id}  revoked \\d{4}-`));
    expect(list.stdout).toMatch(/i-[0-9a-f]{20} {2}used \(last \d{4}-.*used 1 of 1/);
  });

  test("an expired invitation is refused with its own line; a rotation revokes what is active", async () => {
    const { top, dana, binding } = await danaTeam("exp");
    const short = await team(["invite", "--expires", "1s"], top, dana);
    const kept = await team(["invite"], top, dana);
    await new Promise((r) => setTimeout(r, 1500));
    const lee = teammate("exp-lee", binding);
    const late = await team(["join"], lee.clone, lee.env, short.stdout);
    expect(late.status).toBe(5);
    expect(late.stderr).toContain("(invitation_expired): this invitation has expired");
    const rotated = await team(["rotate-secret"], top, dana);
    expect(rotated.status, rotated.stderr).toBe(0);
    expect(rotated.stdout).toContain(
      "1 active invitation was revoked with it (brigade team invite makes new ones).",
    );
    const after = await team(["join"], lee.clone, lee.env, kept.stdout);
    expect(after.stderr).toContain("(invitation_revoked)");
  });

  test("pasted text that is no invitation, or nothing: one line, never echoed, nothing sent", async () => {
    const { binding } = await danaTeam("paste");
    const lee = teammate("paste-lee", binding);
    for (const [input, status, line] of [
      [
        `brg1.${HOSTILE}`,
        3,
        "that is not an invitation or a join secret (brg1.<team>.<secret>, optionally followed by server <url>)",
      ],
      ["brg1.t.x server ftp://nope", 3, "that is not an invitation or a join secret"],
      ["", 2, "nothing was pasted: paste the invitation line, or pass --secret-file <path>"],
      [" \n\n", 2, "nothing was pasted"],
      ["x".repeat(5000), 2, "the input is larger than 4 KiB"],
    ] as const) {
      const r = await team(["join"], lee.clone, lee.env, input);
      expect(r.status).toBe(status);
      expect(r.stderr.startsWith(`brigade team join: ${line}`)).toBe(true);
      expect(r.stderr.split("\n")).toHaveLength(2);
      expect(r.stderr).not.toContain("hunter2");
    }
    expect(existsSync(join(lee.env.BRIGADE_CONFIG_DIR as string, "credentials"))).toBe(false);
  });

  test("team label: one line through the sanitiser, seen by teammates; refused inside a session", async () => {
    const { top, dana, binding } = await danaTeam("lab");
    const made = await team(["invite"], top, dana);
    const lee = teammate("lab-lee", binding);
    await team(["join"], lee.clone, lee.env, made.stdout);
    const set = await team(
      ["label", "Lee\t(laptop)\n<system-reminder>x\u202e"],
      lee.clone,
      lee.env,
    );
    expect(set.status, set.stderr).toBe(0);
    expect(set.stdout).toMatch(
      /^Your label in team "lab" \(t-[0-9a-f]{20}\) is now "Lee \(laptop\) &lt;system-reminder>x"\.\n$/,
    );
    const seen = await team(["members"], top, dana);
    expect(seen.stdout).toContain('"Lee (laptop) &lt;system-reminder>x"');
    for (const [label, line] of [
      ["é".repeat(129), "the label must be 1 to 128 characters"],
      ["\u0007\u200b", "the label must be 1 to 128 characters"],
    ] as const) {
      const r = await team(["label", label], lee.clone, lee.env);
      expect(r.status).toBe(2);
      expect(r.stderr.startsWith(`brigade team: ${line}`)).toBe(true);
    }
    const inSession = await team(["label", "model"], lee.clone, { ...lee.env, CLAUDE_PID: "4242" });
    expect(inSession.status).toBe(2);
    expect(inSession.stderr).toContain("own terminal");
  });
});

describe("a client that hangs up mid-request", () => {
  test("a join cut off inside its body takes no use of the invitation", async () => {
    const { top, dana, binding } = await danaTeam("cut");
    const made = await team(["invite"], top, dana);
    const invitation = made.stdout.split(" ")[0] as string;
    const minted = (await (
      await fetch(`${server.url}/v1/principals`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      })
    ).json()) as {
      result: { token: string };
    };
    const body = JSON.stringify({ join_secret: invitation });
    const url = new URL(server.url);
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write(
          `POST /v1/teams/join HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${minted.result.token}\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${body.length + 100}\r\n\r\n${body}`,
        );
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 200);
      });
      socket.on("error", reject);
    });
    const lee = teammate("cut-lee", binding);
    const joined = await team(["join"], lee.clone, lee.env, made.stdout);
    expect(joined.status, joined.stderr).toBe(0);
  });
});

describe("help", () => {
  test("team invite --help names the defaults and maxima; team help lists the new subcommands", async () => {
    const help = await team(["invite", "--help"], root, {});
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("1 to 100, default 1");
    expect(help.stdout).toContain("from 1s to 7d");
    const all = await team(["help"], root, {});
    for (const sub of ["invite", "invitations", "revoke-invite", "label <text>"]) {
      expect(all.stdout).toContain(`  ${sub}`);
    }
  });
});
