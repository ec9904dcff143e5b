import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { sanitizeAttribute } from "../../formats/sanitize/index.ts";
import {
  harnessConfigDir,
  harnessConfigLocation,
  openHarnessAdapter,
} from "../../harness/adapter/index.ts";
import { resolveSessionTeam, type SessionTeam } from "../../harness/binding/index.ts";
import {
  brigadeVersionBeside,
  CLAUDE_CODE_MINIMUM,
  CLAUDE_CODE_VERIFIED,
  claudeConfigDir,
  compareVersions,
  crossSessionInboundOf,
  firstBrigadeOnPath,
  MAX_SETTINGS_BYTES,
  scanInboundSettings,
} from "../../harness/claude-code/index.ts";
import {
  type ByPidMap,
  readByPidMap,
  resolveStateDir,
  type StateLayout,
  stateLayout,
} from "../../harness/state/index.ts";
import { isWatcherRunning, processLiveness } from "../../harness/watcher/index.ts";
import { currentUid, readLocalFile } from "../../local-files/index.ts";
import { BapError, isStoreHealthReason } from "../../protocol/index.ts";
import { readSettingsChanges } from "../claude-settings/settings-changes.ts";
import {
  PLAIN_HTTP_ANSWER_CODE,
  PLAIN_HTTP_ANSWER_FIX,
  systemErrorCode,
  TLS_FAILURE_CODE,
} from "../connection-failure.ts";
import { checkoutOf, pluginInstallFix } from "./checkout-plugin.ts";
import type { DoctorCheck } from "./doctor-check.ts";

/** What the checks read from their surroundings (tests replace any part). */
export interface DoctorContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** `process.versions.node`. */
  readonly nodeVersion: string;
  /** This CLI's version (`brigadeVersion()`). */
  readonly cliVersion: string;
  /** The real path of this CLI's entry script, to recognise it on PATH. */
  readonly cliScript: string;
  /** How long a network check may take, ms. */
  readonly timeoutMs: number;
}

/** The oldest Node.js the CLI and the plugin run on (package.json `engines`). */
export const NODE_MINIMUM = "20.19";

const NODE_FIX = "install Node.js 20.19 or newer (https://nodejs.org) and put it first on PATH";

/** Node.js: at least {@link NODE_MINIMUM}. */
export function checkNode(ctx: DoctorContext): DoctorCheck {
  const ok = compareVersions(ctx.nodeVersion, NODE_MINIMUM) >= 0;
  return ok
    ? {
        title: "Node.js",
        status: "pass",
        detail: `${ctx.nodeVersion} (needs ${NODE_MINIMUM} or newer)`,
      }
    : {
        title: "Node.js",
        status: "fail",
        detail: `${ctx.nodeVersion} is older than ${NODE_MINIMUM}`,
        fix: NODE_FIX,
      };
}

/** The `brigade` a terminal (and a session's Bash tool) runs first: this CLI's version? */
export function checkCli(ctx: DoctorContext): DoctorCheck {
  const title = "brigade on PATH";
  const first = firstBrigadeOnPath(ctx.env.PATH ?? "");
  if (first === undefined) {
    return {
      title,
      status: "fail",
      detail: "no brigade command on PATH",
      fix: "run `npm run install-cli` in your Brigade checkout (it links ~/.local/bin/brigade) and put ~/.local/bin on PATH",
    };
  }
  const found = first.found;
  const version =
    first.realpath === ctx.cliScript ? ctx.cliVersion : brigadeVersionBeside(first.realpath);
  if (version === ctx.cliVersion) {
    return { title, status: "pass", detail: `${found} is Brigade ${version}` };
  }
  return {
    title,
    status: "fail",
    detail: `${found} is Brigade ${version}, this CLI is ${ctx.cliVersion}`,
    fix: "run `npm run install-cli` in the checkout you mean to use, or remove the other brigade from PATH",
  };
}

function pluginVersions(ccDir: string): string[] {
  const versions: string[] = [];
  const cache = join(ccDir, "plugins", "cache");
  for (const marketplace of safeList(cache)) {
    for (const copy of safeList(join(cache, marketplace, "brigade"))) {
      const version = pluginVersionIn(join(cache, marketplace, "brigade", copy));
      if (version !== undefined) versions.push(version);
    }
  }
  return versions.sort(compareVersions);
}

