import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { testTempDir } from "../../../test/support/temp-dir.ts";
import {
  type Adapter,
  BapError,
  DEFAULT_LEASE,
  type DescribeResult,
  notFoundError,
  PROTOCOL_LIMITS,
  RETENTION_FLOORS,
  type WatchCommand,
  type WatchEvent,
  type WatchHandle,
} from "../../protocol/index.ts";
import { EventQueue } from "../event-queue.ts";
import type { ProcessBindingIo } from "./process-binding-io.ts";
import { runProcessBinding } from "./run-process-binding.ts";

const DESCRIBE: DescribeResult = {
  protocol_version: "1",
  adapter: { name: "fake", version: "0" },
  delivery: { guarantee: "at_least_once", ordering: "none", ack_state: "injected" },
  capabilities: ["message.receive", "message.watch.stdin_commands", "team.create"],
  limits: { ...PROTOCOL_LIMITS },
  lease: { ...DEFAULT_LEASE },
  retention: { ...RETENTION_FLOORS },
  profile: { name: "default", state: "unconfigured" },
};

/** A stdin that fails the test if anything iterates it. */
const untouchableStdin: AsyncIterable<Uint8Array> = {
  [Symbol.asyncIterator]() {
    throw new Error("stdin was read by a command that takes no input");
  },
};

function stdinOf(...parts: string[]): AsyncIterable<Uint8Array> {
  return (async function* () {
    for (const p of parts) yield new TextEncoder().encode(p);
  })();
}

interface Captured {
  status: number;
  stdout: string;
  stderr: string;
}

async function run(
  argv: string[],
  adapter: Partial<Adapter>,
  io: Partial<ProcessBindingIo> = {},
  checkLocalReady?: () => void,
): Promise<Captured> {
  let stdout = "";
  let stderr = "";
  const status = await runProcessBinding(
    argv,
    {
      stdin: untouchableStdin,
      stdout: (t) => {
        stdout += t;
      },
      stderr: (t) => {
        stderr += t;
      },
      env: { BRIGADE_LOG_LEVEL: "debug" },
      ...io,
    },
    () => ({
      adapter: { describe: async () => DESCRIBE, ...adapter } as Adapter,
      ...(checkLocalReady === undefined ? {} : { checkLocalReady }),
    }),
  );
  return { status, stdout, stderr };
}

/** Exactly one envelope line on stdout. */
function envelope(c: Captured): Record<string, unknown> {
  expect(c.stdout.endsWith("\n")).toBe(true);
  expect(c.stdout.indexOf("\n")).toBe(c.stdout.length - 1);
  return JSON.parse(c.stdout) as Record<string, unknown>;
}

function errorOf(c: Captured): Record<string, unknown> {
  const e = envelope(c);
  expect(e.ok).toBe(false);
  return e.error as Record<string, unknown>;
}

describe("process binding: argv and stdout", () => {
  test("describe prints one ok envelope, exit 0, never reads stdin", async () => {
    const c = await run(["describe"], {});
    expect(c.status).toBe(0);
    const e = envelope(c);
    expect(e).toMatchObject({ ok: true, protocol_version: "1" });
    expect((e.result as DescribeResult).adapter.name).toBe("fake");
  });

  test.each([
    [["frobnicate"], "unknown_command"],
    [["session", "frobnicate"], "unknown_command"],
    [["describe", "--include-offline"], "unknown_flag"],
    [["team", "join", "--join-secret", "brg1.t-1.sekrit-value"], "secret_on_argv"],
    [["describe", "--join-secret=brg1.t-1.sekrit-value"], "secret_on_argv"],
    [["message", "receive", "--session", "s", "--limit", "201"], "out_of_range"],
  ])("%j → usage (2) with an envelope, no argument echoed", async (argv, reason) => {
    const c = await run(argv, {});
    expect(c.status).toBe(2);
    const error = errorOf(c);
    expect(error).toMatchObject({ code: "usage", retryable: false });
    expect((error.details as Record<string, string>).reason).toBe(reason);
    expect(c.stdout + c.stderr).not.toContain("sekrit");
    expect(c.stdout + c.stderr).not.toContain("frobnicate");
  });

  test("diagnostics go to stderr as NDJSON only; nothing extra on stdout at debug", async () => {
    const c = await run(["session", "list"], {
      sessionList: async () => ({
        team_ref: "t",
        team_name: "n",
        server_time: "2026-10-02T09:15:42Z",
        sessions: [],
        truncated: false,
      }),
    });
    expect(c.status).toBe(0);
    envelope(c);
    for (const line of c.stderr.trimEnd().split("\n")) {
      const entry = JSON.parse(line) as Record<string, unknown>;
      expect(Object.keys(entry).slice(0, 4)).toEqual(["ts", "level", "comp", "event"]);
    }
  });

  test("log level error keeps stderr quiet", async () => {
    const c = await run(["describe", "--log-level", "error"], {});
    expect(c.stderr).toBe("");
  });
});

