/** What {@link until} waits past: the answers that mean "not yet". */
type NotYet = false | undefined | null;

/**
 * Polls `check` every `everyMs` milliseconds (default 10) until it answers something other than
 * `false`, `undefined` or `null`, and resolves to that answer (so a search can hand back what it
 * found). After `ms` milliseconds (default 8 000) without such an answer it rejects with
 * `Error("timed out waiting for <what>")`; an error thrown by `check` rejects at once.
 *
 * @example await until("posted", () => host.posts.length === 1);
 * @example const ready = await until("the ready event", () => events.find((e) => e.event === "ready"), 3000);
 */
export async function until<T>(
  what: string,
  check: () => T | Promise<T>,
  ms = 8_000,
  everyMs = 10,
): Promise<Exclude<T, NotYet>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const answer = await check();
    if (arrived(answer)) return answer;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

function arrived<T>(answer: T): answer is Exclude<T, NotYet> {
  return answer !== false && answer !== undefined && answer !== null;
}
