import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { parseConformanceArgs } from "./args.ts";
import { SuiteContext } from "./context.ts";
import type { StdinMode } from "./spawn.ts";
import {
  type AdapterInvocation,
  IN_PROCESS_THROW_STATUS,
  type InProcessAdapterEntry,
  inProcessTransport,
} from "./transport.ts";

const scratch = mkdtempSync(join(tmpdir(), "conformance-transport-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function invocation(stdin: StdinMode, timeoutMs = 5000): AdapterInvocation {
  return { args: ["a", "b"], env: { K: "v" }, cwd: scratch, stdin, timeoutMs };
}

async function readAll(stdin: AsyncIterable<Uint8Array>): Promise<string> {
  let text = "";
  for await (const chunk of stdin) text += new TextDecoder().decode(chunk);
  return text;
}

describe("the in-process transport", () => {
  test("gives the entry the arguments, environment and document, and returns what it wrote", async () => {
    const entry: InProcessAdapterEntry = async (argv, io) => {
      io.stdout(`${JSON.stringify({ argv, k: io.env.K, input: await readAll(io.stdin) })}\n`);
      io.stderr("diagnostic\n");
      return 3;
    };
    const outcome = await inProcessTransport(entry).run(
      invocation({ kind: "document", data: '{"x":1}\n' }),
    );
    expect(outcome.exitCode).toBe(3);
    expect(outcome.signal).toBeNull();
    expect(JSON.parse(outcome.stdout)).toEqual({ argv: ["a", "b"], k: "v", input: '{"x":1}\n' });
    expect(outcome.stderr).toBe("diagnostic\n");
  });

  test("the null device ends at once; a held-open stdin that is read is a timeout, reported as killed", async () => {
    const reader: InProcessAdapterEntry = async (_argv, io) => {
      io.stdout(`${(await readAll(io.stdin)).length}\n`);
      return 0;
    };
    const transport = inProcessTransport(reader);
    expect((await transport.run(invocation({ kind: "null" }))).stdout).toBe("0\n");
    const held = await transport.run(invocation({ kind: "held-open" }, 50));
    expect(held.timedOut).toBe(true);
    expect(held.signal).toBe("SIGKILL");
    expect(held.exitCode).toBeNull();
    expect(held.stdout).toBe("");
  });

  test("an entry that throws is an exit status outside 0..12 with its stack on stderr", async () => {
    const outcome = await inProcessTransport(async () => {
      throw new Error("boom");
    }).run(invocation({ kind: "null" }));
    expect(outcome.exitCode).toBe(IN_PROCESS_THROW_STATUS);
    expect(outcome.stderr).toContain("Error: boom");
    expect(outcome.stderr).toMatch(/\n\s+at /);
  });

  test("a watch: lines as written, commands through stdin, SIGTERM reaches onTerminate, SIGKILL drops what follows", async () => {
    let terminated = 0;
    const entry: InProcessAdapterEntry = (_argv, io) =>
      new Promise((resolve) => {
        io.stdout('{"event":"ready"}\n');
        const stop = io.onTerminate(() => {
          terminated++;
          io.stdout('{"event":"after-kill"}\n');
          stop();
          resolve(0);
        });
        void (async () => {
          for await (const chunk of io.stdin) io.stdout(new TextDecoder().decode(chunk));
        })();
      });
    const transport = inProcessTransport(entry);
    const soft = transport.start(invocation({ kind: "held-open" }));
    expect(await soft.waitForLine((l) => l.includes("ready"), 1000)).toBe(0);
    soft.write('{"type":"ack"}\n');
    expect(await soft.waitForLine((l) => l.includes("ack"), 1000)).toBe(1);
    soft.kill("SIGTERM");
    const ended = await soft.waitExit(1000);
    expect(ended?.exitCode).toBe(0);
    expect(ended?.stdout).toContain("after-kill");

    const hard = transport.start(invocation({ kind: "held-open" }));
    await hard.waitForLine((l) => l.includes("ready"), 1000);
    hard.kill("SIGKILL");
    const killed = await hard.waitExit(1000);
    expect(killed?.signal).toBe("SIGKILL");
    expect(killed?.stdout).not.toContain("after-kill");
    expect(terminated).toBe(2);
  });

  test("close() kills the watches still running", async () => {
    const entry: InProcessAdapterEntry = (_argv, io) =>
      new Promise((resolve) => {
        io.onTerminate(() => resolve(0));
      });
    const transport = inProcessTransport(entry);
    const left = transport.start(invocation({ kind: "held-open" }));
    transport.close();
    expect((await left.waitExit(1000))?.signal).toBe("SIGKILL");
  });

  test("a suite context calls through the transport it was given, under the same global checks", async () => {
    // The adapter command names nothing that could be spawned: only the transport can answer.
    const parsed = parseConformanceArgs(["--adapter", '["/nonexistent/adapter"]']);
    if (!parsed.ok || parsed.help) throw new Error("bad options");
    const seen: string[][] = [];
    const entry: InProcessAdapterEntry = async (argv, io) => {
      seen.push(argv);
      io.stdout(argv[0] === "describe" ? '{"ok":true,"protocol_version":"1","result":{}}\n' : "");
      return 0;
    };
    const ctx = new SuiteContext(
      parsed.options,
      mkdtempSync(join(scratch, "run-")),
      () => {},
      inProcessTransport(entry),
    );
    const ok = await ctx.call(ctx.principal("a"), ["describe"]);
    expect(ok.envelope?.ok).toBe(true);
    expect(ctx.log.failures).toEqual([]);
    // An answer that is no envelope fails the call's global check, as a spawned one would.
    await ctx.call(ctx.principal("a"), ["session", "list"]);
    expect(seen).toEqual([["describe"], ["session", "list"]]);
    expect(ctx.log.failures).toHaveLength(1);
    expect(ctx.log.failures[0]).toMatch(/^a: session list: /);
    expect(ctx.log.failures[0]).not.toMatch(/could not be started/);
  });

  test("stopping at the first failure ends the case there", () => {
    const parsed = parseConformanceArgs(["--adapter", '["unused"]']);
    if (!parsed.ok || parsed.help) throw new Error("bad options");
    const ctx = new SuiteContext(parsed.options, mkdtempSync(join(scratch, "run-")), () => {});
    expect(ctx.check(false, "first")).toBe(false);
    ctx.stopAtFirstFailure = true;
    expect(() => ctx.check(true, "fine")).toThrow("first");
  });
});
