import { isAbsolute } from "node:path";
import { checkInboxSocketPath } from "./inbox-socket-path.ts";

type Env = Readonly<Record<string, string | undefined>>;

/**
 * `CLAUDE_CODE_MESSAGING_TOKEN` as the session's environment holds it, `""` when unset
 * (docs/spec/claude-code.md §2: set in hooks except SessionEnd, never inherited from a parent
 * session). The token is written on the socket's auth line only, never logged or stored.
 *
 * @example messagingToken({ CLAUDE_CODE_MESSAGING_TOKEN: "t" }) === "t"
 */
export function messagingToken(env: Env): string {
  return env.CLAUDE_CODE_MESSAGING_TOKEN ?? "";
}

/**
 * `CLAUDE_CODE_MESSAGING_SOCKET` as the session's environment holds it, `""` when unset
 * (docs/spec/claude-code.md §3.1: the first source of the inbox socket's path; the path is never
 * derived).
 *
 * @example messagingSocketFromEnv({}) === ""
 */
export function messagingSocketFromEnv(env: Env): string {
  return env.CLAUDE_CODE_MESSAGING_SOCKET ?? "";
}

/**
 * The inbox socket a watcher may post to (docs/spec/claude-code.md §3.1): `fromEnv`
 * (`CLAUDE_CODE_MESSAGING_SOCKET`), else `fromRegistry` (the registry's `messagingSocketPath`),
 * if absolute and passing the one-`lstat` pre-checks of {@link checkInboxSocketPath}; else `""`.
 * Never throws.
 *
 * @example const socket = await usableSocket(messagingSocketFromEnv(env), registry.messagingSocketPath);
 */
export async function usableSocket(fromEnv: string, fromRegistry: string): Promise<string> {
  const path = fromEnv !== "" ? fromEnv : fromRegistry;
  if (path === "" || !isAbsolute(path)) return "";
  try {
    const check = await checkInboxSocketPath(path);
    return check.ok ? path : "";
  } catch {
    return "";
  }
}
