import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { ConformanceOptions } from "./args.ts";
import {
  type CheckedEnvelope,
  checkEnvelopeStdout,
  checkNdjsonStdout,
  type ErrorObject,
  type WatchEvent,
} from "./envelope-check.ts";
import { type KnownSecret, scanForSecrets } from "./secret-scan.ts";
import type { SpawnOutcome, StdinMode } from "./spawn.ts";
import { type AdapterTransport, spawnedTransport } from "./transport.ts";

/** Thrown inside a case to stop it as failed; the message is the reason shown in the report. */
export class CaseFailure extends Error {
  /** Always `case_failure`. */
  readonly code: "case_failure" = "case_failure";
  constructor(message: string) {
    super(message);
    this.name = "CaseFailure";
  }
}

/** Thrown inside a case to stop it as skipped (e.g. a capability it needs is not advertised). */
export class CaseSkip extends Error {
  /** Always `case_skip`. */
  readonly code: "case_skip" = "case_skip";
  constructor(message: string) {
    super(message);
    this.name = "CaseSkip";
  }
}

/** One principal: its own config, state and home directories under `<run>/principals/<name>/`. */
export interface Principal {
  readonly name: string;
  readonly configDir: string;
  readonly stateDir: string;
  readonly home: string;
}

/** One finished adapter call with its parsed envelope (undefined when stdout was not one). */
export interface Call {
  readonly args: readonly string[];
  readonly outcome: SpawnOutcome;
  readonly exit: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly envelope: CheckedEnvelope | undefined;
}

/** What a case accumulated: failure reasons (any → fail) and informative notes. */
export interface CaseLog {
  readonly failures: string[];
  readonly notes: string[];
}

/** Options of one call. `stdin`: an object (sent as JSON + `\n`), raw text/bytes, `"held-open"`, or absent (null device). */
export interface CallOptions {
  readonly stdin?: unknown;
  readonly timeoutMs?: number;
  /**
   * Adds `BRIGADE_TEST_OFFLINE=1` (C-01/C-07 `describe` calls only, docs/spec/protocol.md §12.2).
   */
  readonly offline?: boolean;
  /**
   * The call's stdout may carry a join secret (only `team create`, docs/spec/protocol.md §6.14).
   */
  readonly stdoutMayCarrySecret?: boolean;
}

/** A running `message watch` under the global NDJSON checks. */
export interface WatchRun {
  readonly events: () => WatchEvent[];
  waitFor(
    predicate: (event: WatchEvent) => boolean,
    timeoutMs: number,
  ): Promise<WatchEvent | undefined>;
  write(command: unknown): void;
  writeRaw(text: string): void;
  endStdin(): void;
  kill(signal: NodeJS.Signals): void;
  /** Waits for exit up to `timeoutMs`, runs the global checks, returns the exit status (undefined on timeout; the child is then killed). */
  finish(timeoutMs: number): Promise<number | null | undefined>;
}

const STACK_TRACE = /^\s+at .+(:\d+:\d+\)?|\(native\))$/m;

/**
 * True when a text looks like a JavaScript/Node stack trace (C-06 "no stack trace").
 *
 * @example looksLikeStackTrace("Error: x\n    at f (/a.js:1:2)") // true
 */
export function looksLikeStackTrace(text: string): boolean {
  return STACK_TRACE.test(text);
}

/**
 * The state one suite run shares between the fixture and the cases: options, the run directory,
 * known secrets, the adapter's capabilities, and the log of the case running now. Every adapter
 * call goes through {@link SuiteContext.call} or {@link SuiteContext.watch}, which apply the
 * global checks of docs/spec/protocol.md §12.3 and attribute violations to the current case.
 */
export class SuiteContext {
  readonly options: ConformanceOptions;
  readonly runDir: string;
  /** How calls reach the adapter: spawned per call unless the run chose another transport. */
  readonly transport: AdapterTransport;
  readonly secrets: KnownSecret[] = [];
  capabilities: ReadonlySet<string> = new Set();
  describeResult: Record<string, unknown> = {};
  log: CaseLog = { failures: [], notes: [] };
  /** When set, the first failure recorded in a case ends that case (see `SuiteRunOptions`). */
  stopAtFirstFailure = false;
  private readonly principals = new Map<string, Principal>();
  private readonly verbose: (line: string) => void;
  private counter = 0;

  constructor(
    options: ConformanceOptions,
    runDir: string,
    verbose: (line: string) => void,
    transport: AdapterTransport = spawnedTransport(options.adapter),
  ) {
    this.options = options;
    this.runDir = runDir;
    this.transport = transport;
    this.verbose = verbose;
    mkdirSync(join(runDir, "cwd"), { recursive: true });
    mkdirSync(join(runDir, "shared"), { recursive: true });
  }

