import { unlinkSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { normalizeServerUrl } from "../../adapters/http/index.ts";
import { currentUid } from "../../local-files/index.ts";
import { isJsonObject, parseJsonDocument } from "../../protocol/index.ts";
import { readPrivateStateFile, sha256Hex, writePrivateStateFile } from "../state/index.ts";
import { isValidTeamRef } from "./binding-file.ts";
import { teamKeyFor } from "./team-key.ts";

/** Folder (under the config dir) of the consent records. */
export const CONSENT_DIR = "consent";

/** The `version` of a consent record. */
export const CONSENT_VERSION = 1;

/** The largest consent record read, in bytes (64 KiB). */
export const MAX_CONSENT_BYTES = 65_536;

/** Why {@link readConsent} found no usable consent record. */
export const CONSENT_READ_REASONS = [
  "missing",
  "not_private",
  "malformed",
  "invalid",
  "wrong_checkout",
  "unreadable",
] as const;

/** A {@link CONSENT_READ_REASONS} member. */
export type ConsentReadReason = (typeof CONSENT_READ_REASONS)[number];

/**
 * A per-checkout consent: the person, from their own terminal, joined (or created) `team_ref` on
 * `server` for the checkout at `checkout`. Stored 0600 at `<configDir>/consent/<sha256hex(checkout)>.json`.
 * `team_key` is always `teamKeyFor(server, team_ref)`; `consented_at` is RFC 3339 UTC.
 *
 * @example
 * { version: 1, checkout: "/home/dana/src/api", server: "http://127.0.0.1:7777", team_ref: "t-9c1e",
 *   team_name: "core", team_key: "team-0123456789abcdef", consented_at: "2026-11-02T09:15:42Z" }
 */
export interface ConsentRecord {
  readonly version: 1;
  readonly checkout: string;
  readonly server: string;
  readonly team_ref: string;
  readonly team_name: string;
  readonly team_key: string;
  readonly consented_at: string;
  /**
   * The configuration folder holding this team's profile and credential, when it is not the folder
   * the record lives in: a person who joined with `BRIGADE_CONFIG_DIR` gets a second record in the
   * default folder naming it, so sessions (which ignore `BRIGADE_*`) find the join
   * (docs/44-team-binding.md, "One configuration folder rule"). Absolute; absent otherwise.
   */
  readonly config_dir?: string;
}

/** Result of {@link readConsent}. */
export type ConsentRead =
  | { readonly ok: true; readonly record: ConsentRecord }
  | { readonly ok: false; readonly reason: ConsentReadReason };

/**
 * `<configDir>/consent/<sha256hex(checkout)>.json` (the checkout path is hashed: a file stem that
 * is always valid and names no folder).
 *
 * @example consentPath("/home/dana/.config/brigade", "/home/dana/src/api"); // …/consent/<64 hex>.json
 */
export function consentPath(configDir: string, checkout: string): string {
  return join(configDir, CONSENT_DIR, `${sha256Hex(checkout)}.json`);
}

/**
 * Builds the consent record for `checkout` and a team; `server` is normalised (unchanged when it
 * is not an http(s) URL), `team_key` computed, `consented_at` from `now` (default: the clock),
 * whole seconds, UTC.
 *
 * @example consentRecord({ checkout, server, teamRef: "t-9c1e", teamName: "core" });
 */
export function consentRecord(options: {
  readonly checkout: string;
  readonly server: string;
  readonly teamRef: string;
  readonly teamName: string;
  readonly now?: Date;
  /** {@link ConsentRecord.config_dir}: the folder holding the credential, when elsewhere. */
  readonly configDir?: string;
}): ConsentRecord {
  const server = normalizeServerUrl(options.server) ?? options.server;
  const at = (options.now ?? new Date()).toISOString().replace(/\.\d{3}Z$/, "Z");
  return {
    version: CONSENT_VERSION,
    checkout: options.checkout,
    server,
    team_ref: options.teamRef,
    team_name: options.teamName,
    team_key: teamKeyFor(server, options.teamRef),
    consented_at: at,
    ...(options.configDir === undefined ? {} : { config_dir: options.configDir }),
  };
}

/**
 * Writes `record` at {@link consentPath} under `configDir`: folders 0700, file 0600, atomic
 * (temporary file + rename), replacing an earlier consent for the same checkout.
 *
 * @throws PrivateFileError (`not_private`, `io_error`) when the folder or file cannot be kept private.
 * @example writeConsent(configDir, consentRecord({ checkout, server, teamRef, teamName }));
 */
export function writeConsent(configDir: string, record: ConsentRecord): void {
  const text = `${JSON.stringify(
    {
      version: record.version,
      checkout: record.checkout,
      server: record.server,
      team_ref: record.team_ref,
      team_name: record.team_name,
      team_key: record.team_key,
      consented_at: record.consented_at,
      ...(record.config_dir === undefined ? {} : { config_dir: record.config_dir }),
    },
    null,
    2,
  )}\n`;
  writePrivateStateFile(configDir, consentPath(configDir, record.checkout), text);
}

/**
 * Reads the consent for `checkout` under `configDir` as a trust boundary and never throws: opened
 * without following a symlink, a regular file owned by `uid` (default: ours) with no group/other
 * permission bits (`not_private`), ≤ 64 KiB of strict JSON (`malformed`), every member of
 * {@link ConsentRecord} present with its form — `version` 1, `server` an http(s) URL, a valid
 * `team_ref`, non-empty strings, `team_key` equal to `teamKeyFor(server, team_ref)` (`invalid`) —
 * an optional `config_dir` that is an absolute path (`invalid` otherwise) —
 * and `checkout` equal to the one asked for (`wrong_checkout`). Absent: `missing`; any other
 * failure: `unreadable`. Unknown members are ignored.
 *
 * @example
 * const c = readConsent(configDir, "/home/dana/src/api");
 * if (c.ok) c.record.team_key;
 */
export function readConsent(
  configDir: string,
  checkout: string,
  options: { readonly uid?: number } = {},
): ConsentRead {
  const uid = options.uid ?? currentUid();
  const read = readPrivateStateFile(consentPath(configDir, checkout), {
    maxBytes: MAX_CONSENT_BYTES,
    uid,
  });
  switch (read.kind) {
    case "ok":
      break;
    case "missing":
    case "not_private":
    case "unreadable":
      return { ok: false, reason: read.kind };
    case "too_large":
      return { ok: false, reason: "malformed" };
  }
  const parsed = parseJsonDocument(read.bytes, { maxBytes: MAX_CONSENT_BYTES });
  if (!parsed.ok || !isJsonObject(parsed.value)) return { ok: false, reason: "malformed" };
  const o = parsed.value;
  const text = (name: string): string | undefined => {
    const value = o[name];
    return typeof value === "string" && value !== "" ? value : undefined;
  };
  const recordCheckout = text("checkout");
  const server = normalizeServerUrl(text("server") ?? "");
  const teamRef = text("team_ref");
  const teamName = text("team_name");
  const teamKey = text("team_key");
  const consentedAt = text("consented_at");
  const elsewhere = o.config_dir;
  const elsewhereOk =
    elsewhere === undefined ||
    (typeof elsewhere === "string" && elsewhere.length <= 4_096 && isAbsolute(elsewhere));
  if (
    !elsewhereOk ||
    o.version !== CONSENT_VERSION ||
    recordCheckout === undefined ||
    server === undefined ||
    teamRef === undefined ||
    !isValidTeamRef(teamRef) ||
    teamName === undefined ||
    teamKey !== teamKeyFor(server, teamRef) ||
    consentedAt === undefined
  ) {
    return { ok: false, reason: "invalid" };
  }
  if (recordCheckout !== checkout) return { ok: false, reason: "wrong_checkout" };
  return {
    ok: true,
    record: {
      version: CONSENT_VERSION,
      checkout,
      server,
      team_ref: teamRef,
      team_name: teamName,
      team_key: teamKey,
      consented_at: consentedAt,
      ...(typeof elsewhere === "string" ? { config_dir: elsewhere } : {}),
    },
  };
}

/**
 * Deletes the consent for `checkout` under `configDir`; `true` when a record was removed, `false`
 * when there was none. Never follows a symlink (`unlink` removes the link itself).
 *
 * @throws Error from `unlinkSync` for any failure but a missing file.
 * @example deleteConsent(configDir, checkout);
 */
export function deleteConsent(configDir: string, checkout: string): boolean {
  try {
    unlinkSync(consentPath(configDir, checkout));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}
