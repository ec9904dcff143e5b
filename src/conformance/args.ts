import { parseSeed } from "./shuffle.ts";

/**
 * Everything `brigade conformance` was asked to do (docs/spec/protocol.md §12.1).
 *
 * `adapter` is the full argument array prefixing every call: the `--adapter` command (a path, a
 * name on `PATH`, or a JSON array) followed by the fixed arguments given after `--`.
 */
export interface ConformanceOptions {
  readonly adapter: readonly string[];
  readonly env: readonly (readonly [string, string])[];
  readonly json: boolean;
  readonly keepTemp: boolean;
  readonly only: readonly string[] | undefined;
  readonly skip: readonly string[];
  readonly rebind: readonly string[] | undefined;
  readonly setup: readonly string[] | undefined;
  readonly sharedEnv: string | undefined;
  readonly shuffle: bigint | undefined;
  readonly slow: boolean;
  readonly tags: readonly string[];
  /** Per-spawn budget in milliseconds (default 20 s, docs/spec/protocol.md §1.6). */
  readonly timeoutMs: number;
  readonly verbose: boolean;
}

/** Result of {@link parseConformanceArgs}: never throws; `reason` never repeats an argument. */
export type ParsedConformanceArgs =
  | { readonly ok: true; readonly help: true }
  | { readonly ok: true; readonly help: false; readonly options: ConformanceOptions }
  | { readonly ok: false; readonly reason: string };

/**
 * The usage text printed by `--help` and after a usage error.
 *
 * @example CONFORMANCE_USAGE.startsWith("usage: brigade conformance")
 */
export const CONFORMANCE_USAGE: string = `usage: brigade conformance [flags] --adapter <cmd> [-- <fixed args>...]
  --adapter <cmd>       adapter executable (path, name on PATH, or JSON array)
  --env K=V             add a variable to every child environment (repeatable)
  --json                print the JSON report instead of lines
  --keep-temp           keep the run directory
  --only <ids>          run only these cases (comma-separated)
  --skip <ids>          skip these cases (comma-separated)
  --tags <tags>         run only cases with one of these tags (core, cap:<x>, slow)
  --rebind <cmd>        command re-pointing a principal at a team_ref: <cmd> <principal> <team_ref>
  --setup <cmd>         command binding a principal to a team: <cmd> <principal> <team>
  --shared-env NAME     export NAME=<run>/shared to every child
  --shuffle <seed>      run cases in a reproducible shuffled order (u64 seed)
  --slow                include slow cases (C-14, C-54)
  --timeout <dur>       per-call budget, e.g. 20s, 1500ms, 1m (default 20s)
  -v                    print every call on stderr
`;

const CASE_ID = /^C-\d\d[b]?$/;

/**
 * Parses a command given as a JSON array of strings or as one executable name/path.
 *
 * @example parseCommand('["node","a.js"]') // ["node", "a.js"]
 */
export function parseCommand(text: string): string[] | undefined {
  if (text.startsWith("[")) {
    try {
      const value: unknown = JSON.parse(text);
      if (
        Array.isArray(value) &&
        value.length > 0 &&
        value.every((v) => typeof v === "string" && v !== "")
      ) {
        return value as string[];
      }
    } catch {
      return undefined;
    }
    return undefined;
  }
  return text === "" ? undefined : [text];
}

/**
 * Parses a duration: `20s`, `1500ms`, `1m` or a bare number of seconds. Returns milliseconds.
 *
 * @example parseDuration("20s") // 20000
 */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text);
  if (match === null) return undefined;
  const n = Number(match[1]);
  const unit = match[2] ?? "s";
  const ms = unit === "ms" ? n : unit === "s" ? n * 1000 : n * 60_000;
  return ms > 0 && Number.isFinite(ms) ? Math.round(ms) : undefined;
}

function parseIds(text: string): string[] | undefined {
  const ids = text
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  return ids.length > 0 && ids.every((id) => CASE_ID.test(id)) ? ids : undefined;
}

/**
 * Parses the runner's argv (everything after `brigade conformance`). Flags take their value as the
 * next argument or after `=`. Everything after `--` is fixed adapter arguments.
 *
 * @example parseConformanceArgs(["--adapter", "/bin/a", "--json"]) // { ok: true, options: {...} }
 */
