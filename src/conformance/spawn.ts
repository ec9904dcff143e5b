import { type ChildProcess, spawn } from "node:child_process";
import { LineLog } from "./line-log.ts";

/**
 * How a child's stdin is wired: a document written then closed, the null device, or a pipe the
 * suite holds open and never writes (to prove a no-input command does not read stdin,
 * docs/spec/protocol.md §1.3).
 */
export type StdinMode =
  | { readonly kind: "document"; readonly data: string | Uint8Array }
  | { readonly kind: "null" }
  | { readonly kind: "held-open" };

/** One child to start: an argument array (never a shell), its whole environment and cwd. */
export interface SpawnRequest {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  readonly stdin: StdinMode;
  /** The child is killed with SIGKILL after this many milliseconds. */
  readonly timeoutMs: number;
}

/** What a finished child did. `stdout`/`stderr` are decoded as UTF-8 (lossy). */
export interface SpawnOutcome {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  readonly stdoutOverflow: boolean;
  readonly durationMs: number;
  /** Set when the executable could not be started at all (missing, not executable). */
  readonly spawnError: string | undefined;
}

/**
 * Adapter stdout the suite reads before cancelling the child (4 MiB, docs/spec/protocol.md §1.6).
 */
export const MAX_STDOUT_BYTES = 4_194_304;

function startChild(request: SpawnRequest): ChildProcess {
  const [command, ...args] = request.argv;
  const stdin = request.stdin.kind === "null" ? "ignore" : "pipe";
  return spawn(command as string, args, {
    cwd: request.cwd,
    env: { ...request.env },
    stdio: [stdin, "pipe", "pipe"],
    shell: false,
    windowsHide: true,
  });
}

/**
 * Runs one request/response call to completion. Never rejects: a spawn failure, a timeout or a
 * signal is reported in the outcome.
 *
 * @example await runOnce({ argv: ["/bin/true"], env: {}, cwd: "/", stdin: { kind: "null" }, timeoutMs: 1000 })
 */
export function runOnce(request: SpawnRequest): Promise<SpawnOutcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      child = startChild(request);
    } catch (error) {
      resolve(failedStart(error, started));
      return;
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let timedOut = false;
    let overflow = false;
    let spawnError: string | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, request.timeoutMs);
    child.stdout?.on("data", (chunk: Buffer) => {
      outBytes += chunk.byteLength;
      if (outBytes > MAX_STDOUT_BYTES) {
        if (!overflow) child.kill("SIGKILL");
        overflow = true;
        return;
      }
      out.push(chunk);
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      err.push(chunk);
    });
    child.on("error", (error) => {
      spawnError = (error as NodeJS.ErrnoException).code ?? "spawn_failed";
    });
    if (child.stdin) {
      child.stdin.on("error", () => {
        // The child may exit without reading its input (EPIPE); the outcome still counts.
      });
      if (request.stdin.kind === "document") child.stdin.end(request.stdin.data);
    }
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      child.stdin?.destroy();
      resolve({
        exitCode: code,
        signal,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
        timedOut,
        stdoutOverflow: overflow,
        durationMs: performance.now() - started,
        spawnError,
      });
    });
  });
}

function failedStart(error: unknown, started: number): SpawnOutcome {
  return {
    exitCode: null,
    signal: null,
    stdout: "",
    stderr: "",
    timedOut: false,
    stdoutOverflow: false,
    durationMs: performance.now() - started,
    spawnError: (error as NodeJS.ErrnoException).code ?? "spawn_failed",
  };
}

/**
 * A running long-lived child (`message watch`): its stdout lines as they arrive, a way to write
 * NDJSON commands, close stdin, signal it, and await its outcome.
 */
export interface WatchHandle {
  /** Every complete stdout line so far (without the `\n`). */
  readonly lines: readonly string[];
  /** Resolves with the index of the first line (from `from`) matching `predicate`, or -1 on timeout/exit. */
  waitForLine(
    predicate: (line: string) => boolean,
    timeoutMs: number,
    from?: number,
  ): Promise<number>;
  write(text: string): void;
  endStdin(): void;
  kill(signal: NodeJS.Signals): void;
  /** Resolves when the child has exited (or `timeoutMs` elapsed: then `undefined`). */
  waitExit(timeoutMs: number): Promise<SpawnOutcome | undefined>;
  readonly startedAt: number;
}

/**
 * Starts a long-lived child with a held-open stdin pipe. The child is SIGKILLed after
 * `request.timeoutMs` as a backstop.
 */
export function startLongRunning(request: SpawnRequest): WatchHandle {
  const started = performance.now();
  const log = new LineLog();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  let spawnError: string | undefined;
  let timedOut = false;
  let child: ChildProcess | undefined;
  try {
    child = startChild({ ...request, stdin: { kind: "held-open" } });
  } catch (error) {
    log.end(failedStart(error, started));
  }
  const timer = setTimeout(() => {
    timedOut = true;
    child?.kill("SIGKILL");
  }, request.timeoutMs);
  if (child === undefined) clearTimeout(timer);
  child?.stdout?.on("data", (chunk: Buffer) => {
    out.push(chunk);
    log.append(chunk.toString("utf8"));
  });
  child?.stderr?.on("data", (chunk: Buffer) => {
    err.push(chunk);
  });
  child?.stdin?.on("error", () => {
    // Writing to a child that already exited is not the suite's failure.
  });
  child?.on("error", (error) => {
    spawnError = (error as NodeJS.ErrnoException).code ?? "spawn_failed";
  });
  child?.on("close", (code, signal) => {
    clearTimeout(timer);
    log.end({
      exitCode: code,
      signal,
      stdout: Buffer.concat(out).toString("utf8"),
      stderr: Buffer.concat(err).toString("utf8"),
      timedOut,
      stdoutOverflow: false,
      durationMs: performance.now() - started,
      spawnError,
    });
  });

  return {
    lines: log.lines,
    startedAt: started,
    waitForLine: (predicate, timeoutMs, from) => log.waitForLine(predicate, timeoutMs, from),
    write(text) {
      if (child?.stdin?.writable) child.stdin.write(text);
    },
    endStdin() {
      child?.stdin?.end();
    },
    kill(signal) {
      if (log.outcome === undefined) child?.kill(signal);
    },
    waitExit: (timeoutMs) => log.waitExit(timeoutMs),
  };
}
