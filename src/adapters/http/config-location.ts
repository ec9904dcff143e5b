import { isAbsolute, join } from "node:path";

/**
 * The environment variables the http adapter reads (docs/spec/protocol.md §1.5, plus
 * `BRIGADE_SERVER` for setup).
 */
export interface HttpAdapterEnv {
  readonly BRIGADE_CONFIG_DIR?: string | undefined;
  readonly BRIGADE_PROFILE?: string | undefined;
  readonly BRIGADE_SERVER?: string | undefined;
  /**
   * Absolute path of a private file holding the operator key of a server whose registration is
   * closed; read by `team create` only (docs/31-http-adapter.md).
   */
  readonly BRIGADE_OPERATOR_KEY_FILE?: string | undefined;
  readonly XDG_CONFIG_HOME?: string | undefined;
  readonly HOME?: string | undefined;
}

/** The default profile name when neither `--profile` nor `BRIGADE_PROFILE` names one. */
export const DEFAULT_PROFILE_NAME = "default";

// A profile name becomes a file stem: no separators, no leading dot, bounded.
const PROFILE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/;

/**
 * True when `name` can be a profile name (1–64 characters of `[A-Za-z0-9_.-]`, not starting
 * with `.` or `-`), so it is safe as a file stem.
 *
 * @example
 * isValidProfileName("work") === true; isValidProfileName("../x") === false;
 */
export function isValidProfileName(name: string): boolean {
  return PROFILE_NAME.test(name);
}

/**
 * The profile in force: `--profile`, else a non-empty `BRIGADE_PROFILE`, else `default`.
 *
 * @example
 * resolveProfileName(undefined, { BRIGADE_PROFILE: "work" }) === "work";
 */
export function resolveProfileName(flag: string | undefined, env: HttpAdapterEnv): string {
  if (flag !== undefined) return flag;
  const fromEnv = env.BRIGADE_PROFILE;
  return fromEnv !== undefined && fromEnv !== "" ? fromEnv : DEFAULT_PROFILE_NAME;
}

/** Where {@link locateConfigDir} found the folder. */
export type ConfigDirSource = "variable" | "xdg" | "home";

/**
 * How a caller reads `BRIGADE_CONFIG_DIR`, the only ways the callers of the one rule differ:
 * `variable` `read`, or `ignore` (the harness inside a Claude Code session, where an inherited
 * `BRIGADE_*` must not redirect credentials, docs/spec/claude-code.md §2); and what a relative
 * value means: `refuse` (no folder: the adapter, docs/spec/protocol.md §1.5, and the team
 * commands, which report it) or `fall_back` (skipped, so `XDG_CONFIG_HOME` and `HOME` decide: the
 * hooks and the watcher, which must not fail on it).
 */
export interface ConfigDirRule {
  readonly variable: "read" | "ignore";
  readonly relative: "refuse" | "fall_back";
}

/**
 * Why {@link locateConfigDir} gives no folder (docs/errors.md): `variable_relative`, a relative
 * `BRIGADE_CONFIG_DIR` the rule refuses; `no_base`, no absolute `XDG_CONFIG_HOME` or `HOME`.
 *
 * @example CONFIG_DIR_REFUSALS.includes("no_base") === true
 */
export const CONFIG_DIR_REFUSALS = ["variable_relative", "no_base"] as const;

/** One {@link CONFIG_DIR_REFUSALS} reason. */
export type ConfigDirRefusal = (typeof CONFIG_DIR_REFUSALS)[number];

/** Result of {@link locateConfigDir}: the folder and where it came from, or why there is none. */
export type ConfigDirLocation =
  | { readonly ok: true; readonly dir: string; readonly source: ConfigDirSource }
  | { readonly ok: false; readonly reason: ConfigDirRefusal };

/**
 * The configuration folder, the one rule every caller uses: a non-empty `BRIGADE_CONFIG_DIR`
 * (unless `rule.variable` is `ignore`; relative → per `rule.relative`), else
 * `$XDG_CONFIG_HOME/brigade`, else `$HOME/.config/brigade`. Only absolute paths count, so the
 * folder never depends on the working directory (docs/spec/protocol.md §1.5); an empty variable is
 * unset. Never throws.
 *
 * @example
 * locateConfigDir({ HOME: "/home/dana" }, { variable: "read", relative: "refuse" });
 * // { ok: true, dir: "/home/dana/.config/brigade", source: "home" }
 */
export function locateConfigDir(
  env: Pick<HttpAdapterEnv, "BRIGADE_CONFIG_DIR" | "XDG_CONFIG_HOME" | "HOME">,
  rule: ConfigDirRule,
): ConfigDirLocation {
  const explicit = rule.variable === "read" ? env.BRIGADE_CONFIG_DIR : undefined;
  if (explicit !== undefined && explicit !== "") {
    if (isAbsolute(explicit)) return { ok: true, dir: explicit, source: "variable" };
    if (rule.relative === "refuse") return { ok: false, reason: "variable_relative" };
  }
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg !== undefined && xdg !== "" && isAbsolute(xdg)) {
    return { ok: true, dir: join(xdg, "brigade"), source: "xdg" };
  }
  const home = env.HOME;
  if (home !== undefined && home !== "" && isAbsolute(home)) {
    return { ok: true, dir: join(home, ".config", "brigade"), source: "home" };
  }
  return { ok: false, reason: "no_base" };
}
