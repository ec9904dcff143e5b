/**
 * Team binding (docs/44-team-binding.md): the committed `.brigade.json` that names a repository's
 * team, its discovery from a folder, the per-checkout consent record a person writes by joining
 * from their own terminal, the team key (http adapter profile) of a team, the join-secret file a
 * team's creator hands on, and the session rule that needs both to agree.
 */
export {
  isValidTeamRef,
  MAX_TEAM_BINDING_BYTES,
  MAX_TEAM_NAME_CODEPOINTS,
  MAX_TEAM_REF_BYTES,
  parseTeamBindingFile,
  serializeTeamBinding,
  TEAM_BINDING_FILE_NAME,
  TEAM_BINDING_REASONS,
  TEAM_BINDING_VERSION,
  type TeamBinding,
  type TeamBindingParse,
  type TeamBindingReason,
} from "./binding-file.ts";
export {
  CONSENT_DIR,
  CONSENT_READ_REASONS,
  CONSENT_VERSION,
  type ConsentRead,
  type ConsentReadReason,
  type ConsentRecord,
  consentPath,
  consentRecord,
  deleteConsent,
  MAX_CONSENT_BYTES,
  readConsent,
  writeConsent,
} from "./consent.ts";
export {
  type CheckoutLocation,
  findTeamBinding,
  locateCheckout,
  type TeamBindingLookup,
} from "./find-team-binding.ts";
export {
  JOIN_SECRET_FILE_REFUSALS,
  type JoinSecretFileRead,
  type JoinSecretFileRefusal,
  joinSecretLine,
  MAX_JOIN_SECRET_FILE_BYTES,
  parseJoinSecretFile,
  readJoinSecretFile,
  serializeJoinSecretFile,
  writeJoinSecretFile,
} from "./join-secret-file.ts";
export {
  resolveSessionTeam,
  SESSION_TEAM_REASONS,
  type SessionTeam,
  type SessionTeamReason,
} from "./session-team.ts";
export { TEAM_KEY_PREFIX, teamKeyFor } from "./team-key.ts";
