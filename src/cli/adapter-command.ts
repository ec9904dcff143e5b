import { HttpAdapter } from "../adapters/http/index.ts";
import {
  type AdapterFactory,
  type ProcessBindingIo,
  runProcessBinding,
} from "../adapters/process-binding/index.ts";
import { envelopeLine, errorEnvelope, usageError } from "../protocol/index.ts";
import type { CliIo } from "./cli-io.ts";

/** Adapter names `brigade adapter <name>` knows. */
export const BUNDLED_ADAPTERS = ["http"] as const;

/** A bundled adapter name. */
export type BundledAdapterName = (typeof BUNDLED_ADAPTERS)[number];

// A watch or a keep-alive socket must never keep a finished adapter process alive: this timer is
// unref'd, so it fires only when something else still holds the event loop.
const EXIT_GRACE_MS = 2000;

const httpFactory: AdapterFactory = ({ profile, env, logger }) => {
  const adapter = new HttpAdapter({ env, profile, logger: logger.child("http") });
  return { adapter, checkLocalReady: (command) => adapter.checkLocalReady(command) };
};

/**
 * `brigade adapter <name> <group> <verb> [flags]`: runs a bundled adapter (only `http` for now)
 * through the BAP/1 process binding and returns the exit status (0, or 1..12 from the error code;
 * never 126, 127 or ≥ 128). stdout receives exactly one envelope + `\n` (NDJSON for
 * `message watch`); an unknown adapter name is `usage` (2) with an envelope too. When `io` is the
 * real process, stdin's terminal state enables `--prompt`, SIGTERM/SIGINT end a watch cleanly,
 * and the process is made to exit shortly after the command finished.
 *
 * @example
 * const status = await runAdapter(["http", "describe"], processIo()); // 0
 */
export async function runAdapter(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || !(BUNDLED_ADAPTERS as readonly string[]).includes(name)) {
    io.stdout(envelopeLine(errorEnvelope(usageError("unknown_command"))));
    return 2;
  }
  const real = io.stdin === process.stdin;
  const terminal = real && process.stdin.isTTY === true;
  const bindingIo: ProcessBindingIo = {
    stdin: io.stdin,
    stdout: io.stdout,
    stderr: io.stderr,
    env: io.env,
    stdinIsTerminal: terminal,
    ...(terminal ? { prompt: promptOnTerminal } : {}),
    ...(real ? { onTerminate: onProcessTerminate } : {}),
  };
  const status = await runProcessBinding(rest, bindingIo, httpFactory, { comp: "adapter-http" });
  if (real) setTimeout(() => process.exit(status), EXIT_GRACE_MS).unref();
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

/**
 * Asks one line on the terminal: the question goes to stderr (stdout is reserved for the
 * envelope); with `secret` the answer is not echoed. Ctrl-C or Ctrl-D answers empty.
 */
function promptOnTerminal(
  question: string,
  options: { readonly secret: boolean },
): Promise<string> {
  const stdin = process.stdin;
  process.stderr.write(question);
  return new Promise((resolve) => {
    let answer = "";
    const wasRaw = stdin.isRaw;
    stdin.setRawMode(true);
    stdin.resume();
    const done = (value: string): void => {
      stdin.off("data", onData);
      stdin.setRawMode(wasRaw);
      stdin.pause();
      process.stderr.write("\n");
      resolve(value);
    };
    const onData = (chunk: Buffer): void => {
      for (const ch of chunk.toString("utf8")) {
        if (ch === "\r" || ch === "\n") {
          done(answer);
          return;
        }
        if (ch === "\u0003" || ch === "\u0004") {
          done("");
          return;
        }
        if (ch === "\u007f" || ch === "\b") {
          if (answer.length > 0) {
            answer = Array.from(answer).slice(0, -1).join("");
            if (!options.secret) process.stderr.write("\b \b");
          }
          continue;
        }
        answer += ch;
        if (!options.secret) process.stderr.write(ch);
      }
    };
    stdin.on("data", onData);
  });
}
