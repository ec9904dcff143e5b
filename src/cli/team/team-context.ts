import { normalizeServerUrl } from "../../adapters/http/index.ts";
import { harnessConfigDir } from "../../harness/adapter/index.ts";
import type { TeamBindingLookup } from "../../harness/binding/index.ts";
import { type CliIo, CliUsageError } from "../cli-io.ts";
import { type Failed, fail } from "./team-report.ts";

/**
 * What `brigade team …` takes from its surroundings: whether it runs inside a Claude Code
 * session, `BRIGADE_SERVER`, the configuration folder, and the checkout's `.brigade.json`.
 */

/** The refusal of a person's act (every subcommand but `members`) inside a session. */
export const IN_SESSION_LINE =
  "this is a person's act: run it in your own terminal, not from a Claude Code session (CLAUDE_PID is set)";

/**
 * True inside a Claude Code session (`CLAUDE_PID` set and non-empty).
 *
 * @example inSession({ ...io, env: { CLAUDE_PID: "4242" } }) === true
 */
export function inSession(io: CliIo): boolean {
  const pid = io.env.CLAUDE_PID;
  return pid !== undefined && pid !== "";
}

/**
 * `BRIGADE_SERVER`, outside a session only (an inherited `BRIGADE_*` is ignored inside one);
 * `undefined` when unset or empty.
 *
 * @throws CliUsageError `BRIGADE_SERVER is not an http(s) URL`.
 * @example envServer(io) // "http://127.0.0.1:7777"
 */
export function envServer(io: CliIo): string | undefined {
  if (inSession(io)) return undefined;
  const text = io.env.BRIGADE_SERVER;
  if (text === undefined || text === "") return undefined;
  const server = normalizeServerUrl(text);
  if (server === undefined) throw new CliUsageError("BRIGADE_SERVER is not an http(s) URL");
  return server;
}

/**
 * The configuration folder, or the exit status 11 already reported when HOME (or
 * XDG_CONFIG_HOME) gives none.
 *
 * @example const dir = configDirOf(io, "join"); if (typeof dir !== "string") return dir.status;
 */
export function configDirOf(io: CliIo, sub: string): string | Failed {
  const dir = harnessConfigDir(io.env);
  if (dir !== undefined) return dir;
  return fail(
    io,
    sub,
    11,
    "no configuration folder: set HOME (or XDG_CONFIG_HOME) to an absolute path",
  );
}

const BINDING_PROBLEM: Readonly<Record<string, string>> = {
  binding_invalid:
    "this checkout's .brigade.json is not a valid team binding; fix or remove it first",
  binding_unreadable:
    "this checkout's .brigade.json cannot be read (a symlink or not a regular file); replace it first",
};

/**
 * Refuses a create/join where a broken `.brigade.json` stands (it is never silently ignored):
 * the exit status 2 already reported, or `undefined` when the lookup found one or none.
 *
 * @example const problem = bindingProblem(io, "join", found); if (problem) return problem.status;
 */
export function bindingProblem(
  io: CliIo,
  sub: string,
  found: TeamBindingLookup,
): Failed | undefined {
  if (found.ok || found.reason === "no_binding") return undefined;
  return fail(
    io,
    sub,
    2,
    BINDING_PROBLEM[found.reason] ?? "this checkout's .brigade.json is unusable",
  );
}