/** The version a Brigade plugin folder's manifest names (cleaned, at most 32 characters). */
function pluginVersionIn(pluginFolder: string): string | undefined {
  const read = readLocalFile(join(pluginFolder, ".claude-plugin", "plugin.json"), {
    maxBytes: 65_536,
    followSymlink: true,
  });
  if (!read.ok) return undefined;
  try {
    const manifest: unknown = JSON.parse(Buffer.from(read.bytes).toString("utf8"));
    if (typeof manifest !== "object" || manifest === null) return undefined;
    if (!("name" in manifest) || manifest.name !== "brigade" || !("version" in manifest))
      return undefined;
    return typeof manifest.version === "string"
      ? sanitizeAttribute(manifest.version).slice(0, 32)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The by-pid maps of this user's Claude Code sessions with Brigade that are running now. */
function runningSessionMaps(ctx: DoctorContext): { layout: StateLayout; maps: ByPidMap[] } | null {
  const stateEnv = { XDG_STATE_HOME: ctx.env.XDG_STATE_HOME, HOME: ctx.env.HOME };
  const dir = resolveStateDir(stateEnv);
  if (!dir.ok) return null;
  const layout = stateLayout(dir.dir);
  const uid = currentUid();
  const maps: ByPidMap[] = [];
  for (const file of safeList(dirname(layout.byPid("0")))) {
    if (!file.endsWith(".json")) continue;
    const read = readByPidMap({ claudePid: file.slice(0, -".json".length), env: stateEnv, uid });
    if (read.ok && processLiveness(read.map.claude_pid) === "alive") maps.push(read.map);
  }
  return { layout, maps };
}

/**
 * The plugin folders running sessions loaded from outside Claude Code's plugin cache
 * (`claude --plugin-dir <folder>`), each once, with the version its manifest names.
 */
function pluginDirsInUse(ctx: DoctorContext, ccDir: string | undefined): Map<string, string> {
  const cache = ccDir === undefined ? undefined : join(ccDir, "plugins", "cache");
  const found = new Map<string, string>();
  for (const map of runningSessionMaps(ctx)?.maps ?? []) {
    if (map.plugin_bin === "") continue;
    const folder = dirname(map.plugin_bin);
    if (cache !== undefined && folder.startsWith(`${cache}/`)) continue;
    const version = pluginVersionIn(folder);
    if (version !== undefined) found.set(folder, version);
  }
  return found;
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** The Claude Code plugin installed for this user: its newest copy is this CLI's version. */
export function checkPlugin(ctx: DoctorContext): DoctorCheck {
  const title = "Claude Code plugin";
  const ccDir = claudeConfigDir(ctx.env);
  const versions = ccDir === undefined ? [] : pluginVersions(ccDir);
  const newest = versions[versions.length - 1];
  if (newest === undefined) {
    const inUse = [...pluginDirsInUse(ctx, ccDir).values()];
    if (inUse.length > 0) {
      const behind = inUse.filter((v) => v !== ctx.cliVersion);
      return behind.length === 0
        ? {
            title,
            status: "pass",
            detail: `loaded with --plugin-dir by a running session, version ${ctx.cliVersion}, the same as this CLI (not installed for other sessions)`,
          }
        : {
            title,
            status: "fail",
            detail: `a running session loaded version ${behind[0]} with --plugin-dir, this CLI is ${ctx.cliVersion}`,
            fix: "git pull && npm run install-cli in the checkout, then start that session again",
          };
    }
    return {
      title,
      status: "fail",
      detail: "not installed for this user (no brigade plugin in Claude Code's plugin cache)",
      fix: pluginInstallFix(checkoutOf(ctx.cliScript)),
    };
  }
  if (newest === ctx.cliVersion) {
    return { title, status: "pass", detail: `version ${newest}, the same as this CLI` };
  }
  return {
    title,
    status: "fail",
    detail: `version ${newest}, this CLI is ${ctx.cliVersion}`,
    fix: "update the one that is behind: /plugin update brigade@brigade in Claude Code, or git pull && npm run install-cli in the checkout",
  };
}

/** What a Claude Code session started here would join (the session's view of the folders). */
export function sessionTeamHere(ctx: DoctorContext): SessionTeam {
  const sessionsDir = harnessConfigDir(ctx.env, { asSession: true });
  return resolveSessionTeam({ cwd: ctx.cwd, configDir: sessionsDir });
}

const BINDING_DETAIL: Readonly<Record<string, readonly [string, string]>> = {
  no_binding: [
    "this folder names no Brigade team (no .brigade.json here or above it up to the repository top; outside a git repository, only here)",
    "create a team with `brigade team create <name> --server <url>`, or run doctor inside a checkout that has one",
  ],
  binding_invalid: [
    ".brigade.json is not a valid team binding",
    "fix or remove .brigade.json (docs/44-team-binding.md)",
  ],
  binding_unreadable: [
    ".brigade.json cannot be read (a symlink or not a regular file)",
    "replace it with a regular file",
  ],
  no_consent: [
    "the repository names a team, but you have not joined it in this checkout (no consent record where sessions look)",
    "run `brigade team join --secret-file <path>` here; if you joined with the plugin option config_dir set, that folder is not checked here",
  ],
  consent_mismatch: [
    ".brigade.json names another server or team than the one you joined here",
    "if the change is right, join again: `brigade team join --secret-file <path> --server <url>`",
  ],
  no_config_dir: ["no configuration folder (HOME is not set to an absolute path)", "set HOME"],
};

/** The checkout's `.brigade.json` and this person's consent, as a session would see them. */
export function checkBinding(team: SessionTeam): DoctorCheck {
  const title = "team binding and consent";
  if (team.ok) {
    return {
      title,
      status: "pass",
      detail: `team "${sanitizeAttribute(team.teamName)}" on ${team.server}, joined for this checkout`,
    };
  }
  const [detail, fix] = BINDING_DETAIL[team.reason] ?? ["unusable", "see docs/44-team-binding.md"];
  return { title, status: "fail", detail: `${detail} (${team.reason})`, fix };
}

function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "");
  return bare === "localhost" || bare === "::1" || /^127\./.test(bare);
}

function errorCode(error: unknown): string {
  return (
    systemErrorCode(error) ??
    (error instanceof Error && error.name === "TimeoutError" ? "timeout" : "no answer")
  );
}

/**
 * How the team's server is reached, from its URL alone: https (the handshake itself is judged by
 * {@link checkServer}), plain http on this machine's loopback, or plain http across a network —
 * a failure, since the credential and every message would travel unencrypted.
 *
 * @example checkTransport("http://10.0.0.5:7777").status === "fail"
 */
export function checkTransport(server: string): DoctorCheck {
  const url = new URL(server);
  if (url.protocol === "https:") {
    return {
      title: "TLS",
      status: "pass",
      detail: "https, and the certificate is trusted by this machine",
    };
  }
  if (isLoopbackHost(url.hostname)) {
    return {
      title: "TLS",
      status: "pass",
      detail: "plain http on this machine's loopback (nothing crosses a network)",
    };
  }
  return {
    title: "TLS",
    status: "fail",
    detail:
      "plain http to another machine: the credential and every message cross the network unencrypted",
    fix: "serve it over https (brigade serve --tls-cert/--tls-key, or a reverse proxy: docs/50-operator.md) and join again with the https URL",
  };
}

/**
 * How a Brigade health reply says the store cannot serve (503, `status` `unavailable`): its reason
 * when it is one of `STORE_HEALTH_REASONS` (src/protocol), `a reason this doctor does not know` for
 * any other (a newer server's), or `undefined` for a reply that is not such a health reply. The
 * reply's own text is never shown, so a hostile server cannot put words of its own in the report.
 */
function storeDownReason(status: number, body: unknown): string | undefined {
  if (status !== 503 || typeof body !== "object" || body === null) return undefined;
  if (!("status" in body) || body.status !== "unavailable" || !("reason" in body)) return undefined;
  return isStoreHealthReason(body.reason) ? body.reason : "a reason this doctor does not know";
}

/** The server answers `GET /v1/health`, and over TLS with a certificate this machine trusts. */
export async function checkServer(team: SessionTeam, ctx: DoctorContext): Promise<DoctorCheck[]> {
  if (!team.ok) {
    return [
      { title: "server", status: "skip", detail: "needs a joined checkout" },
      { title: "TLS", status: "skip", detail: "needs a joined checkout" },
    ];
  }
  const url = new URL(team.server);
  const tls = checkTransport(team.server);
  try {
    const response = await fetch(`${team.server}/v1/health`, {
      signal: AbortSignal.timeout(ctx.timeoutMs),
      headers: { accept: "application/json" },
    });
    const body: unknown = await response.json().catch(() => undefined);
    const healthy =
      response.ok &&
      typeof body === "object" &&
      body !== null &&
      "status" in body &&
      body.status === "ok";
    const storeReason = storeDownReason(response.status, body);
    if (storeReason !== undefined) {
      return [
        {
          title: "server",
          status: "fail",
          detail: `${team.server} answers, but its store cannot serve (${storeReason})`,
          fix: "tell the server's operator: its database is down or unreachable (docs/51-postgres.md)",
        },
        tls,
      ];
    }
    if (!healthy) {
      return [
        {
          title: "server",
          status: "fail",
          detail: `${team.server} answered, but not as a Brigade server (HTTP ${response.status})`,
          fix: "check the URL in .brigade.json and that brigade serve runs there (a proxy must pass /v1/ through)",
        },
        tls,
      ];
    }
    return [
      { title: "server", status: "pass", detail: `${team.server} answers (GET /v1/health)` },
      tls,
    ];
  } catch (error) {
    const code = errorCode(error);
    if (PLAIN_HTTP_ANSWER_CODE.test(code)) {
      return [
        {
          title: "server",
          status: "fail",
          detail: `${team.server} does not answer over TLS (${code})`,
          fix: "see TLS below",
        },
        {
          title: "TLS",
          status: "fail",
          detail: `the server answered the TLS handshake with something that is not TLS (${code})`,
          fix: PLAIN_HTTP_ANSWER_FIX,
        },
      ];
    }
    if (TLS_FAILURE_CODE.test(code)) {
      return [
        {
          title: "server",
          status: "fail",
          detail: `${team.server} cannot be reached over TLS (${code})`,
          fix: "see TLS below",
        },
        {
          title: "TLS",
          status: "fail",
          detail: `the TLS handshake failed (${code})`,
          fix: "use a certificate for this host name from a CA this machine trusts, or point NODE_EXTRA_CA_CERTS at your CA's certificate (docs/50-operator.md)",
        },
      ];
    }
    return [
      {
        title: "server",
        status: "fail",
        detail: `${team.server} cannot be reached (${code})`,
        fix: "check that brigade serve runs there and that this machine can reach it (firewall, VPN, proxy)",
      },
      url.protocol === "https:"
        ? { title: "TLS", status: "skip", detail: "the server cannot be reached" }
        : tls,
    ];
  }
}

/** This machine's credential for the team: the server accepts it (`team members`). */
export async function checkCredential(team: SessionTeam, ctx: DoctorContext): Promise<DoctorCheck> {
  const title = "credential";
  if (!team.ok) return { title, status: "skip", detail: "needs a joined checkout" };
  try {
    const members = await openHarnessAdapter(
      { configDir: team.configDir, teamKey: team.teamKey },
      { timeoutMs: ctx.timeoutMs },
    ).teamMembers();
    return {
      title,
      status: "pass",
      detail: `accepted by the server (${members.members.length} active member${members.members.length === 1 ? "" : "s"})`,
    };
  } catch (error) {
    const why = error instanceof BapError ? error.code : "no answer";
    // config (unreadable) or unauthenticated with credential_missing (absent): the local
    // credential file cannot be used, so nothing reached the server;
    // unauthenticated: the server knows no such token (restored from a backup, or swept);
    // unauthorized: the token is valid but not a member: it left (joining again fixes it) or the
    // creator removed it (no secret lets it back, so the fix says so rather than send it in circles).
    const rejoin =
      "join again: `brigade team join --secret-file <path>` (ask the team's creator for a fresh secret if yours was rotated)";
    if (why === "unauthorized") {
      return {
        title,
        status: "fail",
        detail:
          "the server knows this machine's credential, but it is not an active member of the team (unauthorized)",
        fix: `if you left the team, ${rejoin}; if its creator removed you, no secret lets you back: ask them`,
      };
    }
    if (why === "unauthenticated" || why === "config") {
      const missing = error instanceof BapError && error.details?.reason === "credential_missing";
      return {
        title,
        status: "fail",
        detail:
          why === "config"
            ? "this machine has no usable credential for the team (config)"
            : missing
              ? "this machine holds no credential for the team; nothing was sent to the server (credential_missing)"
              : `the server does not accept this machine's credential for the team (${why})`,
        fix: rejoin,
      };
    }
    return {
      title,
      status: "fail",
      detail: `the check could not finish (${why})`,
      fix: "see the server check above",
    };
  }
}

/** The watcher of every running Claude Code session of this user that has an inbox socket. */
export function checkWatchers(ctx: DoctorContext): DoctorCheck {
  const title = "session watchers";
  const running = runningSessionMaps(ctx);
  if (running === null) return { title, status: "skip", detail: "no state folder" };
  let live = 0;
  const stopped: string[] = [];
  for (const map of running.maps) {
    if (map.socket_path === "") continue;
    live++;
    if (!isWatcherRunning(running.layout, String(map.claude_pid)))
      stopped.push(`"${sanitizeAttribute(map.session_name)}"`);
  }
  if (live === 0)
    return {
      title,
      status: "skip",
      detail: "no running Claude Code session with Brigade on this machine",
    };
  if (stopped.length === 0)
    return { title, status: "pass", detail: `${live} running session(s), each with its watcher` };
  return {
    title,
    status: "fail",
    detail: `no watcher for ${stopped.join(", ")}: messages wait until it runs`,
    fix: "send any prompt in that session (the prompt hook restarts the watcher), or run /reload-plugins there",
  };
}

/** `claude --version` against the versions the plugin was verified on. */
export function checkClaudeCode(ctx: DoctorContext): DoctorCheck {
  const title = "Claude Code";
  const run = spawnSync("claude", ["--version"], {
    env: { ...ctx.env } as NodeJS.ProcessEnv,
    encoding: "utf8",
    timeout: ctx.timeoutMs,
  });
  const version = /(\d+\.\d+\.\d+)/.exec(run.status === 0 ? run.stdout : "")?.[1];
  const verified = CLAUDE_CODE_VERIFIED.join(" and ");
  if (version === undefined) {
    return {
      title,
      status: "fail",
      detail: "`claude --version` did not run",
      fix: "install Claude Code (https://docs.claude.com/claude-code) and put `claude` on PATH",
    };
  }
  if (CLAUDE_CODE_VERIFIED.includes(version)) {
    return {
      title,
      status: "pass",
      detail: `${version}, one of the versions Brigade was verified on`,
    };
  }
  if (compareVersions(version, CLAUDE_CODE_MINIMUM) < 0) {
    return {
      title,
      status: "fail",
      detail: `${version} is older than ${CLAUDE_CODE_MINIMUM}, which cross-session messaging needs`,
      fix: "update Claude Code (claude update)",
    };
  }
  return {
    title,
    status: "warn",
    detail: `${version} is not one Brigade was verified on (${verified}); it should work, but watch the first messages`,
    fix: `if delivery misbehaves, use ${CLAUDE_CODE_VERIFIED[CLAUDE_CODE_VERIFIED.length - 1]} and report it`,
  };
}

/**
 * The `crossSessionInbound` settings the inbound gate reads (docs/spec/claude-code.md §4): a value
 * other than `accept` anywhere fails (Claude Code would hold each message, so Brigade refuses
 * them); otherwise it says how sessions that bypass permission prompts receive, live with the
 * user setting `accept` (and whether `brigade doctor --fix` added it), else at their next prompt
 * or tool call.
 */
export function checkInboundSettings(ctx: DoctorContext, team: SessionTeam): DoctorCheck {
  const title = "inbound settings";
  const where = team.ok ? team.checkout : ctx.cwd;
  const ccDir = claudeConfigDir(ctx.env);
  const scan = scanInboundSettings({ cwd: where, claudeConfigDir: ccDir });
  if (scan.hits.length > 0) {
    return {
      title,
      status: "fail",
      detail: `crossSessionInbound is set to something other than accept in ${scan.hits.join(", ")}: Claude Code would hold each message, so Brigade refuses them`,
      fix: 'remove the key, or set "crossSessionInbound": "accept" (docs/42-hooks.md)',
    };
  }
  const file = ccDir === undefined ? undefined : join(ccDir, "settings.json");
  if (file === undefined || !userSettingsAccept(file)) {
    return {
      title,
      status: "pass",
      detail:
        "no crossSessionInbound in the settings Brigade reads: sessions that bypass permission prompts receive teammates' messages at their next prompt or tool call (live only with your yes: brigade doctor --fix)",
    };
  }
  const location = harnessConfigLocation(ctx.env);
  const changes = location.ok ? readSettingsChanges(location.dir, currentUid()) : undefined;
  const ours = changes?.ok === true && changes.changes.some((change) => change.file === file);
  return {
    title,
    status: "pass",
    detail: ours
      ? "your user settings.json accepts (added with your yes by brigade doctor --fix; brigade uninstall puts back what was there): sessions that bypass permission prompts receive live"
      : "your user settings.json accepts: sessions that bypass permission prompts receive live",
  };
}

/** Whether the user settings say `crossSessionInbound: "accept"`. */
function userSettingsAccept(file: string): boolean {
  const read = readLocalFile(file, { maxBytes: MAX_SETTINGS_BYTES, followSymlink: true });
  return read.ok && crossSessionInboundOf(read.bytes) === "accept";
}
