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

/**
 * The configuration folder: `BRIGADE_CONFIG_DIR`, else `$XDG_CONFIG_HOME/brigade`, else
 * `$HOME/.config/brigade`. Only absolute paths count (docs/spec/protocol.md §1.5: never the cwd);
 * `undefined` when none is usable.
 *
 * @example
 * resolveConfigDir({ HOME: "/home/dana" }) === "/home/dana/.config/brigade";
 */
export function resolveConfigDir(env: HttpAdapterEnv): string | undefined {
  const explicit = env.BRIGADE_CONFIG_DIR;
  if (explicit !== undefined && explicit !== "") {
    return isAbsolute(explicit) ? explicit : undefined;
  }
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg !== undefined && xdg !== "" && isAbsolute(xdg)) return join(xdg, "brigade");
  const home = env.HOME;
  if (home !== undefined && home !== "" && isAbsolute(home)) {
    return join(home, ".config", "brigade");
  }
  return undefined;
}
