import { rmSync } from "node:fs";
import { isJsonObject, type JsonValue, parseJsonDocument } from "../../protocol/index.ts";
import type { PendingFile, PendingRecord, PendingStore } from "../inbound/index.ts";
import { INBOUND_LIMITS } from "../inbound/index.ts";
import {
  type PrivateStateRead,
  readPrivateStateFile,
  takePrivateStateFile,
  writePrivateStateFile,
} from "./private-state-file.ts";
import type { StateLayout } from "./state-layout.ts";

/** Largest pending or release file read, bytes. */
export const MAX_HOLD_FILE_BYTES = 1_048_576;

const PENDING_TEXT = [
  "message_id",
  "sender_name",
  "sender_session_id",
  "principal_ref",
  "summary",
  "created_at",
] as const;

function isPendingRecord(value: JsonValue): value is JsonValue & PendingRecord {
  if (!isJsonObject(value)) return false;
  if (!PENDING_TEXT.every((name) => typeof value[name] === "string")) return false;
  if (value.message_id === "") return false;
  return typeof value.held_at === "number" && Number.isFinite(value.held_at);
}

function jsonOf(read: PrivateStateRead): JsonValue | undefined {
  if (read.kind !== "ok") return undefined;
  const parsed = parseJsonDocument(read.bytes, { maxBytes: MAX_HOLD_FILE_BYTES });
  return parsed.ok ? parsed.value : undefined;
}

function readJson(path: string, uid: number): JsonValue | undefined {
  return jsonOf(readPrivateStateFile(path, { maxBytes: MAX_HOLD_FILE_BYTES, uid }));
}

/**
 * Reads `state/pending/<stem>.json` (`{version: 1, records: [...]}`, oldest first, at most 100
 * kept): missing, foreign, non-private or malformed → `[]`; malformed records are skipped.
 * Records never hold a message body. Never throws.
 *
 * @example const records = readPendingRecords(layout, "s-1", uid);
 */
export function readPendingRecords(
  layout: StateLayout,
  sessionId: string,
  uid: number,
): PendingRecord[] {
  const value = readJson(layout.pending(sessionId), uid);
  if (value === undefined || !isJsonObject(value) || value.version !== 1) return [];
  const records = value.records;
  if (!Array.isArray(records)) return [];
  return records
    .filter(isPendingRecord)
    .slice(-INBOUND_LIMITS.pendingCap)
    .map((r) => ({
      message_id: r.message_id,
      sender_name: r.sender_name,
      sender_session_id: r.sender_session_id,
      principal_ref: r.principal_ref,
      summary: r.summary,
      created_at: r.created_at,
      held_at: r.held_at,
      ...(r.adopted === true ? { adopted: true as const } : {}),
      ...filesOf(r),
    }));
}

/** A record's `files`, kept only when every entry is a string name and a whole size. */
function filesOf(record: JsonValue): { files?: PendingFile[] } {
  if (!isJsonObject(record) || !Array.isArray(record.files)) return {};
  const files: PendingFile[] = [];
  for (const f of record.files.slice(0, INBOUND_LIMITS.maxAttachments)) {
    if (!isJsonObject(f) || typeof f.name !== "string") return {};
    if (typeof f.size !== "number" || !Number.isSafeInteger(f.size) || f.size < 0) return {};
    files.push({ name: f.name, size: f.size });
  }
  return files.length === 0 ? {} : { files };
}

/**
 * A {@link PendingStore} writing `state/pending/<stem>.json` atomically (0600) on every change;
 * an empty list removes the file.
 *
 * @example new InboundPipeline({ …, pendingStore: pendingFileStore(layout, "s-1") })
 */
export function pendingFileStore(layout: StateLayout, sessionId: string): PendingStore {
  const path = layout.pending(sessionId);
  return {
    save(records) {
      if (records.length === 0) {
        rmSync(path, { force: true });
        return;
      }
      const file = { version: 1, records: records.map((r) => ({ ...r })) };
      writePrivateStateFile(layout.root, path, `${JSON.stringify(file)}\n`);
    },
  };
}

/**
 * Adds release requests (`brigade inbox release`, run in a terminal) to
 * `state/release/<stem>.json` (`{version: 1, message_ids: [...]}`), keeping earlier unconsumed
 * requests; at most 100 ids are kept (the newest).
 *
 * @throws PrivateFileError when the file cannot be written privately.
 * @example requestRelease(layout, "s-1", ["m-1"], uid);
 */
export function requestRelease(
  layout: StateLayout,
  sessionId: string,
  ids: readonly string[],
  uid: number,
): void {
  const merged = [...readReleaseRequests(layout, sessionId, uid)];
  for (const id of ids) if (id !== "" && !merged.includes(id)) merged.push(id);
  const file = { version: 1, message_ids: merged.slice(-INBOUND_LIMITS.pendingCap) };
  writePrivateStateFile(layout.root, layout.release(sessionId), `${JSON.stringify(file)}\n`);
}

/**
 * The release requests waiting in `state/release/<stem>.json` (missing, foreign, non-private or
 * malformed → `[]`: a planted file releases nothing). Never throws.
 *
 * @example pipeline.release(readReleaseRequests(layout, "s-1", uid));
 */
export function readReleaseRequests(layout: StateLayout, sessionId: string, uid: number): string[] {
  return releaseIds(readJson(layout.release(sessionId), uid));
}

function releaseIds(value: JsonValue | undefined): string[] {
  if (value === undefined || !isJsonObject(value) || value.version !== 1) return [];
  const ids = value.message_ids;
  if (!Array.isArray(ids)) return [];
  return ids.filter((id): id is string => typeof id === "string" && id !== "");
}

/**
 * Takes the release file (the watcher or the next poll consumes it) and returns the ids to pass to
 * `InboundPipeline.release`. The file is first renamed to a name of our own, then read and
 * deleted: a `requestRelease` that lands meanwhile writes a new file, read next time, instead of
 * being deleted unread. Never throws.
 *
 * @example pipeline.release(consumeReleaseRequests(layout, "s-1", uid));
 */
export function consumeReleaseRequests(
  layout: StateLayout,
  sessionId: string,
  uid: number,
): string[] {
  return releaseIds(
    jsonOf(takePrivateStateFile(layout.release(sessionId), { maxBytes: MAX_HOLD_FILE_BYTES, uid })),
  );
}
