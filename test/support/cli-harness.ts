import { main } from "../../src/cli/brigade.ts";
import type { CliIo } from "../../src/cli/cli-io.ts";

/** What one in-process run of `brigade` printed and returned. */
export interface CliRun {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `brigade <argv>` in process with `stdin` as its input (text or bytes). */
export async function runCli(
  argv: string[],
  stdin: string | Uint8Array = "",
  env: Record<string, string | undefined> = {},
): Promise<CliRun> {
  const bytes = typeof stdin === "string" ? new TextEncoder().encode(stdin) : stdin;
  let stdout = "";
  let stderr = "";
  const io: CliIo = {
    stdin: (async function* () {
      if (bytes.length > 0) yield bytes;
    })(),
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env,
  };
  const status = await main(argv, io);
  return { status, stdout, stderr };
}
