import { type Adapter, BapError, type SessionRegistration } from "../../protocol/index.ts";

/**
 * `session register` of `registration`, resuming `resumeId` when one is given: a resume the server
 * answers `not_found` or `conflict` (the session is gone, or another process holds it) falls back
 * to a fresh registration; any other error is thrown (`BapError`). Each call gets its own
 * `signal()`. Shared by the Claude Code hooks and the other clients' session start.
 *
 * @example const { sessionId, how } = await registerOrResume(adapter, registration, hintId, () => AbortSignal.timeout(4000));
 */
export async function registerOrResume(
  adapter: Adapter,
  registration: SessionRegistration,
  resumeId: string | undefined,
  signal: () => AbortSignal,
): Promise<{ readonly sessionId: string; readonly how: "registered" | "resumed" }> {
  if (resumeId !== undefined) {
    try {
      const result = await adapter.sessionRegister(
        { ...registration, resume: { session_id: resumeId } },
        { signal: signal() },
      );
      return { sessionId: result.session_id, how: result.resumed ? "resumed" : "registered" };
    } catch (error) {
      const fresh =
        error instanceof BapError && (error.code === "not_found" || error.code === "conflict");
      if (!fresh) throw error;
    }
  }
  const result = await adapter.sessionRegister(registration, { signal: signal() });
  return { sessionId: result.session_id, how: "registered" };
}
