import { LineLog } from "./line-log.ts";
import {
  MAX_STDOUT_BYTES,
  runOnce,
  type SpawnOutcome,
  type SpawnRequest,
  startLongRunning,
  type WatchHandle,
} from "./spawn.ts";

/** One adapter invocation: a {@link SpawnRequest} whose argv is the arguments after the adapter command. */
export type AdapterInvocation = Omit<SpawnRequest, "argv"> & { readonly args: readonly string[] };

/**
 * How the suite reaches the adapter under test. Every call and watch of a run goes through one
 * transport, so the cases and their global checks are the same whichever is used.
 */
export interface AdapterTransport {
  /** Runs one request/response call to completion; never rejects. */
  run(invocation: AdapterInvocation): Promise<SpawnOutcome>;
  /** Starts a long-lived `message watch` with a held-open stdin. */
  start(invocation: AdapterInvocation): WatchHandle;
  /** Ends whatever is still running (a watch a failed case left open); idempotent. */
  close(): void;
}

/**
 * The transport of `brigade conformance`: each call spawns `adapter` followed by its arguments,
 * a real process with its own environment and working directory (docs/spec/protocol.md §1).
 *
 * @example spawnedTransport(["/usr/local/bin/my-adapter"])
 */
export function spawnedTransport(adapter: readonly string[]): AdapterTransport {
  const running = new Set<WatchHandle>();
  return {
    run: (invocation) => runOnce({ ...invocation, argv: [...adapter, ...invocation.args] }),
    start: (invocation) => {
      const handle = startLongRunning({ ...invocation, argv: [...adapter, ...invocation.args] });
      running.add(handle);
      void handle.waitExit(invocation.timeoutMs + 10_000).then(() => running.delete(handle));
      return handle;
    },
    close: () => {
      for (const handle of running) handle.kill("SIGKILL");
      running.clear();
    },
  };
}

/**
 * What an in-process adapter entry is given: the streams and environment a process would have,
 * and the terminate subscription a process gets from SIGTERM/SIGINT.
 */
export interface InProcessAdapterIo {
  readonly stdin: AsyncIterable<Uint8Array>;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Subscribes to the emulated SIGTERM/SIGINT; returns the unsubscribe function. */
  readonly onTerminate: (listener: () => void) => () => void;
}

/** An adapter run in this process: argv as after the adapter command; resolves the exit status. */
export type InProcessAdapterEntry = (argv: string[], io: InProcessAdapterIo) => Promise<number>;

/** The exit status an in-process entry that threw is given: outside 0..12, so it is a violation. */
export const IN_PROCESS_THROW_STATUS = 70;

/**
 * A transport that calls `entry` in this process instead of spawning: the same arguments,
 * environment and stdin, the same outcome shape, minus the cost of starting a runtime per call.
 * For runs whose subject is the server (clean runs and mutant runs against a real server); the
 * process boundary itself (exit statuses, signals, a never-read stdin) is proven by at least one
 * spawned run per store. Emulation: SIGTERM and SIGINT reach the entry's `onTerminate`
 * listeners; SIGKILL (and a timeout) stops recording output, ends a held-open stdin, signals the
 * listeners so a watch drops its connection as a killed process would, and reports the signal.
 * An entry that throws is reported as exit {@link IN_PROCESS_THROW_STATUS} with the error's stack
 * on stderr, as an uncaught exception would print. The working directory is not changed (a
 * process-wide setting): entries must not depend on it, which the spawned run per store checks.
 *
 * @example inProcessTransport((argv, io) => runAdapter(["http", ...argv], io))
 */
