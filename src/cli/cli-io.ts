/**
 * What a command reads and writes, injected so tests can run a command in process.
 * `stdin` yields raw bytes; `stdout`/`stderr` take text that is written as UTF-8.
 */
export interface CliIo {
  /**
   * Whether stdin and stdout are terminals, as the process found them; absent (tests, a
   * command run in process) reads as neither. The person's own acts that need their terminal
   * (`brigade send --as-me`) check it.
   */
  readonly terminal?: { readonly stdin: boolean; readonly stdout: boolean };
  /**
   * The coding-agent client running among this process's ancestors, by name, or `undefined`
   * (`agentClientAbove`); absent, this process's own ancestry is read. Tests that run a command
   * in process, as if in the person's terminal, give their own. `brigade send --as-me` checks it.
   */
  readonly agentAbove?: () => string | undefined;
  /** The folder the command runs in, for the commands that read its team; absent: `process.cwd()`. */
  readonly cwd?: string;
  readonly stdin: AsyncIterable<Uint8Array>;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/**
 * A caller's mistake a command reports as one line on stderr with exit status 2 (never a stack
 * trace). The message is fixed text: it never repeats the caller's input, which may be hostile.
 *
 * @example throw new CliUsageError("--team is required");
 */
export class CliUsageError extends Error {
  /** Always `usage`: the one error class a command throws for bad input. */
  readonly code: "usage" = "usage";
  constructor(message: string) {
    super(message);
    this.name = "CliUsageError";
  }
}

/**
 * Reads stdin to EOF as bytes, at most `limit` bytes.
 *
 * @throws CliUsageError when more than `limit` bytes arrive.
 * @example const bytes = await readAll(io.stdin, 1_048_576);
 */
export async function readAll(
  stdin: AsyncIterable<Uint8Array>,
  limit: number,
): Promise<Uint8Array> {
  const bytes = await readUpTo(stdin, limit + 1);
  if (bytes.byteLength > limit) throw new CliUsageError(`input is larger than ${limit} bytes`);
  return bytes;
}

/**
 * Reads stdin as bytes until EOF or until at least `cap` bytes have arrived, whichever comes
 * first: reading stops at the chunk that reaches `cap`, so the result may hold a little more than
 * `cap` bytes and a caller tells "too large" from "at most `cap - 1`" by its length. Never throws
 * for size; a stream error propagates.
 *
 * @example const bytes = await readUpTo(io.stdin, MAX_BODY_BYTES + 1); // > MAX_BODY_BYTES: too large
 */
export async function readUpTo(stdin: AsyncIterable<Uint8Array>, cap: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of stdin) {
    chunks.push(chunk);
    total += chunk.byteLength;
    if (total >= cap) break;
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/**
 * The process's real stdin, stdout, stderr and environment. A reader of stdout or stderr that
 * goes away (`brigade inspect | head`, a log collector restarting under `brigade serve`) costs
 * only the output: without a listener Node would end the process on EPIPE with a stack trace (a
 * server would stop serving). Commands that must react, such as `brigade demo`, add their own.
 */
export function processIo(): CliIo {
  process.stdout.on("error", ignoreOutputError);
  process.stderr.on("error", ignoreOutputError);
  return {
    terminal: { stdin: process.stdin.isTTY === true, stdout: process.stdout.isTTY === true },
    stdin: process.stdin,
    stdout: (text) => {
      process.stdout.write(text);
    },
    stderr: (text) => {
      process.stderr.write(text);
    },
    env: process.env,
  };
}

function ignoreOutputError(): void {
  // The output has nowhere to go; the command goes on to its own exit status.
}

function flushed(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => {
    stream.write("", () => resolve());
  });
}

/**
 * Ends the process with `status` once stdout and stderr have flushed. A finished command must not
 * linger: Node's `fetch` keeps idle keep-alive sockets that hold the event loop open for a while
 * after the last request, which the Bash tool (and a hook's budget) would otherwise wait out.
 * Only for a command that has returned; detached children (the watcher) are not affected.
 */
export async function exitAfterFlush(status: number): Promise<never> {
  process.exitCode = status;
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(status);
}
