import { Hono } from "hono";
import { refuseUndefinedMethods } from "./method-guard.ts";
import type { ServerMetrics } from "./server-metrics.ts";

/**
 * The HTTP face of `brigade serve --metrics HOST:PORT`, a listener of its own: `GET /metrics`
 * answers the Prometheus text exposition of `metrics`; another method on `/metrics` is 405 with
 * `Allow: GET`; every other path is a plain 404. Nothing here reads a request body or a header.
 *
 * @example const app = createMetricsApp(metrics); await app.fetch(new Request("http://x/metrics"));
 */
export function createMetricsApp(metrics: ServerMetrics): Hono {
  const app = new Hono();
  app.use("*", refuseUndefinedMethods(app));
  app.get("/metrics", async (c) => {
    const { body, contentType } = await metrics.render();
    return c.body(body, 200, { "content-type": contentType, "cache-control": "no-store" });
  });
  app.notFound((c) => c.text("not found: this listener serves only GET /metrics\n", 404));
  return app;
}