  /** The principal named `name`, creating its directories on first use. */
  principal(name: string): Principal {
    const known = this.principals.get(name);
    if (known) return known;
    const root = join(this.runDir, "principals", name);
    const p: Principal = {
      name,
      configDir: join(root, "config"),
      stateDir: join(root, "state"),
      home: join(root, "home"),
    };
    for (const dir of [p.configDir, p.stateDir, p.home]) mkdirSync(dir, { recursive: true });
    this.principals.set(name, p);
    return p;
  }

  /** A fresh principal with a unique name derived from `prefix`. */
  freshPrincipal(prefix: string): Principal {
    this.counter++;
    return this.principal(`${prefix}-${this.counter}`);
  }

  /** A unique suffix for session names, idempotency keys and bodies. */
  unique(prefix: string): string {
    this.counter++;
    return `${prefix}-${this.counter}`;
  }

  /** The child environment of docs/spec/protocol.md §12.2, built from scratch for principal `p`. */
  env(p: Principal, offline = false): Record<string, string> {
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      TMPDIR: process.env.TMPDIR ?? "/tmp",
      HOME: p.home,
      BRIGADE_CONFIG_DIR: p.configDir,
      BRIGADE_STATE_DIR: p.stateDir,
      BRIGADE_PROFILE: "default",
      BRIGADE_LOG_LEVEL: "debug",
    };
    for (const [k, v] of this.options.env) env[k] = v;
    if (this.options.sharedEnv !== undefined) {
      env[this.options.sharedEnv] = join(this.runDir, "shared");
    }
    if (offline) env.BRIGADE_TEST_OFFLINE = "1";
    return env;
  }

  /** Records a failure of the current case when `condition` is false; returns `condition`. */
  check(condition: boolean, reason: string): boolean {
    if (!condition) this.log.failures.push(reason);
    this.stopIfFailed();
    return condition;
  }

  /** Ends the case now when it already failed and the run stops cases at their first failure. */
  private stopIfFailed(): void {
    if (this.stopAtFirstFailure && this.log.failures.length > 0) {
      throw new CaseFailure(this.log.failures[0] as string);
    }
  }

  /** Stops the current case as failed. */
  fail(reason: string): never {
    throw new CaseFailure(reason);
  }

  /** Adds an informative note to the current case (recorded, not asserted). */
  note(text: string): void {
    this.log.notes.push(text);
  }

  /** Stops the current case as skipped unless the adapter advertises `capability`. */
  requireCapability(capability: string): void {
    if (!this.capabilities.has(capability)) throw new CaseSkip(`adapter lacks ${capability}`);
  }

  /** Runs one request/response call as principal `p` under the global checks. */
  async call(p: Principal, args: readonly string[], options: CallOptions = {}): Promise<Call> {
    const stdin = toStdin(options.stdin);
    const outcome = await this.transport.run({
      args,
      env: this.env(p, options.offline === true),
      cwd: join(this.runDir, "cwd"),
      stdin,
      timeoutMs: options.timeoutMs ?? this.options.timeoutMs,
    });
    const violations = this.processViolations(outcome);
    let envelope: CheckedEnvelope | undefined;
    if (violations.length === 0) {
      const checked = checkEnvelopeStdout(outcome.stdout, outcome.exitCode);
      envelope = checked.envelope;
      violations.push(...checked.violations);
    }
    const stdoutHits = options.stdoutMayCarrySecret
      ? []
      : scanForSecrets(outcome.stdout, this.secrets);
    for (const hit of stdoutHits) violations.push(`${hit} on stdout`);
    for (const hit of scanForSecrets(outcome.stderr, this.secrets))
      violations.push(`${hit} on stderr`);
    const what = `${p.name}: ${args.slice(0, 2).join(" ")}`;
    for (const v of violations) this.log.failures.push(`${what}: ${v}`);
    this.verbose(`  ${what} -> exit ${outcome.exitCode} (${outcome.durationMs.toFixed(0)} ms)`);
    this.stopIfFailed();
    return {
      args,
      outcome,
      exit: outcome.exitCode,
      stdout: outcome.stdout,
      stderr: outcome.stderr,
      envelope,
    };
  }

  private processViolations(outcome: SpawnOutcome): string[] {
    if (outcome.spawnError !== undefined)
      return [`adapter could not be started (${outcome.spawnError})`];
    if (outcome.timedOut) return ["timed out"];
    if (outcome.stdoutOverflow) return ["stdout over 4 MiB"];
    if (outcome.signal !== null) return [`killed by ${outcome.signal}`];
    const code = outcome.exitCode;
    if (code === null || code < 0 || code > 12) return [`exit status ${code} outside 0..12`];
    return [];
  }

  /** The `result` of an ok envelope; stops the case as failed otherwise. */
  ok(call: Call, what: string): Record<string, unknown> {
    const env = call.envelope;
    if (env?.ok === true && env.result !== undefined) return env.result;
    const code = env?.error?.code ?? "no envelope";
    return this.fail(`${what}: expected ok, got exit ${call.exit} (${code})`);
  }

  /** The error of an error envelope with `code` and its exit status; records a failure otherwise. */
  expectError(call: Call, code: string, exit: number, what: string): ErrorObject | undefined {
    const error = call.envelope?.error;
    const got = error?.code ?? (call.envelope?.ok ? "ok" : "no envelope");
    if (
      !this.check(
        error?.code === code && call.exit === exit,
        `${what}: expected exit ${exit} ${code}, got exit ${call.exit} (${got})`,
      )
    ) {
      return undefined;
    }
    return error;
  }

  /**
   * Records a failure unless two calls' stdout and exit status are byte-identical
   * (docs/spec/protocol.md §3.5).
   */
  expectIdentical(a: Call, b: Call, what: string): void {
    this.check(
      a.stdout === b.stdout && a.exit === b.exit,
      `${what}: answers are not byte-identical`,
    );
  }

  /** Starts `message watch --session <id>` as `p`, stdin held open, under the NDJSON checks. */
  watch(p: Principal, sessionId: string, extraArgs: readonly string[] = []): WatchRun {
    const handle = this.transport.start({
      args: ["message", "watch", "--session", sessionId, ...extraArgs],
      env: this.env(p),
      cwd: join(this.runDir, "cwd"),
      stdin: { kind: "held-open" },
      timeoutMs: 120_000,
    });
    const parsed = (): WatchEvent[] => {
      const out: WatchEvent[] = [];
      for (const line of handle.lines) {
        try {
          const doc: unknown = JSON.parse(line);
          if (
            typeof doc === "object" &&
            doc !== null &&
            typeof (doc as WatchEvent).event === "string"
          ) {
            out.push(doc as WatchEvent);
          }
        } catch {
          // Reported by the NDJSON check at finish.
        }
      }
      return out;
    };
    let checked = false;
    // A signal the case itself sent is part of the scenario (C-36 kills its own watch), not a fault.
    const sentByCase = new Set<string>();
    return {
      events: parsed,
      async waitFor(predicate, timeoutMs) {
        const index = await handle.waitForLine((line) => {
          try {
            const doc: unknown = JSON.parse(line);
            return typeof doc === "object" && doc !== null && predicate(doc as WatchEvent);
          } catch {
            return false;
          }
        }, timeoutMs);
        return index < 0 ? undefined : (JSON.parse(handle.lines[index] as string) as WatchEvent);
      },
      write: (command) => handle.write(`${JSON.stringify(command)}\n`),
      writeRaw: (text) => handle.write(text),
      endStdin: () => handle.endStdin(),
      kill: (signal) => {
        sentByCase.add(`killed by ${signal}`);
        handle.kill(signal);
      },
      finish: async (timeoutMs) => {
        let outcome = await handle.waitExit(timeoutMs);
        const inTime = outcome !== undefined;
        if (outcome === undefined) {
          handle.kill("SIGKILL");
          outcome = await handle.waitExit(5000);
        }
        if (!checked && outcome !== undefined) {
          checked = true;
          const v = this.processViolations(outcome).filter(
            (x) => !sentByCase.has(x) && (inTime || x !== "killed by SIGKILL"),
          );
          if (inTime) for (const x of v) this.log.failures.push(`${p.name}: message watch: ${x}`);
          for (const x of checkNdjsonStdout(outcome.stdout).violations) {
            this.log.failures.push(`${p.name}: message watch: ${x}`);
          }
          for (const hit of [
            ...scanForSecrets(outcome.stdout, this.secrets).map((h) => `${h} on stdout`),
            ...scanForSecrets(outcome.stderr, this.secrets).map((h) => `${h} on stderr`),
          ]) {
            this.log.failures.push(`${p.name}: message watch: ${hit}`);
          }
        }
        return inTime ? (outcome?.exitCode ?? null) : undefined;
      },
    };
  }
}

function toStdin(stdin: unknown): StdinMode {
  if (stdin === undefined || stdin === null) return { kind: "null" };
  if (stdin === "held-open") return { kind: "held-open" };
  if (typeof stdin === "string") return { kind: "document", data: stdin };
  if (stdin instanceof Uint8Array) return { kind: "document", data: stdin };
  return { kind: "document", data: `${JSON.stringify(stdin)}\n` };
}
