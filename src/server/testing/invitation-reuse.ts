import type { InvitationRow, StoreTx } from "../../service/index.ts";
import { overrideTx } from "./decorated-store.ts";

/**
 * Mutant `invitation_reuse` (docs/22-conformance.md, "Mutant contract"): an invitation's use limit
 * is never enforced. A use the real store refuses is granted anyway while the invitation is not
 * revoked and not expired (as this unit read it), without being counted, so an invitation of one
 * use admits everyone who holds it until it expires or is revoked. Revocation, expiry, rotation
 * and the uniform rejections stay real. The suite must fail C-80, C-81 and C-86, and nothing else.
 *
 * @example new DecoratedStore(store, invitationReuseTx)
 */
export function invitationReuseTx(tx: StoreTx): StoreTx {
  const seen = new Map<string, InvitationRow>();
  return overrideTx(tx, {
    async invitationByDigest(teamRef, digest) {
      const row = await tx.invitationByDigest(teamRef, digest);
      if (row !== null) seen.set(row.invitation_id, row);
      return row;
    },
    async useInvitation(invitationId, now) {
      if (await tx.useInvitation(invitationId, now)) return true;
      const row = seen.get(invitationId);
      return row !== undefined && row.revoked_at === null && now < row.expires_at;
    },
  });
}
