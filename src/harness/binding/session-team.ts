import { normalizeServerUrl } from "../../adapters/http/index.ts";
import { readConsent } from "./consent.ts";
import { findTeamBinding } from "./find-team-binding.ts";

/** Why {@link resolveSessionTeam} found no team for a session. */
export const SESSION_TEAM_REASONS = [
  "no_binding",
  "binding_invalid",
  "binding_unreadable",
  "no_consent",
  "consent_mismatch",
  "no_config_dir",
] as const;

/** A {@link SESSION_TEAM_REASONS} member. */
export type SessionTeamReason = (typeof SESSION_TEAM_REASONS)[number];

/**
 * The team a Claude Code session started in some folder belongs to, or why it has none.
 * `teamName` is the name recorded at consent (the server's answer when the person joined), not
 * the repository's text.
 *
 * @example
 * { ok: true, server: "http://127.0.0.1:7777", teamRef: "t-9c1e", teamName: "core",
 *   teamKey: "team-0123456789abcdef", checkout: "/home/dana/src/api", configDir: "/home/dana/.config/brigade" }
 */
export type SessionTeam =
  | {
      readonly ok: true;
      readonly server: string;
      readonly teamRef: string;
      readonly teamName: string;
      readonly teamKey: string;
      readonly checkout: string;
      readonly configDir: string;
    }
  | { readonly ok: false; readonly reason: SessionTeamReason };

/**
 * Resolves the team of a session started in `cwd` (docs/spec/claude-code.md §7.3) and never throws:
 * the `.brigade.json` that binds `cwd` (`findTeamBinding`) AND this checkout's consent record under
 * `configDir` naming the same server (both normalised) and `team_ref`. Reasons: `no_config_dir`
 * (`configDir` undefined or empty); the binding's `no_binding` / `binding_unreadable` /
 * `binding_invalid`; `no_consent` (no record, or one that fails the trust checks of
 * `readConsent` — a symlink, readable by others, another owner, malformed, for another
 * checkout); `consent_mismatch` (the repository now names another server or team than the person
 * joined: a cloned or edited `.brigade.json` cannot redirect a session). The result's `configDir`
 * is the record's `config_dir` when it names one (the person's own choice, from their terminal),
 * else `configDir`.
 *
 * @example
 * const team = resolveSessionTeam({ cwd: process.cwd(), configDir: harnessConfigDir(process.env) });
 * if (!team.ok) return; // Brigade stays off in this session
 */
export function resolveSessionTeam(options: {
  readonly cwd: string;
  readonly configDir: string | undefined;
}): SessionTeam {
  const configDir = options.configDir;
  if (configDir === undefined || configDir === "") return { ok: false, reason: "no_config_dir" };
  const found = findTeamBinding(options.cwd);
  if (!found.ok) return { ok: false, reason: found.reason };
  const consent = readConsent(configDir, found.checkout);
  if (!consent.ok) return { ok: false, reason: "no_consent" };
  const record = consent.record;
  const bindingServer = normalizeServerUrl(found.binding.server);
  if (bindingServer !== record.server || found.binding.team_ref !== record.team_ref) {
    return { ok: false, reason: "consent_mismatch" };
  }
  return {
    ok: true,
    server: record.server,
    teamRef: record.team_ref,
    teamName: record.team_name,
    teamKey: record.team_key,
    checkout: found.checkout,
    // A record that names another folder (a join with BRIGADE_CONFIG_DIR) sends us there.
    configDir: record.config_dir ?? configDir,
  };
}
