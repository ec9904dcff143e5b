import { HttpAdapter } from "../../src/adapters/http/index.ts";
import { teamKeyFor } from "../../src/harness/binding/index.ts";
import { ensureBuilt, exited, type ServerProcess, startServerProcess } from "./server-process.ts";

/** One principal of the team: the http adapter's config dir and profile on this machine. */
export interface TeamPrincipal {
  /** The adapter's `BRIGADE_CONFIG_DIR` (created on first write). */
  readonly configDir: string;
  /** The profile name; default `teamKeyFor(server, teamRef)`, the harness's own naming. */
  readonly profile?: string;
  /** The member's self-chosen label sent with create / join. */
  readonly humanLabel?: string;
}

/** What {@link startTeamServer} set up. */
export interface TeamServer {
  readonly server: ServerProcess;
  readonly teamRef: string;
  /** The principal that created the team. */
  readonly creator: HttpAdapter;
  /** The second principal, joined with the creator's join secret. */
  readonly member: HttpAdapter;
}

/** Options of {@link startTeamServer}. */
export interface TeamServerOptions {
  /** The server's SQLite file. */
  readonly dataFile: string;
  /** The team's name; default `core`. */
  readonly teamName?: string;
  readonly creator: TeamPrincipal;
  readonly member: TeamPrincipal;
}

function adapterFor(principal: TeamPrincipal, url: string, profile: string): HttpAdapter {
  return new HttpAdapter({
    env: { BRIGADE_CONFIG_DIR: principal.configDir, BRIGADE_SERVER: url },
    profile,
  });
}

function label(principal: TeamPrincipal): { human_label?: string } {
  return principal.humanLabel === undefined ? {} : { human_label: principal.humanLabel };
}

/**
 * A real `brigade serve` child (dist/ built first when missing) with one team and two principals,
 * each bound through the in-process http adapter in its own config dir: `creator` runs team
 * create, `member` team join with the secret. Stop it with {@link stopServerProcess}.
 */
export async function startTeamServer(options: TeamServerOptions): Promise<TeamServer> {
  ensureBuilt();
  const server = await startServerProcess(options.dataFile);
  // The creator's profile cannot default to the team key: the team does not exist yet.
  const creator = adapterFor(options.creator, server.url, options.creator.profile ?? "creator");
  const team = await creator.teamCreate({
    team_name: options.teamName ?? "core",
    ...label(options.creator),
  });
  const member = adapterFor(
    options.member,
    server.url,
    options.member.profile ?? teamKeyFor(server.url, team.team_ref),
  );
  await member.teamJoin({ join_secret: team.join_secret, ...label(options.member) });
  return { server, teamRef: team.team_ref, creator, member };
}

/** Sends SIGTERM to a started `brigade serve` and waits for it to exit; `undefined` is a no-op. */
export async function stopServerProcess(server: ServerProcess | undefined): Promise<void> {
  if (server === undefined) return;
  server.child.kill("SIGTERM");
  await exited(server.child);
}
