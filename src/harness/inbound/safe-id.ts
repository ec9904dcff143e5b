const SAFE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * True when `id` is 1–64 characters of `[A-Za-z0-9_-]` (so also 1–64 bytes): the only ids the
 * harness frames, because ids are printed into a shell command (`brigade send <S> --reply-to <M>`)
 * and used as file stems (docs/spec/protocol.md §11, docs/spec/claude-code.md §7.5 [ours]).
 *
 * @example isSafeId("m-7f3a") === true; isSafeId("m 7f3a") === false
 */
export function isSafeId(id: string): boolean {
  return SAFE_ID.test(id);
}
