import { type Context, Hono } from "hono";
import {
  BapError,
  DEFAULT_RECEIVE_LIMIT,
  errorEnvelope,
  invalidInputError,
  isReceiveLimit,
  okEnvelope,
  type ProtocolError,
  protocolError,
  receiveLimitError,
} from "../protocol/index.ts";
import type { BrigadeService } from "../service/index.ts";
import { downloadBlobRoute, uploadBlobRoute } from "./blob-routes.ts";
import { healthRoute } from "./health-route.ts";
import { homePage } from "./home-page.ts";
import { httpStatusFor } from "./http-status.ts";
import { requireJsonBodies } from "./json-content-type.ts";
import { type Logger, silentLogger } from "./logger.ts";
import { refuseUndefinedMethods } from "./method-guard.ts";
import { PrincipalMintingBudget } from "./principal-minting-budget.ts";
import { type RegistrationPolicy, registrationGate } from "./registration-gate.ts";
import { readJsonBody } from "./request-body.ts";
import {
  attachmentSettingsOf,
  DEFAULT_SERVER_LIMITS,
  mintingLimitsOf,
  type ServerLimits,
  watchLimitsOf,
} from "./server-limits.ts";
import type { ServerMetrics } from "./server-metrics.ts";
import type { StoreHealthVerdict } from "./store-health.ts";
import { WatchRegistry } from "./watch-registry.ts";
import { openWatchStream } from "./watch-stream.ts";
import { wireErrorOf } from "./wire-error.ts";

/** What {@link createApp} needs besides the service. */
export interface AppOptions {
  readonly logger?: Logger;
  /** The client's address for a request (the limiter's key); defaults to one shared key. */
  readonly clientAddress?: (c: Context) => string;
  /** The clock of the principal minting budget, ms; defaults to `Date.now`. */
  readonly now?: () => number;
  /**
   * The settable limits (principal minting, watch caps and backlog, `brigade serve --limit`);
   * defaults to {@link DEFAULT_SERVER_LIMITS}. The operator view of `/v1/health` lists them.
   */
  readonly limits?: ServerLimits;
  /** Who may create teams (`brigade serve --registration`); defaults to open. */
  readonly registration?: RegistrationPolicy;
  /** The version `GET /` reports; defaults to `unknown`. */
  readonly version?: string;
  /** Counts sends, deliveries, acks and refusals when given (`brigade serve --metrics`). */
  readonly metrics?: ServerMetrics;
  /** The kind of store, named by `/v1/health` (never its address); omitted when absent. */
  readonly storeKind?: StoreKind;
  /**
   * Whether the store can serve, asked by every `/v1/health` (`StoreHealth.check`);
   * absent: health answers `ok` without asking.
   */
  readonly storeHealth?: () => Promise<StoreHealthVerdict>;
}

/** The kinds of store `brigade serve` runs on. */
export type StoreKind = "sqlite" | "postgres";

/** The HTTP face of `brigade serve`: a `fetch` handler and the open watch streams. */
export interface BrigadeApp {
  /** Handles one request (docs/30-http-api.md). Never rejects: every failure is an envelope. */
  readonly fetch: (request: Request, env?: unknown) => Promise<Response>;
  /** The open watch streams and their count; shutdown ends each with a `shutdown` event. */
  readonly watches: WatchRegistry;
}

type Env = { Variables: { principal: string } };

/**
 * The routes whose principal is looked up in the store, never only in the cache
 * (`BrigadeService.authenticate`): team create and team join, which need no membership.
 */
const FRESH_AUTH_PATHS: ReadonlySet<string> = new Set(["/v1/teams", "/v1/teams/join"]);

/** The bearer token of an `Authorization` header, or `null` when there is none of our shape. */
function bearerToken(header: string | undefined): string | null {
  // The scheme is case-insensitive (RFC 9110 §11.1): `bearer` is the same credential.
  const match = /^Bearer +([A-Za-z0-9_-]{1,512})$/i.exec(header ?? "");
  return match?.[1] ?? null;
}

