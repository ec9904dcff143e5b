import { Hono } from "hono";
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
  // A middleware, not a route: Hono answers HEAD with the GET route. Plain text like the 404:
  // this listener speaks no BAP/1.
  app.use("/metrics", async (c, next) => {
    if (c.req.method === "GET") return next();
    return c.text("method not allowed: this listener serves only GET /metrics\n", 405, {
      allow: "GET",
    });
  });
  app.get("/metrics", async (c) => {
    const { body, contentType } = await metrics.render();
    return c.body(body, 200, { "content-type": contentType, "cache-control": "no-store" });
  });
  app.notFound((c) => c.text("not found: this listener serves only GET /metrics\n", 404));
  return app;
}
