import { normalizeServerUrl } from "../../adapters/http/index.ts";
import { isJsonObject, parseJsonDocument } from "../../protocol/index.ts";

/** The file a repository commits to name its team. */
export const TEAM_BINDING_FILE_NAME = ".brigade.json";

/** The `version` a `.brigade.json` must carry. */
export const TEAM_BINDING_VERSION = 1;

/** The largest `.brigade.json` read, in bytes (64 KiB). */
export const MAX_TEAM_BINDING_BYTES = 65_536;

/** The largest `team_ref` accepted, in UTF-8 bytes. */
export const MAX_TEAM_REF_BYTES = 200;

/** The largest `team_name` accepted, in code points (docs/spec/protocol.md §4.10). */
export const MAX_TEAM_NAME_CODEPOINTS = 64;

/** Why a `.brigade.json` could not be used (`findTeamBinding`). */
export const TEAM_BINDING_REASONS = [
  "no_binding",
  "binding_unreadable",
  "binding_invalid",
] as const;

/** A {@link TEAM_BINDING_REASONS} member. */
export type TeamBindingReason = (typeof TEAM_BINDING_REASONS)[number];

/**
 * The team a repository names: the server base URL (normalised, no trailing `/`), the team's
 * opaque `team_ref` and its display name. Untrusted until a consent record agrees with it.
 *
 * @example { server: "https://brigade.example.org", team_ref: "t-9c1e", team_name: "core" }
 */
export interface TeamBinding {
  readonly server: string;
  readonly team_ref: string;
  readonly team_name: string;
}

/** Result of {@link parseTeamBindingFile}. */
export type TeamBindingParse =
  | { readonly ok: true; readonly binding: TeamBinding }
  | { readonly ok: false; readonly reason: "binding_invalid" };

// GO_SPACE, Cc, Cf and lone surrogates: a team_ref is a file-stem-like opaque id
// (docs/spec/protocol.md §9 forbids the same characters in the join secret's team_ref half).
const FORBIDDEN_IN_TEAM_REF =
  /[\t-\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\p{Cc}\p{Cf}]|[\uD800-\uDFFF]/u;

/** True when `teamRef` is a usable team ref: 1–200 UTF-8 bytes, no space, Cc, Cf or lone surrogate. */
export function isValidTeamRef(teamRef: string): boolean {
  return (
    teamRef.length > 0 &&
    Buffer.byteLength(teamRef, "utf8") <= MAX_TEAM_REF_BYTES &&
    !FORBIDDEN_IN_TEAM_REF.test(teamRef)
  );
}

function codePointCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/**
 * Parses the bytes of a `.brigade.json` (docs/44-team-binding.md) and never throws: at most
 * 64 KiB of strict UTF-8 holding exactly one JSON object with no repeated member name, whose
 * `version` is the integer 1, `server` an absolute http(s) URL without user info, query or
 * fragment (returned normalised), `team_ref` 1–200 bytes with no space, Cc or Cf, and `team_name`
 * a non-empty string of at most 64 code points. Unknown members are ignored. Every failure is
 * `binding_invalid` (the reason never carries the value).
 *
 * @example
 * parseTeamBindingFile(new TextEncoder().encode(
 *   '{"version":1,"server":"http://127.0.0.1:7777/","team_ref":"t-9c1e","team_name":"core"}'));
 * // { ok: true, binding: { server: "http://127.0.0.1:7777", team_ref: "t-9c1e", team_name: "core" } }
 */
export function parseTeamBindingFile(bytes: Uint8Array): TeamBindingParse {
  const invalid = { ok: false, reason: "binding_invalid" } as const;
  const parsed = parseJsonDocument(bytes, { maxBytes: MAX_TEAM_BINDING_BYTES });
  if (!parsed.ok || !isJsonObject(parsed.value)) return invalid;
  const o = parsed.value;
  if (o.version !== TEAM_BINDING_VERSION) return invalid;
  const { server, team_ref: teamRef, team_name: teamName } = o;
  if (typeof server !== "string" || typeof teamRef !== "string" || typeof teamName !== "string") {
    return invalid;
  }
  const normalized = normalizeServerUrl(server);
  if (normalized === undefined || !isValidTeamRef(teamRef)) return invalid;
  if (teamName === "" || codePointCount(teamName) > MAX_TEAM_NAME_CODEPOINTS) return invalid;
  return { ok: true, binding: { server: normalized, team_ref: teamRef, team_name: teamName } };
}

/**
 * The text of a `.brigade.json` for `binding`: `version` 1 first, two-space indentation, one
 * trailing newline (meant to be committed and reviewed).
 *
 * @example
 * serializeTeamBinding({ server: "http://127.0.0.1:7777", team_ref: "t-9c1e", team_name: "core" });
 */
export function serializeTeamBinding(binding: TeamBinding): string {
  const out = {
    version: TEAM_BINDING_VERSION,
    server: binding.server,
    team_ref: binding.team_ref,
    team_name: binding.team_name,
  };
  return `${JSON.stringify(out, null, 2)}\n`;
}
