/**
 * The persisted seen-set of step 2, keyed by OUR session id (one store per Brigade session, so
 * dedupe survives a crash and `claude --resume`). The file-backed implementation lives in
 * `src/harness/state/`; tests pass an in-memory one.
 *
 * @example const seen: SeenStore = { has: (id) => ids.has(id), add: (id) => void ids.add(id) };
 */
export interface SeenStore {
  /** True when `id` was injected before (the store keeps at least the last 2,000). */
  has(id: string): boolean;
  /** Records one injected id. May throw (I/O); the pipeline then still acks and says so. */
  add(id: string): void;
}

/**
 * A `hold` record (docs/spec/claude-code.md §7.1): everything a human needs to decide, **never the
 * body**. Text members are already sanitised (`sender_name` by `noticeName`, `summary` by `oneLine`
 * to 200 cp, `principal_ref` by `sanitizeId`); ids are safe ids. Times are ms since the epoch.
 *
 * @example const r: PendingRecord = { message_id: "m-1", sender_name: "api", sender_session_id: "s-1", principal_ref: "p-1", summary: "", created_at: "2026-10-02T09:15:42Z", held_at: 0 };
 */
export interface PendingRecord {
  readonly message_id: string;
  readonly sender_name: string;
  readonly sender_session_id: string;
  readonly principal_ref: string;
  readonly summary: string;
  readonly created_at: string;
  readonly held_at: number;
  /**
   * Present when the message was left for an earlier session of this checkout and taken over
   * (capability `message.adopt`): it stays held whatever the policy until the user releases it.
   */
  readonly adopted?: true;
  /**
   * The files the message names, as its user may see them before releasing it: each name
   * sanitised to one line (`oneLine`, 100 code points) and its size in bytes. Nothing is
   * downloaded while a message is held. Absent when it names none.
   */
  readonly files?: readonly PendingFile[];
}

/** One file a held message names: its sanitised name and size (bytes). */
export interface PendingFile {
  readonly name: string;
  readonly size: number;
}

/**
 * Where the pipeline persists its pending records after every change (the state module writes
 * `state/pending/<stem>.json`). A `save` that throws is ignored by the pipeline: its list in
 * memory stays right and the next change writes it whole.
 *
 * @example const store: PendingStore = { save: (records) => writePending(path, records) };
 */
export interface PendingStore {
  save(records: readonly PendingRecord[]): void;
}
