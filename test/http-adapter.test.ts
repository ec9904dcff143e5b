import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  HTTP_ADAPTER_CAPABILITIES,
  HTTP_ADAPTER_LEASE,
  HTTP_ADAPTER_RETENTION,
  HttpAdapter,
} from "../src/adapters/http/index.ts";
import { runAdapter } from "../src/cli/adapter-command.ts";
import type { WatchEvent } from "../src/protocol/index.ts";
import { silentLogger } from "../src/server/logger.ts";
import { type RunningServer, startServer } from "../src/server/serve.ts";
import { describeBackend, SERVICE_LEASE, SERVICE_RETENTION } from "../src/service/index.ts";
import { sessionRegistration } from "./support/session-registration.ts";
import { until } from "./support/until.ts";

describe("cross-layer constants (the adapters layer may not import src/service)", () => {
  test("lease and retention equal the service's", () => {
    expect(HTTP_ADAPTER_LEASE).toEqual(SERVICE_LEASE);
    expect(HTTP_ADAPTER_RETENTION).toEqual(SERVICE_RETENTION);
    expect(HTTP_ADAPTER_LEASE).toEqual(describeBackend().lease);
    expect(HTTP_ADAPTER_RETENTION).toEqual(describeBackend().retention);
  });

  test("capabilities are the service's plus the watch transport ones", () => {
    const expected = [
      ...describeBackend().capabilities,
      "message.watch.push",
      "message.watch.stdin_commands",
    ];
    expect([...HTTP_ADAPTER_CAPABILITIES].sort()).toEqual([...new Set(expected)].sort());
  });

  test("describe's limits are the backend's", async () => {
    const d = await new HttpAdapter({ env: {} }).describe();
    expect(d.limits).toEqual(describeBackend().limits);
  });
});

let server: RunningServer;
let root: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "brigade-http-it-"));
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

/** Runs `brigade adapter http …` in process with `stdin` text; returns status and parsed stdout. */
async function cli(
  principal: string,
  argv: string[],
  stdin?: string,
): Promise<{ status: number; out: Record<string, unknown>; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const status = await runAdapter(["http", ...argv], {
    stdin:
      stdin === undefined
        ? {
            [Symbol.asyncIterator]() {
              throw new Error("stdin read by a no-input command");
            },
          }
        : (async function* () {
            yield new TextEncoder().encode(stdin);
          })(),
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    env: {
      BRIGADE_CONFIG_DIR: join(root, principal, "config"),
      BRIGADE_SERVER: server.url,
      BRIGADE_LOG_LEVEL: "debug",
    },
  });
  expect(stdout.indexOf("\n")).toBe(stdout.length - 1);
  return { status, out: JSON.parse(stdout) as Record<string, unknown>, stderr };
}

const claudeCode = { harness: "claude-code", harness_version: "2.1.270" } as const;
/** A registration as the CLI reads it on stdin. */
const registration = (name: string) => JSON.stringify(sessionRegistration(name, claudeCode));

