/**
 * Posting to Claude Code's inbox socket (claude-code.md §3.2): the one-`lstat` pre-checks, the
 * byte-exact two NDJSON lines, the size limit, and the connect / write deadlines.
 */
export { encodeInboxPostLines } from "./inbox-post-lines.ts";
export {
  INBOX_CONNECT_TIMEOUT_MS,
  INBOX_POST_MAX_CHARS,
  INBOX_WRITE_TIMEOUT_MS,
  sunPathLimit,
} from "./inbox-socket-limits.ts";
export {
  checkInboxSocketPath,
  INBOX_SOCKET_REFUSALS,
  type InboxSocketPathCheck,
  type InboxSocketPathCheckOptions,
  type InboxSocketRefusal,
} from "./inbox-socket-path.ts";
export {
  INBOX_POST_FAILURES,
  type InboxPostFailure,
  type InboxPostOptions,
  type InboxPostResult,
  postToInbox,
} from "./post-to-inbox.ts";
