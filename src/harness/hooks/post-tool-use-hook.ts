import { join } from "node:path";
import { POLL_PREAMBLE } from "../../formats/frame/index.ts";
import { isJsonObject, parseJsonDocument } from "../../protocol/index.ts";
import {
  messagingToken,
  parseTranscriptDeliveryLine,
  TranscriptUsageReader,
} from "../claude-code/index.ts";
import {
  type ByPidMap,
  FileSeenStore,
  openSessionInbound,
  readByPidMap,
  readPrivateStateFile,
  writePrivateStateFile,
} from "../state/index.ts";
import type { HookContext } from "./hook-context.ts";
import type { HookInput } from "./hook-input.ts";
import { HOOK_LIMITS } from "./hook-limits.ts";
import { type HookSession, hookSession } from "./session-start-hook.ts";

/**
 * The limits of the PostToolUse delivery (docs/42-hooks.md "PostToolUse"): at most 10 messages
 * fetched per run (it runs after every tool call), 10,000 code points of `additionalContext`, a
 * frame printed again only after 60 s without a sign of it in the transcript, at most 200
 * printed-and-unconfirmed ids remembered.
 */
export const POST_TOOL_USE_LIMITS: {
  readonly receiveLimit: number;
  readonly maxContextCodePoints: number;
  readonly reprintAfterMs: number;
  readonly maxAwaiting: number;
} = { receiveLimit: 10, maxContextCodePoints: 10_000, reprintAfterMs: 60_000, maxAwaiting: 200 };

interface Awaiting {
  readonly id: string;
  readonly tag: string;
  readonly at: number;
}

/** `state/<pid>.hook-delivered.json`: frames this hook printed, not yet seen in the transcript. */
function awaitingPath(where: HookSession): string {
  return join(where.layout.root, "state", `${where.claudePid}.hook-delivered.json`);
}

function readAwaiting(where: HookSession, uid: number): Awaiting[] {
  const read = readPrivateStateFile(awaitingPath(where), { maxBytes: 262_144, uid });
  if (read.kind !== "ok") return [];
  const parsed = parseJsonDocument(read.bytes, { maxBytes: 262_144 });
  if (!parsed.ok || !isJsonObject(parsed.value) || !Array.isArray(parsed.value.items)) return [];
  return parsed.value.items.flatMap((item) =>
    isJsonObject(item) &&
    typeof item.id === "string" &&
    typeof item.tag === "string" &&
    typeof item.at === "number"
      ? [{ id: item.id, tag: item.tag, at: item.at }]
      : [],
  );
}

function writeAwaiting(where: HookSession, items: readonly Awaiting[]): void {
  const kept = items.slice(-POST_TOOL_USE_LIMITS.maxAwaiting);
  writePrivateStateFile(
    where.layout.root,
    awaitingPath(where),
    `${JSON.stringify({ version: 1, items: kept })}\n`,
  );
}

/** The frame tags the transcript shows in the conversation (its last 1 MiB). */
function conversationTags(transcriptPath: string): Set<string> {
  const tags = new Set<string>();
  new TranscriptUsageReader({
    onLine: (line) => {
      const parsed = parseTranscriptDeliveryLine(line);
      if (parsed?.kind === "conversation") for (const tag of parsed.tags) tags.add(tag);
    },
  }).read(transcriptPath);
  return tags;
}

function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
}

/**
 * The PostToolUse hook (docs/42-hooks.md "PostToolUse"): a way in between tool calls, also under
 * `-p`, for a session no watcher delivers to (no socket, or its watcher is not running). It
 * returns Claude Code's JSON hook output, `{"hookSpecificOutput": {"hookEventName":
 * "PostToolUse", "additionalContext": …}}`, with the same bare frames the prompt's poll prints
 * (`POLL_PREAMBLE` before each), or `""`. The ack rule is the watcher's: nothing is acked when
 * printed; a later run (this hook's next call) acks a printed message once the transcript shows
 * its frame in a `hook_additional_context` entry, and prints again one not seen after 60 s.
 * Never throws.
 *
 * @example process.stdout.write(await runPostToolUse(input, ctx, deadline));
 */