export function parseConformanceArgs(argv: readonly string[]): ParsedConformanceArgs {
  let adapter: string[] | undefined;
  const fixed: string[] = [];
  const env: [string, string][] = [];
  let json = false;
  let keepTemp = false;
  let only: string[] | undefined;
  const skip: string[] = [];
  let rebind: string[] | undefined;
  let setup: string[] | undefined;
  let sharedEnv: string | undefined;
  let shuffle: bigint | undefined;
  let slow = false;
  const tags: string[] = [];
  let timeoutMs = 20_000;
  let verbose = false;

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--") {
      fixed.push(...argv.slice(i + 1));
      break;
    }
    if (arg === "-h" || arg === "--help") return { ok: true, help: true };
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const boolean = ["--json", "--keep-temp", "--slow", "-v", "--verbose"];
    if (boolean.includes(flag)) {
      if (eq > 0) return { ok: false, reason: `${flag} takes no value` };
      if (flag === "--json") json = true;
      else if (flag === "--keep-temp") keepTemp = true;
      else if (flag === "--slow") slow = true;
      else verbose = true;
      continue;
    }
    const valued = [
      "--adapter",
      "--env",
      "--only",
      "--skip",
      "--rebind",
      "--setup",
      "--shared-env",
      "--shuffle",
      "--tags",
      "--timeout",
    ];
    if (!valued.includes(flag)) return { ok: false, reason: "unknown flag" };
    let value: string;
    if (eq > 0) value = arg.slice(eq + 1);
    else {
      const next = argv[i + 1];
      if (next === undefined) return { ok: false, reason: `${flag} needs a value` };
      value = next;
      i++;
    }
    switch (flag) {
      case "--adapter": {
        const cmd = parseCommand(value);
        if (cmd === undefined) return { ok: false, reason: "--adapter is not a command" };
        adapter = cmd;
        break;
      }
      case "--env": {
        const at = value.indexOf("=");
        if (at <= 0 || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(value.slice(0, at))) {
          return { ok: false, reason: "--env needs K=V" };
        }
        env.push([value.slice(0, at), value.slice(at + 1)]);
        break;
      }
      case "--only": {
        const ids = parseIds(value);
        if (ids === undefined) return { ok: false, reason: "--only needs case ids like C-01" };
        only = [...(only ?? []), ...ids];
        break;
      }
      case "--skip": {
        const ids = parseIds(value);
        if (ids === undefined) return { ok: false, reason: "--skip needs case ids like C-01" };
        skip.push(...ids);
        break;
      }
      case "--rebind":
      case "--setup": {
        const cmd = parseCommand(value);
        if (cmd === undefined) return { ok: false, reason: `${flag} is not a command` };
        if (flag === "--rebind") rebind = cmd;
        else setup = cmd;
        break;
      }
      case "--shared-env":
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(value)) {
          return { ok: false, reason: "--shared-env needs a variable name" };
        }
        sharedEnv = value;
        break;
      case "--shuffle": {
        const seed = parseSeed(value);
        if (seed === undefined) return { ok: false, reason: "--shuffle needs a u64 seed" };
        shuffle = seed;
        break;
      }
      case "--tags": {
        const list = value.split(",").filter((t) => t !== "");
        if (list.length === 0 || !list.every((t) => /^(core|slow|cap:[a-z._]+)$/.test(t))) {
          return { ok: false, reason: "--tags needs core, slow or cap:<x>" };
        }
        tags.push(...list);
        break;
      }
      case "--timeout": {
        const ms = parseDuration(value);
        if (ms === undefined) return { ok: false, reason: "--timeout needs a duration like 20s" };
        timeoutMs = ms;
        break;
      }
    }
  }
  if (adapter === undefined) return { ok: false, reason: "--adapter is required" };
  return {
    ok: true,
    help: false,
    options: {
      adapter: [...adapter, ...fixed],
      env,
      json,
      keepTemp,
      only,
      skip,
      rebind,
      setup,
      sharedEnv,
      shuffle,
      slow,
      tags,
      timeoutMs,
      verbose,
    },
  };
}
