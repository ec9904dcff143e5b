import {
  type AdapterCallOptions,
  BapError,
  configError,
  invalidInputError,
  isJsonObject,
  type ValidationResult,
} from "../../protocol/index.ts";
import type { HttpAdapterRuntime } from "./http-adapter-options.ts";
import { callServer, type ServerTransport } from "./http-client.ts";
import { writeCredential, writeProfile } from "./profile-files.ts";
import type { ProfileStore, StoredProfile } from "./profile-store.ts";
import { normalizeServerUrl } from "./server-url.ts";
import { callTarget, transportFor, type UnsignedRequest } from "./team-context.ts";

/** Where `team create` / `team join` run: the profile's files and what the profile holds now. */
export interface SetupTarget {
  readonly store: ProfileStore;
  readonly profile: StoredProfile;
  /** The join document's normalised `backend.server`, if it named one. */
  readonly backendServer: string | undefined;
}

/**
 * `team create` / `team join` with a server and a credential, then the call itself; the server's
 * base URL and the validated answer.
 *
 * The server URL comes from the profile, the join document, or `BRIGADE_SERVER` (none usable is
 * `config`). A credential is minted with `POST /v1/principals` when the profile has none (profile
 * written first, then the token, both 0600). A credential file that exists but is world-readable,
 * unreadable or malformed is `config`, never replaced. When a stored credential is answered
 * `unauthenticated`, the server no longer knows its principal (collected after days without any
 * team, docs/21-service.md, or the server's data was reset): such a principal holds no membership
 * there, so a new one is minted over it and the call is made once more (logged as
 * `credential_unknown_to_server`). Any other error passes through.
 */
export async function callWithSetup<T>(
  runtime: HttpAdapterRuntime,
  target: SetupTarget,
  request: UnsignedRequest,
  validate: (value: unknown) => ValidationResult<T>,
  options: AdapterCallOptions | undefined,
): Promise<{ baseUrl: string; result: T }> {
  const setup = await setUp(runtime, target, options);
  const baseUrl = setup.transport.baseUrl;
  try {
    return { baseUrl, result: await callTarget(setup, request, validate, options) };
  } catch (error) {
    if (setup.minted || !(error instanceof BapError) || error.code !== "unauthenticated") {
      throw error;
    }
    runtime.log.warn("credential_unknown_to_server");
    const token = await mint(runtime, target, setup.transport, options);
    const result = await callTarget({ ...setup, token }, request, validate, options);
    return { baseUrl, result };
  }
}

/** The server and credential of {@link callWithSetup}, minting one only when none is stored. */
async function setUp(
  runtime: HttpAdapterRuntime,
  { store, profile, backendServer }: SetupTarget,
  options: AdapterCallOptions | undefined,
): Promise<{ transport: ServerTransport; token: string; minted: boolean }> {
  const configured = profile.server ?? backendServer ?? runtime.env.BRIGADE_SERVER;
  const server =
    configured === undefined || configured === "" ? undefined : normalizeServerUrl(configured);
  if (server === undefined) throw new BapError(configError());
  const transport = transportFor(runtime, server);
  const existing = store.readCredential();
  // Only a missing credential is minted: one that cannot be read or parsed may still be the
  // principal's only token, and writing a new one over it would orphan that membership.
  if (existing.kind === "world_readable" || existing.kind === "invalid") {
    throw new BapError(configError());
  }
  if (existing.kind === "ok") {
    if (profile.server === undefined) writeProfile(store, { ...profile, server }, runtime.log);
    return { transport, token: existing.value.token, minted: false };
  }
  const token = await mint(runtime, { store, profile, backendServer }, transport, options);
  return { transport, token, minted: true };
}

/** Mints a principal, then writes the profile (`server`) and the credential; the new token. */
async function mint(
  runtime: HttpAdapterRuntime,
  { store, profile }: SetupTarget,
  transport: ServerTransport,
  options: AdapterCallOptions | undefined,
): Promise<string> {
  const minted = await callServer(
    transport,
    { method: "POST", path: "/v1/principals", body: {}, signal: options?.signal },
    validateMintedPrincipal,
  );
  writeProfile(store, { ...profile, server: transport.baseUrl }, runtime.log);
  writeCredential(store, { token: minted.token, principal_ref: minted.principal_ref }, runtime.log);
  runtime.log.info("credential_minted");
  return minted.token;
}

/**
 * The `POST /v1/principals` answer: `{principal_ref, token}`, both non-empty strings; anything
 * else is `invalid_input` on `token` (which `callServer` reports as `internal`).
 */
export function validateMintedPrincipal(
  value: unknown,
): ValidationResult<{ principal_ref: string; token: string }> {
  if (
    isJsonObject(value) &&
    typeof value.principal_ref === "string" &&
    value.principal_ref !== "" &&
    typeof value.token === "string" &&
    value.token !== ""
  ) {
    return { ok: true, value: { principal_ref: value.principal_ref, token: value.token } };
  }
  return { ok: false, error: invalidInputError("token", "invalid_value") };
}