describe("process binding: errors and exit statuses", () => {
  test.each([
    [new BapError(notFoundError()), 6, "not_found"],
    [
      new BapError({ code: "unavailable", message: "the backend is unavailable", retryable: true }),
      9,
      "unavailable",
    ],
    [new BapError({ code: "config", message: "x", retryable: false }), 11, "config"],
  ])("a BapError maps to its exit status (%#)", async (error, status, code) => {
    const c = await run(["session", "close", "--session", "s-1"], {
      sessionClose: async () => {
        throw error;
      },
    });
    expect(c.status).toBe(status);
    expect(errorOf(c)).toMatchObject({ code, retryable: status === 9 });
  });

  test("an unexpected exception is internal (1), no stack trace anywhere", async () => {
    const c = await run(["session", "close", "--session", "s-1"], {
      sessionClose: async () => {
        throw new TypeError("boom at secret place");
      },
    });
    expect(c.status).toBe(1);
    expect(errorOf(c)).toMatchObject({ code: "internal", retryable: false });
    expect(c.stdout + c.stderr).not.toContain("boom");
    expect(c.stdout + c.stderr).not.toMatch(/\n\s+at /);
  });

  test("a convention the adapter lacks is usage", async () => {
    const c = await run(["team", "members"], {});
    expect(c.status).toBe(2);
    expect(errorOf(c).code).toBe("usage");
  });
});

