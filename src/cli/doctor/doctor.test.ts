// brigade doctor against a real brigade serve (in process, loopback), with temporary homes: each
// check passes on a well set-up machine and fails (with its fix) when its one thing is broken.
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sampleByPidMap } from "../../../test/support/by-pid-map.ts";
import { consentRecord, serializeTeamBinding, writeConsent } from "../../harness/binding/index.ts";
import { CLAUDE_CODE_VERIFIED } from "../../harness/claude-code/index.ts";
import { type ByPidMap, stateLayout, writeByPidMap } from "../../harness/state/index.ts";
import { acquirePidfile, processStartToken } from "../../harness/watcher/index.ts";
import { brigadeVersion } from "../../local-files/index.ts";
import { silentLogger } from "../../server/logger.ts";
import { type RunningServer, startServer } from "../../server/serve.ts";
import type { CliIo } from "../cli-io.ts";
import { runTeamCommand } from "../team-command.ts";
import type { DoctorCheck } from "./doctor-check.ts";
import { checkTransport, type DoctorContext } from "./doctor-checks.ts";
import { runDoctorChecks, runDoctorWith } from "./doctor-command.ts";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
let server: RunningServer;
let root: string;

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "brigade-doctor-")));
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

function io(env: Record<string, string>, out: string[] = []): CliIo {
  return {
    stdin: (async function* () {})(),
    stdout: (t) => {
      out.push(t);
    },
    stderr: (t) => {
      out.push(t);
    },
    env,
  };
}

/** A person whose machine is set up as the README says, in a checkout joined to a team. */
async function wellSetUp(name: string): Promise<{ env: Record<string, string>; checkout: string }> {
  const base = join(root, name);
  const home = join(base, "home");
  const bin = join(base, "bin");
  const checkout = join(base, "repo");
  mkdirSync(join(checkout, ".git"), { recursive: true });
  mkdirSync(bin, { recursive: true });
  symlinkSync(join(REPO, "bin", "brigade"), join(bin, "brigade"));
  writeFileSync(
    join(bin, "claude"),
    `#!/bin/sh\necho "${CLAUDE_CODE_VERIFIED[0]} (Claude Code)"\n`,
    { mode: 0o755 },
  );
  const plugin = join(home, ".claude", "plugins", "cache", "brigade", "brigade", brigadeVersion());
  mkdirSync(join(plugin, ".claude-plugin"), { recursive: true });
  writeFileSync(
    join(plugin, ".claude-plugin", "plugin.json"),
    JSON.stringify({ name: "brigade", version: brigadeVersion() }),
  );
  const env = { HOME: home, PATH: `${bin}:/usr/bin:/bin` };
  const created = await runTeamCommand(
    ["create", "core", "--server", server.url],
    io({ ...env, BRIGADE_SERVER: server.url }),
    { cwd: checkout },
  );
  expect(created).toBe(0);
  return { env, checkout };
}

function context(env: Record<string, string>, cwd: string): DoctorContext {
  return {
    env,
    cwd,
    nodeVersion: process.versions.node,
    cliVersion: brigadeVersion(),
    cliScript: "",
    timeoutMs: 5_000,
  };
}

/** The session map of a Claude Code session running now (this test process stands in for it). */
function runningSession(over: Partial<ByPidMap>): ByPidMap {
  const now = new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
  return sampleByPidMap({
    claude_pid: process.pid,
    brigade_session_id: "s-doctor",
    team_ref: "t-x",
    session_name: "api",
    team_key: "team-0123456789abcdef",
    harness_version: "2.1.334",
    registered_at: now,
    updated_at: now,
    ...over,
  });
}

function byTitle(checks: DoctorCheck[], title: string): DoctorCheck {
  const found = checks.find((c) => c.title === title);
  if (found === undefined) throw new Error(`no check ${title}`);
  return found;
}

