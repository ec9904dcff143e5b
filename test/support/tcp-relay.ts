import { connect, createServer, type Server, type Socket } from "node:net";

/**
 * A TCP relay on a fixed loopback port in front of the real server: `down()` stops listening and
 * cuts every open connection (a client then gets ECONNREFUSED, as from a server that is down),
 * `up()` listens again on the same port (the first `up()` picks a free one).
 *
 * @example const relay = new TcpRelay(server.url); await relay.up(); relay.url; await relay.down();
 */
export class TcpRelay {
  readonly #target: URL;
  readonly #sockets = new Set<Socket>();
  #server: Server | undefined;
  #port = 0;

  constructor(target: string) {
    this.#target = new URL(target);
  }

  /** `http://127.0.0.1:<port>`, stable across `down()` / `up()`. */
  get url(): string {
    return `http://127.0.0.1:${this.#port}`;
  }

  /** Listens (again); resolves once connections are accepted. */
  async up(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(Number(this.#target.port), this.#target.hostname);
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket);
        socket.on("close", () => this.#sockets.delete(socket));
        socket.on("error", () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(this.#port, "127.0.0.1", resolve));
    this.#port = (server.address() as { port: number }).port;
    this.#server = server;
  }

  /** Stops listening and destroys every relayed connection. */
  async down(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    for (const socket of this.#sockets) socket.destroy();
    if (server !== undefined) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
