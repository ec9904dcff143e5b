import { isAbsolute } from "node:path";
import {
  type ConfigDirLocation,
  type ConfigDirRule,
  HttpAdapter,
  locateConfigDir,
} from "../../adapters/http/index.ts";
import type { AdapterLogger } from "../../adapters/index.ts";
import { insideClaudeCode } from "../claude-code/index.ts";

/** Where a session's team lives locally: the adapter config dir and the profile (`team_key`). */
export interface HarnessAdapterTarget {
  /** Absolute `BRIGADE_CONFIG_DIR` of the http adapter (profiles/ and credentials/ below it). */
  readonly configDir: string;
  /** The BAP `--profile` bound to the team (the by-pid map's `team_key`). */
  readonly teamKey: string;
}

/** The environment members {@link harnessConfigLocation} reads. */
export interface HarnessConfigEnv {
  readonly CLAUDE_PID?: string | undefined;
  readonly BRIGADE_CONFIG_DIR?: string | undefined;
  readonly XDG_CONFIG_HOME?: string | undefined;
  readonly HOME?: string | undefined;
}

/** How a caller of {@link harnessConfigLocation} reads the environment. */
export interface HarnessConfigRule {
  /**
   * Read as a Claude Code session started here would, even without `CLAUDE_PID`: for what the
   * person's own terminal says about sessions (doctor, the team commands' pointer record).
   */
  readonly asSession?: boolean;
  /**
   * A relative `BRIGADE_CONFIG_DIR` outside a session: `fall_back` (the default: a hook or the
   * watcher must not fail on it) or `refuse` (the team commands report it).
   */
  readonly relative?: ConfigDirRule["relative"];
}

/**
 * The configuration folder the harness's side of the one rule (`locateConfigDir`) gives:
 * `BRIGADE_CONFIG_DIR` outside a session only, else `$XDG_CONFIG_HOME/brigade`, else
 * `$HOME/.config/brigade`. Inside a session (`CLAUDE_PID` set, or `asSession`) an inherited
 * `BRIGADE_*` variable is ignored (docs/spec/claude-code.md §2: a repository's settings `env` must
 * not redirect credentials). Relative bases are skipped; a relative `BRIGADE_CONFIG_DIR` too,
 * unless `relative` is `refuse`. Never throws.
 *
 * @example harnessConfigLocation({ HOME: "/home/dana" }) // { ok: true, dir: "/home/dana/.config/brigade", source: "home" }
 */
export function harnessConfigLocation(
  env: HarnessConfigEnv,
  rule: HarnessConfigRule = {},
): ConfigDirLocation {
  const session = rule.asSession === true || insideClaudeCode(env);
  return locateConfigDir(env, {
    variable: session ? "ignore" : "read",
    relative: rule.relative ?? "fall_back",
  });
}

/**
 * The adapter config dir the harness uses: `option` (the plugin option `config_dir`, or the
 * by-pid map's) when it is absolute, else the folder of {@link harnessConfigLocation};
 * `undefined` when nothing absolute is found. Never throws.
 *
 * @example harnessConfigDir({ HOME: "/home/dana" }) // "/home/dana/.config/brigade"
 */
export function harnessConfigDir(
  env: HarnessConfigEnv,
  options: HarnessConfigRule & { readonly option?: string | undefined } = {},
): string | undefined {
  const option = options.option;
  if (option !== undefined && option !== "" && isAbsolute(option)) return option;
  const location = harnessConfigLocation(env, options);
  return location.ok ? location.dir : undefined;
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