export function inProcessTransport(entry: InProcessAdapterEntry): AdapterTransport {
  const running = new Set<WatchHandle>();
  return {
    run: async (invocation) => {
      const handle = startInProcess(entry, invocation);
      return (await handle.waitExit(Number.POSITIVE_INFINITY)) as SpawnOutcome;
    },
    start: (invocation) => {
      const handle = startInProcess(entry, invocation);
      running.add(handle);
      void handle.waitExit(Number.POSITIVE_INFINITY).then(() => running.delete(handle));
      return handle;
    },
    close: () => {
      for (const handle of running) handle.kill("SIGKILL");
      running.clear();
    },
  };
}

/**
 * The stdin of an in-process call, as a pipe: chunks written in order, then the end. A document is
 * written and ended at once, the null device ends at once, a held-open pipe stays open until the
 * suite ends it or the call is killed.
 */
class InProcessStdin implements AsyncIterable<Uint8Array> {
  readonly #chunks: Uint8Array[] = [];
  #ended = false;
  #wake: (() => void) | undefined;

  write(data: string | Uint8Array): void {
    if (this.#ended) return;
    this.#chunks.push(typeof data === "string" ? new TextEncoder().encode(data) : data);
    this.#wake?.();
  }

  end(): void {
    this.#ended = true;
    this.#wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array> {
    for (;;) {
      const next = this.#chunks.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (this.#ended) return;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
      this.#wake = undefined;
    }
  }
}

function startInProcess(entry: InProcessAdapterEntry, invocation: AdapterInvocation): WatchHandle {
  const started = performance.now();
  const log = new LineLog();
  const out: string[] = [];
  const err: string[] = [];
  let outBytes = 0;
  let overflow = false;
  let killed = false;
  let timedOut = false;
  const terminateListeners = new Set<() => void>();
  const stdin = new InProcessStdin();
  if (invocation.stdin.kind === "document") stdin.write(invocation.stdin.data);
  if (invocation.stdin.kind !== "held-open") stdin.end();
  const finish = (exitCode: number | null): void => {
    if (log.outcome !== undefined) return;
    clearTimeout(timer);
    stdin.end();
    log.end({
      exitCode: killed ? null : exitCode,
      signal: killed ? "SIGKILL" : null,
      stdout: out.join(""),
      stderr: err.join(""),
      timedOut,
      stdoutOverflow: overflow,
      durationMs: performance.now() - started,
      spawnError: undefined,
    });
  };
  const hardKill = (): void => {
    if (log.outcome !== undefined) return;
    killed = true;
    // The outcome is sealed first: what the entry writes while it lets go is never recorded.
    finish(null);
    for (const listener of [...terminateListeners]) listener();
  };
  const timer = setTimeout(() => {
    timedOut = true;
    hardKill();
  }, invocation.timeoutMs);
  const io: InProcessAdapterIo = {
    stdin,
    env: invocation.env,
    stdout: (text) => {
      if (log.outcome !== undefined || overflow) return;
      outBytes += Buffer.byteLength(text);
      if (outBytes > MAX_STDOUT_BYTES) {
        overflow = true;
        hardKill();
        return;
      }
      out.push(text);
      log.append(text);
    },
    stderr: (text) => {
      if (log.outcome === undefined) err.push(text);
    },
    onTerminate: (listener) => {
      terminateListeners.add(listener);
      return () => terminateListeners.delete(listener);
    },
  };
  void (async () => {
    try {
      finish(await entry([...invocation.args], io));
    } catch (error) {
      err.push(error instanceof Error ? `${error.stack ?? error.message}\n` : `${String(error)}\n`);
      finish(IN_PROCESS_THROW_STATUS);
    }
  })();

  return {
    lines: log.lines,
    startedAt: started,
    waitForLine: (predicate, timeoutMs, from) => log.waitForLine(predicate, timeoutMs, from),
    write: (text) => stdin.write(text),
    endStdin: () => stdin.end(),
    kill(signal) {
      if (log.outcome !== undefined) return;
      if (signal === "SIGKILL") {
        hardKill();
        return;
      }
      for (const listener of [...terminateListeners]) listener();
    },
    waitExit: (timeoutMs) => log.waitExit(timeoutMs),
  };
}
