import { POLL_PREAMBLE } from "../../formats/frame/index.ts";
import { type Adapter, DEFAULT_RECEIVE_LIMIT } from "../../protocol/index.ts";
import { DispositionReporter } from "../adapter/index.ts";
import type { InboundItem } from "../inbound/index.ts";
import {
  type ByPidMap,
  consumeReleaseRequests,
  openSessionInbound,
  type StateLayout,
} from "../state/index.ts";
import type { HookOutput } from "./hook-output.ts";

/** What one poll did: ids printed and acked, and whether the ack call succeeded. */
export interface PollResult {
  readonly printed: number;
  readonly acked: readonly string[];
}

/**
 * The poll fallback (docs/spec/formats.md §2.9, docs/spec/claude-code.md §7.3): `message receive`
 * (limit 50, capped by `receiveMs`), release requests from the terminal, then every envelope
 * through the inbound pipeline (delivery `poll`, the map's policy, team name and frame level; seen
 * and pending files keyed by our session id). Notices print as one line each; a message prints as
 * `POLL_PREAMBLE` then the bare frame, all or nothing within the hook's 10,000-code-point budget.
 * Printing stops at the first item that does not fit; items not printed are reported failed (not
 * acked). Then one `message ack` of the printed ids and the duplicates, capped by `ackMs`. Never
 * throws.
 *
 * @example await pollMessages({ adapter, map, layout, uid, now: Date.now, out, receiveMs: 4000, ackMs: 500 });
 */
export async function pollMessages(options: {
  readonly adapter: Adapter;
  readonly map: ByPidMap;
  readonly layout: StateLayout;
  readonly uid: number;
  readonly now: () => number;
  readonly out: HookOutput;
  readonly receiveMs: number;
  readonly ackMs: () => number;
}): Promise<PollResult> {
  const { adapter, map, layout, uid, out } = options;
  const sessionId = map.brigade_session_id;
  let envelopes: readonly unknown[];
  try {
    const received = await adapter.messageReceive(sessionId, {
      limit: DEFAULT_RECEIVE_LIMIT,
      signal: AbortSignal.timeout(options.receiveMs),
    });
    envelopes = received.messages;
  } catch {
    return { printed: 0, acked: [] };
  }
  const pipeline = openSessionInbound({ map, layout, uid, now: options.now, delivery: "poll" });
  pipeline.release(consumeReleaseRequests(layout, sessionId, uid));
  const acks: string[] = [];
  const reporter = new DispositionReporter(adapter, sessionId);
  for (const envelope of envelopes) {
    try {
      const offered = pipeline.offer(envelope);
      if (offered.ack) acks.push(offered.messageId);
      if (offered.outcome !== "rejected") reporter.note(offered.outcome, offered.messageId);
    } catch {
      // a pending file that cannot be written: the message stays unacked on the server
    }
  }
  let printed = 0;
  let full = false;
  for (let item: InboundItem | undefined = pipeline.next(); item; item = pipeline.next()) {
    if (full) {
      pipeline.done(item, new Error("budget"));
      continue;
    }
    const lines = item.kind === "notice" ? [item.text] : [POLL_PREAMBLE, ...item.text.split("\n")];
    if (!out.block(lines)) {
      full = true;
      pipeline.done(item, new Error("budget"));
      continue;
    }
    const done = pipeline.done(item);
    if (item.kind === "message") printed += 1;
    if (done.ack) acks.push(done.messageId);
  }
  // Reported beside the ack, within the same budget: the sender reads held and refused as states.
  const reported = reporter.flush(AbortSignal.timeout(Math.max(1, options.ackMs())));
  if (acks.length > 0) {
    try {
      await adapter.messageAck(
        sessionId,
        { message_ids: acks },
        { signal: AbortSignal.timeout(Math.max(1, options.ackMs())) },
      );
    } catch {
      // unacked messages come back; the seen file makes them duplicates, acked next time
      await reported;
      return { printed, acked: [] };
    }
  }
  await reported;
  return { printed, acked: acks };
}
