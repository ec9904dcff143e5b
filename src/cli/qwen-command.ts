import { rmSync } from "node:fs";
import { join } from "node:path";
import { harnessConfigDir } from "../harness/adapter/index.ts";
import { showsClaudeCodeSession } from "../harness/claude-code/index.ts";
import { HOST_CLIENTS } from "../harness/host-clients.ts";
import {
  parseQwenControllerToken,
  QWEN_TOKEN_FILE,
  writeQwenControllerToken,
} from "../harness/qwen/index.ts";
import { type CliIo, readUpTo } from "./cli-io.ts";

const HELP = `usage: brigade qwen token [--clear]

Keeps your Qwen Code controller token for Brigade, so a teammate's message is delivered into your
live Qwen Code sessions without your review of each one (docs/49-qwen.md). Mint it in your own
terminal, then hand it over on stdin (never as an argument):

  qwen sessions controllers add --label brigade     # prints qpc_… once
  brigade qwen token                                # paste it, then Ctrl-D

It is kept in Brigade's configuration folder as qwen-controller-token (0600). Without it Qwen Code
holds each message for your review (/peers) and the sender sees "held". --clear removes it (revoke
it in Qwen Code too: qwen sessions controllers remove <id>). Run it in your own terminal, never
from an agent session. Exit status: 0 done, 1 not written, 2 a usage error or inside a session.
`;

const INSIDE_SESSION_LINE =
  "this keeps your consent for Qwen Code: run it in your own terminal, not in an agent session";

/**
 * `brigade qwen token [--clear]` (docs/49-qwen.md "The controller token"): reads one controller
 * token (`qpc_` + 64 hex, at most 1 KiB of input) from stdin and keeps it in Brigade's
 * configuration folder (`qwen-controller-token`, 0600), where the push lane of the person's Qwen
 * Code sessions reads it; `--clear` removes it. Refused inside any agent session (exit 2): the
 * consent is the person's. The token is never printed, logged or taken from argv. Exit 0 done;
 * 1 `write_failed` / `no_config_dir`; 2 a usage error, `bad_token`, or inside a session.
 *
 * @example echo "$TOKEN" | brigade qwen token
 */
export async function runQwen(argv: string[], io: CliIo): Promise<number> {
  if (argv.length === 1 && (argv[0] === "--help" || argv[0] === "-h")) {
    io.stdout(HELP);
    return 0;
  }
  const clear = argv.length === 2 && argv[1] === "--clear";
  if (argv[0] !== "token" || (argv.length !== 1 && !clear)) {
    io.stderr("brigade qwen: usage: brigade qwen token [--clear]\n");
    return 2;
  }
  const clients = await Promise.all(Object.values(HOST_CLIENTS).map((load) => load()));
  if (showsClaudeCodeSession(io.env) || clients.some((c) => c.insideSession(io.env))) {
    io.stderr(`brigade qwen token: ${INSIDE_SESSION_LINE}\n`);
    return 2;
  }
  // Where the sessions' push lanes look: a session never reads BRIGADE_CONFIG_DIR.
  const configDir = harnessConfigDir(io.env, { asSession: true });
  if (configDir === undefined) {
    io.stderr(
      "brigade qwen token: no_config_dir: Brigade's configuration folder cannot be found\n",
    );
    return 1;
  }
  if (clear) {
    try {
      rmSync(join(configDir, QWEN_TOKEN_FILE), { force: true });
    } catch {
      io.stderr("brigade qwen token: write_failed: the token file cannot be removed\n");
      return 1;
    }
    io.stdout(
      "Removed the Qwen Code controller token: messages to your Qwen Code sessions are held for your review.\n",
    );
    return 0;
  }
  const bytes = await readUpTo(io.stdin, 1025);
  const token =
    bytes.byteLength > 1024 ? undefined : parseQwenControllerToken(new TextDecoder().decode(bytes));
  if (token === undefined) {
    io.stderr(
      "brigade qwen token: bad_token: stdin must hold one controller token as `qwen sessions controllers add --label brigade` prints it (qpc_ and 64 hex)\n",
    );
    return 2;
  }
  const written = writeQwenControllerToken(configDir, token);
  if (!written.ok) {
    io.stderr(`brigade qwen token: ${written.code}: the token file cannot be written\n`);
    return 1;
  }
  io.stdout(
    `Kept the Qwen Code controller token in ${written.path} (0600): teammates' messages are delivered into your live Qwen Code sessions started from now on.\n`,
  );
  return 0;
}
