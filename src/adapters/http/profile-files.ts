import { BapError, configError, unauthenticatedError } from "../../protocol/index.ts";
import type { AdapterLogger } from "../adapter-logger.ts";
import { PrivateFileError } from "../private-files.ts";
import type { ProfileStore, StoredCredential, StoredProfile } from "./profile-store.ts";

/** The `unauthenticated` (4) error, reason `credential_missing`: no credential is stored. */
export function credentialMissing(): BapError {
  return new BapError(unauthenticatedError("credential_missing"));
}

/** The adapter's profile store, or `config` (11), reason `profile_missing`, when it has none. */
export function requireStore(store: ProfileStore | undefined): ProfileStore {
  if (store === undefined) throw new BapError(configError("profile_missing"));
  return store;
}

/** The profile for create/join/leave: missing is `{}`; unsafe or invalid is `config`. */
export function readProfileForSetup(store: ProfileStore): StoredProfile {
  const read = store.readProfile();
  if (read.kind === "missing") return {};
  if (read.kind !== "ok") throw new BapError(configError());
  return read.value;
}

/**
 * The stored credential. Only an absent credential is `unauthenticated` (`credential_missing`):
 * one that exists but is not a private regular file (a symlink, a FIFO, group/other bits, a
 * foreign owner) or does not parse is `config`, so the person fixes the file instead of being
 * told to create a credential over it.
 */
export function readCredential(store: ProfileStore): StoredCredential {
  const read = store.readCredential();
  if (read.kind === "ok") return read.value;
  if (read.kind === "missing") throw credentialMissing();
  throw new BapError(configError());
}

/**
 * Writes the profile file (atomic, 0600). A refused write is logged as `profile_write_failed`
 * and thrown as `config`; any other error passes through.
 */
export function writeProfile(
  store: ProfileStore,
  profile: StoredProfile,
  log: AdapterLogger,
): void {
  try {
    store.writeProfile(profile);
  } catch (error) {
    if (error instanceof PrivateFileError) {
      log.error("profile_write_failed", { reason: error.code });
      throw new BapError(configError(), { cause: error });
    }
    throw error;
  }
}

/**
 * Writes the credential file (atomic, 0600). A refused write is logged as
 * `credential_write_failed` and thrown as `config`; any other error passes through.
 */
export function writeCredential(
  store: ProfileStore,
  credential: StoredCredential,
  log: AdapterLogger,
): void {
  try {
    store.writeCredential(credential);
  } catch (error) {
    if (error instanceof PrivateFileError) {
      log.error("credential_write_failed", { reason: error.code });
      throw new BapError(configError(), { cause: error });
    }
    throw error;
  }
}
