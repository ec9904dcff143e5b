import { randomInt } from "node:crypto";
import { OPENCODE_MESSAGE_ID_PREFIX } from "./opencode-facts.ts";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A message id OpenCode accepts and sorts like its own: `msg_`, 12 hex digits, 14 base-62. */
export const OPENCODE_MESSAGE_ID: RegExp = /^msg_[0-9a-f]{12}[0-9A-Za-z]{14}$/;

/**
 * Makes message ids in OpenCode's own shape (`OPENCODE_MESSAGE_ID_PREFIX`, docs/49-opencode.md):
 * the low 48 bits of `ms × 4096 + counter` as 12 hex digits, then 14 random base-62 characters.
 * Ids one generator makes within a millisecond still ascend (the counter), so a burst posted in
 * order is stored in order. `now` is ms since the epoch.
 *
 * @example const next = openCodeMessageIds(Date.now); next() // "msg_24410db8c001mUH5BSnI8US603"
 */
export function openCodeMessageIds(now: () => number): () => string {
  let lastMs = 0;
  let counter = 0;
  return () => {
    const ms = Math.max(now(), lastMs);
    counter = ms === lastMs ? counter + 1 : 1;
    lastMs = ms;
    const stamp = (BigInt(ms) * 4096n + BigInt(counter)) & 0xffff_ffff_ffffn;
    let tail = "";
    for (let i = 0; i < 14; i += 1) tail += BASE62[randomInt(62)];
    return `${OPENCODE_MESSAGE_ID_PREFIX}${stamp.toString(16).padStart(12, "0")}${tail}`;
  };
}