/**
 * Builds the HTTP API over `service`: one route per BAP/1 verb, bearer-token principals, strict
 * JSON bodies, BAP/1 envelopes in every reply, `message watch` as Server-Sent Events.
 *
 * @example const app = createApp(service); const res = await app.fetch(new Request("http://x/v1/health"));
 */
export function createApp(service: BrigadeService, options: AppOptions = {}): BrigadeApp {
  const logger = options.logger ?? silentLogger;
  const clientAddress = options.clientAddress ?? (() => "local");
  const limits = options.limits ?? DEFAULT_SERVER_LIMITS;
  const mintingBudget = new PrincipalMintingBudget(
    options.now ?? Date.now,
    mintingLimitsOf(limits),
  );
  const watches = new WatchRegistry(watchLimitsOf(limits));
  const registration = options.registration ?? { mode: "open" };
  const metrics = options.metrics;
  const app = new Hono<Env>();

  app.onError((error, c) => {
    const wire = wireErrorOf(error);
    if (wire.code === "internal" || wire.code === "unavailable") {
      logger.log("error", "request_failed", { route: c.req.routePath, error: error.name });
    }
    return reply(c, wire);
  });
  app.notFound((c) =>
    reply(c, protocolError("usage", { reason: "unknown_route" }, "no route has this path")),
  );

  app.use("*", async (c, next) => {
    const started = performance.now();
    await next();
    if (metrics !== undefined && c.res.status >= 400) metrics.refused(await errorCodeOf(c.res));
    logger.log("info", "request", {
      method: c.req.method,
      route: c.req.routePath,
      status: c.res.status,
      ms: Math.round(performance.now() - started),
    });
  });
  app.use("*", refuseUndefinedMethods(app));
  app.use("*", requireJsonBodies());
  app.use("/v1/teams", registrationGate(registration, logger));

  // Load balancers and uptime checks probe with HEAD: the two cheap, unauthenticated pages answer it.
  app.on(["GET", "HEAD"], "/", (c) => homePage(c, options.version ?? "unknown"));
  app.on(
    ["GET", "HEAD"],
    "/v1/health",
    healthRoute({
      ...(options.storeKind === undefined ? {} : { storeKind: options.storeKind }),
      ...(options.storeHealth === undefined ? {} : { storeHealth: options.storeHealth }),
      registration,
      limits,
    }),
  );

  app.post("/v1/principals", async (c) => {
    const address = clientAddress(c);
    // A spent budget refuses before the body is read; the budget is spent only once the body has
    // passed, so a request refused for its body mints nothing and spends nothing.
    const early = mintingBudget.refusal(address);
    if (early !== null) return reply(c, early);
    await readJsonBody(c.req.raw, false);
    const refusal = mintingBudget.take(address);
    if (refusal !== null) return reply(c, refusal);
    return ok(c, await service.createPrincipal());
  });

  // Authenticates itself, against the store: the unit that replaces a token must read it there.
  app.post("/v1/principals/rotate-token", async (c) => {
    const token = bearerToken(c.req.header("authorization"));
    await readJsonBody(c.req.raw, false);
    const rotated = token === null ? null : await service.rotateToken(token);
    if (rotated === null) return reply(c, protocolError("unauthenticated"));
    return ok(c, rotated);
  });

  const authed = new Hono<Env>();
  authed.use("*", async (c, next) => {
    const token = bearerToken(c.req.header("authorization"));
    const fresh = c.req.method === "POST" && FRESH_AUTH_PATHS.has(c.req.path);
    const principal = token === null ? null : await service.authenticate(token, fresh);
    if (principal === null) return reply(c, protocolError("unauthenticated"));
    c.set("principal", principal);
    await next();
    return undefined;
  });

  authed.post("/teams", async (c) => {
    const body = await readJsonBody(c.req.raw, true);
    return ok(c, await service.createTeam(c.get("principal"), body));
  });
  authed.post("/teams/join", async (c) => {
    const body = await readJsonBody(c.req.raw, true);
    return ok(c, await service.joinTeam(c.get("principal"), body));
  });
  authed.post("/teams/:team/leave", async (c) => {
    await readJsonBody(c.req.raw, false);
    return ok(c, await service.leaveTeam(c.get("principal"), c.req.param("team")));
  });
  authed.get("/teams/:team/members", async (c) =>
    ok(c, await service.listMembers(c.get("principal"), c.req.param("team"))),
  );
  authed.post("/teams/:team/rotate-secret", async (c) => {
    await readJsonBody(c.req.raw, false);
    return ok(c, await service.rotateSecret(c.get("principal"), c.req.param("team")));
  });
  authed.post("/teams/:team/revoke-member", async (c) => {
    const body = await readJsonBody(c.req.raw, true);
    return ok(c, await service.revokeMember(c.get("principal"), c.req.param("team"), body));
  });
  authed.post("/teams/:team/transfer", async (c) => {
    const body = await readJsonBody(c.req.raw, true);
    return ok(c, await service.transferTeam(c.get("principal"), c.req.param("team"), body));
  });
  authed.post("/teams/:team/accept-transfer", async (c) => {
    await readJsonBody(c.req.raw, false);
    return ok(c, await service.acceptTransfer(c.get("principal"), c.req.param("team")));
  });
  authed.post("/teams/:team/invitations", async (c) => {
    const body = await readJsonBody(c.req.raw, true);
    return ok(c, await service.createInvitation(c.get("principal"), c.req.param("team"), body));
  });
  authed.get("/teams/:team/invitations", async (c) =>
    ok(c, await service.listInvitations(c.get("principal"), c.req.param("team"))),
  );
  authed.post("/teams/:team/invitations/revoke", async (c) => {
    const body = await readJsonBody(c.req.raw, true);
    return ok(c, await service.revokeInvitation(c.get("principal"), c.req.param("team"), body));
  });
  authed.post("/teams/:team/label", async (c) => {
    const body = await readJsonBody(c.req.raw, true);
    return ok(c, await service.setLabel(c.get("principal"), c.req.param("team"), body));
  });

  authed.post("/teams/:team/sessions", async (c) => {
    const body = await readJsonBody(c.req.raw, true);
    return ok(c, await service.registerSession(c.get("principal"), c.req.param("team"), body));
  });
  authed.get("/teams/:team/sessions", async (c) => {
    const session = sessionOf(c);
    const includeOffline = c.req.query("include_offline");
    return ok(
      c,
      await service.listSessions(c.get("principal"), c.req.param("team"), {
        ...(session === undefined ? {} : { session_id: session }),
        include_offline: includeOffline === "1" || includeOffline === "true",
      }),
    );
  });
  authed.post("/teams/:team/sessions/:session/heartbeat", async (c) => {
    const body = await readJsonBody(c.req.raw, true);
    const { team, session } = c.req.param();
    return ok(c, await service.heartbeatSession(c.get("principal"), team, session, body));
  });
  authed.post("/teams/:team/sessions/:session/close", async (c) => {
    await readJsonBody(c.req.raw, false);
    const { team, session } = c.req.param();
    return ok(c, await service.closeSession(c.get("principal"), team, session));
  });

  authed.post("/teams/:team/messages", async (c) => {
    const body = await readJsonBody(c.req.raw, true);
    const sent = await service.sendMessage(c.get("principal"), c.req.param("team"), body);
    metrics?.sent();
    return ok(c, sent);
  });
  authed.post("/teams/:team/person-messages", async (c) => {
    const body = await readJsonBody(c.req.raw, true);
    const sent = await service.personSend(c.get("principal"), c.req.param("team"), body);
    metrics?.sent();
    return ok(c, sent);
  });
  authed.get("/teams/:team/person-sent", async (c) =>
    ok(c, await service.personSent(c.get("principal"), c.req.param("team"), limitOf(c))),
  );
  authed.get("/teams/:team/sessions/:session/messages", async (c) => {
    const { team, session } = c.req.param();
    const limit = limitOf(c);
    const received = await service.receiveMessages(c.get("principal"), team, session, limit);
    metrics?.delivered("receive", received.messages.length);
    return ok(c, received);
  });
  authed.post("/teams/:team/sessions/:session/ack", async (c) => {
    const body = await readJsonBody(c.req.raw, true);
    const { team, session } = c.req.param();
    const acked = await service.ackMessages(c.get("principal"), team, session, body);
    metrics?.acked(acked.acked.length);
    return ok(c, acked);
  });
  authed.post("/teams/:team/sessions/:session/message-states", async (c) => {
    const body = await readJsonBody(c.req.raw, true);
    const { team, session } = c.req.param();
    return ok(c, await service.messageState(c.get("principal"), team, session, body));
  });
  authed.get("/teams/:team/sessions/:session/sent", async (c) => {
    const { team, session } = c.req.param();
    return ok(c, await service.messageSent(c.get("principal"), team, session, limitOf(c)));
  });
  authed.post("/teams/:team/sessions/:session/report", async (c) => {
    const body = await readJsonBody(c.req.raw, true);
    const { team, session } = c.req.param();
    return ok(c, await service.messageReport(c.get("principal"), team, session, body));
  });
  authed.post("/teams/:team/sessions/:session/adopt", async (c) => {
    const body = await readJsonBody(c.req.raw, true);
    const { team, session } = c.req.param();
    return ok(c, await service.adoptMessages(c.get("principal"), team, session, body));
  });
  // Blobs (capability message.attachments): an upload's body is the bytes, not JSON.
  const drainLimit = attachmentSettingsOf(limits).maxFileBytes;
  authed.put("/teams/:team/blobs/:sha256", (c) => uploadBlobRoute(c, service, drainLimit));
  authed.get("/teams/:team/blobs/:sha256", (c) => downloadBlobRoute(c, service));
  authed.get("/teams/:team/sessions/:session/watch", async (c) => {
    const { team, session } = c.req.param();
    const target = { principalRef: c.get("principal"), teamRef: team, sessionId: session };
    const onMessage = metrics === undefined ? undefined : () => metrics.delivered("watch");
    return openWatchStream(service, target, watches, c.req.raw.signal, onMessage);
  });

  app.route("/v1", authed);

  return {
    fetch: async (request, env) => app.fetch(request, env),
    watches,
  };
}

