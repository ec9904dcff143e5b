import { HOST_CLIENTS } from "../harness/host-clients.ts";
import { MAX_HOST_HOOK_INPUT_BYTES } from "../harness/host-session/index.ts";
import { currentUid } from "../local-files/index.ts";
import { type CliIo, readUpTo } from "./cli-io.ts";

const HELP = `usage: brigade host-hook <client> <event>   (the hook's JSON document on stdin)

A coding-agent client's hooks run this (written by "brigade install <client>"); it is never run
by hand. It prints one JSON document for the client and always exits 0.
`;

/**
 * `brigade host-hook <client> <event>` (docs/49-hosts.md): reads the hook's stdin document (at
 * most 1 MiB; more is read as no document), runs the client's hook (`HOST_CLIENTS`) and prints
 * what it returns. Always exits 0 and always prints a JSON document (`{}` when there is nothing
 * to say): a client reads a hook's stdout as JSON and must never be stopped by Brigade. An unknown
 * client or event, or an internal error, is one line on stderr (the client's debug output).
 *
 * @example echo '{"session_id":"…","cwd":"/w/api"}' | brigade host-hook gemini turn
 */
export async function runHostHook(argv: string[], io: CliIo): Promise<number> {
  if (argv.length === 1 && (argv[0] === "--help" || argv[0] === "-h")) {
    io.stdout(HELP);
    return 0;
  }
  const [name, event] = argv;
  const load =
    name !== undefined && Object.hasOwn(HOST_CLIENTS, name) ? HOST_CLIENTS[name] : undefined;
  if (argv.length !== 2 || load === undefined) {
    io.stderr("brigade host-hook: usage: brigade host-hook <client> <event>\n");
    io.stdout("{}\n");
    return 0;
  }
  try {
    const client = await load();
    if (event === undefined || !client.hookEvents.includes(event)) {
      io.stderr(`brigade host-hook: unknown event for ${client.name}\n`);
      io.stdout("{}\n");
      return 0;
    }
    const bytes = await readUpTo(io.stdin, MAX_HOST_HOOK_INPUT_BYTES + 1);
    const stdin =
      bytes.byteLength > MAX_HOST_HOOK_INPUT_BYTES ? "" : new TextDecoder().decode(bytes);
    const text = await client.runHook(event, stdin, {
      env: io.env,
      uid: currentUid(),
      now: Date.now,
      log: (line) => io.stderr(line),
    });
    io.stdout(`${text}\n`);
  } catch (error) {
    io.stderr(
      `brigade host-hook: internal error (${error instanceof Error ? error.name : "unknown"})\n`,
    );
    io.stdout("{}\n");
  }
  return 0;
}