describe("process binding: stdin", () => {
  const registration = {
    harness: "claude-code",
    harness_version: "2.1.270",
    session_name: "billing",
    activity: "busy",
    inbound: "accept",
  };
  const record = {
    session_id: "s-1",
    session_name: "billing",
    principal_ref: "p-1",
    state: "active",
    activity: "busy",
    inbound: "accept",
    last_seen_at: "2026-10-02T09:15:42Z",
    lease_until: "2026-10-02T09:17:12Z",
    created_at: "2026-10-02T09:15:42Z",
    is_self: false,
    resumed: false,
    lease_seconds: 90,
    server_time: "2026-10-02T09:15:42Z",
  };

  test("a document command reads one document and passes the validated value", async () => {
    let seen: unknown;
    const c = await run(
      ["session", "register"],
      {
        sessionRegister: async (r) => {
          seen = r;
          return record as never;
        },
      },
      {
        stdin: stdinOf(
          JSON.stringify({ ...registration, extra: 1 }).slice(0, 10),
          JSON.stringify({ ...registration, extra: 1 }).slice(10),
          "\n",
        ),
      },
    );
    expect(c.status).toBe(0);
    expect(seen).toEqual(registration);
    expect(envelope(c).ok).toBe(true);
  });

  test.each([
    ["", "stdin", "required"],
    ['{"session_name": ', undefined, "malformed_json"],
    ['{"a":1,"a":2}', undefined, "duplicate_member"],
  ])("bad stdin %j → invalid_input (3)", async (text, field, reason) => {
    const c = await run(["session", "register"], {}, { stdin: stdinOf(text) });
    expect(c.status).toBe(3);
    const details = errorOf(c).details as Record<string, string>;
    expect(details.field).toBe(field);
    expect(details.reason).toBe(reason);
  });

  test("stdin over 1 MiB → invalid_input field stdin, actual counts every byte", async () => {
    const big = "a".repeat(600_000);
    const c = await run(["session", "register"], {}, { stdin: stdinOf(big, big) });
    expect(c.status).toBe(3);
    expect(errorOf(c).details).toMatchObject({
      field: "stdin",
      reason: "too_long",
      limit: "1048576",
      actual: "1200000",
    });
  });

  test("invalid bytes → not_utf8", async () => {
    let stdout = "";
    const status = await runProcessBinding(
      ["message", "ack", "--session", "s"],
      {
        stdin: (async function* () {
          yield new Uint8Array([0x7b, 0xff, 0x7d]);
        })(),
        stdout: (t) => {
          stdout += t;
        },
        stderr: () => {},
        env: {},
      },
      () => ({ adapter: { describe: async () => DESCRIBE } as unknown as Adapter }),
    );
    expect(status).toBe(3);
    expect(JSON.parse(stdout).error.details).toEqual({ field: "stdin", reason: "not_utf8" });
  });

  test("the local check runs before stdin is read (docs/spec/protocol.md §6.16 a)", async () => {
    const c = await run(["message", "send"], {}, {}, () => {
      throw new BapError({ code: "unauthenticated", message: "m", retryable: false });
    });
    expect(c.status).toBe(4);
  });

  test("a forbidden sender member is refused before the adapter is called", async () => {
    let called = false;
    const c = await run(
      ["message", "send"],
      {
        messageSend: async () => {
          called = true;
          throw new Error("unreachable");
        },
      },
      {
        stdin: stdinOf(
          JSON.stringify({
            sender_session_id: "a",
            recipient_session_id: "b",
            body: "x",
            hop_count: null,
          }),
        ),
      },
    );
    expect(c.status).toBe(3);
    expect(errorOf(c).details).toMatchObject({ field: "hop_count", reason: "forbidden_member" });
    expect(called).toBe(false);
  });

  test.each([
    [["session", "list"]],
    [["session", "close", "--session", "s"]],
    [["message", "receive", "--session", "s"]],
    [["team", "leave"]],
    [["team", "members"]],
  ])("%j never touches stdin", async (argv) => {
    const ok = async (): Promise<never> => {
      throw new BapError(notFoundError());
    };
    const c = await run(argv, {
      sessionList: ok,
      sessionClose: ok,
      messageReceive: ok,
      teamLeave: ok,
      teamMembers: ok,
    });
    expect(c.status).toBe(6);
  });

  test("a document command on a terminal is usage terminal", async () => {
    const c = await run(["message", "send"], {}, { stdinIsTerminal: true });
    expect(c.status).toBe(2);
    expect((errorOf(c).details as Record<string, string>).reason).toBe("terminal");
  });

  test("--prompt without a terminal is usage, stdin unread", async () => {
    for (const argv of [
      ["team", "create", "--prompt"],
      ["team", "join", "--prompt"],
    ]) {
      const c = await run(argv, {
        teamCreate: async () => ({}) as never,
        teamJoin: async () => ({}) as never,
      });
      expect(c.status).toBe(2);
      expect((errorOf(c).details as Record<string, string>).reason).toBe(
        "prompt_requires_terminal",
      );
    }
  });

  test("--prompt on a terminal asks, with no echo for the secret", async () => {
    const asked: [string, boolean][] = [];
    let got: unknown;
    const c = await run(
      ["team", "join", "--prompt", "--label", "dana"],
      {
        teamJoin: async (r) => {
          got = r;
          return { team_ref: "t-1", team_name: "core", principal_ref: "p-1", rejoined: false };
        },
      },
      {
        stdinIsTerminal: true,
        prompt: async (q, o) => {
          asked.push([q, o.secret]);
          return "brg1.t-1.sekrit-value";
        },
      },
    );
    expect(c.status).toBe(0);
    expect(asked).toEqual([["Join secret: ", true]]);
    expect(got).toEqual({ join_secret: "brg1.t-1.sekrit-value", human_label: "dana" });
    expect(c.stdout + c.stderr).not.toContain("sekrit");
  });
});

