import { resolve } from "node:path";
import { normalizeServerUrl } from "../../adapters/http/index.ts";
import { harnessConfigDir } from "../../harness/adapter/index.ts";
import {
  type ConsentRecord,
  deleteConsent,
  readConsent,
  type TeamBindingLookup,
  writeConsent,
} from "../../harness/binding/index.ts";
import { insideClaudeCode } from "../../harness/claude-code/index.ts";
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
  return insideClaudeCode(io.env);
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

/**
 * The folder a Claude Code session looks in when the plugin option `config_dir` is unset:
 * `$XDG_CONFIG_HOME/brigade`, else `~/.config/brigade` (sessions ignore `BRIGADE_CONFIG_DIR`).
 *
 * @example sessionDefaultConfigDir(io) // "/home/dana/.config/brigade"
 */
export function sessionDefaultConfigDir(io: CliIo): string | undefined {
  return harnessConfigDir(io.env, { asSession: true });
}

/**
 * Records this checkout's consent in `configDir` and, when that is not the folder sessions use by
 * default (the person set `BRIGADE_CONFIG_DIR`), a second record there whose `config_dir` names
 * `configDir`: so the one configuration folder the person chose holds the credential, and sessions
 * — which ignore every inherited `BRIGADE_*` — still find the join (docs/44-team-binding.md, "One
 * configuration folder rule"). Returns whether the second record was written.
 *
 * @throws PrivateFileError (or another write error) when a record cannot be written privately.
 * @example recordConsent(io, "/srv/brigade-config", consentRecord({ ... }));
 */
export function recordConsent(io: CliIo, configDir: string, record: ConsentRecord): boolean {
  writeConsent(configDir, record);
  const sessions = sessionDefaultConfigDir(io);
  if (sessions === undefined || resolve(sessions) === resolve(configDir)) return false;
  writeConsent(sessions, { ...record, config_dir: configDir });
  return true;
}

/**
 * Deletes this checkout's consent in `configDir`, and the default folder's record when it points
 * to `configDir` (written by {@link recordConsent}); a record there for another folder is kept.
 *
 * @throws Error from the file system for any failure but a missing file.
 * @example forgetConsent(io, configDir, "/home/dana/src/api");
 */
export function forgetConsent(io: CliIo, configDir: string, checkout: string): void {
  deleteConsent(configDir, checkout);
  const sessions = sessionDefaultConfigDir(io);
  if (sessions === undefined || resolve(sessions) === resolve(configDir)) return;
  const pointer = readConsent(sessions, checkout);
  if (pointer.ok && pointer.record.config_dir === configDir) deleteConsent(sessions, checkout);
}

/** The line `create` and `join` add when the sessions' default folder got a pointer record. */
export const CONSENT_POINTER_LINE =
  "BRIGADE_CONFIG_DIR is set: the credential stays in that folder, and a consent record in the default folder ($XDG_CONFIG_HOME/brigade, else ~/.config/brigade) points sessions to it. If you set the plugin option config_dir, set it to the same folder.";
