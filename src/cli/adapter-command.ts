import { HttpAdapter } from "../adapters/http/index.ts";
import {
  type AdapterFactory,
  type AdapterProcessIo,
  runAsProcess,
} from "../adapters/process-binding/index.ts";
import { envelopeLine, errorEnvelope, usageError } from "../protocol/index.ts";
import { promptOnTerminal } from "./terminal-prompt.ts";

/** Adapter names `brigade adapter <name>` knows. */
export const BUNDLED_ADAPTERS = ["http"] as const;

/** A bundled adapter name. */
export type BundledAdapterName = (typeof BUNDLED_ADAPTERS)[number];

const httpFactory: AdapterFactory = ({ profile, env, logger }) => {
  const adapter = new HttpAdapter({ env, profile, logger: logger.child("http") });
  return { adapter, checkLocalReady: (command) => adapter.checkLocalReady(command) };
};

const ADAPTER_HELP = `usage: brigade adapter http <group> <verb> [flags]

The BAP/1 adapter executable for a brigade serve backend (docs/31-http-adapter.md): a program, not
a person, runs it. Each call prints exactly one JSON envelope on stdout (NDJSON for message watch)
and exits with the error code's status. The verbs: docs/spec/protocol.md; try
  brigade adapter http describe
Its configuration: BRIGADE_CONFIG_DIR, BRIGADE_PROFILE, BRIGADE_SERVER, BRIGADE_OPERATOR_KEY_FILE.
People use the commands of "brigade help" instead.
`;

const IN_SESSION_REFUSAL =
  "brigade adapter: not available inside a Claude Code session (CLAUDE_PID is set); the session uses brigade sessions, send, whoami and inbox\n";

/** `--help`, `-h` or `help`, alone: a person asking, never a BAP/1 call (no group is so named). */
function isHelpRequest(argv: readonly string[]): boolean {
  return argv.length === 1 && (argv[0] === "--help" || argv[0] === "-h" || argv[0] === "help");
}

/**
 * `brigade adapter <name> <group> <verb> [flags]`: runs a bundled adapter (only `http` for now)
 * through the BAP/1 process binding and returns the exit status (0, or 1..12 from the error code;
 * never 126, 127 or ≥ 128). `brigade adapter --help` (or `brigade adapter http --help`) prints the
 * human help (exit 0), `brigade adapter` alone prints it on stderr (exit 2). Inside a Claude Code
 * session (`CLAUDE_PID` set) every call is refused as `usage` (exit 2, a line on stderr): the
 * model's bare `brigade` may be the person's CLI, and the raw binding is not the model's.
 * stdout receives exactly one envelope + `\n` (NDJSON for `message watch`); an unknown adapter
 * name is `usage` (2) with an envelope too. When `io` is the
 * real process, stdin's terminal state enables `--prompt`, SIGTERM/SIGINT end a watch cleanly,
 * and the process is made to exit shortly after the command finished; otherwise `io.onTerminate`
 * (when given) ends a watch, as the conformance suite's in-process transport does.
 *
 * @example
 * const status = await runAdapter(["http", "describe"], processIo()); // 0
 */
export async function runAdapter(argv: string[], io: AdapterProcessIo): Promise<number> {
  const [name, ...rest] = argv;
  if (isHelpRequest(argv) || isHelpRequest(rest)) {
    io.stdout(ADAPTER_HELP);
    return 0;
  }
  if (name === undefined) {
    io.stderr(ADAPTER_HELP);
    return 2;
  }
  if (io.env.CLAUDE_PID !== undefined && io.env.CLAUDE_PID !== "") {
    // The person's CLI is on the model's PATH too (docs/46-cli.md): the raw binding would let
    // the model read held bodies unsanitised, acknowledge, close or leave.
    io.stderr(IN_SESSION_REFUSAL);
    io.stdout(envelopeLine(errorEnvelope(usageError("unknown_command"))));
    return 2;
  }
  if (name === undefined || !(BUNDLED_ADAPTERS as readonly string[]).includes(name)) {
    io.stdout(envelopeLine(errorEnvelope(usageError("unknown_command"))));
    return 2;
  }
  return runAsProcess(rest, io, httpFactory, { comp: "adapter-http", prompt: promptOnTerminal });
}
