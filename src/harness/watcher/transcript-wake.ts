import { type FSWatcher, watch } from "node:fs";

/** How a {@link TranscriptWake} watches a file: `fs.watch` unless a test gives another. */
export type WatchFile = (path: string, onChange: () => void) => { close(): void };

const nodeWatch: WatchFile = (path, onChange) => {
  const watcher: FSWatcher = watch(path, { persistent: false }, () => onChange());
  // A file that went away or a watch the system withdrew: the poll still reads the transcript.
  watcher.on("error", () => watcher.close());
  return watcher;
};

/**
 * Calls `onChange` as soon as the session's transcript file changes, so a post Claude Code has
 * just recorded in the conversation is confirmed (and acked) within milliseconds instead of at
 * the next poll. It only hastens a read: the watcher's poll of the transcript stays the floor, so
 * a file system without change events, a replaced transcript or a watch that failed to start
 * loses nothing but speed. {@link follow} re-targets it when the session's transcript path
 * changes (a resumed or cleared conversation); {@link close} stops it. Never throws.
 *
 * @example const wake = new TranscriptWake(() => readTranscript()); wake.follow(map.transcript_path);
 */
export class TranscriptWake {
  readonly #onChange: () => void;
  readonly #watchFile: WatchFile;
  #path: string | undefined;
  #handle: { close(): void } | undefined;

  constructor(onChange: () => void, watchFile: WatchFile = nodeWatch) {
    this.#onChange = onChange;
    this.#watchFile = watchFile;
  }

  /**
   * Watches `path` (nothing when undefined); a path already watched is left as it is. A file
   * that does not exist yet is tried again at the next call.
   */
  follow(path: string | undefined): void {
    if (path === this.#path && this.#handle !== undefined) return;
    this.close();
    this.#path = path;
    if (path === undefined) return;
    try {
      this.#handle = this.#watchFile(path, this.#onChange);
    } catch {
      this.#handle = undefined;
    }
  }

  /** Stops watching. */
  close(): void {
    this.#handle?.close();
    this.#handle = undefined;
  }
}
