import { goTrimSpace, toWellFormed } from "../text/index.ts";
import type { Attachment } from "./attachment.ts";
import { compose } from "./compose.ts";
import { MAX_FILES, UPLOADS_PREFIX } from "./constants.ts";
import { AttachmentsError } from "./errors.ts";
import { formatLine } from "./manifest-line.ts";
import { findTrailingBlock, stripTrailingLf } from "./trailing-block.ts";

const CONTROL = /\p{Cc}/gu;

/**
 * The manifest a receiver appends for files it wrote (docs/15-attachments.md "Receiving"). When
 * every path lies in `/workspace/uploads/` this is exactly {@link compose} of the paths
 * (docs/spec/formats.md §4.3; each `name` is then the path after the UUID). Otherwise it is the
 * **[ours]** local variant: the same layout and the same v1 line grammar, with the absolute local
 * path the receiver wrote (a folder inside the session's project) and `name` as given, control
 * characters (Cc) deleted from both; such a block reads with `parse` but not with
 * `validatePaths`, whose shape is `/workspace/uploads/` only. Zero files → `text` unchanged.
 *
 * @throws {AttachmentsError} `TOO_MANY_FILES` (more than {@link MAX_FILES}), `INVALID_PATH` (a
 *   path that is not absolute, is whitespace-padded or has a `..` segment; for
 *   `/workspace/uploads/` paths the rules of `validatePaths`), `DUPLICATE_PATH`.
 * @example composeManifest("See.", [{ path: "/home/dana/api/.brigade-uploads/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d-a.txt", name: "a.txt" }])
 * // 'See.\n\n[llmsafespaces:attachment path="/home/dana/api/.brigade-uploads/0a1b…-a.txt" name="a.txt"]\n'
 */
export function composeManifest(text: string, files: readonly Attachment[]): string {
  if (files.length === 0) return toWellFormed(text);
  if (files.every((f) => f.path.startsWith(UPLOADS_PREFIX))) {
    return compose(
      text,
      files.map((f) => f.path),
    );
  }
  if (files.length > MAX_FILES) {
    throw new AttachmentsError(
      "TOO_MANY_FILES",
      `too many files: ${files.length} exceeds the maximum of ${MAX_FILES}`,
    );
  }
  const seen = new Set<string>();
  let block = "";
  files.forEach((file, index) => {
    const path = toWellFormed(file.path).replace(CONTROL, "");
    if (!path.startsWith("/") || goTrimSpace(path) !== path || path.split("/").includes("..")) {
      throw new AttachmentsError("INVALID_PATH", `invalid attachment path at index ${index}`);
    }
    if (seen.has(path)) {
      throw new AttachmentsError("DUPLICATE_PATH", `duplicate file path at index ${index}`);
    }
    seen.add(path);
    block += `${formatLine(path, toWellFormed(file.name).replace(CONTROL, ""))}\n`;
  });
  const base = findTrailingBlock(stripTrailingLf(toWellFormed(text))).prose;
  return base === "" ? block : `${base}\n\n${block}`;
}
