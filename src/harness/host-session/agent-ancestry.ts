import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { parseProcStat } from "../watcher/index.ts";
import { type ProcessLook, type ProcessSignature, processClient } from "./process-signature.ts";

/** One process of the table a walk reads: how it looks, and its parent's pid. */
export interface ProcessEntry extends ProcessLook {
  /** The parent's pid; `0` for a process without one. */
  readonly ppid: number;
}

/** Reads one process by pid, or `undefined` when it is gone or cannot be read. Never throws. */
export type ProcessReader = (pid: number) => ProcessEntry | undefined;

/**
 * Most ancestors {@link agentAncestor} looks at: deeper than any real chain from a login (sshd,
 * a terminal, tmux, shells, a client, its shell tool), small enough to bound a walk over a table
 * that is corrupt or changing under it.
 */
export const MAX_ANCESTRY_STEPS = 64;

/**
 * The client (a key of `signatures`) whose process is an ancestor of `pid`, nearest first, or
 * `undefined` when none is. The walk reads `pid`'s entry for its parent, then each parent's, and
 * stops after pid 1, at pid 0 (the kernel), at an entry it cannot read, at a pid seen before (a
 * table changing under the walk can loop), or after {@link MAX_ANCESTRY_STEPS} ancestors. Pid 1
 * is looked at too: inside a PID namespace it is the namespace's first process, which a client's
 * sandbox can be (Codex's `codex-linux-sandbox`), while the host's init is never a client. `pid`
 * itself is not looked at: it is the command asking. `read` is injected (tests give a table;
 * {@link processReader} reads this machine's). Never throws.
 *
 * @example agentAncestor(process.pid, processReader(), { gemini: GEMINI_PROCESS_SIGNATURE }) // "gemini" under Gemini CLI's shell tool
 */
export function agentAncestor(
  pid: number,
  read: ProcessReader,
  signatures: Readonly<Record<string, ProcessSignature>>,
): string | undefined {
  const seen = new Set<number>([pid]);
  let parent = read(pid)?.ppid;
  for (let step = 0; step < MAX_ANCESTRY_STEPS; step++) {
    if (parent === undefined || parent < 1 || seen.has(parent)) return undefined;
    seen.add(parent);
    const entry = read(parent);
    if (entry === undefined) return undefined;
    const client = processClient(entry, signatures);
    if (client !== undefined) return client;
    if (parent === 1) return undefined;
    parent = entry.ppid;
  }
  return undefined;
}

/** Linux: `/proc/<pid>/stat` (the parent), `/proc/<pid>/comm` and `/proc/<pid>/cmdline`. */
function procEntry(pid: number): ProcessEntry | undefined {
  try {
    const stat = parseProcStat(readFileSync(`/proc/${pid}/stat`, "latin1"));
    if (!stat.ok) return undefined;
    const comm = readFileSync(`/proc/${pid}/comm`, "utf8").replace(/\n$/, "");
    const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    if (argv[argv.length - 1] === "") argv.pop();
    return { ppid: stat.ppid, comm, argv };
  } catch {
    return undefined;
  }
}

/**
 * Elsewhere (macOS): one `ps -A -o pid=,ppid=,args=` for the whole table. The arguments are split
 * at spaces, so a path holding a space is cut there; `comm` is the program's last path segment.
 */
function psTable(): Map<number, ProcessEntry> {
  const table = new Map<number, ProcessEntry>();
  let out: string;
  try {
    out = execFileSync("ps", ["-A", "-o", "pid=,ppid=,args="], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 2_000,
      maxBuffer: 16 * 1024 * 1024,
      env: { PATH: "/bin:/usr/bin", LC_ALL: "C" },
    });
  } catch {
    return table;
  }
  for (const line of out.split("\n")) {
    const match = /^\s*(\d{1,10})\s+(\d{1,10})\s+(.*)$/.exec(line);
    if (match === null) continue;
    const argv = (match[3] ?? "").trim().split(/\s+/);
    const program = argv[0] ?? "";
    table.set(Number(match[1]), {
      ppid: Number(match[2]),
      comm: program.slice(program.lastIndexOf("/") + 1),
      argv,
    });
  }
  return table;
}

/**
 * This machine's process table as a {@link ProcessReader}: on Linux each entry read from `/proc`
 * when asked; elsewhere the whole table read once from `ps` (macOS). Where neither can be read,
 * every pid reads as `undefined`, so a walk finds no client (the caller's other checks stand).
 * Never throws.
 *
 * @example processReader()(process.pid)?.ppid === process.ppid
 */
export function processReader(): ProcessReader {
  if (process.platform === "linux") return procEntry;
  let table: Map<number, ProcessEntry> | undefined;
  return (pid) => {
    table ??= psTable();
    return table.get(pid);
  };
}
