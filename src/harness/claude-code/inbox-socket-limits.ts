/**
 * Largest socket path, in UTF-8 bytes, that fits a `sockaddr_un.sun_path` with its terminating
 * NUL (docs/spec/claude-code.md §3.2): 107 on Linux, 103 on macOS. Any other platform gets the
 * smaller value.
 *
 * @example sunPathLimit("linux") === 107
 */
export function sunPathLimit(platform: NodeJS.Platform): number {
  return platform === "linux" ? 107 : 103;
}

/**
 * Claude Code's per-message limit on its inbox socket (docs/spec/claude-code.md §3.2,
 * docs/spec/cross-session.md §12): the auth line plus the user line, both `\n` included, at most
 * 1,048,576 characters (UTF-16 code units, as Claude Code measures its strings). Larger posts are
 * refused before connecting.
 *
 * @example INBOX_POST_MAX_CHARS === 1_048_576
 */
export const INBOX_POST_MAX_CHARS = 1_048_576;

/** How long connecting to the inbox socket may take, ms (docs/spec/claude-code.md §3.2). */
export const INBOX_CONNECT_TIMEOUT_MS = 5_000;

/**
 * One deadline covering the write of both lines and the close, ms (docs/spec/claude-code.md §3.2).
 */
export const INBOX_WRITE_TIMEOUT_MS = 5_000;
