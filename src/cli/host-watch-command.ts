import { HOST_CLIENTS } from "../harness/host-clients.ts";
import { runPushLane } from "../harness/push-lane/index.ts";
import { CliUsageError } from "./cli-io.ts";
import type { CommandRunner } from "./command-table.ts";

const HELP = `usage: brigade host-watch <client> --host-pid <pid>

The push lane of one coding-agent client session (docs/49-hosts.md, "The push lane"): it receives
the team's messages for the session and delivers each through the client's own door into the
conversation. The client's session-start hook starts it, one per session; it is never run by hand.
`;

/**
 * `brigade host-watch <client> --host-pid <pid>`: the detached push lane of one client session
 * (docs/49-hosts.md, "The push lane"), started by `ensurePushLane` from the client's session-start
 * hook. SIGTERM and SIGINT stop it (the session stays open). Exit status: 0 after a normal stop
 * (the client process gone, the session changed, a signal, a lane already running, no door for
 * the session); 4, 5, 10 or 11 after a refused watch; 11 without a session; 2 for bad arguments
 * or a client without a door.
 *
 * @example brigade host-watch qwen --host-pid 4242
 */
export const runHostWatch: CommandRunner = async (argv, io) => {
  if (argv.length === 1 && (argv[0] === "--help" || argv[0] === "-h")) {
    io.stdout(HELP);
    return 0;
  }
  const [name, flag, pid] = argv;
  const load =
    name !== undefined && Object.hasOwn(HOST_CLIENTS, name) ? HOST_CLIENTS[name] : undefined;
  if (argv.length !== 3 || load === undefined || flag !== "--host-pid" || pid === undefined) {
    throw new CliUsageError(
      "usage: brigade host-watch <client> --host-pid <pid> (started by a client's hook)",
    );
  }
  if (!/^[1-9][0-9]{0,9}$/.test(pid))
    throw new CliUsageError("--host-pid must be a decimal process id");
  const client = await load();
  if (client.openDoor === undefined) {
    throw new CliUsageError(
      `brigade host-watch: ${client.title} has no door: its sessions have the pull lane`,
    );
  }
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  try {
    const exit = await runPushLane({
      client,
      hostPid: pid,
      env: io.env,
      signal: controller.signal,
      ...(process.argv[1] === undefined ? {} : { entryScript: process.argv[1] }),
    });
    if (exit.reason === "not_in_session") {
      io.stderr(`brigade host-watch: no Brigade session of ${client.title} for this process\n`);
    }
    return exit.status;
  } finally {
    process.off("SIGTERM", stop);
    process.off("SIGINT", stop);
  }
};
