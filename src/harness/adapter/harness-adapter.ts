import { isAbsolute } from "node:path";
import { HttpAdapter, resolveConfigDir } from "../../adapters/http/index.ts";
import type { AdapterLogger } from "../../adapters/index.ts";
import { insideClaudeCode } from "../claude-code/index.ts";

/** Where a session's team lives locally: the adapter config dir and the profile (`team_key`). */
export interface HarnessAdapterTarget {
  /** Absolute `BRIGADE_CONFIG_DIR` of the http adapter (profiles/ and credentials/ below it). */
  readonly configDir: string;
  /** The BAP `--profile` bound to the team (the by-pid map's `team_key`). */
  readonly teamKey: string;
}

/** The environment members {@link harnessConfigDir} reads. */
export interface HarnessConfigEnv {
  readonly CLAUDE_PID?: string | undefined;
  readonly BRIGADE_CONFIG_DIR?: string | undefined;
  readonly XDG_CONFIG_HOME?: string | undefined;
  readonly HOME?: string | undefined;
}

/**
 * The adapter config dir the harness uses: the plugin option `config_dir` when it is absolute;
 * else, outside a session only, `BRIGADE_CONFIG_DIR`; else `$XDG_CONFIG_HOME/brigade`; else
 * `$HOME/.config/brigade`. Inside a session (`CLAUDE_PID` set) an inherited `BRIGADE_*` variable
 * is ignored (docs/spec/claude-code.md §2: a repository's settings `env` must not redirect
 * credentials). Relative bases are skipped. `undefined` when nothing absolute is found. Never
 * throws.
 *
 * @example harnessConfigDir({ HOME: "/home/dana" }) // "/home/dana/.config/brigade"
 */
export function harnessConfigDir(
  env: HarnessConfigEnv,
  optionConfigDir?: string,
): string | undefined {
  if (optionConfigDir !== undefined && optionConfigDir !== "" && isAbsolute(optionConfigDir)) {
    return optionConfigDir;
  }
  const inSession = insideClaudeCode(env);
  const explicit = inSession ? undefined : env.BRIGADE_CONFIG_DIR;
  // The adapter's own rule refuses a relative BRIGADE_CONFIG_DIR outright; here it is skipped so
  // the XDG/HOME fallback still applies.
  return resolveConfigDir({
    BRIGADE_CONFIG_DIR: explicit !== undefined && isAbsolute(explicit) ? explicit : undefined,
    XDG_CONFIG_HOME: env.XDG_CONFIG_HOME,
    HOME: env.HOME,
  });
}

/**
 * The bundled http adapter bound to `target`, in process (docs/00-architecture.md: the harness
 * calls BAP/1 verbs through the `Adapter` interface). Only `BRIGADE_CONFIG_DIR` (and the operator
 * key file a person named on `brigade team create`) reaches the adapter: nothing else of the
 * caller's environment can redirect it. Errors surface as `BapError` from each call.
 *
 * @example
 * const adapter = openHarnessAdapter({ configDir: "/home/dana/.config/brigade", teamKey: "team-1a2b" });
 * const list = await adapter.sessionList();
 */
export function openHarnessAdapter(
  target: HarnessAdapterTarget,
  options: {
    readonly timeoutMs?: number;
    readonly logger?: AdapterLogger;
    /** Absolute path of the operator key file `team create` presents (a closed server). */
    readonly operatorKeyFile?: string;
  } = {},
): HttpAdapter {
  return new HttpAdapter({
    env: {
      BRIGADE_CONFIG_DIR: target.configDir,
      ...(options.operatorKeyFile === undefined
        ? {}
        : { BRIGADE_OPERATOR_KEY_FILE: options.operatorKeyFile }),
    },
    profile: target.teamKey,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  });
}
