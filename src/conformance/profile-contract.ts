import { join } from "node:path";

/**
 * The profile file our bundled `http` adapter keeps, relative to `BRIGADE_CONFIG_DIR`, and which
 * the default `--rebind` rewrites (docs/22-conformance.md, "Profile and credential files"):
 * `profiles/<profile>.json` holds `{"server", "team_ref", "team_name", "principal_ref",
 * "human_label"}` (the last four only while bound); the bearer credential lives apart in
 * `credentials/<profile>.json`, mode 0600, so a profile can be shown without a secret.
 *
 * @example join(configDir, PROFILE_FILE_CONTRACT.profilesDir, `default${PROFILE_FILE_CONTRACT.extension}`)
 */
export const PROFILE_FILE_CONTRACT: {
  readonly profilesDir: "profiles";
  readonly credentialsDir: "credentials";
  readonly extension: ".json";
  readonly teamRefMember: "team_ref";
} = {
  profilesDir: "profiles",
  credentialsDir: "credentials",
  extension: ".json",
  teamRefMember: "team_ref",
};

/**
 * The path of profile `profile`'s file under `configDir`.
 *
 * @example profileFilePath("/c", "default") // "/c/profiles/default.json"
 */
export function profileFilePath(configDir: string, profile: string): string {
  return join(
    configDir,
    PROFILE_FILE_CONTRACT.profilesDir,
    `${profile}${PROFILE_FILE_CONTRACT.extension}`,
  );
}

/**
 * The path of profile `profile`'s credential file under `configDir`.
 *
 * @example credentialFilePath("/c", "default") // "/c/credentials/default.json"
 */
export function credentialFilePath(configDir: string, profile: string): string {
  return join(
    configDir,
    PROFILE_FILE_CONTRACT.credentialsDir,
    `${profile}${PROFILE_FILE_CONTRACT.extension}`,
  );
}
