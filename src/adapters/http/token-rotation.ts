import type { AdapterCallOptions, ProfileRotateTokenResult } from "../../protocol/index.ts";
import { validateMintedPrincipal } from "./credential-setup.ts";
import type { HttpAdapterRuntime } from "./http-adapter-options.ts";
import { requireStore, writeCredential } from "./profile-files.ts";
import { callTarget, readTeamContext } from "./team-context.ts";

/**
 * `profile rotate-token` over HTTP (`POST /v1/principals/rotate-token` with the profile's token):
 * the server mints a new token for the same principal and refuses the old one from then on; the
 * new one replaces the old in the credential file (atomic, 0600) and is never returned or logged.
 * Needs a bound profile like every team verb (`unauthenticated` `credential_missing` without a
 * credential, `config` without a team or server), checked before any call. The credential file
 * is rewritten as it is first, so a file that cannot be written (`config`) stops the rotation
 * before the server replaces anything: once it has, the old token is dead and the new one must
 * be kept. A token the server does not know is its `unauthenticated`, and nothing changes.
 *
 * @example const { principal_ref } = await rotateToken(runtime, undefined);
 */
export async function rotateToken(
  runtime: HttpAdapterRuntime,
  options: AdapterCallOptions | undefined,
): Promise<ProfileRotateTokenResult> {
  const ctx = readTeamContext(runtime);
  const store = requireStore(runtime.store);
  writeCredential(store, ctx.credential, runtime.log);
  const rotated = await callTarget(
    ctx,
    { method: "POST", path: "/v1/principals/rotate-token" },
    validateMintedPrincipal,
    options,
  );
  try {
    writeCredential(
      store,
      { ...ctx.credential, token: rotated.token, principal_ref: rotated.principal_ref },
      runtime.log,
    );
  } catch (error) {
    // The server no longer accepts the old token and the new one could not be kept.
    runtime.log.error("credential_rotation_unsaved");
    throw error;
  }
  runtime.log.info("credential_rotated");
  return { principal_ref: rotated.principal_ref, rotated: true };
}
