import { randomBytes } from "node:crypto";
import { linkSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { entryExists } from "../../local-files/index.ts";
import { isJsonObject, parseStrictJson } from "../../protocol/index.ts";
import { ensurePrivateDir, readPrivateFile, writePrivateFileAtomic } from "../private-files.ts";

/** Folder (under the config dir) of the profile files; the conformance rebind contract. */
export const PROFILES_DIR = "profiles";

/** Folder (under the config dir) of the credential files. */
export const CREDENTIALS_DIR = "credentials";

/** Name prefix of a pending profile: one whose final name is known only later. */
export const PENDING_PROFILE_PREFIX = "pending-";

/**
 * A profile file `profiles/<profile>.json` (docs/31-http-adapter.md): the server URL and, while
 * bound, the team and principal. Never a secret. `left_team_ref` remembers the last team left so
 * a second `team leave` can answer idempotently.
 *
 * @example
 * { server: "http://127.0.0.1:7777", team_ref: "t-9c1e", team_name: "core", principal_ref: "p-41c9" }
 */
export interface StoredProfile {
  server?: string;
  team_ref?: string;
  team_name?: string;
  principal_ref?: string;
  human_label?: string;
  left_team_ref?: string;
}

/** A credential file `credentials/<profile>.json`, mode 0600: the bearer token and its principal. */
export interface StoredCredential {
  token: string;
  principal_ref?: string;
}

/** What reading a profile or credential file found. */
export type StoredRead<T> =
  | { readonly kind: "missing" }
  | { readonly kind: "invalid" }
  | { readonly kind: "world_readable" }
  | { readonly kind: "ok"; readonly value: T };

/** Why {@link ProfileStore.moveTo} did not move a profile. */
export const PROFILE_MOVE_FAILURES = ["source_missing", "target_exists", "io_error"] as const;

/** A {@link PROFILE_MOVE_FAILURES} member. */
export type ProfileMoveFailure = (typeof PROFILE_MOVE_FAILURES)[number];

/** Result of {@link ProfileStore.moveTo}. */
export type ProfileMove =
  | { readonly ok: true; readonly store: ProfileStore }
  | { readonly ok: false; readonly reason: ProfileMoveFailure };

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // best effort: the caller already reports the failure that matters
  }
}

const PROFILE_STRING_MEMBERS = [
  "server",
  "team_ref",
  "team_name",
  "principal_ref",
  "human_label",
  "left_team_ref",
] as const;

function parseObject(text: string): Record<string, unknown> | undefined {
  const parsed = parseStrictJson(text);
  if (!parsed.ok || !isJsonObject(parsed.value)) return undefined;
  return parsed.value;
}

/**
 * The profile and credential files of one profile under one config dir. Files are 0600 in
 * folders 0700, written atomically; a file others can read is reported `world_readable` (the
 * adapter refuses it with `config`). Reads never create anything.
 *
 * @example
 * const store = new ProfileStore("/home/dana/.config/brigade", "default");
 * store.readProfile(); // { kind: "missing" } on a fresh machine
 */
export class ProfileStore {
  /** The config folder. */
  readonly configDir: string;
  /** The profile name (a validated file stem). */
  readonly profile: string;

  constructor(configDir: string, profile: string) {
    this.configDir = configDir;
    this.profile = profile;
  }

  /**
   * A pending profile under `configDir` with a fresh random name (`pending-` and 12 hex digits);
   * nothing is written yet. For a profile whose name is known only once the server answered
   * (`brigade team create` names profiles by team): write it, then {@link ProfileStore.moveTo}
   * the final name, or {@link ProfileStore.discard} it on failure.
   *
   * @example const pending = ProfileStore.pending(dir); pending.writeProfile({ server });
   */
  static pending(configDir: string): ProfileStore {
    return new ProfileStore(
      configDir,
      `${PENDING_PROFILE_PREFIX}${randomBytes(6).toString("hex")}`,
    );
  }

  /**
   * Removes this profile's credential and profile files; an absent one is fine. Never throws.
   *
   * @example ProfileStore.pending(dir).discard();
   */
  discard(): void {
    unlinkQuietly(this.credentialPath);
    unlinkQuietly(this.profilePath);
  }

  /** `<configDir>/profiles/<profile>.json`. */
  get profilePath(): string {
    return join(this.configDir, PROFILES_DIR, `${this.profile}.json`);
  }

