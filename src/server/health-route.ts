import type { Context } from "hono";
import { PROTOCOL_VERSION } from "../protocol/index.ts";
import {
  OPERATOR_KEY_HEADER,
  presentsOperatorKey,
  type RegistrationPolicy,
} from "./registration-gate.ts";
import type { ServerLimits } from "./server-limits.ts";
import type { StoreHealthVerdict } from "./store-health.ts";

/** What `GET /v1/health` reports besides the store's verdict. */
export interface HealthRouteOptions {
  /** The kind of store, named in every reply (never its address); omitted when absent. */
  readonly storeKind?: string;
  /** Asks whether the store can serve; absent: every reply is `ok`. */
  readonly storeHealth?: () => Promise<StoreHealthVerdict>;
  /** Who holds the operator key; only a closed server has one. */
  readonly registration: RegistrationPolicy;
  /** The settable limits in force, shown in the operator view. */
  readonly limits: ServerLimits;
}

/**
 * The `GET`/`HEAD /v1/health` handler (docs/30-http-api.md, "Health tells the truth about the
 * store"): `{status: "ok", protocol_version, store?}` with 200 while the store answers its
 * probe, else 503 with `status` `"unavailable"` and the probe's fixed `reason`. A request that
 * carries the server's operator key in `X-Brigade-Operator-Key` (a closed server's, compared as a
 * digest in constant time) gets the **operator view**: the same reply and status with one more
 * member, `limits`, every settable limit in force by name (`SERVER_LIMIT_NAMES`). A missing or
 * wrong key, or any key on an open server (which has none), gets the public reply unchanged, so a
 * load balancer's check never depends on a header; no value of the request is ever echoed.
 */
export function healthRoute(options: HealthRouteOptions): (c: Context) => Promise<Response> {
  const store = options.storeKind === undefined ? {} : { store: options.storeKind };
  const healthy = { status: "ok", protocol_version: PROTOCOL_VERSION, ...store };
  const down = { status: "unavailable", protocol_version: PROTOCOL_VERSION, ...store };
  const operatorView = { limits: { ...options.limits } };
  const isOperator = (c: Context): boolean => {
    const policy = options.registration;
    return (
      policy.mode === "closed" &&
      presentsOperatorKey(c.req.header(OPERATOR_KEY_HEADER), policy.operatorKeyDigest)
    );
  };
  return async (c) => {
    const verdict = options.storeHealth === undefined ? undefined : await options.storeHealth();
    const extra = isOperator(c) ? operatorView : {};
    // The reply differs by the key header, so no shared cache may hand one caller's to another.
    c.header("cache-control", "no-store");
    if (verdict === undefined || verdict.ok) return c.json({ ...healthy, ...extra });
    return c.json({ ...down, reason: verdict.reason, ...extra }, 503);
  };
}
