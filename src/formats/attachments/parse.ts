import { toWellFormed } from "../text/index.ts";
import type { Attachment } from "./attachment.ts";
import { unescapeValue } from "./manifest-line.ts";
import { findTrailingBlock, stripTrailingLf } from "./trailing-block.ts";

/**
 * What {@link parse} returns: the trailing block's entries (or `null` when there is no block,
 * never `[]`) and the prose before it.
 */
export interface ParseResult {
  readonly attachments: Attachment[] | null;
  readonly text: string;
}

/**
 * Reads the trailing v1 attachment manifest of `text` (docs/spec/formats.md §4.4). Never throws.
 * Trailing LFs after the block are tolerated; the block is the maximal run of trailing lines
 * matching the v1 line pattern (a CR, an unknown attribute or anything after `]` makes a line
 * prose); one empty line above it is the optional separator. Returns the entries in order,
 * unescaped, and the prose before the block (`""` when the block starts the text). No block → `{
 * attachments: null, text }` with `text` unchanged. Paths are NOT validated: re-check with
 * `validatePaths` before rendering. Unpaired surrogates in the input become U+FFFD first
 * (docs/spec/formats.md §0).
 *
 * @example
 * parse('Review:\n\n[llmsafespaces:attachment path="/workspace/uploads/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d-x.csv" name="x.csv"]\n')
 * // { attachments: [{ path: "/workspace/uploads/…-x.csv", name: "x.csv" }], text: "Review:" }
 */
export function parse(text: string): ParseResult {
  const input = toWellFormed(text);
  const core = stripTrailingLf(input);
  if (core === "") return { attachments: null, text: input };
  const { entries, prose } = findTrailingBlock(core);
  if (entries.length === 0) return { attachments: null, text: input };
  const attachments = entries.map(
    (entry): Attachment => ({ path: unescapeValue(entry.path), name: unescapeValue(entry.name) }),
  );
  return { attachments, text: prose };
}