  /** `<configDir>/credentials/<profile>.json`. */
  get credentialPath(): string {
    return join(this.configDir, CREDENTIALS_DIR, `${this.profile}.json`);
  }

  /** Reads the profile; unknown members are ignored, a non-string known member is `invalid`. */
  readProfile(): StoredRead<StoredProfile> {
    const file = readPrivateFile(this.profilePath);
    if (file.kind !== "ok") return file.kind === "unreadable" ? { kind: "invalid" } : file;
    const o = parseObject(file.text);
    if (o === undefined) return { kind: "invalid" };
    const profile: StoredProfile = {};
    for (const name of PROFILE_STRING_MEMBERS) {
      const value = o[name];
      if (value === undefined || value === null) continue;
      if (typeof value !== "string" || value === "") return { kind: "invalid" };
      profile[name] = value;
    }
    return { kind: "ok", value: profile };
  }

  /** Reads the credential; a missing or empty `token` is `invalid`. */
  readCredential(): StoredRead<StoredCredential> {
    const file = readPrivateFile(this.credentialPath);
    if (file.kind !== "ok") return file.kind === "unreadable" ? { kind: "invalid" } : file;
    const o = parseObject(file.text);
    if (o === undefined || typeof o.token !== "string" || o.token === "") {
      return { kind: "invalid" };
    }
    const credential: StoredCredential = { token: o.token };
    if (typeof o.principal_ref === "string" && o.principal_ref !== "") {
      credential.principal_ref = o.principal_ref;
    }
    return { kind: "ok", value: credential };
  }

  /**
   * Replaces the profile file (atomic, 0600 in a 0700 folder).
   *
   * @throws PrivateFileError
   */
  writeProfile(profile: StoredProfile): void {
    const out: Record<string, string> = {};
    for (const name of PROFILE_STRING_MEMBERS) {
      const value = profile[name];
      if (value !== undefined) out[name] = value;
    }
    ensurePrivateDir(join(this.configDir, PROFILES_DIR));
    writePrivateFileAtomic(this.profilePath, `${JSON.stringify(out, null, 2)}\n`);
  }

  /**
   * Replaces the credential file (atomic, 0600 in a 0700 folder). The token goes nowhere else.
   *
   * @throws PrivateFileError
   */
  writeCredential(credential: StoredCredential): void {
    const out: Record<string, string> = { token: credential.token };
    if (credential.principal_ref !== undefined) out.principal_ref = credential.principal_ref;
    ensurePrivateDir(join(this.configDir, CREDENTIALS_DIR));
    writePrivateFileAtomic(this.credentialPath, `${JSON.stringify(out)}\n`);
  }

  /**
   * Renames this profile (its profile and credential files) to `profile` in the same config dir,
   * never replacing anything: each file is hard-linked under the new name (which fails when that
   * name exists) and only then unlinked under the old one, so a crash leaves both names, never
   * neither. Used where a profile's name is only known after the team exists (`brigade team
   * create` names profiles by team). Never throws.
   * Failures: `source_missing` (no profile or no credential file here), `target_exists` (either
   * file exists under the new name; nothing moved), `io_error` (links could not be made; nothing
   * moved).
   *
   * @example
   * const moved = new ProfileStore(dir, "pending-1a2b").moveTo("team-0123456789abcdef");
   * if (moved.ok) moved.store.readProfile();
   */
  moveTo(profile: string): ProfileMove {
    const target = new ProfileStore(this.configDir, profile);
    if (!entryExists(this.profilePath) || !entryExists(this.credentialPath)) {
      return { ok: false, reason: "source_missing" };
    }
    if (entryExists(target.profilePath) || entryExists(target.credentialPath)) {
      return { ok: false, reason: "target_exists" };
    }
    try {
      linkSync(this.profilePath, target.profilePath);
    } catch (error) {
      const exists = (error as NodeJS.ErrnoException).code === "EEXIST";
      return { ok: false, reason: exists ? "target_exists" : "io_error" };
    }
    try {
      linkSync(this.credentialPath, target.credentialPath);
    } catch (error) {
      unlinkQuietly(target.profilePath);
      const exists = (error as NodeJS.ErrnoException).code === "EEXIST";
      return { ok: false, reason: exists ? "target_exists" : "io_error" };
    }
    unlinkQuietly(this.credentialPath);
    unlinkQuietly(this.profilePath);
    return { ok: true, store: target };
  }
}
