import { chmodSync, readFileSync, statSync, writeFileSync } from "node:fs";
import type { Call, Principal, SuiteContext } from "./context.ts";
import { profileFilePath } from "./profile-contract.ts";
import { secretsOf } from "./secret-scan.ts";
import { runOnce } from "./spawn.ts";

/** A team the suite created: its ref, name and join secret (a known secret from then on). */
export interface TeamInfo {
  readonly label: string;
  readonly ref: string;
  readonly name: string;
  readonly secret: string | undefined;
}

/**
 * The baseline `SessionRegistration` (docs/spec/protocol.md §4.3) for `name`, merged with `extra`.
 *
 * @example registration("fixture-a", { lease_seconds: 600 })
 */
export function registration(
  name: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    harness: "brigade-conformance",
    harness_version: "1",
    session_name: name,
    activity: "busy",
    inbound: "accept",
    ...extra,
  };
}

/** Registers a session as `p` and returns its result; the case fails when it is refused. */
export async function registerSession(
  ctx: SuiteContext,
  p: Principal,
  name: string,
  extra: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const call = await ctx.call(p, ["session", "register"], { stdin: registration(name, extra) });
  const result = ctx.ok(call, `${p.name} session register`);
  if (typeof result.session_id !== "string" || result.session_id === "") {
    ctx.fail(`${p.name} session register: no session_id`);
  }
  return result;
}

/** Registers a session and returns only its id. */
export async function newSession(
  ctx: SuiteContext,
  p: Principal,
  name: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  return (await registerSession(ctx, p, name, extra)).session_id as string;
}

/** `message send` as `p` from `from` to `to`. */
export function send(
  ctx: SuiteContext,
  p: Principal,
  from: string,
  to: string,
  body: string,
  extra: Record<string, unknown> = {},
): Promise<Call> {
  return ctx.call(p, ["message", "send"], {
    stdin: { sender_session_id: from, recipient_session_id: to, body, ...extra },
  });
}

/** `message send` that must succeed; returns the `SendResponse`. */
export async function sendOk(
  ctx: SuiteContext,
  p: Principal,
  from: string,
  to: string,
  body: string,
  extra: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  return ctx.ok(await send(ctx, p, from, to, body, extra), `${p.name} message send`);
}

/** `message receive` as `p` for `session`; returns the messages (the case fails on an error). */
export async function receive(
  ctx: SuiteContext,
  p: Principal,
  session: string,
  limit?: number,
): Promise<Record<string, unknown>[]> {
  const args = ["message", "receive", "--session", session];
  if (limit !== undefined) args.push("--limit", String(limit));
  const result = ctx.ok(await ctx.call(p, args), `${p.name} message receive`);
  if (!Array.isArray(result.messages)) ctx.fail("message receive: messages is not an array");
  return result.messages as Record<string, unknown>[];
}

/** `message ack` as `p`; returns `{acked, unknown}`. */
export async function ack(
  ctx: SuiteContext,
  p: Principal,
  session: string,
  ids: readonly string[],
): Promise<{ acked: unknown; unknown: unknown }> {
  const call = await ctx.call(p, ["message", "ack", "--session", session], {
    stdin: { message_ids: ids },
  });
  const result = ctx.ok(call, `${p.name} message ack`);
  return { acked: result.acked, unknown: result.unknown };
}

/** `session list` as `p`; returns the result object. */
export async function listSessions(
  ctx: SuiteContext,
  p: Principal,
  flags: readonly string[] = [],
): Promise<Record<string, unknown>> {
  const result = ctx.ok(await ctx.call(p, ["session", "list", ...flags]), `${p.name} session list`);
  if (!Array.isArray(result.sessions)) ctx.fail("session list: sessions is not an array");
  return result;
}

/** The session `id` in a `session list` result, if listed. */
export function findSession(
  list: Record<string, unknown>,
  id: string,
): Record<string, unknown> | undefined {
  return (list.sessions as Record<string, unknown>[]).find((s) => s.session_id === id);
}

/** `describe` as `p`; returns the result. */
export async function describe(
  ctx: SuiteContext,
  p: Principal,
  offline = false,
): Promise<Record<string, unknown>> {
  return ctx.ok(await ctx.call(p, ["describe"], { offline }), `${p.name} describe`);
}

