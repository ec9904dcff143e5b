import { isJsonObject, parseJsonDocument } from "../../protocol/index.ts";
import { INBOUND_LIMITS, LruSet, type SeenStore } from "../inbound/index.ts";
import { readPrivateStateFile, writePrivateStateFile } from "./private-state-file.ts";
import type { StateLayout } from "./state-layout.ts";

/** Largest seen file read, bytes (2,000 ids of ≤ 200 bytes plus JSON punctuation fits). */
export const MAX_SEEN_FILE_BYTES = 1_048_576;

/** The seen file's shape: `{version: 1, message_ids: [...]}`, oldest first. */
export interface SeenFile {
  readonly version: 1;
  readonly message_ids: readonly string[];
}

/**
 * Parses seen-file bytes: a `version: 1` object whose `message_ids` are non-empty strings; only
 * the last 2,000 are kept. Anything else → `undefined` (the caller starts empty). Never throws.
 *
 * @example parseSeenFile(new TextEncoder().encode('{"version":1,"message_ids":["m-1"]}'))?.message_ids
 */
export function parseSeenFile(bytes: Uint8Array): SeenFile | undefined {
  const parsed = parseJsonDocument(bytes, { maxBytes: MAX_SEEN_FILE_BYTES });
  if (!parsed.ok || !isJsonObject(parsed.value)) return undefined;
  const { version, message_ids: ids } = parsed.value;
  if (version !== 1 || !Array.isArray(ids)) return undefined;
  if (!ids.every((id) => typeof id === "string" && id !== "")) return undefined;
  return { version: 1, message_ids: (ids as string[]).slice(-INBOUND_LIMITS.seenCap) };
}

/**
 * The file-backed {@link SeenStore} of one Brigade session of ours:
 * `state/seen/<stem>.json` holds the last 2,000 injected ids, keyed by OUR session id (so dedupe
 * survives a crash and `claude --resume`). Loaded once through the private-file checks (a file
 * that is not ours and private, or is malformed, is ignored: start empty); every `add` rewrites the
 * file atomically (0600).
 *
 * @example const seen = FileSeenStore.open(layout, "s-1", process.getuid!());
 */
export class FileSeenStore implements SeenStore {
  readonly #layout: StateLayout;
  readonly #path: string;
  readonly #ids = new LruSet(INBOUND_LIMITS.seenCap);

  private constructor(layout: StateLayout, sessionId: string, ids: readonly string[]) {
    this.#layout = layout;
    this.#path = layout.seen(sessionId);
    for (const id of ids) this.#ids.add(id);
  }

  /**
   * Loads the seen file of `sessionId` (missing, foreign, non-private or malformed → empty).
   *
   * @example FileSeenStore.open(stateLayout(dir), "s-1", 1000).has("m-1")
   */
  static open(layout: StateLayout, sessionId: string, uid: number): FileSeenStore {
    const read = readPrivateStateFile(layout.seen(sessionId), {
      maxBytes: MAX_SEEN_FILE_BYTES,
      uid,
    });
    const file = read.kind === "ok" ? parseSeenFile(read.bytes) : undefined;
    return new FileSeenStore(layout, sessionId, file?.message_ids ?? []);
  }

  /** True when `id` is among the last 2,000 injected. */
  has(id: string): boolean {
    return this.#ids.has(id);
  }

  /**
   * Records `id` and rewrites the file.
   *
   * @throws PrivateFileError when the file cannot be written privately.
   */
  add(id: string): void {
    this.#ids.add(id);
    const file: SeenFile = { version: 1, message_ids: this.#ids.keys() };
    writePrivateStateFile(this.#layout.root, this.#path, `${JSON.stringify(file)}\n`);
  }
}
