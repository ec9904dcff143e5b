import { closeSync, readSync } from "node:fs";
import { isAbsolute } from "node:path";
import { openLocalFile } from "../../local-files/index.ts";
import { TRANSCRIPT_READ_MAX_BYTES } from "./transcript-usage.ts";

const NEWLINE = 0x0a;

/**
 * The size of the transcript at `path`, bytes: where the next entry Claude Code writes will start.
 * A hook records it when it shows the model a frame, so that a later run reads the transcript from
 * there ({@link readTranscriptWindow}). `undefined` for an empty, relative or unreadable path, a
 * symlink or anything but a regular file; a missing file (Claude Code writes it at the first
 * entry) is `0`. Never throws.
 *
 * @example transcriptEnd("/home/dana/.claude/projects/w/5d1c.jsonl") // 48213
 */
export function transcriptEnd(path: string): number | undefined {
  if (path === "" || !isAbsolute(path)) return undefined;
  const opened = openLocalFile(path);
  if (!opened.ok) return opened.reason === "missing" ? 0 : undefined;
  closeSync(opened.fd);
  return opened.stats.size;
}

/**
 * The whole lines of the transcript at `path` from byte `from` on, at most `maxBytes` of them
 * (default 1 MiB, {@link TRANSCRIPT_READ_MAX_BYTES}), in file order. A `from` that falls inside a
 * line skips to the next one; a last line without its newline (still being written) is left out.
 * When the file is now shorter than `from` (replaced or truncated) its last `maxBytes` are read
 * instead. The file is opened read-only, without following a symlink, and must be a regular file;
 * an empty, relative, missing or unreadable path gives `[]`. Never throws.
 *
 * @example readTranscriptWindow(path, 48213).filter((line) => line.includes("<brigade-message"))
 */
export function readTranscriptWindow(
  path: string,
  from: number,
  maxBytes: number = TRANSCRIPT_READ_MAX_BYTES,
): string[] {
  if (path === "" || !isAbsolute(path)) return [];
  const opened = openLocalFile(path);
  if (!opened.ok) return [];
  const fd = opened.fd;
  try {
    const size = opened.stats.size;
    const cap = Math.max(1, Math.floor(maxBytes));
    const start =
      Number.isSafeInteger(from) && from >= 0 && from <= size ? from : Math.max(0, size - cap);
    // One byte before the window says whether `start` begins a line.
    const readFrom = start > 0 ? start - 1 : 0;
    const wanted = Math.min(size - readFrom, cap + (start > 0 ? 1 : 0));
    if (wanted <= 0) return [];
    const data = Buffer.allocUnsafe(wanted);
    let length = 0;
    while (length < wanted) {
      const n = readSync(fd, data, length, wanted - length, readFrom + length);
      if (n === 0) break;
      length += n;
    }
    const bytes = data.subarray(0, length);
    const first = start > 0 ? bytes.indexOf(NEWLINE) + 1 : 0;
    const last = bytes.lastIndexOf(NEWLINE);
    if (first <= 0 && start > 0) return [];
    if (last < first) return [];
    return bytes.toString("utf8", first, last).split("\n");
  } catch {
    return [];
  } finally {
    closeSync(fd);
  }
}