describe("http adapter against the real brigade serve", () => {
  test("create, join, register, send, receive, watch, ack, leave", async () => {
    // A creates the team through the process binding; B joins with the secret on stdin.
    const created = await cli("a", ["team", "create", "--name", "core", "--label", "dana"]);
    expect(created.status).toBe(0);
    const team = (created.out as { result: { team_ref: string; join_secret: string } }).result;
    expect(created.stderr).not.toContain(team.join_secret);
    const joined = await cli(
      "b",
      ["team", "join"],
      JSON.stringify({ join_secret: team.join_secret }),
    );
    expect(joined.out).toMatchObject({
      ok: true,
      result: { team_ref: team.team_ref, rejoined: false },
    });
    expect(joined.stderr).not.toContain(team.join_secret);

    const described = await cli("b", ["describe"]);
    expect(described.out).toMatchObject({
      result: { profile: { state: "joined", team_ref: team.team_ref } },
    });

    const regA = await cli("a", ["session", "register"], registration("billing"));
    const regB = await cli("b", ["session", "register"], registration("frontend"));
    const sa = (regA.out.result as { session_id: string }).session_id;
    const sb = (regB.out.result as { session_id: string }).session_id;

    const sent = await cli(
      "a",
      ["message", "send"],
      JSON.stringify({ sender_session_id: sa, recipient_session_id: sb, body: "first\nline" }),
    );
    expect(sent.out).toMatchObject({ ok: true, result: { status: "accepted", hop_count: 0 } });
    const first = (sent.out.result as { message_id: string }).message_id;

    const received = await cli("b", ["message", "receive", "--session", sb]);
    expect(received.out).toMatchObject({
      result: { messages: [{ message_id: first, body: "first\nline" }] },
    });

    // B watches in process: the queued message, then a pushed one, then an ack over the handle.
    const b = new HttpAdapter({
      env: { BRIGADE_CONFIG_DIR: join(root, "b", "config") },
    });
    const watch = b.messageWatch(sb);
    const events: WatchEvent[] = [];
    const done = (async () => {
      for await (const e of watch) events.push(e);
    })();
    const waitFor = (p: (e: WatchEvent) => boolean): Promise<WatchEvent> =>
      until("the watch event", () => events.find(p), 5000, 20);
    await waitFor((e) => e.event === "message" && e.message.message_id === first);
    expect(events[0]).toMatchObject({ event: "ready", mode: "push", session_id: sb });
    const second = await new HttpAdapter({
      env: { BRIGADE_CONFIG_DIR: join(root, "a", "config") },
    }).messageSend({ sender_session_id: sa, recipient_session_id: sb, body: "pushed" });
    const pushed = await waitFor(
      (e) => e.event === "message" && e.message.message_id === second.message_id,
    );
    expect(pushed).toMatchObject({
      message: { sender: { session_id: sa }, team_ref: team.team_ref },
    });
    await watch.send({ type: "ack", message_ids: [first, second.message_id, "m-unknown"] });
    expect(await waitFor((e) => e.event === "acked")).toEqual({
      event: "acked",
      message_ids: [first, second.message_id],
      unknown: ["m-unknown"],
    });
    await watch.send({ type: "heartbeat", activity: "idle" });
    expect(await waitFor((e) => e.event === "heartbeat_ok")).toMatchObject({
      session_id: sb,
      state: "idle",
    });
    await watch.close();
    await done;

    const empty = await cli("b", ["message", "receive", "--session", sb]);
    expect(empty.out).toMatchObject({ result: { messages: [] } });

    const members = await cli("a", ["team", "members"]);
    expect((members.out.result as { members: unknown[] }).members).toHaveLength(2);

    // Foreign-team isolation and the uniform not_found, through the process binding.
    await cli("c", ["team", "create", "--name", "other"]);
    const foreign = await cli("c", ["message", "receive", "--session", sb]);
    const random = await cli("c", ["message", "receive", "--session", "s-does-not-exist"]);
    expect(foreign.status).toBe(6);
    expect(foreign.out).toEqual(random.out);

    const left = await cli("b", ["team", "leave"]);
    expect(left.out).toMatchObject({ ok: true, result: { team_ref: team.team_ref, left: true } });
    const after = await cli("b", ["session", "list"]);
    expect(after.status).toBe(11);
    const again = await cli(
      "b",
      ["team", "join"],
      JSON.stringify({ join_secret: team.join_secret }),
    );
    expect(again.out).toMatchObject({ ok: true, result: { rejoined: true } });
  });

  test("a credential file that is a symlink or a FIFO exits 11 (config), never 4", async () => {
    const created = await cli("d", ["team", "create", "--name", "linked"]);
    expect(created.status).toBe(0);
    const credentials = join(root, "d", "config", "credentials");
    const path = join(credentials, "default.json");
    const real = join(credentials, "real.json");
    renameSync(path, real);
    // A symlink to a private copy of the very token: still refused, the link is never followed.
    symlinkSync(real, path);
    for (const verb of [
      ["session", "list"],
      ["message", "receive", "--session", "s-1"],
    ]) {
      const answer = await cli("d", verb);
      expect(answer.status).toBe(11);
      expect(answer.out).toMatchObject({ ok: false, error: { code: "config" } });
    }
    rmSync(path);
    execFileSync("mkfifo", ["-m", "600", path]);
    const fifo = await cli("d", ["session", "list"]);
    expect(fifo.status).toBe(11);
    rmSync(path);
    copyFileSync(real, path);
    expect((await cli("d", ["session", "list"])).status).toBe(0);
  });

  test("every POST verb passes the server's application/json rule through the process binding", async () => {
    // The server answers 415 to a body not declared JSON; each verb below is a POST.
    expect((await cli("e", ["team", "create", "--name", "typed"])).status).toBe(0);
    const registered = await cli("e", ["session", "register"], registration("typed"));
    expect(registered.status).toBe(0);
    const sid = (registered.out.result as { session_id: string }).session_id;
    const beat = await cli("e", ["session", "heartbeat", "--session", sid], "{}");
    expect(beat.out).toMatchObject({ ok: true, result: { session_id: sid } });
    const sent = await cli(
      "e",
      ["message", "send"],
      JSON.stringify({ sender_session_id: sid, recipient_session_id: sid, body: "self" }),
    );
    expect(sent.status).toBe(0);
    const id = (sent.out.result as { message_id: string }).message_id;
    const acked = await cli(
      "e",
      ["message", "ack", "--session", sid],
      JSON.stringify({ message_ids: [id] }),
    );
    expect(acked.out).toMatchObject({ ok: true, result: { acked: [id] } });
    expect((await cli("e", ["session", "close", "--session", sid])).status).toBe(0);
    expect((await cli("e", ["team", "leave"])).status).toBe(0);
  });

  test("a stored credential the server no longer knows is replaced once on team create and join", async () => {
    // What a principal collected after 7 days without a team looks like from the client.
    for (const [who, argv, stdin] of [
      ["f", ["team", "create", "--name", "again"], undefined],
      ["g", ["team", "join"], "join"],
    ] as const) {
      const credentials = join(root, who, "config", "credentials");
      mkdirSync(credentials, { recursive: true, mode: 0o700 });
      const path = join(credentials, "default.json");
      const unknown = JSON.stringify({ token: "A".repeat(43), principal_ref: "p-gone" });
      writeFileSync(path, unknown, { mode: 0o600 });
      let input: string | undefined;
      if (stdin !== undefined) {
        const made = await cli(`${who}-owner`, ["team", "create", "--name", "for-join"]);
        input = JSON.stringify({
          join_secret: (made.out.result as { join_secret: string }).join_secret,
        });
      }
      const answer = await cli(who, [...argv], input);
      expect(answer.status).toBe(0);
      const stored = JSON.parse(readFileSync(path, "utf8")) as { token: string };
      expect(stored.token).not.toBe("A".repeat(43));
      expect(answer.stderr).not.toContain(stored.token);
    }
  });

  test("team.admin through the process binding: rotate-secret --secret-file, revoke-member, transfer, accept-transfer", async () => {
    const created = await cli("admin-a", ["team", "create", "--name", "ops"]);
    const team = (created.out as { result: { team_ref: string; join_secret: string } }).result;
    const joinWith = (who: string, secret: string) =>
      cli(who, ["team", "join"], JSON.stringify({ join_secret: secret }));
    const b = (await joinWith("admin-b", team.join_secret)).out.result as { principal_ref: string };
    const c = (await joinWith("admin-c", team.join_secret)).out.result as { principal_ref: string };

    const refused = await cli("admin-b", ["team", "rotate-secret"]);
    expect(refused.status).toBe(5);
    expect(refused.out).toMatchObject({ error: { details: { reason: "not_creator" } } });

    const secretFile = join(root, "admin-a", "rotated.secret");
    const rotated = await cli("admin-a", ["team", "rotate-secret", "--secret-file", secretFile]);
    expect(rotated.status).toBe(0);
    expect(rotated.out).toEqual({
      ok: true,
      protocol_version: "1",
      result: { team_ref: team.team_ref, team_name: "ops", invitations_revoked: 0 },
    });
    const secret = readFileSync(secretFile, "utf8").trim();
    expect(statSync(secretFile).mode & 0o777).toBe(0o600);
    expect(rotated.stderr).not.toContain(secret);
    expect((await joinWith("admin-d", team.join_secret)).status).toBe(5);

    const missing = await cli("admin-a", ["team", "revoke-member"]);
    expect(missing.status).toBe(2);
    const revoked = await cli("admin-a", ["team", "revoke-member", "--principal", b.principal_ref]);
    expect(revoked.out).toMatchObject({ ok: true, result: { revoked: true } });
    expect((await cli("admin-b", ["team", "members"])).status).toBe(5);
    expect((await joinWith("admin-b", secret)).status).toBe(5);

    const offered = await cli("admin-a", ["team", "transfer", "--principal", c.principal_ref]);
    expect(offered.out).toMatchObject({ result: { offered_to_principal_ref: c.principal_ref } });
    const moved = await cli("admin-c", ["team", "accept-transfer"]);
    expect(moved.out).toMatchObject({ result: { creator_principal_ref: c.principal_ref } });
    expect((await cli("admin-a", ["team", "rotate-secret"])).status).toBe(5);
    const byC = await cli("admin-c", ["team", "rotate-secret"]);
    expect(byC.status).toBe(0);
    expect(byC.stderr).toContain("join_secret_shown_once");
  });
});
