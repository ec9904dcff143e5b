import type { AdapterFactory, ProcessBindingIo } from "./process-binding-io.ts";
import { type ProcessBindingOptions, runProcessBinding } from "./run-process-binding.ts";

/**
 * How long a finished adapter process may linger before it is made to exit, ms. A watch or a
 * keep-alive socket must never keep a finished adapter alive; the timer is unref'd, so it fires
 * only when something else still holds the event loop.
 */
export const ADAPTER_EXIT_GRACE_MS = 2000;

/** The streams and environment of one adapter command (the shape of the CLI's `CliIo`). */
export interface AdapterProcessIo {
  readonly stdin: AsyncIterable<Uint8Array>;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * Subscribes to a terminate request when `stdin` is not this process's own (a host running the
   * adapter in process, such as the conformance suite's in-process transport); the real process
   * gets SIGTERM and SIGINT instead.
   */
  readonly onTerminate?: (listener: () => void) => () => void;
}

/** What an adapter entry may add to {@link runAsProcess}. */
export interface RunAsProcessOptions extends ProcessBindingOptions {
  /** Asks on the terminal; offered to the binding only when stdin is a real terminal. */
  readonly prompt?: ProcessBindingIo["prompt"];
  /** Replaces the stdin the binding reads (e.g. a filtering wrapper of `io.stdin`). */
  readonly stdin?: AsyncIterable<Uint8Array>;
}

/**
 * Runs one BAP/1 command through {@link runProcessBinding} the way an adapter executable must
 * behave. When `io.stdin` is this process's own stdin: a terminal stdin enables `--prompt` (with
 * `options.prompt`), SIGTERM and SIGINT end a watch cleanly, and the process exits
 * {@link ADAPTER_EXIT_GRACE_MS} after the command finished if nothing else ended it. With any
 * other stdin (tests, an in-process host) none of that is wired; `io.onTerminate`, when given,
 * stands in for the signals. Returns the binding's exit status (0, 1..12).
 *
 * @example process.exitCode = await runAsProcess(argv, processIo(), factory, { comp: "adapter-http" });
 */
export async function runAsProcess(
  argv: string[],
  io: AdapterProcessIo,
  factory: AdapterFactory,
  options: RunAsProcessOptions,
): Promise<number> {
  const { prompt, stdin, ...bindingOptions } = options;
  const real = io.stdin === process.stdin;
  const terminal = real && process.stdin.isTTY === true;
  const onTerminate = real ? onProcessTerminate : io.onTerminate;
  const bindingIo: ProcessBindingIo = {
    stdin: stdin ?? io.stdin,
    stdout: io.stdout,
    stderr: io.stderr,
    env: io.env,
    stdinIsTerminal: terminal,
    ...(terminal && prompt !== undefined ? { prompt } : {}),
    ...(onTerminate === undefined ? {} : { onTerminate }),
  };
  const status = await runProcessBinding(argv, bindingIo, factory, bindingOptions);
  if (real) setTimeout(() => process.exit(status), ADAPTER_EXIT_GRACE_MS).unref();
  return status;
}

function onProcessTerminate(listener: () => void): () => void {
  process.on("SIGTERM", listener);
  process.on("SIGINT", listener);
  return () => {
    process.off("SIGTERM", listener);
    process.off("SIGINT", listener);
  };
}