describe("brigade doctor", () => {
  test("a machine set up as the README says: nothing fails, exit 0", async () => {
    const { env, checkout } = await wellSetUp("good");
    const out: string[] = [];
    const status = await runDoctorWith([], io(env, out), { cwd: checkout });
    const text = out.join("");
    expect(text).not.toContain("FAIL");
    expect(status).toBe(0);
    const checks = await runDoctorChecks(context(env, checkout));
    expect(checks.map((c) => [c.title, c.status])).toEqual([
      ["Node.js", "pass"],
      ["brigade on PATH", "pass"],
      ["Claude Code plugin", "pass"],
      ["Claude Code", "pass"],
      ["team binding and consent", "pass"],
      ["server", "pass"],
      ["TLS", "pass"],
      ["credential", "pass"],
      ["session watchers", "skip"],
      ["inbound settings", "pass"],
    ]);
    expect(text).toMatch(/Nothing failed\.\n$/);
    expect(byTitle(checks, "credential").detail).toBe("accepted by the server (1 active member)");
  });

  test("no plugin installed: the fix names this checkout's plugin folder, filled in", async () => {
    const { env, checkout } = await wellSetUp("no-plugin");
    const bare = { ...context(env, checkout), env: { ...env, HOME: join(root, "no-plugin", "x") } };
    // the CLI as install-cli links it: <checkout>/bin/brigade
    const here = byTitle(
      await runDoctorChecks({ ...bare, cliScript: join(REPO, "bin", "brigade") }),
      "Claude Code plugin",
    );
    expect(here.status).toBe("fail");
    expect(here.fix).toContain(`claude --plugin-dir ${join(REPO, "plugin")},`);
    expect(here.fix).toContain(
      `/plugin marketplace add ${REPO}, then /plugin install brigade@brigade`,
    );
    expect(here.fix).not.toContain("<");
    // the same from the built CLI and from the checkout's plugin copy
    for (const script of [
      ["dist", "cli", "main.js"],
      ["plugin", "bin", "brigade"],
    ]) {
      const check = byTitle(
        await runDoctorChecks({ ...bare, cliScript: join(REPO, ...script) }),
        "Claude Code plugin",
      );
      expect(check.fix, script.join("/")).toBe(here.fix);
    }
    // not from a checkout (a plugin copy in Claude Code's cache): no path is made up
    const cached = join(root, "no-plugin", "cache", "brigade", "0.1.0");
    mkdirSync(join(cached, "bin"), { recursive: true });
    for (const script of [join(cached, "bin", "brigade"), ""]) {
      const check = byTitle(
        await runDoctorChecks({ ...bare, cliScript: script }),
        "Claude Code plugin",
      );
      expect(check.fix).toContain("claude --plugin-dir <your Brigade checkout>/plugin");
      expect(check.fix).not.toContain("<owner>");
    }
  });

  test("no plugin in the cache, but a running session loaded one with --plugin-dir: its version decides", async () => {
    const { env, checkout } = await wellSetUp("plugin-dir");
    const home = join(root, "plugin-dir", "bare-home");
    const bare = { ...context(env, checkout), env: { ...env, HOME: home } };
    const layout = stateLayout(join(home, ".local", "state", "brigade"));
    const session = (pluginBin: string) =>
      writeByPidMap(layout, runningSession({ plugin_bin: pluginBin, socket_path: "" }));
    session(join(REPO, "plugin", "bin"));
    const same = byTitle(await runDoctorChecks(bare), "Claude Code plugin");
    expect(same.status).toBe("pass");
    expect(same.detail).toContain("--plugin-dir");
    const older = join(root, "plugin-dir", "old-checkout", "plugin");
    mkdirSync(join(older, ".claude-plugin"), { recursive: true });
    writeFileSync(
      join(older, ".claude-plugin", "plugin.json"),
      JSON.stringify({ name: "brigade", version: "0.0.1" }),
    );
    session(join(older, "bin"));
    const behind = byTitle(await runDoctorChecks(bare), "Claude Code plugin");
    expect(behind.status).toBe("fail");
    expect(behind.detail).toContain("0.0.1");
  });

  test("each check fails, with a fix, when its own thing is broken; the exit status says so", async () => {
    const { env, checkout } = await wellSetUp("bad");
    const failing = async (
      title: string,
      ctx: DoctorContext,
      expected: "fail" | "warn" = "fail",
    ): Promise<DoctorCheck> => {
      const check = byTitle(await runDoctorChecks(ctx), title);
      expect(check.status, title).toBe(expected);
      expect(check.fix, title).toBeTruthy();
      return check;
    };
    const base = context(env, checkout);
    await failing("Node.js", { ...base, nodeVersion: "20.18.1" });
    // another version of brigade first on PATH; none at all
    const old = join(root, "bad", "old");
    mkdirSync(join(old, "bin"), { recursive: true });
    writeFileSync(join(old, "bin", "brigade"), "#!/bin/sh\n", { mode: 0o755 });
    writeFileSync(join(old, "package.json"), JSON.stringify({ name: "brigade", version: "0.0.1" }));
    const shadowed = await failing("brigade on PATH", {
      ...base,
      env: { ...env, PATH: `${join(old, "bin")}:${env.PATH}` },
    });
    expect(shadowed.detail).toContain("0.0.1");
    await failing("brigade on PATH", { ...base, env: { ...env, PATH: "/nonexistent" } });
    await failing("Claude Code plugin", { ...base, cliVersion: "9.9.9" });
    await failing("Claude Code plugin", {
      ...base,
      env: { ...env, HOME: join(root, "bad", "nohome") },
    });
    // Claude Code: missing, too old, newer than verified (a warning)
    const claudeBin = join(root, "bad", "claude-bin");
    mkdirSync(claudeBin);
    const claudeSays = (version: string) => {
      writeFileSync(join(claudeBin, "claude"), `#!/bin/sh\necho "${version} (Claude Code)"\n`, {
        mode: 0o755,
      });
      return { ...base, env: { ...env, PATH: `${claudeBin}:${env.PATH}` } };
    };
    await failing("Claude Code", claudeSays("2.1.200"));
    await failing("Claude Code", claudeSays("2.9.0"), "warn");
    await failing("Claude Code", { ...base, env: { ...env, PATH: "/nonexistent" } });
    // binding: no consent for another clone of the same repository
    const clone = join(root, "bad", "clone");
    mkdirSync(join(clone, ".git"), { recursive: true });
    writeFileSync(
      join(clone, ".brigade.json"),
      readFileSync(join(checkout, ".brigade.json"), "utf8"),
    );
    const loose = join(root, "bad", "loose");
    mkdirSync(loose, { recursive: true });
    const unbound = await failing("team binding and consent", { ...base, cwd: loose });
    expect(unbound.detail).toContain("outside a git repository, only here) (no_binding)");
    const unjoined = await failing("team binding and consent", { ...base, cwd: clone });
    expect(unjoined.detail).toContain("no_consent");
    expect(byTitle(await runDoctorChecks({ ...base, cwd: clone }), "server").status).toBe("skip");
    // server: a port nothing listens on; TLS: plain http to another machine
    const serverFails = await runDoctorChecks({
      ...base,
      cwd: boundTo("down", "http://127.0.0.1:9"),
    });
    expect(byTitle(serverFails, "server").status).toBe("fail");
    expect(byTitle(serverFails, "credential").status).toBe("fail");
    // server: a Brigade server whose store is down says so; a reply it cannot trust does not
    for (const [reason, detail] of [
      ["store_unreachable", "its store cannot serve (store_unreachable)"],
      ["store_timeout", "its store cannot serve (store_timeout)"],
      // A reason this doctor does not know (a newer server's, or a hostile one's) is never shown.
      ["<b>rm -rf</b>", "its store cannot serve (a reason this doctor does not know)"],
      ["store_rm_rf", "its store cannot serve (a reason this doctor does not know)"],
    ]) {
      const storeDown = createServer((_request, response) => {
        response.writeHead(503, { "content-type": "application/json" });
        response.end(JSON.stringify({ status: "unavailable", protocol_version: "1", reason }));
      });
      await new Promise<void>((done) => storeDown.listen(0, "127.0.0.1", done));
      const port = (storeDown.address() as AddressInfo).port;
      try {
        const checks = await runDoctorChecks({
          ...base,
          cwd: boundTo(`store-${port}`, `http://127.0.0.1:${port}`),
        });
        expect(byTitle(checks, "server")).toMatchObject({ status: "fail" });
        expect(byTitle(checks, "server").detail).toContain(detail);
        expect(byTitle(checks, "server").detail).not.toContain("rm");
      } finally {
        await new Promise((done) => storeDown.close(done));
      }
    }
    // A 503 that is not a Brigade health reply is not read as one.
    const notBrigade = createServer((_request, response) => {
      response.writeHead(503, { "content-type": "application/json" });
      response.end(JSON.stringify({ status: "maintenance", reason: "store_unreachable" }));
    });
    await new Promise<void>((done) => notBrigade.listen(0, "127.0.0.1", done));
    const notBrigadePort = (notBrigade.address() as AddressInfo).port;
    try {
      const checks = await runDoctorChecks({
        ...base,
        cwd: boundTo(`maint-${notBrigadePort}`, `http://127.0.0.1:${notBrigadePort}`),
      });
      expect(byTitle(checks, "server").detail).toContain("not as a Brigade server (HTTP 503)");
      // An https:// address for a plain-http server is not blamed on a certificate.
      const plain = await runDoctorChecks({
        ...base,
        cwd: boundTo(`plain-${notBrigadePort}`, `https://127.0.0.1:${notBrigadePort}`),
      });
      expect(byTitle(plain, "TLS")).toMatchObject({ status: "fail" });
      expect(byTitle(plain, "TLS").detail).toContain("with something that is not TLS");
      expect(byTitle(plain, "TLS").fix).toContain("does not speak TLS on that port");
    } finally {
      await new Promise((done) => notBrigade.close(done));
    }
    // (judged from the URL alone: tests never reach beyond loopback)
    expect(checkTransport("http://brigade.example.org:7777")).toMatchObject({ status: "fail" });
    expect(checkTransport("http://brigade.example.org:7777").detail).toContain("unencrypted");
    expect(checkTransport("https://brigade.example.org").status).toBe("pass");
    expect(checkTransport("http://[::1]:7777").status).toBe("pass");
    // credential: the profile's token replaced
    const credentials = join(env.HOME as string, ".config", "brigade", "credentials");
    for (const file of readdirSync(credentials))
      writeFileSync(join(credentials, file), "t-forged\n", { mode: 0o600 });
    expect((await failing("credential", base)).fix).toContain("join again");
    // a well-formed credential the server does not know (a restored server, a swept principal)
    for (const file of readdirSync(credentials))
      writeFileSync(
        join(credentials, file),
        JSON.stringify({ token: "A".repeat(43), principal_ref: "p-00000000000000000000" }),
        { mode: 0o600 },
      );
    const unknown = await failing("credential", base);
    expect(unknown.fix).toContain("join again");
    expect(unknown.detail).toContain("does not accept");
    // no credential at all
    for (const file of readdirSync(credentials)) rmSync(join(credentials, file));
    const missing = await failing("credential", base);
    expect(missing.fix).toContain("join again");
    expect(missing.detail).toContain("holds no credential for the team; nothing was sent");
    // watcher: a live session (this process) with a socket and no watcher; then with one
    const layout = stateLayout(join(env.HOME as string, ".local", "state", "brigade"));
    writeByPidMap(layout, runningSession({ socket_path: join(root, "bad", "inbox.sock") }));
    const stopped = await failing("session watchers", base);
    expect(stopped.detail).toContain('"api"');
    const acquired = acquirePidfile(layout, String(process.pid), {
      pid: process.pid,
      start_token: processStartToken(process.pid) ?? "",
      brigade_session_id: "s-doctor",
      socket_path: join(root, "bad", "inbox.sock"),
      token_sha256: "0".repeat(64),
      version: "0.1.0",
    });
    expect(acquired.outcome).toBe("acquired");
    expect(byTitle(await runDoctorChecks(base), "session watchers").status).toBe("pass");
    unlinkSync(layout.watcher(String(process.pid)));
    // inbound settings: the user settings hold messages
    mkdirSync(join(env.HOME as string, ".claude"), { recursive: true });
    writeFileSync(
      join(env.HOME as string, ".claude", "settings.json"),
      '{"crossSessionInbound":"hold"}',
    );
    const held = await failing("inbound settings", base);
    expect(held.detail).toContain("user settings.json");
    // and the command's exit status
    const out: string[] = [];
    expect(await runDoctorWith([], io(env, out), { cwd: checkout })).toBe(1);
    expect(out.join("")).toMatch(/\d+ checks failed: see the fix under each\.\n$/);
  });

  test("a member the creator removed is told that no secret lets it back", async () => {
    const owner = await wellSetUp("remover");
    const lee = await wellSetUp("removed");
    // lee leaves the team it made and joins the owner's, in a clone of the owner's checkout.
    const clone = join(root, "removed", "clone");
    mkdirSync(join(clone, ".git"), { recursive: true });
    writeFileSync(
      join(clone, ".brigade.json"),
      readFileSync(join(owner.checkout, ".brigade.json")),
    );
    const secrets = join(owner.env.HOME as string, ".config", "brigade", "join-secrets");
    const secret = join(secrets, readdirSync(secrets)[0] as string);
    expect(
      await runTeamCommand(["join", "--secret-file", secret], io(lee.env), { cwd: clone }),
    ).toBe(0);
    const listed: string[] = [];
    await runTeamCommand(["members", "--json"], io(owner.env, listed), { cwd: owner.checkout });
    const members: { principal_ref: string }[] = JSON.parse(listed.join("")).members;
    const leeRef = members[1]?.principal_ref as string;
    expect(await runTeamCommand(["remove", leeRef], io(owner.env), { cwd: owner.checkout })).toBe(
      0,
    );
    const check = byTitle(await runDoctorChecks(context(lee.env, clone)), "credential");
    expect(check.status).toBe("fail");
    expect(check.detail).toContain("not an active member");
    expect(check.fix).toContain("if its creator removed you, no secret lets you back");
  });

  test("--help, and an argument refused", async () => {
    const out: string[] = [];
    expect(await runDoctorWith(["--help"], io({}, out))).toBe(0);
    expect(out.join("")).toMatch(/^usage: brigade doctor \[--fix\]\n/);
    // The help names every exit status the chapter does (docs/46-cli.md): 0, 1, and 2.
    expect(out.join("")).toContain("1 otherwise, 2 for an\nargument");
    await expect(runDoctorWith(["--fox"], io({}))).rejects.toThrow(
      'unknown option; did you mean "--fix"? (run "brigade doctor --help")',
    );
    await expect(runDoctorWith(["--<b>zzzz"], io({}))).rejects.toThrow(
      "unknown option or argument",
    );
  });
});

/** A checkout whose .brigade.json names `server`, joined (consent) without contacting it. */
function boundTo(name: string, serverUrl: string): string {
  const checkout = join(root, "bad", name);
  mkdirSync(join(checkout, ".git"), { recursive: true });
  writeFileSync(
    join(checkout, ".brigade.json"),
    serializeTeamBinding({ server: serverUrl, team_ref: "t-elsewhere", team_name: "elsewhere" }),
  );
  writeConsent(
    join(root, "bad", "home", ".config", "brigade"),
    consentRecord({ checkout, server: serverUrl, teamRef: "t-elsewhere", teamName: "elsewhere" }),
  );
  return checkout;
}
