import type { Env, Hono, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { errorEnvelope, protocolError } from "../protocol/index.ts";

/** The HTTP status of a method a route does not define. */
const METHOD_NOT_ALLOWED = 405;

/**
 * Middleware that makes "a route answers only the methods it defines" a rule of `app`: a request
 * whose path matches a route but whose method matches none of that path's routes gets 405, an
 * `Allow` header listing the methods the path does define (comma-separated, sorted), and the BAP/1
 * envelope `usage` with `details.reason` `method_not_allowed`. A path no route matches passes on
 * (the app's not-found reply).
 *
 * `HEAD` and `OPTIONS` are refused like any other method unless a route defines them: Hono would
 * otherwise run the `GET` handler for `HEAD` and throw its body away (an authenticated API call, or
 * a watch stream nobody reads); a cheap page that should answer `HEAD` registers it beside `GET`
 * (`app.on(["GET", "HEAD"], …)`), and Hono then answers it with the `GET` handler, without a body.
 * The routes are read from `app` at request time, so routes registered after this middleware are
 * covered too; `ALL` registrations (middleware) define no method.
 *
 * @example app.use("*", refuseUndefinedMethods(app));
 */
export function refuseUndefinedMethods<E extends Env>(app: Hono<E>): MiddlewareHandler<E> {
  return async (c, next) => {
    const method = c.req.method;
    // The routes Hono matched for this request already say whether one defines its method; only
    // a request that none answers needs the path matched again, once per method.
    if (matchedRoutes(c).some((route) => route.method === method)) return next();
    const path = c.req.path;
    if (defines(app, method, path)) return next();
    const allowed = definedMethods(app).filter((method) => defines(app, method, path));
    if (allowed.length === 0) return next();
    return c.json(
      errorEnvelope(
        protocolError(
          "usage",
          { reason: "method_not_allowed" },
          "this route does not take this method (the Allow header lists those it takes)",
        ),
      ),
      METHOD_NOT_ALLOWED,
      { allow: allowed.join(", ") },
    );
  };
}

/** Whether a route registered for exactly `method` (not `ALL`) matches `path`. */
function defines<E extends Env>(app: Hono<E>, method: string, path: string): boolean {
  const [matches] = app.router.match(method, path);
  return matches.some(([[, route]]) => route.method === method);
}

function definedMethods<E extends Env>(app: Hono<E>): string[] {
  const methods = new Set(app.routes.map((route) => route.method));
  methods.delete("ALL");
  return [...methods].sort();
}