function ok(c: Context, result: unknown): Response {
  return c.json(okEnvelope(result), 200);
}

function reply(c: Context, error: ProtocolError): Response {
  const status = httpStatusFor(error.code);
  const headers: Record<string, string> = {};
  if (error.retry_after_ms !== undefined) {
    headers["retry-after"] = String(Math.ceil(error.retry_after_ms / 1000));
  }
  // RFC 9110 §15.5.2: a 401 names the scheme that would be accepted.
  if (error.code === "unauthenticated") headers["www-authenticate"] = "Bearer";
  return c.json(errorEnvelope(error), status as 400, headers);
}

/**
 * The BAP/1 error code of an error reply, read from a copy of its envelope; `internal` when the
 * body is not one (the metrics label must come from the fixed set).
 */
async function errorCodeOf(response: Response): Promise<string> {
  if (!(response.headers.get("content-type") ?? "").startsWith("application/json")) {
    return "internal";
  }
  try {
    const envelope = (await response.clone().json()) as { error?: { code?: unknown } };
    const code = envelope.error?.code;
    return typeof code === "string" ? code : "internal";
  } catch {
    return "internal";
  }
}

/**
 * `?session=` of `session list`: absent → none; an empty value is `invalid_input` (`session`,
 * `invalid_value`), as an empty session id in a body is, rather than an unknown session's
 * `not_found`: nothing was named.
 */
function sessionOf(c: Context): string | undefined {
  const raw = c.req.query("session");
  if (raw === "") throw new BapError(invalidInputError("session", "invalid_value"));
  return raw;
}

/**
 * `?limit=` as BAP/1's `--limit`: absent → {@link DEFAULT_RECEIVE_LIMIT}; anything but a decimal
 * without leading zeros that `isReceiveLimit` accepts → `receiveLimitError()`.
 */
function limitOf(c: Context): number {
  const raw = c.req.query("limit");
  if (raw === undefined) return DEFAULT_RECEIVE_LIMIT;
  const limit = /^[1-9][0-9]*$/.test(raw) ? Number(raw) : Number.NaN;
  if (!isReceiveLimit(limit)) throw new BapError(receiveLimitError());
  return limit;
}
