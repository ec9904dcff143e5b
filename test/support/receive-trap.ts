import {
  createServer,
  type IncomingMessage,
  request,
  type Server,
  type ServerResponse,
} from "node:http";
import type { Socket } from "node:net";

/** A `message receive` route: `GET /v1/teams/:team/sessions/:session/messages[?limit=…]`. */
const RECEIVE = /^\/v1\/teams\/[^/]+\/sessions\/[^/]+\/messages(\?|$)/;

/**
 * An HTTP proxy on loopback in front of a `brigade serve`, passing every request through (the
 * watch's Server-Sent Events stream included), that can be armed to run a hook at the moment a
 * `message receive` answer holding a given text comes back from the server, before the client
 * has it: the test kills the client there, so the server has handed the message out and the
 * client never saw it. The answer is then dropped.
 *
 * @example const trap = await ReceiveTrap.start(server.url); trap.arm("m-7f3a", () => kill(child)); … trap.url
 */
export class ReceiveTrap {
  readonly #target: URL;
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  #armed: { readonly marker: string; readonly hook: () => Promise<void> } | undefined;
  #sprung: (() => void) | undefined;

  private constructor(target: string) {
    this.#target = new URL(target);
    this.#server = createServer((req, res) => this.#forward(req, res));
    this.#server.on("connection", (socket) => {
      this.#sockets.add(socket);
      socket.on("close", () => this.#sockets.delete(socket));
    });
  }

  /** Listens on a free loopback port in front of `target`. */
  static async start(target: string): Promise<ReceiveTrap> {
    const trap = new ReceiveTrap(target);
    await new Promise<void>((resolve) => trap.#server.listen(0, "127.0.0.1", resolve));
    return trap;
  }

  /** `http://127.0.0.1:<port>`. */
  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as { port: number }).port}`;
  }

  /**
   * Arms the trap once: the next receive answer whose body holds `marker` runs `hook` and is
   * dropped. Resolves when it sprang.
   */
  arm(marker: string, hook: () => Promise<void>): Promise<void> {
    this.#armed = { marker, hook };
    return new Promise((resolve) => {
      this.#sprung = resolve;
    });
  }

  /** Stops listening and cuts every connection. */
  async stop(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #forward(req: IncomingMessage, res: ServerResponse): void {
    const upstream = request(
      {
        host: this.#target.hostname,
        port: this.#target.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        const receive = req.method === "GET" && RECEIVE.test(req.url ?? "");
        if (!receive || this.#armed === undefined) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.on("end", () => void this.#answer(res, answer, Buffer.concat(chunks)));
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  }

  async #answer(res: ServerResponse, answer: IncomingMessage, body: Buffer): Promise<void> {
    const armed = this.#armed;
    if (armed !== undefined && body.toString("utf8").includes(armed.marker)) {
      this.#armed = undefined;
      await armed.hook();
      res.destroy();
      this.#sprung?.();
      return;
    }
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    res.end(body);
  }
}