export async function runPostToolUse(
  input: HookInput,
  ctx: HookContext,
  deadline: number,
): Promise<string> {
  const where = hookSession(ctx);
  if (where === undefined) return "";
  const read = readByPidMap({ claudePid: where.claudePid, env: ctx.env, uid: ctx.uid });
  if (!read.ok) return "";
  const map = read.map;
  const awaiting = readAwaiting(where, ctx.uid);
  const watcherDelivers =
    map.socket_path !== "" &&
    messagingToken(ctx.env) !== "" &&
    ctx.services.isWatcherRunning(where.layout, where.claudePid);
  if (awaiting.length === 0 && (watcherDelivers || map.inbound !== "accept")) return "";
  const adapter = ctx.services.openAdapter({ configDir: map.config_dir, teamKey: map.team_key });
  const seen = FileSeenStore.open(where.layout, map.brigade_session_id, ctx.uid);
  const stillAwaiting = await ackConfirmed(
    ctx,
    map,
    awaiting,
    input.transcript_path,
    seen,
    deadline,
  );
  if (watcherDelivers || map.inbound !== "accept") {
    writeAwaiting(where, stillAwaiting);
    return "";
  }
  const remaining = deadline - ctx.now();
  if (remaining < 300) {
    writeAwaiting(where, stillAwaiting);
    return "";
  }
  let envelopes: readonly unknown[];
  try {
    const received = await adapter.messageReceive(map.brigade_session_id, {
      limit: POST_TOOL_USE_LIMITS.receiveLimit,
      signal: AbortSignal.timeout(Math.min(HOOK_LIMITS.receiveMs, remaining - 200)),
    });
    envelopes = received.messages;
  } catch {
    writeAwaiting(where, stillAwaiting);
    return "";
  }
  const recent = new Map(stillAwaiting.map((item) => [item.id, item]));
  const pipeline = openSessionInbound({
    map,
    layout: where.layout,
    uid: ctx.uid,
    now: ctx.now,
    delivery: "poll",
    seen,
  });
  const duplicates: string[] = [];
  for (const envelope of envelopes) {
    const offered = pipeline.offer(envelope);
    if (offered.ack) duplicates.push(offered.messageId);
  }
  const blocks: string[] = [];
  let used = 0;
  const printed: Awaiting[] = [];
  for (let item = pipeline.next(); item !== undefined; item = pipeline.next()) {
    // Nothing is acked here: the message stays unacked until the transcript shows it.
    pipeline.done(item, new Error("awaiting the transcript"));
    if (item.kind !== "message") continue;
    const id = item.message.message_id;
    const before = recent.get(id);
    if (before !== undefined && ctx.now() - before.at < POST_TOOL_USE_LIMITS.reprintAfterMs)
      continue;
    const block = `${POLL_PREAMBLE}\n${item.frame}`;
    const size = codePoints(block) + 2;
    if (used + size > POST_TOOL_USE_LIMITS.maxContextCodePoints) break;
    used += size;
    blocks.push(block);
    const tag = item.frame.slice(0, Math.max(0, item.frame.indexOf("\n")));
    printed.push({ id, tag, at: ctx.now() });
    recent.delete(id);
  }
  writeAwaiting(where, [...recent.values(), ...printed]);
  if (duplicates.length > 0) {
    // Already in the conversation (the seen file says so): acked, never printed again.
    try {
      await adapter.messageAck(
        map.brigade_session_id,
        { message_ids: duplicates },
        { signal: AbortSignal.timeout(Math.max(1, Math.min(1_000, deadline - ctx.now() - 100))) },
      );
    } catch {
      // asked again at the next run
    }
  }
  if (blocks.length === 0) return "";
  return JSON.stringify({
    hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: blocks.join("\n\n") },
  });
}

/** Acks the printed messages the transcript shows in the conversation; returns the others. */
async function ackConfirmed(
  ctx: HookContext,
  map: ByPidMap,
  awaiting: readonly Awaiting[],
  transcriptPath: string,
  seen: FileSeenStore,
  deadline: number,
): Promise<Awaiting[]> {
  if (awaiting.length === 0 || transcriptPath === "") return [...awaiting];
  const tags = conversationTags(transcriptPath);
  const confirmed = awaiting.filter((item) => tags.has(item.tag));
  if (confirmed.length === 0) return [...awaiting];
  const ids = confirmed.map((item) => item.id);
  for (const id of ids) {
    try {
      seen.add(id);
    } catch {
      // the ack below still runs; a later fetch meets it as a duplicate only if the file works
    }
  }
  try {
    const adapter = ctx.services.openAdapter({ configDir: map.config_dir, teamKey: map.team_key });
    await adapter.messageAck(
      map.brigade_session_id,
      { message_ids: ids },
      { signal: AbortSignal.timeout(Math.max(1, Math.min(1_000, deadline - ctx.now() - 100))) },
    );
  } catch {
    // the seen file makes them duplicates: the next fetch acks them
  }
  return awaiting.filter((item) => !tags.has(item.tag));
}
