import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

/**
 * Why {@link parseProcStat} refused a line: `no_comm_end` (no `)` closing the command name),
 * `too_few_fields` (fewer than 22 fields), `bad_start` (field 22 is not a decimal number),
 * `bad_ppid` (field 4 is not a decimal number).
 *
 * @example PROC_STAT_FAILURES.includes("bad_start") === true
 */
export const PROC_STAT_FAILURES = [
  "no_comm_end",
  "too_few_fields",
  "bad_start",
  "bad_ppid",
] as const;

/** One refusal of {@link parseProcStat}. */
export type ProcStatFailure = (typeof PROC_STAT_FAILURES)[number];

/**
 * What `/proc/<pid>/stat` says about a process: its one-letter `state` (field 3), its parent's
 * pid (field 4) and its start time in clock ticks since boot (field 22), all read after the LAST
 * `)` so a command name holding `)` or spaces cannot shift the fields.
 *
 * @example parseProcStat("42 (a) b) S 1 …")
 */
export type ProcStatParse =
  | {
      readonly ok: true;
      readonly state: string;
      readonly ppid: number;
      readonly startTicks: string;
    }
  | { readonly ok: false; readonly reason: ProcStatFailure };

const DECIMAL = /^[0-9]{1,20}$/;

/**
 * Parses one `/proc/<pid>/stat` line (proc(5)): `pid (comm) state ppid … starttime …`. The
 * command name may hold spaces and `)`, so the fields are counted after the last `)`: the first
 * is field 3 (`state`), the second field 4 (`ppid`), the twentieth field 22 (`starttime`,
 * decimal clock ticks). Never throws.
 *
 * @example parseProcStat("7 (x) S 1 7 7 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 123456 0 0").startTicks === "123456"
 */
export function parseProcStat(line: string): ProcStatParse {
  const end = line.lastIndexOf(")");
  if (end === -1) return { ok: false, reason: "no_comm_end" };
  const fields = line
    .slice(end + 1)
    .trim()
    .split(/\s+/);
  const state = fields[0];
  const ppid = fields[1] ?? "";
  const start = fields[19];
  if (state === undefined || state === "" || start === undefined) {
    return { ok: false, reason: "too_few_fields" };
  }
  if (!DECIMAL.test(start)) return { ok: false, reason: "bad_start" };
  if (!DECIMAL.test(ppid)) return { ok: false, reason: "bad_ppid" };
  return { ok: true, state, ppid: Number(ppid), startTicks: start };
}

/**
 * How a pid looks from here: `alive` (exists, ours to signal, not a zombie), `zombie` (exited
 * but not yet reaped: `kill(pid, 0)` still succeeds — docs/spec/claude-code.md §7.4), `foreign`
 * (exists but belongs to another user: EPERM, treated as pid reuse), `dead` (no such process).
 *
 * @example processLiveness(process.pid) === "alive"
 */
export type ProcessLiveness = "alive" | "zombie" | "foreign" | "dead";

/** A probe of processes, injected so tests can fake Claude Code's pid. */
export interface ProcessProbe {
  /** See {@link ProcessLiveness}. */
  liveness(pid: number): ProcessLiveness;
  /** The start token of `pid`, or `undefined` when it cannot be read (gone). */
  startToken(pid: number): string | undefined;
}

function readStat(pid: number): ProcStatParse | undefined {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, "latin1"));
  } catch {
    return undefined;
  }
}

function ps(pid: number, column: string): string | undefined {
  try {
    const out = execFileSync("ps", ["-o", `${column}=`, "-p", String(pid)], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 2_000,
      env: { PATH: "/bin:/usr/bin", LC_ALL: "C" },
    }).trim();
    return out === "" ? undefined : out;
  } catch {
    return undefined;
  }
}

/**
 * The process start token of `pid` at the finest grain Node can read without a native module
 * (docs/spec/claude-code.md §7.4): on Linux `"linux:" + starttime` (field 22 of `/proc/<pid>/stat`,
 * clock ticks since boot); elsewhere (macOS) `"ps:" + ps -o lstart=` (**[ours]** one-second
 * resolution: a pid reused within the same second is not told apart). `undefined` when the
 * process is gone or unreadable. Never throws.
 *
 * @example processStartToken(process.pid)?.startsWith("linux:")
 */
export function processStartToken(pid: number): string | undefined {
  if (!Number.isSafeInteger(pid) || pid <= 0) return undefined;
  if (process.platform === "linux") {
    const stat = readStat(pid);
    return stat?.ok === true ? `linux:${stat.startTicks}` : undefined;
  }
  const lstart = ps(pid, "lstart");
  return lstart === undefined ? undefined : `ps:${lstart.replace(/\s+/g, " ")}`;
}

/**
 * The pid of `pid`'s parent: on Linux field 4 of `/proc/<pid>/stat`, elsewhere (macOS)
 * `ps -o ppid=`. `undefined` when the process is gone or unreadable, or `pid` is not a positive
 * safe integer; `0` for a process without a parent (the kernel's own). Never throws.
 *
 * @example parentPid(process.pid) === process.ppid
 */
export function parentPid(pid: number): number | undefined {
  if (!Number.isSafeInteger(pid) || pid <= 0) return undefined;
  if (process.platform === "linux") {
    const stat = readStat(pid);
    return stat?.ok === true ? stat.ppid : undefined;
  }
  const ppid = ps(pid, "ppid");
  return ppid !== undefined && DECIMAL.test(ppid) ? Number(ppid) : undefined;
}

/**
 * Probes `pid`: `kill(pid, 0)` (ESRCH → `dead`, EPERM → `foreign`), then the zombie check —
 * Linux `/proc/<pid>/stat` state `Z` (or `X`), elsewhere `ps -o stat=` starting with `Z`. A
 * SIGKILLed Claude Code stays a zombie until reaped, and `kill(pid, 0)` passes all that time.
 * Never throws.
 *
 * @example processLiveness(999_999_999) === "dead"
 */
export function processLiveness(pid: number): ProcessLiveness {
  if (!Number.isSafeInteger(pid) || pid <= 0) return "dead";
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM" ? "foreign" : "dead";
  }
  if (process.platform === "linux") {
    const stat = readStat(pid);
    if (stat === undefined) return "dead";
    if (stat.ok && (stat.state === "Z" || stat.state === "X")) return "zombie";
    return "alive";
  }
  const state = ps(pid, "stat");
  // A `ps` that failed (a timeout under load, no fork) is no evidence of a zombie: the process
  // counts as alive while it still answers `kill(pid, 0)`, so a live Claude Code never loses its
  // session to a failed probe.
  if (state === undefined) return signalable(pid) ? "alive" : "dead";
  return state.startsWith("Z") ? "zombie" : "alive";
}

function signalable(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The real process probe ({@link processLiveness}, {@link processStartToken}). */
export const systemProcessProbe: ProcessProbe = {
  liveness: processLiveness,
  startToken: processStartToken,
};
