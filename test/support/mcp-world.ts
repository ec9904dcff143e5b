import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { HttpAdapter } from "../../src/adapters/http/index.ts";
import { teamKeyFor } from "../../src/harness/binding/index.ts";
import { type ByPidMap, type StateLayout, stateLayout } from "../../src/harness/state/index.ts";
import { sampleByPidMap } from "./by-pid-map.ts";
import type { ServerProcess } from "./server-process.ts";
import { sessionRegistration } from "./session-registration.ts";
import { startTeamServer, stopServerProcess } from "./team-server.ts";

/** One person's Brigade session in an {@link McpWorld}. */
export interface McpPerson {
  /** The person's in-process http adapter (their own credential profile). */
  readonly adapter: HttpAdapter;
  /** The Brigade session registered for them. */
  readonly sessionId: string;
  /** A valid session map for that session (write it where a test needs the binding). */
  map(over?: Partial<ByPidMap>): ByPidMap;
}

/** A real `brigade serve` with one team of two people, each with one registered session. */
export interface McpWorld {
  readonly server: ServerProcess;
  readonly root: string;
  readonly teamRef: string;
  /** `XDG_STATE_HOME`; the state folder is `<stateHome>/brigade`. */
  readonly stateHome: string;
  readonly layout: StateLayout;
  /** dana: the team's creator, session `alpha`. */
  readonly dana: McpPerson;
  /** lee: the member, session `bravo`. */
  readonly lee: McpPerson;
  /** The environment of a process of this machine's user: HOME and the state folder. */
  env(extra?: Record<string, string>): Record<string, string>;
  /** Stops the server and removes the folder. */
  close(): Promise<void>;
}

/**
 * Starts the world of the `brigade mcp` tests: a `brigade serve` child on a temporary SQLite file
 * (`startTeamServer`), dana creating team `core` and lee joining it, each in a configuration
 * folder of their own, and one session each registered as Codex would (`alpha`, `bravo`), with
 * the longest lease (600 s). The session maps it hands out point at those folders and profiles;
 * nothing is written yet.
 *
 * @example const world = await startMcpWorld(); writeByPidMap(world.layout, world.dana.map({ claude_pid: process.pid }));
 */
export async function startMcpWorld(): Promise<McpWorld> {
  const root = mkdtempSync(join(tmpdir(), "brigade-mcp-"));
  const stateHome = join(root, "state");
  mkdirSync(stateHome, { mode: 0o700 });
  const configOf = { dana: join(root, "dana", "config"), lee: join(root, "lee", "config") };
  let server: ServerProcess | undefined;
  try {
    const team = await startTeamServer({
      dataFile: join(root, "brigade.sqlite"),
      creator: { configDir: configOf.dana, humanLabel: "Dana" },
      member: { configDir: configOf.lee, humanLabel: "Lee" },
    });
    server = team.server;
    // Nothing heartbeats these sessions (a host's session hook would): the longest lease keeps
    // them online for the whole file, however slow the machine.
    const register = {
      harness: "codex",
      harness_version: "1",
      activity: "idle",
      lease_seconds: 600,
    } as const;
    const alpha = await team.creator.sessionRegister(sessionRegistration("alpha", register));
    const bravo = await team.member.sessionRegister(sessionRegistration("bravo", register));
    const person = (
      adapter: HttpAdapter,
      sessionId: string,
      name: string,
      teamKey: string,
      configDir: string,
    ): McpPerson => ({
      adapter,
      sessionId,
      map: (over = {}) =>
        sampleByPidMap({
          claude_session_id: `native-${name}`,
          brigade_session_id: sessionId,
          team_ref: team.teamRef,
          team_name: "core",
          session_name: name,
          socket_path: "",
          team_key: teamKey,
          config_dir: configDir,
          harness_version: "1",
          ...over,
        }),
    });
    const started = server;
    return {
      server: started,
      root,
      teamRef: team.teamRef,
      stateHome,
      layout: stateLayout(join(stateHome, "brigade")),
      dana: person(team.creator, alpha.session_id, "alpha", "creator", configOf.dana),
      lee: person(
        team.member,
        bravo.session_id,
        "bravo",
        teamKeyFor(started.url, team.teamRef),
        configOf.lee,
      ),
      env: (extra = {}) => ({ HOME: root, XDG_STATE_HOME: stateHome, ...extra }),
      close: async () => {
        await stopServerProcess(started);
        rmSync(root, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await stopServerProcess(server);
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
}
