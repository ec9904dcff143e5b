import http from "node:http";
import type { AddressInfo } from "node:net";

/** Headers that belong to one hop, never forwarded (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

function forwardable(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  }
  return out;
}

/**
 * A small HTTP load balancer on 127.0.0.1 in front of several `brigade serve` processes: every
 * request goes to the next backend in turn (so two requests on one keep-alive connection usually
 * land on different processes), and a long-lived response (a `message watch` stream) stays with
 * the backend that started it until either side hangs up. A backend that refuses the connection
 * (it is down) is skipped for that request, as a load balancer's health check would; a backend
 * that fails after the request reached it answers `502` with a BAP/1 `internal` envelope, so the
 * client cannot tell whether it was applied (which is the truth).
 *
 * @example const proxy = await RoundRobinProxy.start([a.url, b.url, c.url]); proxy.url; await proxy.stop();
 */
export class RoundRobinProxy {
  readonly #server: http.Server;
  readonly #backends: URL[];
  readonly #agents: http.Agent[];
  #next = 0;
  /** Requests answered per backend (index as given). */
  readonly served: number[];

  private constructor(backends: readonly string[]) {
    this.#backends = backends.map((b) => new URL(b));
    this.#agents = this.#backends.map(() => new http.Agent({ keepAlive: true, maxSockets: 256 }));
    this.served = this.#backends.map(() => 0);
    this.#server = http.createServer((req, res) => {
      // Bodies are small (the server caps them at 1 MiB); holding one whole lets a request that
      // found a backend down be sent to the next one.
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => this.#forward(req, Buffer.concat(chunks), res, 0));
      req.on("error", () => res.destroy());
    });
    this.#server.keepAliveTimeout = 30_000;
  }

  /** Starts a proxy on a free loopback port in front of `backends` (`http://127.0.0.1:<port>`). */
  static async start(backends: readonly string[]): Promise<RoundRobinProxy> {
    if (backends.length === 0) throw new Error("a proxy needs at least one backend");
    const proxy = new RoundRobinProxy(backends);
    await new Promise<void>((resolve) => proxy.#server.listen(0, "127.0.0.1", resolve));
    return proxy;
  }

  /** `http://127.0.0.1:<port>`. */
  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  /**
   * Points backend `index` at `url` from the next request on (a restarted process listens on a
   * new port); streams already open stay where they are.
   */
  replaceBackend(index: number, url: string): void {
    if (index < 0 || index >= this.#backends.length) throw new Error("no such backend");
    this.#backends[index] = new URL(url);
    this.#agents[index]?.destroy();
    this.#agents[index] = new http.Agent({ keepAlive: true, maxSockets: 256 });
  }

  /** Stops listening and cuts every connection, streams included. */
  async stop(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    this.#server.closeAllConnections();
    for (const agent of this.#agents) agent.destroy();
    await closed;
  }

  #forward(req: http.IncomingMessage, body: Buffer, res: http.ServerResponse, tried: number): void {
    const index = this.#next;
    this.#next = (this.#next + 1) % this.#backends.length;
    const target = this.#backends[index] as URL;
    const upstream = http.request({
      host: target.hostname,
      port: target.port,
      method: req.method,
      path: req.url,
      headers: { ...forwardable(req.headers), host: target.host },
      agent: this.#agents[index],
    });
    let answered = false;
    upstream.on("response", (answer) => {
      answered = true;
      this.served[index] = (this.served[index] ?? 0) + 1;
      res.writeHead(answer.statusCode ?? 502, forwardable(answer.headers));
      // Flush the head at once: a watch stream's first event may be a while coming.
      res.flushHeaders();
      answer.pipe(res);
      answer.on("error", () => res.destroy());
    });
    upstream.on("error", (error: NodeJS.ErrnoException) => {
      if (answered) {
        res.destroy();
        return;
      }
      if (error.code === "ECONNREFUSED" && tried + 1 < this.#backends.length) {
        // Nothing reached that backend: the next one gets the request.
        this.#forward(req, body, res, tried + 1);
        return;
      }
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.writeHead(502, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          ok: false,
          protocol_version: "1",
          error: { code: "internal", message: "the backend failed", retryable: true },
        }),
      );
    });
    // The client went away (a watch closed): the backend must see it too.
    res.once("close", () => {
      if (!res.writableFinished) upstream.destroy();
    });
    upstream.end(body);
  }
}