describe("process binding: team create", () => {
  const result = {
    team_ref: "t-1",
    team_name: "core",
    join_secret: "brg1.t-1.sekrit-value-123",
    principal_ref: "p-1",
  };

  test("--name builds the request without reading stdin; the secret is on stdout once", async () => {
    let got: unknown;
    const c = await run(["team", "create", "--name", "core", "--label", "dana"], {
      teamCreate: async (r) => {
        got = r;
        return result;
      },
    });
    expect(c.status).toBe(0);
    expect(got).toEqual({ team_name: "core", human_label: "dana" });
    expect(envelope(c).result).toEqual(result);
    expect(c.stderr).toContain("join_secret_shown_once");
    expect(c.stderr).not.toContain("sekrit");
  });

  test("--secret-file writes the secret 0600 and omits it from stdout", async () => {
    const dir = testTempDir("brigade-secret-");
    const file = join(dir, "secret.txt");
    const c = await run(
      ["team", "create", "--secret-file", file],
      { teamCreate: async () => result },
      { stdin: stdinOf('{"team_name":"core"}\n') },
    );
    expect(c.status).toBe(0);
    expect(envelope(c).result).toEqual({
      team_ref: "t-1",
      team_name: "core",
      principal_ref: "p-1",
    });
    expect(c.stdout + c.stderr).not.toContain("sekrit");
    expect(readFileSync(file, "utf8")).toBe(`${result.join_secret}\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  test("--secret-file into a missing folder is usage before the team is created", async () => {
    let called = false;
    const c = await run(
      ["team", "create", "--name", "core", "--secret-file", "/nonexistent-dir-xyz/s.txt"],
      {
        teamCreate: async () => {
          called = true;
          return result;
        },
      },
    );
    expect(c.status).toBe(2);
    expect(called).toBe(false);
    expect(c.stdout).not.toContain("nonexistent");
  });
});

class FakeWatch implements WatchHandle {
  readonly queue = new EventQueue<WatchEvent>();
  readonly sent: WatchCommand[] = [];
  closed = false;
  get events(): AsyncIterable<WatchEvent> {
    return this.queue;
  }
  [Symbol.asyncIterator](): AsyncIterator<WatchEvent> {
    return this.queue[Symbol.asyncIterator]();
  }
  async send(command: WatchCommand): Promise<void> {
    this.sent.push(command);
    if (command.type === "ack") {
      this.queue.push({ event: "acked", message_ids: command.message_ids, unknown: [] });
    }
    if (command.type === "close") this.queue.end();
  }
  async close(): Promise<void> {
    this.closed = true;
    this.queue.end();
  }
}

/** A stdin the test writes lines to and ends. */
function controllableStdin(): {
  stdin: AsyncIterable<Uint8Array>;
  write(t: string): void;
  end(): void;
} {
  const q = new EventQueue<Uint8Array>();
  return {
    stdin: q,
    write: (t) => q.push(new TextEncoder().encode(t)),
    end: () => q.end(),
  };
}

describe("process binding: message watch", () => {
  async function startWatch(io: Partial<ProcessBindingIo>) {
    const watch = new FakeWatch();
    let stdout = "";
    const done = runProcessBinding(
      ["message", "watch", "--session", "s-1"],
      {
        stdin: untouchableStdin,
        stdout: (t) => {
          stdout += t;
        },
        stderr: () => {},
        env: {},
        ...io,
      },
      () => ({
        adapter: {
          describe: async () => DESCRIBE,
          messageWatch: () => watch,
        } as unknown as Adapter,
      }),
    );
    return { watch, done, out: () => stdout };
  }

  test("events are NDJSON lines; commands reach the handle; unknown, invalid and over-long lines are skipped; EOF exits 0", async () => {
    const input = controllableStdin();
    const { watch, done, out } = await startWatch({ stdin: input.stdin });
    watch.queue.push({ event: "ready", protocol_version: "1", session_id: "s-1", mode: "push" });
    input.write('{"type":"pause"}\n');
    input.write(`{"type":"ack","message_ids":["${"x".repeat(1_100_000)}"]}\n`);
    input.write('{"type":"ack"}\n');
    input.write('{"type":"ack","message_ids":["m-1"]}\n');
    await new Promise((r) => setTimeout(r, 20));
    input.end();
    expect(await done).toBe(0);
    expect(watch.sent).toEqual([{ type: "ack", message_ids: ["m-1"] }]);
    expect(watch.closed).toBe(true);
    const lines = out()
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.event)).toEqual(["ready", "acked"]);
  });

  test("a close command ends the watch with 0", async () => {
    const input = controllableStdin();
    const { watch, done } = await startWatch({ stdin: input.stdin });
    input.write('{"type":"close"}\n');
    expect(await done).toBe(0);
    expect(watch.sent).toEqual([{ type: "close" }]);
  });

  test("terminate ends the watch with 0", async () => {
    const input = controllableStdin();
    let fire: () => void = () => {};
    const { watch, done } = await startWatch({
      stdin: input.stdin,
      onTerminate: (l) => {
        fire = l;
        return () => {};
      },
    });
    watch.queue.push({ event: "ready", protocol_version: "1", session_id: "s-1", mode: "push" });
    await new Promise((r) => setTimeout(r, 10));
    fire();
    expect(await done).toBe(0);
    expect(watch.closed).toBe(true);
  });

  test("a non-retryable error event exits with its code's status; a retryable one does not", async () => {
    const input = controllableStdin();
    const { watch, done, out } = await startWatch({ stdin: input.stdin });
    watch.queue.push({
      event: "error",
      error: { code: "unavailable", message: "m", retryable: true },
    });
    watch.queue.push({
      event: "error",
      error: { code: "not_found", message: "m", retryable: false },
    });
    watch.queue.end();
    expect(await done).toBe(6);
    expect(out().trimEnd().split("\n")).toHaveLength(2);
  });

  test("a body with line breaks and U+2028 stays on one physical line", async () => {
    const input = controllableStdin();
    const { watch, done, out } = await startWatch({ stdin: input.stdin });
    watch.queue.push({
      event: "message",
      message: {
        protocol_version: "1",
        kind: "text",
        message_id: "m-1",
        team_ref: "t-1",
        sender: { principal_ref: "p", session_id: "s-2", session_name: "n" },
        recipient_session_id: "s-1",
        body: 'a\nb\r\nc\u2028d\u2029{"event":"error"}',
        reply_to: null,
        hop_count: 0,
        created_at: "2026-10-02T09:15:42Z",
        delivery_state: "accepted",
      },
    });
    watch.queue.end();
    expect(await done).toBe(0);
    const text = out();
    expect(text.split("\n")).toHaveLength(2);
    expect(text).not.toMatch(/[\u2028\u2029]/);
    expect(JSON.parse(text).message.body).toBe('a\nb\r\nc\u2028d\u2029{"event":"error"}');
  });
});

describe("process binding: watch pre-check", () => {
  test("the local check is not run for message watch (failures must be NDJSON error events)", async () => {
    const queue = new EventQueue<WatchEvent>();
    queue.push({
      event: "error",
      error: { code: "unauthenticated", message: "m", retryable: false },
    });
    queue.end();
    const handle = {
      events: queue,
      [Symbol.asyncIterator]: () => queue[Symbol.asyncIterator](),
      send: async () => {},
      close: async () => {},
    };
    const c = await run(
      ["message", "watch", "--session", "s-1"],
      { messageWatch: () => handle },
      { stdin: stdinOf() },
      () => {
        throw new BapError({ code: "unauthenticated", message: "m", retryable: false });
      },
    );
    expect(c.status).toBe(4);
    expect(JSON.parse(c.stdout)).toEqual({
      event: "error",
      error: { code: "unauthenticated", message: "m", retryable: false },
    });
  });
});
