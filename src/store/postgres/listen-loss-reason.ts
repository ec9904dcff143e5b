/**
 * Why the LISTEN connection of a PostgreSQL store was lost or could not be opened: the `reason` of
 * the log lines `watch_listen_lost` and `watch_listen_retry` (docs/51-postgres.md, "The LISTEN
 * connection in the log"). A fixed code, never the error's text (which may hold an address).
 */
export const LISTEN_LOSS_REASONS = [
  "terminated",
  "server_crashed",
  "server_starting",
  "server_busy",
  "login_refused",
  "refused",
  "network_error",
  "timeout",
  "ended",
  "other",
] as const;

/** One of {@link LISTEN_LOSS_REASONS}. */
export type ListenLossReason = (typeof LISTEN_LOSS_REASONS)[number];

const NETWORK_CODES = [
  "ECONNRESET",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "ENOTFOUND",
];

/**
 * The {@link ListenLossReason} of what `pg` reported: `undefined` is a connection that ended
 * without an error (`ended`); a SQLSTATE or a Node socket code picks its class; anything else is
 * `other`. Never throws.
 *
 * @example listenLossReason(Object.assign(new Error("…"), { code: "57P01" })) === "terminated";
 */
export function listenLossReason(error: unknown): ListenLossReason {
  if (error === undefined) return "ended";
  if (!(error instanceof Error)) return "other";
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") {
    // 57P01: pg_terminate_backend, or the server's own fast or smart shutdown.
    if (code === "57P01") return "terminated";
    if (code === "57P02") return "server_crashed";
    if (code === "57P03") return "server_starting";
    if (code.startsWith("53")) return "server_busy";
    // 28: bad password or no such role; 3D000: no such database.
    if (code.startsWith("28") || code === "3D000") return "login_refused";
    if (code === "ECONNREFUSED") return "refused";
    if (code === "ETIMEDOUT") return "timeout";
    if (NETWORK_CODES.includes(code)) return "network_error";
  }
  if (/timeout/i.test(error.message)) return "timeout";
  if (/Connection terminated/i.test(error.message)) return "ended";
  return "other";
}
