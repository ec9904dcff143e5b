import { toWellFormed } from "../text/index.ts";
import { NAME_OFFSET } from "./constants.ts";
import { formatLine } from "./manifest-line.ts";
import { findTrailingBlock, stripTrailingLf } from "./trailing-block.ts";
import { validatePaths } from "./validate-paths.ts";

/** C0 and C1 controls (general category Cc); Cf such as U+202E is kept on purpose. */
const CONTROL = /\p{Cc}/gu;
const HAS_CONTROL = /\p{Cc}/u;

/**
 * Appends a v1 attachment manifest to `text` (docs/spec/formats.md §4.3): one line
 * `[llmsafespaces:attachment path="…" name="…"]` per file in input order, after exactly one blank
 * line, ending in exactly one LF. A trailing manifest block already in `text` is replaced (with at
 * most one blank line above it), so `compose(compose(t, f1), f2) === compose(t, f2)` for non-empty
 * `f2`. The name is the path after the UUID with every Cc control deleted, and the path is rebuilt
 * with that name. Zero files (or absent) → `text` returned as is, nothing validated. Unpaired
 * surrogates become U+FFFD (docs/spec/formats.md §0).
 *
 * @throws {AttachmentsError} from {@link validatePaths}: `TOO_MANY_FILES`, `INVALID_PATH`,
 *   `DUPLICATE_PATH`.
 * @example
 * compose("Q", ["/workspace/uploads/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d-a.txt"])
 * // 'Q\n\n[llmsafespaces:attachment path="/workspace/uploads/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d-a.txt" name="a.txt"]\n'
 */
export function compose(text: string, files?: readonly string[]): string {
  const input = toWellFormed(text);
  if (files === undefined || files.length === 0) return input;
  validatePaths(files);
  const base = findTrailingBlock(stripTrailingLf(input)).prose;
  let block = "";
  for (const file of files) {
    const p = toWellFormed(file);
    const rawName = p.slice(NAME_OFFSET);
    const name = HAS_CONTROL.test(rawName) ? rawName.replace(CONTROL, "") : rawName;
    block += `${formatLine(p.slice(0, NAME_OFFSET) + name, name)}\n`;
  }
  return base === "" ? block : `${base}\n\n${block}`;
}
