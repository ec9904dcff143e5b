import {
  digestJoinSecret,
  generateJoinSecret,
  parseJoinSecret,
  protocolError,
} from "../protocol/index.ts";
import { fail } from "./access-checks.ts";
import type { ServiceDeps } from "./service-deps.ts";

/**
 * A new join secret for the team (32 random bytes) and the digest the store keeps of it: the
 * team's own secret (`team create`, `team rotate-secret`) and every invitation (`team invite`)
 * are minted alike, so `team join` takes either.
 *
 * @example const { secret, digest } = mintJoinSecret(deps, "t-9c1e");
 */
export function mintJoinSecret(
  deps: ServiceDeps,
  teamRef: string,
): { secret: string; digest: string } {
  const secret = generateJoinSecret(teamRef, deps.randomBytes(32));
  const parsed = parseJoinSecret(secret);
  if (!parsed.ok) fail(protocolError("internal"));
  return { secret, digest: digestJoinSecret(parsed.value) };
}