/** The `profile.state` reported by `describe` for `p`. */
export async function profileState(
  ctx: SuiteContext,
  p: Principal,
  offline = false,
): Promise<unknown> {
  const d = await describe(ctx, p, offline);
  return (d.profile as Record<string, unknown> | undefined)?.state;
}

/** `team create` as `p` with a stdin document; records the secret as known. */
export async function createTeam(
  ctx: SuiteContext,
  p: Principal,
  label: string,
): Promise<TeamInfo> {
  const name = ctx.unique(`conformance-${label.toLowerCase()}`);
  const call = await ctx.call(p, ["team", "create"], {
    stdin: { team_name: name, human_label: `principal ${p.name}` },
    stdoutMayCarrySecret: true,
  });
  const result = ctx.ok(call, `${p.name} team create`);
  const secret = result.join_secret;
  if (typeof secret === "string" && secret !== "") ctx.secrets.push(...secretsOf(label, secret));
  if (typeof result.team_ref !== "string") ctx.fail("team create: no team_ref");
  return {
    label,
    ref: result.team_ref as string,
    name: typeof result.team_name === "string" ? result.team_name : name,
    secret: typeof secret === "string" ? secret : undefined,
  };
}

/** Binds `p` to `team`: `team join` with its secret, or the `--setup` command. */
export async function joinTeam(ctx: SuiteContext, p: Principal, team: TeamInfo): Promise<void> {
  if (ctx.capabilities.has("team.join") && team.secret !== undefined) {
    const call = await ctx.call(p, ["team", "join"], {
      stdin: { join_secret: team.secret, human_label: `principal ${p.name}` },
    });
    ctx.ok(call, `${p.name} team join`);
    return;
  }
  await runSetup(ctx, p, team.label);
}

/** Runs the `--setup` command as `<cmd…> <principal> <team-label>` with `p`'s environment. */
export async function runSetup(ctx: SuiteContext, p: Principal, teamLabel: string): Promise<void> {
  const setup = ctx.options.setup;
  if (setup === undefined) ctx.fail("adapter cannot create/join teams and no --setup was given");
  const outcome = await runOnce({
    argv: [...setup, p.name, teamLabel],
    env: ctx.env(p),
    cwd: ctx.runDir,
    stdin: { kind: "null" },
    timeoutMs: ctx.options.timeoutMs,
  });
  if (outcome.exitCode !== 0) ctx.fail(`--setup for ${p.name} exited ${outcome.exitCode}`);
}

/**
 * Re-points `p`'s profile at `teamRef` (docs/spec/protocol.md §12.2): the `--rebind` command as
 * `<cmd…> <principal> <team_ref>`, or by default the `team_ref` member of the JSON profile file
 * `$BRIGADE_CONFIG_DIR/profiles/default.json` (other members and the file mode kept).
 */
export async function rebind(ctx: SuiteContext, p: Principal, teamRef: string): Promise<void> {
  const command = ctx.options.rebind;
  if (command !== undefined) {
    const outcome = await runOnce({
      argv: [...command, p.name, teamRef],
      env: ctx.env(p),
      cwd: ctx.runDir,
      stdin: { kind: "null" },
      timeoutMs: ctx.options.timeoutMs,
    });
    if (outcome.exitCode !== 0) ctx.fail(`--rebind for ${p.name} exited ${outcome.exitCode}`);
    return;
  }
  const path = profileFilePath(p.configDir, "default");
  let doc: Record<string, unknown>;
  let mode: number;
  try {
    mode = statSync(path).mode & 0o777;
    doc = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  } catch {
    return ctx.fail(
      "default rebind: profile file profiles/default.json missing or not JSON (use --rebind)",
    );
  }
  doc.team_ref = teamRef;
  writeFileSync(path, `${JSON.stringify(doc, null, 2)}\n`);
  chmodSync(path, mode);
}

/** A random-looking id no adapter has issued (for "byte-identical to unknown" checks). */
export function randomId(prefix: string): string {
  return `${prefix}${Math.random().toString(36).slice(2, 12)}${Date.now().toString(36)}`;
}
