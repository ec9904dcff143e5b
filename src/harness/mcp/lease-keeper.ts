import { BapError } from "../../protocol/index.ts";
import { keepReleases, type SessionContext } from "../session-context/index.ts";

/** How often the kept sessions are heartbeaten, ms: a third of the default 90 s lease. */
export const LEASE_KEEPER_INTERVAL_MS = 30_000;

/** Cap of one heartbeat, ms. */
const HEARTBEAT_MS = 5_000;

/**
 * Keeps the lease of every Brigade session a `brigade mcp` process acted for (docs/48-mcp.md
 * "The lease"): the host's MCP server lives as long as the host's session, so while it runs the
 * session stays live for its teammates even when no turn or tool call happens for minutes. Each
 * {@link tick} heartbeats every kept session (no activity member: only the lease is renewed); a
 * session the server no longer has open (`not_found`, or `conflict` for a closed one) is dropped
 * and never reopened. A failure of another kind is left to the next tick. Never throws.
 *
 * @example const keeper = new LeaseKeeper(); keeper.keep(context); setInterval(() => void keeper.tick(), LEASE_KEEPER_INTERVAL_MS).unref();
 */
export class LeaseKeeper {
  readonly #kept = new Map<string, SessionContext>();

  /** Keeps `context`'s session (the newest context of a session replaces the older). */
  keep(context: SessionContext): void {
    this.#kept.set(context.map.brigade_session_id, context);
  }

  /** The session ids kept now. */
  get sessions(): readonly string[] {
    return [...this.#kept.keys()];
  }

  /** One heartbeat of every kept session, all at once. */
  async tick(): Promise<void> {
    await Promise.all(
      [...this.#kept].map(async ([sessionId, context]) => {
        try {
          const answer = await context.adapter.sessionHeartbeat(
            sessionId,
            {},
            {
              signal: AbortSignal.timeout(HEARTBEAT_MS),
            },
          );
          // Held messages the person released on the dashboard: the next inbox call takes them.
          keepReleases(context, answer.released_message_ids);
        } catch (error) {
          const gone =
            error instanceof BapError && (error.code === "not_found" || error.code === "conflict");
          if (gone && this.#kept.get(sessionId) === context) this.#kept.delete(sessionId);
        }
      }),
    );
  }
}
