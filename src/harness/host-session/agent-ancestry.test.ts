import { describe, expect, test } from "vitest";
import {
  agentAncestor,
  MAX_ANCESTRY_STEPS,
  type ProcessEntry,
  processReader,
} from "./agent-ancestry.ts";
import type { ProcessSignature } from "./process-signature.ts";

const SIGNATURES: Record<string, ProcessSignature> = {
  toolcli: { executables: ["toolcli"], folders: [] },
};

function entry(ppid: number, comm: string, ...argv: string[]): ProcessEntry {
  return { ppid, comm, argv: argv.length > 0 ? argv : [comm] };
}

/** A reader over `table` that counts its reads. */
function reader(table: Map<number, ProcessEntry>) {
  const reads: number[] = [];
  return {
    reads,
    read: (pid: number) => {
      reads.push(pid);
      return table.get(pid);
    },
  };
}

describe("agentAncestor", () => {
  test("a client anywhere above, through shells, a pty and env: named; the command itself is not looked at", () => {
    const table = new Map([
      [100, entry(90, "node", "node", "/x/brigade.js")],
      [90, entry(80, "env", "env", "-u", "TOOL_SESSION", "node")],
      [80, entry(70, "bash", "bash", "-c", "brigade send --as-me s-1 hi")],
      [70, entry(60, "toolcli", "/opt/toolcli")],
      [60, entry(50, "zsh", "-zsh")],
      [50, entry(1, "tmux: server", "tmux")],
    ]);
    expect(agentAncestor(100, reader(table).read, SIGNATURES)).toBe("toolcli");
    // The asking process named like a client is no ancestor.
    const self = new Map([
      [100, entry(60, "toolcli")],
      [60, entry(1, "zsh")],
    ]);
    expect(agentAncestor(100, reader(self).read, SIGNATURES)).toBeUndefined();
  });

  test("the person's own chain (sshd, tmux, shells, an editor) names none, and ends at init", () => {
    const table = new Map([
      [100, entry(90, "node")],
      [90, entry(80, "bash")],
      [80, entry(70, "vim")],
      [70, entry(60, "zsh")],
      [60, entry(50, "sshd", "sshd: dana@pts/0")],
      [50, entry(1, "sshd")],
      [1, entry(7, "systemd", "/sbin/init")],
      [7, entry(0, "toolcli")],
    ]);
    const { read, reads } = reader(table);
    expect(agentAncestor(100, read, SIGNATURES)).toBeUndefined();
    // Init is the last process looked at, whatever its entry says its parent is.
    expect(reads).toEqual([100, 90, 80, 70, 60, 50, 1]);
  });

  test("inside a PID namespace whose first process is the client's sandbox: pid 1 is the client", () => {
    // Codex 0.171.0's sandbox: the command is pid 2, `codex-linux-sandbox` (comm codex) pid 1.
    const table = new Map([
      [3, entry(2, "node", "node", "/x/brigade.js")],
      [2, entry(1, "bash", "/bin/bash", "-c", "brigade send --as-me s-1 hi")],
      [1, entry(0, "toolcli", "toolcli-sandbox", "--sandbox-policy-cwd", "/w")],
    ]);
    expect(agentAncestor(3, reader(table).read, SIGNATURES)).toBe("toolcli");
  });

  test("a missing entry, a loop, or a chain deeper than the bound ends the walk with none", () => {
    const missing = new Map([
      [100, entry(90, "node")],
      [90, entry(80, "bash")],
    ]);
    expect(agentAncestor(100, reader(missing).read, SIGNATURES)).toBeUndefined();
    expect(agentAncestor(100, () => undefined, SIGNATURES)).toBeUndefined();
    const loop = new Map([
      [100, entry(90, "node")],
      [90, entry(80, "bash")],
      [80, entry(90, "bash")],
    ]);
    const looped = reader(loop);
    expect(agentAncestor(100, looped.read, SIGNATURES)).toBeUndefined();
    expect(looped.reads).toEqual([100, 90, 80]);
    // A chain of shells far deeper than the bound, a client at its top: reads stay bounded.
    const deep = reader(new Map());
    const deepRead = (pid: number): ProcessEntry | undefined => {
      deep.reads.push(pid);
      return pid === 100_000 ? entry(1, "toolcli") : entry(pid + 1, "bash");
    };
    expect(agentAncestor(10, deepRead, SIGNATURES)).toBeUndefined();
    expect(deep.reads).toHaveLength(MAX_ANCESTRY_STEPS + 1);
    // The same client within the bound is found.
    const near = (pid: number): ProcessEntry =>
      pid === 10 + MAX_ANCESTRY_STEPS ? entry(1, "toolcli") : entry(pid + 1, "bash");
    expect(agentAncestor(10, near, SIGNATURES)).toBe("toolcli");
  });
});

describe("processReader", () => {
  test.runIf(process.platform === "linux")(
    "reads this process and its parent from /proc: the parent, comm and argv",
    () => {
      const read = processReader();
      const self = read(process.pid);
      expect(self?.ppid).toBe(process.ppid);
      expect(self?.argv[0]).toBe(process.argv0);
      expect(self?.comm.length).toBeGreaterThan(0);
      expect(read(process.ppid)).toBeDefined();
      expect(read(2 ** 31)).toBeUndefined();
    },
  );
});
