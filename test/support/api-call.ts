import { sessionRegistration } from "./session-registration.ts";

/** A JSON answer of `brigade serve`. */
export type Json = Record<string, unknown>;

/** The status, headers and body of one call. */
export interface ApiAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly json: Json;
}

/**
 * One HTTP call to a `brigade serve` at `base`: a bearer token and a JSON body when given (with
 * `content-type: application/json`), extra headers as given. Never throws on an error status.
 */
export async function apiCall(
  base: string,
  method: string,
  path: string,
  options: {
    readonly token?: string;
    readonly body?: Json;
    readonly headers?: Record<string, string>;
  } = {},
): Promise<ApiAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined || method === "POST") headers["content-type"] = "application/json";
  const response = await fetch(new URL(path, base), {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  let json: Json = {};
  try {
    json = JSON.parse(text) as Json;
  } catch {
    // Not JSON (a text page or a metrics exposition): callers read `text`.
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** A fresh principal's token. */
export async function mintToken(base: string): Promise<string> {
  const r = await apiCall(base, "POST", "/v1/principals", { body: {} });
  return (r.json.result as Json).token as string;
}

/** A team of two members with one session each: the tokens, the team and the session ids. */
export async function teamOfTwo(base: string, teamName = "core") {
  const a = await mintToken(base);
  const b = await mintToken(base);
  const team = (
    await apiCall(base, "POST", "/v1/teams", { token: a, body: { team_name: teamName } })
  ).json.result as Json;
  await apiCall(base, "POST", "/v1/teams/join", {
    token: b,
    body: { join_secret: team.join_secret as string },
  });
  const teamRef = team.team_ref as string;
  const register = async (token: string, name: string): Promise<string> => {
    const r = await apiCall(base, "POST", `/v1/teams/${teamRef}/sessions`, {
      token,
      body: { ...sessionRegistration(name) },
    });
    return (r.json.result as Json).session_id as string;
  };
  return {
    a,
    b,
    teamRef,
    joinSecret: team.join_secret as string,
    sa: await register(a, "alpha"),
    sb: await register(b, "beta"),
  };
}
