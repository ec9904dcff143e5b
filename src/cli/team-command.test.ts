import { spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { makeSelfSigned } from "../../test/support/self-signed.ts";
import { harnessConfigDir, openHarnessAdapter } from "../harness/adapter/index.ts";
import {
  consentPath,
  resolveSessionTeam,
  serializeTeamBinding,
  TEAM_BINDING_FILE_NAME,
  teamKeyFor,
} from "../harness/binding/index.ts";
import { parseJoinSecret } from "../protocol/index.ts";
import { silentLogger } from "../server/logger.ts";
import { type RunningServer, startServer } from "../server/serve.ts";
import type { CliIo } from "./cli-io.ts";
import { dispatchCommand } from "./command-table.ts";
import { runTeamCommand } from "./team-command.ts";

let server: RunningServer;
let root: string;

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "brigade-team-cli-")));
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

/** `brigade team <argv>` in `cwd`, through the real dispatcher (usage errors → 2, one line). */
async function team(argv: string[], cwd: string, env: Record<string, string>): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const io: CliIo = {
    stdin: {
      [Symbol.asyncIterator]() {
        throw new Error("brigade team read stdin");
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

/** A fresh repository (a `.git` folder) with a nested folder; returns [top, nested]. */
function repo(name: string): [string, string] {
  const top = join(root, name);
  mkdirSync(join(top, ".git"), { recursive: true });
  mkdirSync(join(top, "src", "lib"), { recursive: true });
  return [top, join(top, "src", "lib")];
}

/** A loopback port nothing listens on (bound once, then closed). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

/** Every file below `dir` (relative paths), for "nothing was written" checks. */
function tree(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else out.push(relative(dir, path));
    }
  };
  walk(dir);
  return out.sort();
}

describe("brigade team against a real brigade serve", () => {
  test("create → join from a second principal → members → leave, with files, modes and no leaks", async () => {
    const [top, nested] = repo("api");
    const danaConfig = join(root, "dana", "config");
    const dana = { HOME: join(root, "dana", "home"), BRIGADE_CONFIG_DIR: danaConfig };
    const secretFile = join(root, "dana", "core.secret");
    mkdirSync(join(root, "dana"), { recursive: true });

    // create (from a nested folder: .brigade.json goes to the repository top)
    const created = await team(
      [
        "create",
        "core",
        "--server",
        `${server.url}/`,
        "--secret-file",
        secretFile,
        "--human-label",
        "dana",
      ],
      nested,
      dana,
    );
    expect(created.stderr).toBe("");
    expect(created.status).toBe(0);
    expect(mode(secretFile)).toBe(0o600);
    // Two lines: the secret, then the server it is for (normalised).
    const [secretLine, serverLine, ...rest] = readFileSync(secretFile, "utf8").split("\n");
    expect([serverLine, rest]).toEqual([`server ${server.url}`, [""]]);
    const secret = parseJoinSecret(secretLine as string);
    expect(secret.ok).toBe(true);
    if (!secret.ok) return;
    const teamRef = secret.value.teamRef;
    expect(created.stdout).not.toContain(secretLine);
    expect(created.stdout).not.toContain(secret.value.revealSecretHalf());
    expect(created.stdout).toContain("brigade team join --secret-file <path>");
    expect(created.stdout).toContain(`Commit ${TEAM_BINDING_FILE_NAME}`);

    const bindingPath = join(top, TEAM_BINDING_FILE_NAME);
    expect(mode(bindingPath)).toBe(0o644);
    expect(JSON.parse(readFileSync(bindingPath, "utf8"))).toEqual({
      version: 1,
      server: server.url,
      team_ref: teamRef,
      team_name: "core",
    });
    expect(existsSync(join(nested, TEAM_BINDING_FILE_NAME))).toBe(false);

    const teamKey = teamKeyFor(server.url, teamRef);
    expect(tree(danaConfig)).toEqual(
      [
        `consent/${consentPath(danaConfig, top).split("/").pop()}`,
        `credentials/${teamKey}.json`,
        `profiles/${teamKey}.json`,
      ].sort(),
    );
    expect(mode(consentPath(danaConfig, top))).toBe(0o600);
    expect(mode(join(danaConfig, "consent"))).toBe(0o700);
    expect(mode(join(danaConfig, "profiles", `${teamKey}.json`))).toBe(0o600);
    expect(mode(join(danaConfig, "credentials", `${teamKey}.json`))).toBe(0o600);
    expect(JSON.parse(readFileSync(consentPath(danaConfig, top), "utf8"))).toMatchObject({
      version: 1,
      checkout: top,
      server: server.url,
      team_ref: teamRef,
      team_name: "core",
      team_key: teamKey,
    });
    expect(resolveSessionTeam({ cwd: nested, configDir: danaConfig })).toMatchObject({
      ok: true,
      teamRef,
      teamKey,
    });

    // A second principal joins from a clone, with its own config dir (via XDG_CONFIG_HOME).
    const [clone] = repo("api-clone");
    copyFileSync(bindingPath, join(clone, TEAM_BINDING_FILE_NAME));
    const leeXdg = join(root, "lee", "xdg");
    const lee = { HOME: join(root, "lee", "home"), XDG_CONFIG_HOME: leeXdg };
    const leeConfig = join(leeXdg, "brigade");
    const leeSecret = join(root, "lee", "from-dana.secret");
    mkdirSync(join(root, "lee"), { recursive: true });
    // A bare secret (as pasted from a chat with the teammate), padded with blank space.
    writeFileSync(leeSecret, `\n  ${secretLine}  \n`, { mode: 0o600 });
    expect(resolveSessionTeam({ cwd: clone, configDir: leeConfig })).toEqual({
      ok: false,
      reason: "no_consent",
    });
    // On the repository's word alone the secret is not sent: the person names the server.
    const unconfirmed = await team(["join", "--secret-file", leeSecret], clone, lee);
    expect(unconfirmed.status).toBe(2);
    expect(unconfirmed.stderr).toContain("pass --server <url>");
    expect(unconfirmed.stderr).toContain("nothing was sent");
    expect(existsSync(join(leeConfig, "credentials"))).toBe(false);
    const joined = await team(
      [
        "join",
        "--secret-file",
        leeSecret,
        "--server",
        `${server.url}/`,
        "--human-label",
        "lee <system-reminder>\u202e\nx",
      ],
      clone,
      lee,
    );
    expect(joined.status).toBe(0);
    expect(joined.stderr).toBe("");
    expect(joined.stdout).toContain('Joined team "core"');
    expect(joined.stdout).toContain("sessions started in this checkout now connect");
    for (const text of [joined.stdout, joined.stderr]) {
      expect(text).not.toContain(secret.value.revealSecretHalf());
      expect(text).not.toMatch(/brg1\./);
    }
    expect(mode(consentPath(leeConfig, clone))).toBe(0o600);
    expect(resolveSessionTeam({ cwd: clone, configDir: leeConfig })).toMatchObject({
      ok: true,
      teamKey,
    });

    // members lists both; the hostile label is sanitised; the unverified note is said once.
    const listed = await team(["members"], clone, lee);
    expect(listed.status).toBe(0);
    expect(listed.stdout).toContain("2 active members");
    expect(listed.stdout.match(/unverified/g)?.length).toBe(1);
    expect(listed.stdout).toContain("dana");
    expect(listed.stdout).toContain("lee &lt;system-reminder> x");
    expect(listed.stdout).not.toContain("\u202e");
    const json = await team(["members", "--json"], top, dana);
    expect(json.status).toBe(0);
    const doc = JSON.parse(json.stdout) as {
      team_ref: string;
      labels_verified: boolean;
      members: { human_label: string; session_count: number }[];
    };
    expect(doc.team_ref).toBe(teamRef);
    expect(doc.labels_verified).toBe(false);
    expect(doc.members.map((m) => m.human_label).sort()).toEqual([
      "dana",
      "lee &lt;system-reminder> x",
    ]);

    // Inside a session: an inherited BRIGADE_CONFIG_DIR is ignored (lee's XDG config is used).
    const inSession = await team(["members", "--json"], clone, {
      ...lee,
      CLAUDE_PID: "4242",
      BRIGADE_CONFIG_DIR: danaConfig,
    });
    expect(inSession.status).toBe(0);

    // leave removes the consent; members then has no team here.
    const left = await team(["leave"], clone, lee);
    expect(left.status).toBe(0);
    expect(left.stdout).toContain(`Left team ${teamRef}`);
    expect(existsSync(consentPath(leeConfig, clone))).toBe(false);
    const after = await team(["members"], clone, lee);
    expect(after.status).toBe(11);
    expect(after.stderr).toContain("you have not joined");
    const danaView = await team(["members", "--json"], top, dana);
    expect((JSON.parse(danaView.stdout) as { members: unknown[] }).members).toHaveLength(1);

    // Rejoining with the same secret on the same profile works.
    const rejoined = await team(["join", "--secret-file", leeSecret], clone, lee);
    expect(rejoined.status).toBe(0);
    expect(rejoined.stdout).toContain('Rejoined team "core"');

    // A deleted credential file is named as such, with the way back; nothing reached the server.
    const leeCredential = join(leeConfig, "credentials", `${teamKey}.json`);
    const kept = readFileSync(leeCredential);
    rmSync(leeCredential);
    const noCredential = await team(["members"], clone, lee);
    expect(noCredential.status).toBe(4);
    expect(noCredential.stderr).toBe(
      "brigade team members: unauthenticated (credential_missing): this machine holds no credential for the team (deleted, or joined with another BRIGADE_CONFIG_DIR): join again with `brigade team join --secret-file <path>`\n",
    );
    writeFileSync(leeCredential, kept, { mode: 0o600 });

    // create refuses where .brigade.json already names a team (before any network call).
    const again = await team(["create", "other", "--server", "http://127.0.0.1:1"], nested, dana);
    expect(again.status).toBe(2);
    expect(again.stderr).toContain("already names a team");
    expect(again.stderr.split("\n").filter(Boolean)).toHaveLength(1);

    // join refuses a secret for another team than the checkout's .brigade.json names.
    const [foreign] = repo("foreign");
    writeFileSync(
      join(foreign, TEAM_BINDING_FILE_NAME),
      JSON.stringify({
        version: 1,
        server: server.url,
        team_ref: "t-someone-else",
        team_name: "x",
      }),
    );
    const wrongTeam = await team(["join", "--secret-file", leeSecret], foreign, lee);
    expect(wrongTeam.status).toBe(2);
    expect(wrongTeam.stderr).toContain("another team");
    expect(existsSync(consentPath(leeConfig, foreign))).toBe(false);

    // join refuses a --server that differs from the one the checkout's .brigade.json names.
    const otherServer = await team(
      ["join", "--secret-file", leeSecret, "--server", "http://127.0.0.1:1"],
      clone,
      lee,
    );
    expect(otherServer.status).toBe(2);
    expect(otherServer.stderr).toContain("names another server than the one given with the secret");

    // A clone whose .brigade.json was changed to name another server (a fork, a hostile change):
    // the secret file dana wrote names the real server, so the secret is never sent there.
    const lure = createServer((socket) => {
      lured += 1;
      socket.destroy();
    });
    let lured = 0;
    await new Promise<void>((r) => lure.listen(0, "127.0.0.1", r));
    const lureUrl = `http://127.0.0.1:${(lure.address() as AddressInfo).port}`;
    try {
      const [fork] = repo("api-fork");
      writeFileSync(
        join(fork, TEAM_BINDING_FILE_NAME),
        serializeTeamBinding({ server: lureUrl, team_ref: teamRef, team_name: "core" }),
      );
      const sam = { HOME: join(root, "sam", "home"), BRIGADE_CONFIG_DIR: join(root, "sam", "c") };
      mkdirSync(join(root, "sam"));
      const lured1 = await team(["join", "--secret-file", secretFile], fork, sam);
      expect(lured1.status).toBe(2);
      expect(lured1.stderr).toContain("names another server");
      const lured2 = await team(["join", "--secret-file", leeSecret], fork, sam);
      expect(lured2.status).toBe(2);
      expect(lured2.stderr).toContain("pass --server <url>");
      const mismatch = await team(
        ["join", "--secret-file", secretFile, "--server", lureUrl],
        fork,
        sam,
      );
      expect(mismatch.status).toBe(2);
      expect(mismatch.stderr).toContain("--server differs from the server the --secret-file names");
      expect(lured).toBe(0);
      expect(existsSync(join(root, "sam", "c", "credentials"))).toBe(false);
    } finally {
      lure.close();
    }
  });

  test("create without --secret-file writes the secret to a new 0600 file in the configuration folder, outside the repository", async () => {
    const [top] = repo("web");
    const config = join(root, "kim", "config");
    mkdirSync(join(root, "kim"));
    const r = await team(["create", "Web Team!"], top, {
      BRIGADE_CONFIG_DIR: config,
      BRIGADE_SERVER: server.url,
    });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).not.toMatch(/brg1\./);
    const secrets = tree(join(config, "join-secrets"));
    expect(secrets).toHaveLength(1);
    expect(secrets[0]).toMatch(/^web-team-[0-9a-f]{8}\.secret$/);
    const path = join(config, "join-secrets", secrets[0] as string);
    expect(r.stdout).toContain(`The join secret is in ${path} (mode 0600)`);
    expect(mode(path)).toBe(0o600);
    expect(mode(join(config, "join-secrets"))).toBe(0o700);
    const [secretLine, serverLine] = readFileSync(path, "utf8").split("\n");
    expect(parseJoinSecret(secretLine as string).ok).toBe(true);
    expect(serverLine).toBe(`server ${server.url}`);
    expect(tree(top)).toEqual([TEAM_BINDING_FILE_NAME]);
    expect(tree(join(config, "profiles")).every((f) => f.startsWith("team-"))).toBe(true);
  });

  test("a join secret is never written inside a git work tree that does not ignore it", async () => {
    const [top] = repo("leaky");
    // a real git work tree, so git itself says what it ignores
    rmSync(join(top, ".git"), { recursive: true });
    expect(spawnSync("git", ["init", "-q", top]).status).toBe(0);
    writeFileSync(join(top, ".gitignore"), "*.secret\n");
    const config = join(root, "leaky-home", "config");
    mkdirSync(join(root, "leaky-home"));
    const env = { BRIGADE_CONFIG_DIR: config, BRIGADE_SERVER: server.url };
    const before = tree(top);
    for (const path of [join(top, "team.txt"), join(top, "src", "team.key")]) {
      const r = await team(["create", "leaky", "--secret-file", path], top, env);
      expect(r.status).toBe(2);
      expect(r.stderr).toBe(
        "brigade team: the --secret-file is inside a git work tree that does not ignore it, where it could be committed with the repository; choose a path outside the repository (or add it to .gitignore first)\n",
      );
      expect(r.stdout).toBe("");
    }
    expect(tree(top)).toEqual(before);
    expect(existsSync(join(config, "profiles"))).toBe(false);
    // The default folder inside a home that is itself a work tree (dotfiles) is refused the same way.
    const home = join(root, "dotfiles-home");
    mkdirSync(home, { recursive: true });
    expect(spawnSync("git", ["init", "-q", home]).status).toBe(0);
    const [other] = repo("other-checkout");
    const dotfiles = await team(["create", "dots"], other, {
      HOME: home,
      BRIGADE_SERVER: server.url,
    });
    expect(dotfiles.status).toBe(2);
    expect(dotfiles.stderr).toContain("the default join-secret folder is inside a git work tree");
    // An ignored path inside the work tree is the person's informed choice.
    const ignored = await team(
      ["create", "leaky", "--secret-file", join(top, "team.secret")],
      top,
      env,
    );
    expect(ignored.stderr).toBe("");
    expect(ignored.status).toBe(0);
    expect(mode(join(top, "team.secret"))).toBe(0o600);
  });

  test("one configuration folder: a join with BRIGADE_CONFIG_DIR is found by sessions, which ignore the variable", async () => {
    const [top] = repo("config-rule");
    const home = join(root, "ria", "home");
    const chosen = join(root, "ria", "brigade-config");
    const env = { HOME: home, BRIGADE_CONFIG_DIR: chosen, BRIGADE_SERVER: server.url };
    const secret = join(root, "ria", "rule.secret");
    mkdirSync(home, { recursive: true });
    const created = await team(["create", "rule", "--secret-file", secret], top, env);
    expect(created.status).toBe(0);
    expect(created.stdout).toContain("BRIGADE_CONFIG_DIR is set");
    // The default folder named as the rule has it, XDG_CONFIG_HOME first (docs/46-cli.md).
    expect(created.stdout).toContain("($XDG_CONFIG_HOME/brigade, else ~/.config/brigade)");
    // The credential lives only in the chosen folder; the default folder holds a consent pointer.
    expect(tree(join(home, ".config", "brigade"))).toEqual([
      relative(
        join(home, ".config", "brigade"),
        consentPath(join(home, ".config", "brigade"), top),
      ),
    ]);
    // A session: CLAUDE_PID set, so BRIGADE_CONFIG_DIR (maybe from a repository's settings) is ignored.
    const sessionDir = harnessConfigDir({
      CLAUDE_PID: "4242",
      BRIGADE_CONFIG_DIR: chosen,
      HOME: home,
    });
    expect(sessionDir).toBe(join(home, ".config", "brigade"));
    const resolved = resolveSessionTeam({ cwd: top, configDir: sessionDir });
    expect(resolved).toMatchObject({ ok: true, configDir: chosen, teamName: "rule" });
    // team members from a terminal without the variable finds the team too.
    const members = await team(["members"], top, { HOME: home });
    expect(members.stderr).toBe("");
    expect(members.status).toBe(0);
    // leave (either way) removes both records
    const left = await team(["leave"], top, { HOME: home });
    expect(left.stderr).toBe("");
    expect(left.status).toBe(0);
    expect(tree(join(home, ".config", "brigade"))).toEqual([]);
    expect(existsSync(consentPath(chosen, top))).toBe(false);
  });

  test("a BRIGADE_CONFIG_DIR others may write, or under missing folders, is refused with a fix", async () => {
    const [top] = repo("unsafe-config");
    const person = join(root, "unsafe-person");
    mkdirSync(person);
    const open = join(person, "open");
    mkdirSync(open);
    chmodSync(open, 0o777);
    const deep = join(person, "typo", "nested", "config");
    const cases: [string, string, string][] = [
      [
        open,
        "the configuration folder is writable by other users, who could replace what it holds",
        'fix: chmod 700 "$BRIGADE_CONFIG_DIR"',
      ],
      [
        deep,
        "the configuration folder's parent folder does not exist (only the last level is created)",
        'fix: mkdir -p -m 700 "$BRIGADE_CONFIG_DIR" (or correct the path)',
      ],
    ];
    for (const [config, problem, fix] of cases) {
      const env = { HOME: join(person, "home"), BRIGADE_CONFIG_DIR: config };
      for (const argv of [["create", "core", "--server", server.url], ["leave"]]) {
        const r = await team(argv, top, env);
        expect(r.status).toBe(11);
        const [first, second, ...rest] = r.stderr.split("\n");
        expect(first).toBe(`brigade team ${argv[0]}: ${problem}`);
        expect(second?.startsWith(`brigade team ${argv[0]}: ${fix}`)).toBe(true);
        expect(rest).toEqual([""]);
        expect(r.stderr).not.toContain(person);
      }
    }
    expect(tree(person)).toEqual([]);
    expect(existsSync(join(person, "typo"))).toBe(false);
    expect(statSync(open).mode & 0o7777).toBe(0o777);
    expect(existsSync(join(top, TEAM_BINDING_FILE_NAME))).toBe(false);
    // Its parent there, the last level is created, private.
    const fresh = join(person, "fresh");
    const env = { HOME: join(person, "home"), BRIGADE_CONFIG_DIR: fresh };
    const created = await team(["create", "core", "--server", server.url], top, env);
    expect(created.status, created.stderr).toBe(0);
    expect(mode(fresh)).toBe(0o700);
  });

  test("a configuration folder that cannot be written says so, with a fix that works", async () => {
    // A file where a folder must go fails the write as a read-only folder does (root ignores modes).
    const [top] = repo("unwritable-config");
    const config = join(root, "unwritable", "config");
    mkdirSync(config, { recursive: true, mode: 0o700 });
    for (const name of ["profiles", "join-secrets"]) writeFileSync(join(config, name), "");
    const env = { HOME: join(root, "unwritable", "home"), BRIGADE_CONFIG_DIR: config };
    const sentence =
      "the configuration folder cannot be written (read-only, full, or not yours): make it writable by you alone (chmod 700), or set BRIGADE_CONFIG_DIR to a folder of your own\n";
    const bySecretDefault = await team(["create", "core", "--server", server.url], top, env);
    expect(bySecretDefault.stderr).toBe(`brigade team: ${sentence}`);
    const secretFile = join(root, "unwritable", "core.secret");
    const argv = ["create", "core", "--server", server.url, "--secret-file", secretFile];
    const byProfile = await team(argv, top, env);
    expect(byProfile.status).toBe(11);
    expect(byProfile.stderr).toBe(`brigade team create: ${sentence}`);
    expect(existsSync(join(top, TEAM_BINDING_FILE_NAME))).toBe(false);
  });

  test("create outside any git repository writes .brigade.json here and does not say to commit it", async () => {
    const folder = join(root, "no-repo", "work");
    mkdirSync(folder, { recursive: true });
    const env = { HOME: join(root, "no-repo", "home") };
    const created = await team(["create", "loose", "--server", server.url], folder, env);
    expect(created.status, created.stderr).toBe(0);
    expect(created.stdout).toContain("Wrote .brigade.json at this folder (no repository found).");
    expect(created.stdout).toContain("  1. Copy .brigade.json into each teammate's folder");
    expect(created.stdout).not.toContain("Commit");
    expect(existsSync(join(folder, TEAM_BINDING_FILE_NAME))).toBe(true);
  });

  test("a relative BRIGADE_CONFIG_DIR is refused, not silently replaced by the default folder", async () => {
    const [top] = repo("config-relative");
    const home = join(root, "rel", "home");
    mkdirSync(home, { recursive: true });
    const env = { HOME: home, BRIGADE_CONFIG_DIR: "brigade-config", BRIGADE_SERVER: server.url };
    for (const argv of [
      ["create", "rel"],
      ["join", "--secret-file", join(root, "none")],
      ["leave"],
    ]) {
      const run = await team(argv, top, env);
      expect(run.status, argv[0]).toBe(2);
      expect(run.stderr, argv[0]).toBe(
        `brigade team ${argv[0]}: BRIGADE_CONFIG_DIR must be an absolute path (or unset for the default folder)\n`,
      );
    }
    expect(tree(home)).toEqual([]);
    expect(existsSync(join(top, ".brigade.json"))).toBe(false);
  });

  test("create, join and leave refuse while CLAUDE_PID is set, touching nothing", async () => {
    const [top] = repo("in-session");
    const config = join(root, "sess", "config");
    const secret = join(root, "sess", "x.secret");
    mkdirSync(join(root, "sess"), { recursive: true });
    writeFileSync(secret, "brg1.t-1.abc\n", { mode: 0o600 });
    const env = { CLAUDE_PID: "1234", BRIGADE_CONFIG_DIR: config, HOME: join(root, "sess") };
    const before = tree(root);
    for (const argv of [
      ["create", "core", "--server", server.url, "--secret-file", join(root, "sess", "new.secret")],
      ["join", "--secret-file", secret, "--server", server.url],
      ["leave"],
    ]) {
      const r = await team(argv, top, env);
      expect(r.status, argv[0]).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain("your own terminal");
      expect(r.stderr.split("\n").filter(Boolean)).toHaveLength(1);
    }
    expect(tree(root)).toEqual(before);
    expect(existsSync(config)).toBe(false);
  });

  test("usage errors are one value-free line with exit 2", async () => {
    const [top] = repo("usage");
    const env = { BRIGADE_CONFIG_DIR: join(root, "usage", "config") };
    const cases: string[][] = [
      ["frobnicate"],
      ["join", "brg1.t.hunter2"],
      ["join", "--join-secret", "brg1.t.hunter2"],
      ["create"],
      ["create", "a", "b"],
      ["create", "core"], // no server anywhere
      ["create", "core", "--server", "ftp://hunter2"],
      ["members", "extra-hunter2"],
      ["leave", "--force"],
    ];
    for (const argv of cases) {
      const r = await team(argv, top, env);
      expect(r.status, argv.join(" ")).toBe(2);
      expect(r.stderr.split("\n").filter(Boolean), argv.join(" ")).toHaveLength(1);
      expect(r.stderr).not.toContain("hunter2");
      expect(r.stdout).toBe("");
    }
    expect(existsSync(join(top, TEAM_BINDING_FILE_NAME))).toBe(false);
  });

  test("a flag or argument error names the subcommand's own help, never the input", async () => {
    const [top] = repo("sub-help");
    const env = { BRIGADE_CONFIG_DIR: join(root, "sub-help", "config") };
    const cases: [string[], string][] = [
      [
        ["join", "--join-secret", "brg1.t.hunter2"],
        "unknown option, missing value or stray argument",
      ],
      [
        ["join", "--server", "http://a", "--server", "http://hunter2"],
        "--server is given more than once",
      ],
      [["create", "a", "hunter2"], "expected exactly one team name"],
      [["members", "extra-hunter2"], "unknown option, missing value or stray argument"],
      [["leave", "--force=hunter2"], "unknown option, missing value or stray argument"],
      [["rotate-secret", "--secret-file"], "unknown option, missing value or stray argument"],
      [["remove", "p-1", "hunter2"], "expected exactly one member"],
      [["transfer"], "expected exactly one member"],
    ];
    for (const [argv, reason] of cases) {
      const r = await team(argv, top, env);
      expect(r.status, argv.join(" ")).toBe(2);
      expect(r.stderr, argv.join(" ")).toBe(
        `brigade team: ${reason} (run "brigade team ${argv[0]} --help")\n`,
      );
    }
    // no subcommand to name: the team's own help
    const unknown = await team(["hunter2"], top, env);
    expect(unknown.stderr).toBe('brigade team: unknown subcommand (run "brigade team help")\n');
  });

  test("create: a bad team name or label is refused with the rule before anything is written", async () => {
    const [top] = repo("badname");
    const config = join(root, "badname-person", "config");
    const env = { HOME: join(root, "badname-person", "home"), BRIGADE_CONFIG_DIR: config };
    mkdirSync(join(root, "badname-person"));
    const serverFlag = ["--server", server.url];
    const nameRule =
      "brigade team: a team name must be 1 to 64 characters of visible text (not only spaces): no control characters (newline, tab, ESC, …), invisible formatting characters or line separators";
    for (const name of [
      "",
      "   ",
      "x".repeat(65),
      "ops\nhunter2",
      "ops\u001b[2Jhunter2",
      "ops\u202ehunter2",
      "ops\u2028hunter2",
    ]) {
      const r = await team(["create", name, ...serverFlag], top, env);
      expect(r.status, JSON.stringify(name)).toBe(2);
      expect(r.stderr.split("\n")[0]).toBe(nameRule);
      expect(r.stderr).not.toContain("hunter2");
      expect(r.stderr).not.toContain("xxxx");
    }
    for (const label of ["\u001b\u200b", "\n\t ", "é".repeat(129)]) {
      const r = await team(["create", "core", "--human-label", label, ...serverFlag], top, env);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(
        "--human-label must be 1 to 128 characters with something visible",
      );
      expect(r.stderr).not.toContain("éé");
    }
    expect(existsSync(join(top, TEAM_BINDING_FILE_NAME))).toBe(false);
    expect(tree(config)).toEqual([]);
    // 64 code points of any script, spaces and emoji included, are a name; a label is stored
    // the way it is shown: one line, control and invisible characters gone.
    const ok = await team(
      [
        "create",
        `Équipe 🚀 ${"é".repeat(54)}`,
        "--human-label",
        "dana\u001b[31m\n\u202eops",
        ...serverFlag,
      ],
      top,
      env,
    );
    expect(ok.status, ok.stderr).toBe(0);
    const binding = JSON.parse(readFileSync(join(top, TEAM_BINDING_FILE_NAME), "utf8")) as {
      team_ref: string;
    };
    const adapter = openHarnessAdapter({
      configDir: config,
      teamKey: teamKeyFor(server.url, binding.team_ref),
    });
    const members = await adapter.teamMembers();
    expect(members.members.map((m) => m.human_label)).toEqual(["dana[31m ops"]);
  });

  test("a team whose stored name holds control characters still joins, lists and shows cleaned", async () => {
    // Another client may create such a name: the wire allows any text of 1 to 64 code points.
    const post = async (path: string, body: object, token?: string) => {
      const response = await fetch(`${server.url}${path}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        },
        body: JSON.stringify(body),
      });
      return ((await response.json()) as { result: Record<string, string> }).result;
    };
    const { token } = await post("/v1/principals", {});
    const made = await post("/v1/teams", { team_name: "ops\n\u001b[2J\u202eteam" }, token);
    const [top] = repo("odd-name");
    // The creator's committed .brigade.json keeps the name as stored (JSON-escaped).
    writeFileSync(
      join(top, TEAM_BINDING_FILE_NAME),
      serializeTeamBinding({
        server: server.url,
        team_ref: String(made.team_ref),
        team_name: String(made.team_name),
      }),
    );
    const person = join(root, "odd-person");
    mkdirSync(person);
    const secretFile = join(person, "odd.secret");
    writeFileSync(secretFile, `${made.join_secret}\nserver ${server.url}\n`, { mode: 0o600 });
    const env = { HOME: join(person, "home"), BRIGADE_CONFIG_DIR: join(person, "config") };
    const joined = await team(["join", "--secret-file", secretFile], top, env);
    expect(joined.status, joined.stderr).toBe(0);
    expect(joined.stdout).toContain('"ops [2Jteam"');
    const listed = await team(["members"], top, env);
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('Team "ops [2Jteam"');
    for (const hidden of ["\u001b", "\u202e", "ops\n"]) expect(listed.stdout).not.toContain(hidden);
  });

  test("join: an unreadable or malformed --secret-file is refused without echoing it", async () => {
    const [top] = repo("badsecret");
    const env = { BRIGADE_CONFIG_DIR: join(root, "bad", "config") };
    mkdirSync(join(root, "bad"), { recursive: true });
    const notSecret = join(root, "bad", "not.secret");
    writeFileSync(notSecret, "hunter2 is my password\n");
    const big = join(root, "bad", "big.secret");
    writeFileSync(big, `brg1.t.${"a".repeat(5000)}`);
    const missing = await team(["join", "--secret-file", join(root, "bad", "none")], top, env);
    expect(missing.status).toBe(2);
    const malformed = await team(
      ["join", "--secret-file", notSecret, "--server", server.url],
      top,
      env,
    );
    expect(malformed.status).toBe(3);
    expect(malformed.stderr).not.toContain("hunter2");
    const tooBig = await team(["join", "--secret-file", big, "--server", server.url], top, env);
    expect(tooBig.status).toBe(2);
    expect(tooBig.stderr).not.toContain("aaaa");
  });

  test("join with a wrong secret for a team exits with the protocol status of unauthorized", async () => {
    const dir = join(root, "wrong");
    mkdirSync(dir, { recursive: true });
    const secret = join(dir, "w.secret");
    writeFileSync(secret, "brg1.t-does-not-exist.AAAAAAAAAAAAAAAAAAAAAA\n");
    const r = await team(["join", "--secret-file", secret, "--server", server.url], dir, {
      BRIGADE_CONFIG_DIR: join(dir, "config"),
    });
    expect(r.status).toBe(5);
    expect(r.stderr).toMatch(
      /^brigade team join: unauthorized: the server refused the join secret or invitation: /,
    );
    expect(r.stderr).not.toContain("AAAAAAAA");
  });

  test("members outside any team is exit 11 with the reason in words", async () => {
    const [top] = repo("lonely");
    const r = await team(["members"], top, { BRIGADE_CONFIG_DIR: join(root, "lonely-config") });
    expect(r.status).toBe(11);
    expect(r.stderr).toContain("no .brigade.json");
  });
});

describe("brigade team: the creator controls who is in it", () => {
  /** A person with a config folder of their own and a clone of `top` (its .brigade.json). */
  function person(name: string, top: string) {
    const clone = join(root, `${name}-clone`);
    mkdirSync(join(clone, ".git"), { recursive: true });
    copyFileSync(join(top, TEAM_BINDING_FILE_NAME), join(clone, TEAM_BINDING_FILE_NAME));
    return { clone, env: { HOME: join(root, name, "home"), BRIGADE_CONFIG_DIR: join(root, name) } };
  }

  test("rotate-secret, remove and transfer: creator only, old secret dead, removed member barred, rights handed over", async () => {
    const [top] = repo("admin-api");
    const owner = { HOME: join(root, "owner", "home"), BRIGADE_CONFIG_DIR: join(root, "owner") };
    mkdirSync(join(root, "owner"), { recursive: true });
    const first = join(root, "owner", "first.secret");
    const created = await team(
      ["create", "ops", "--server", server.url, "--secret-file", first],
      top,
      owner,
    );
    expect(created.status).toBe(0);
    const [lee, sam, kai] = ["lee-adm", "sam-adm", "kai-adm"].map((n) => person(n, top));
    if (lee === undefined || sam === undefined || kai === undefined) throw new Error("people");
    for (const who of [lee, sam]) {
      expect((await team(["join", "--secret-file", first], who.clone, who.env)).status).toBe(0);
    }
    const roster = async (cwd: string, env: Record<string, string>) =>
      (
        JSON.parse((await team(["members", "--json"], cwd, env)).stdout) as {
          members: { principal_ref: string }[];
        }
      ).members.map((m) => m.principal_ref);
    const [ownerRef, leeRef, samRef] = await roster(top, owner);
    if (ownerRef === undefined || leeRef === undefined || samRef === undefined)
      throw new Error("roster");

    // Only the creator: a member hears why, with the protocol status of unauthorized.
    for (const argv of [["rotate-secret"], ["remove", samRef], ["transfer", leeRef]]) {
      const refused = await team(argv, lee.clone, lee.env);
      expect(refused.status, argv[0]).toBe(5);
      expect(refused.stderr).toContain("(not_creator): only the team's creator may do this");
      // lee is an active member: the line must not say otherwise.
      expect(refused.stderr).not.toContain("not an active member");
      expect(refused.stderr.split("\n").filter(Boolean)).toHaveLength(1);
    }

    // rotate-secret writes the new secret like create does; the old one is dead at once.
    const second = join(root, "owner", "second.secret");
    const rotated = await team(["rotate-secret", "--secret-file", second], top, owner);
    expect(rotated.status).toBe(0);
    expect(mode(second)).toBe(0o600);
    const [secretLine, serverLine] = readFileSync(second, "utf8").split("\n");
    expect(serverLine).toBe(`server ${server.url}`);
    expect(parseJoinSecret(secretLine as string).ok).toBe(true);
    expect(secretLine).not.toBe(readFileSync(first, "utf8").split("\n")[0]);
    expect(rotated.stdout + rotated.stderr).not.toContain(secretLine);
    expect(rotated.stdout).toContain("old secret no longer admits anyone");
    expect((await team(["join", "--secret-file", first], kai.clone, kai.env)).status).toBe(5);
    const existing = await team(["rotate-secret", "--secret-file", second], top, owner);
    expect(existing.status).toBe(2);

    // remove: lee's token no longer works in the team; neither secret lets it back.
    const removed = await team(["remove", leeRef], top, owner);
    expect(removed.status).toBe(0);
    expect(removed.stdout).toContain(`Removed ${leeRef}`);
    expect((await team(["members"], lee.clone, lee.env)).status).toBe(5);
    const barred = await team(["rotate-secret"], lee.clone, lee.env);
    expect(barred.status).toBe(5);
    expect(barred.stderr).toContain(
      "not an active member of this team (you left it, or its creator removed you)",
    );
    expect(barred.stderr).not.toContain("not_creator");
    for (const secret of [first, second]) {
      expect((await team(["join", "--secret-file", secret], lee.clone, lee.env)).status).toBe(5);
    }
    expect(await roster(top, owner)).toEqual([ownerRef, samRef]);
    const self = await team(["remove", ownerRef], top, owner);
    expect(self.status).toBe(7);
    expect(self.stderr).toContain("transfer the team first");
    const stranger = await team(["remove", "p-nobody"], top, owner);
    expect(stranger.status).toBe(6);
    expect(stranger.stderr).toBe(
      "brigade team remove: not_found: no such member in this team (brigade team members lists them)\n",
    );

    // The creator cannot walk away from a team others are in: it hands the team on first.
    const stays = await team(["leave"], top, owner);
    expect(stays.status).toBe(7);
    expect(stays.stderr).toBe(
      "brigade team leave: conflict (team_creator): you created this team and others are still in it: hand it on first (brigade team transfer <member>, which they accept with brigade team accept-transfer), then leave\n",
    );
    expect(await roster(top, owner)).toEqual([ownerRef, samRef]);

    // transfer offers the team; it stays the owner's until sam accepts.
    const offered = await team(["transfer", samRef], top, owner);
    expect(offered.status).toBe(0);
    expect(offered.stdout).toContain(`Offered team`);
    expect(offered.stdout).toContain("brigade team accept-transfer");
    // The offer says when it lapses: 7 days from now.
    const lapses = /The offer lapses at (\S+Z) if they have not accepted it by then/.exec(
      offered.stdout,
    )?.[1];
    expect(Math.abs(Date.parse(lapses ?? "") - (Date.now() + 7 * 86_400_000))).toBeLessThan(60_000);
    expect((await team(["rotate-secret"], sam.clone, sam.env)).status).toBe(5);
    const notOffered = await team(["accept-transfer"], top, owner);
    expect(notOffered.status).toBe(6);
    expect(notOffered.stderr).toBe(
      "brigade team accept-transfer: not_found: the team is not offered to you: its creator offers it with brigade team transfer <member>\n",
    );
    const accepted = await team(["accept-transfer"], sam.clone, sam.env);
    expect(accepted.status).toBe(0);
    expect(accepted.stdout).toContain(`${ownerRef} stays a member`);
    // sam administers now; the owner stays a member without the rights.
    expect((await team(["rotate-secret"], top, owner)).status).toBe(5);
    expect(await roster(top, owner)).toEqual([ownerRef, samRef]);
    // Without --secret-file the new secret goes to a new private file, as with create.
    const bySam = await team(["rotate-secret"], sam.clone, sam.env);
    expect(bySam.stderr).toBe("");
    expect(bySam.status).toBe(0);
    expect(bySam.stdout).not.toMatch(/brg1\./);
    const newFile = /The new join secret is in (\S+) \(mode 0600\)/.exec(bySam.stdout)?.[1] ?? "";
    expect(newFile).toMatch(/\/join-secrets\/[a-z0-9-]+-[0-9a-f]{8}\.secret$/);
    expect(mode(newFile)).toBe(0o600);
    const [rotatedLine] = readFileSync(newFile, "utf8").split("\n");
    expect(parseJoinSecret(rotatedLine as string).ok).toBe(true);
  });

  test("rotate-token: a new credential for the same member; the old token is refused at once and never printed", async () => {
    const [top] = repo("rotate-api");
    const owner = {
      HOME: join(root, "rot-owner", "home"),
      BRIGADE_CONFIG_DIR: join(root, "rot-owner"),
    };
    mkdirSync(join(root, "rot-owner"), { recursive: true });
    const secret = join(root, "rot-owner", "first.secret");
    expect(
      (await team(["create", "rot", "--server", server.url, "--secret-file", secret], top, owner))
        .status,
    ).toBe(0);
    const credentials = join(root, "rot-owner", "credentials");
    const [file] = readdirSync(credentials);
    const tokenIn = () =>
      (JSON.parse(readFileSync(join(credentials, file as string), "utf8")) as { token: string })
        .token;
    const old = tokenIn();
    const teamRef = (
      JSON.parse(readFileSync(join(top, TEAM_BINDING_FILE_NAME), "utf8")) as { team_ref: string }
    ).team_ref;
    const membersWith = (token: string) =>
      fetch(`${server.url}/v1/teams/${teamRef}/members`, {
        headers: { authorization: `Bearer ${token}` },
      });
    expect((await membersWith(old)).status).toBe(200);

    const rotated = await team(["rotate-token"], top, owner);
    expect(rotated.status).toBe(0);
    expect(rotated.stdout).toContain("the old token is refused from now on");
    const fresh = tokenIn();
    expect(fresh).not.toBe(old);
    expect(rotated.stdout + rotated.stderr).not.toContain(fresh);
    expect(mode(join(credentials, file as string))).toBe(0o600);
    expect((await membersWith(old)).status).toBe(401);
    expect((await membersWith(fresh)).status).toBe(200);
    // The same member: the roster still lists it, through the new credential.
    expect((await team(["members"], top, owner)).status).toBe(0);
  });

  test("the creator-only subcommands refuse inside a session and take one value-free member", async () => {
    const [top] = repo("admin-usage");
    const env = { BRIGADE_CONFIG_DIR: join(root, "admin-usage-config") };
    for (const argv of [
      ["rotate-secret"],
      ["remove", "p-1"],
      ["transfer", "p-1"],
      ["accept-transfer"],
      ["rotate-token"],
    ]) {
      const r = await team(argv, top, { ...env, CLAUDE_PID: "42" });
      expect(r.status).toBe(2);
      expect(r.stderr).toContain("your own terminal");
    }
    for (const argv of [
      ["remove"],
      ["remove", "p-1", "hunter2"],
      ["transfer"],
      ["remove", "p-hunter2\u0007"],
      ["remove", "x".repeat(300)],
      ["rotate-secret", "hunter2"],
      ["accept-transfer", "hunter2"],
      ["rotate-token", "hunter2"],
      ["rotate-secret", "--secret-file", join(root, "no-such-folder", "hunter2.secret")],
    ]) {
      const r = await team(argv, top, env);
      expect(r.status, argv.join(" ")).toBe(2);
      expect(r.stderr.split("\n").filter(Boolean)).toHaveLength(1);
      expect(r.stderr).not.toContain("hunter2");
    }
    const unbound = await team(["remove", "p-1"], top, env);
    expect(unbound.status).toBe(11);
  });
});

describe("registration", () => {
  test("`brigade team` is in the command table; create refuses inside a session there too", async () => {
    const { main } = await import("./brigade.ts");
    let stdout = "";
    let stderr = "";
    const io = (env: Record<string, string>): CliIo => ({
      stdin: (async function* () {})(),
      stdout: (t) => {
        stdout += t;
      },
      stderr: (t) => {
        stderr += t;
      },
      env,
    });
    expect(await main(["team", "help"], io({}))).toBe(0);
    expect(stdout).toContain("join [--secret-file <path>]");
    expect(await main(["team", "create", "x"], io({ CLAUDE_PID: "7" }))).toBe(2);
    expect(stderr).toBe(
      "brigade team create: this is a person's act: run it in your own terminal, not from a Claude Code session (CLAUDE_PID is set)\n",
    );
  });
});

describe("an adapter failure in words: what happened and what to do, never a contradiction", () => {
  test("a closed server: no key, a refused key, an unusable key file", async () => {
    const dir = join(root, "closed");
    mkdirSync(join(dir, "data"), { recursive: true });
    const closed = await startServer({
      host: "127.0.0.1",
      port: 0,
      dataFile: join(dir, "data", "brigade.sqlite"),
      registration: "closed",
      logger: silentLogger,
    });
    try {
      const env = { BRIGADE_CONFIG_DIR: join(dir, "config") };
      const [top] = repo("closed-repo");
      const create = (extra: string[]) =>
        team(["create", "core", "--server", closed.url, ...extra], top, env);
      const without = await create([]);
      expect(without.status).toBe(5);
      expect(without.stderr).toBe(
        "brigade team create: unauthorized (registration_closed): this server's registration is closed: pass --operator-key-file <path> holding the key its operator gave you\n",
      );
      const wrongKey = join(dir, "wrong.key");
      writeFileSync(wrongKey, `brgop1.${"A".repeat(43)}\n`, { mode: 0o600 });
      const refused = await create(["--operator-key-file", wrongKey]);
      expect(refused.status).toBe(5);
      expect(refused.stderr).toBe(
        "brigade team create: unauthorized (registration_closed): the server refused the operator key in the --operator-key-file: ask the server's operator for the current key\n",
      );
      chmodSync(wrongKey, 0o644);
      for (const file of [wrongKey, join(dir, "missing.key")]) {
        const unusable = await create(["--operator-key-file", file]);
        expect(unusable.status).toBe(11);
        expect(unusable.stderr).toContain("the --operator-key-file cannot be used: ");
        expect(unusable.stderr).not.toContain(file);
      }
      expect(existsSync(join(top, TEAM_BINDING_FILE_NAME))).toBe(false);
    } finally {
      await closed.stop();
    }
  });

  test("an untrusted TLS certificate and a server that is not there are told apart", async () => {
    const dir = join(root, "reach");
    mkdirSync(join(dir, "data"), { recursive: true });
    const cert = makeSelfSigned(dir, "server");
    const tls = await startServer({
      host: "127.0.0.1",
      port: 0,
      dataFile: join(dir, "data", "brigade.sqlite"),
      tls: { certFile: cert.certFile, keyFile: cert.keyFile },
      logger: silentLogger,
    });
    const env = { BRIGADE_CONFIG_DIR: join(dir, "config") };
    const [top] = repo("reach-repo");
    try {
      // This process started without NODE_EXTRA_CA_CERTS, so it does not trust the certificate.
      const untrusted = await team(["create", "core", "--server", tls.url], top, env);
      expect(untrusted.status).toBe(9);
      expect(untrusted.stderr).toMatch(
        /^brigade team create: unavailable: the server's TLS certificate is not trusted by this machine \([A-Z_]+\): .*NODE_EXTRA_CA_CERTS/,
      );
    } finally {
      await tls.stop();
    }
    // A web server that is not Brigade's: its page is no BAP/1 answer.
    const page = createHttpServer((_req, res) => res.writeHead(404).end("<html>nope</html>"));
    await new Promise<void>((r) => page.listen(0, "127.0.0.1", r));
    try {
      const url = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
      const other = await team(["create", "core", "--server", url], top, env);
      expect(other.stderr).toContain("not one a Brigade server gives: check the server address");
      expect(other.stderr).not.toContain("nope");
      // An https:// address for a plain-http server is not blamed on a certificate.
      const plain = await team(
        ["create", "core", "--server", url.replace("http:", "https:")],
        top,
        env,
      );
      expect(plain.status).toBe(9);
      expect(plain.stderr).toMatch(
        /^brigade team create: unavailable: the server does not speak TLS on that port \(a plain-http brigade serve\?\): .* \([A-Z_]+\)\n$/,
      );
    } finally {
      await new Promise<void>((r) => page.close(() => r()));
    }
    // A server that answers 503 (its database away) is not told to check that it runs.
    const busy = createHttpServer((_req, res) => res.writeHead(503).end());
    await new Promise<void>((r) => busy.listen(0, "127.0.0.1", r));
    try {
      const url = `http://127.0.0.1:${(busy.address() as AddressInfo).port}`;
      const down = await team(["create", "core", "--server", url], top, env);
      expect(down.status).toBe(9);
      expect(down.stderr).toContain("the server answered that it cannot serve now");
    } finally {
      await new Promise<void>((r) => busy.close(() => r()));
    }
    const port = await freePort();
    const gone = await team(["create", "core", "--server", `http://127.0.0.1:${port}`], top, env);
    expect(gone.status).toBe(9);
    expect(gone.stderr).toBe(
      "brigade team create: unavailable: the backend is unavailable (ECONNREFUSED) — check the server address and that brigade serve runs there, then try again\n",
    );
  });
});
