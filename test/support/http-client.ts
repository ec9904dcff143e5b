import { sessionRegistration } from "./session-registration.ts";

/** A BAP/1 envelope as `brigade serve` answers it. */
export interface ServerEnvelope {
  readonly ok: boolean;
  readonly result?: Record<string, unknown>;
  readonly error?: { readonly code: string; readonly details?: Record<string, string> };
}

/** Calls one route of `brigade serve` and returns its envelope (throws on a network failure). */
export async function callServer(
  base: string,
  method: "GET" | "POST",
  path: string,
  token?: string,
  body?: unknown,
): Promise<ServerEnvelope> {
  const headers: Record<string, string> = {};
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  if (body !== undefined || method === "POST") headers["content-type"] = "application/json";
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await response.json()) as ServerEnvelope;
}

/** `callServer` for a call that must succeed: returns its result or throws with the error code. */
export async function mustCall(
  base: string,
  method: "GET" | "POST",
  path: string,
  token?: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const envelope = await callServer(base, method, path, token, body);
  if (!envelope.ok || envelope.result === undefined) {
    throw new Error(
      `${method} ${path}: ${envelope.error?.code} ${JSON.stringify(envelope.error?.details ?? {})}`,
    );
  }
  return envelope.result;
}

/** Mints a principal and returns its token. */
export async function newPrincipal(base: string): Promise<string> {
  return (await mustCall(base, "POST", "/v1/principals")).token as string;
}

/** Registers a busy, accepting session and returns its id. */
export async function newSession(
  base: string,
  token: string,
  teamRef: string,
  name: string,
): Promise<string> {
  const result = await mustCall(
    base,
    "POST",
    `/v1/teams/${teamRef}/sessions`,
    token,
    sessionRegistration(name),
  );
  return result.session_id as string;
}
