import { connect, createServer, type Server, type Socket } from "node:net";

/**
 * A TCP relay on a fixed loopback port in front of the real server: `down()` stops listening and
 * cuts every open connection (a client then gets ECONNREFUSED, as from a server that is down),
 * `up()` listens again on the same port (the first `up()` picks a free one); `stall()` keeps
 * listening but answers nothing (a hung server) until `resume()`.
 *
 * @example const relay = new TcpRelay(server.url); await relay.up(); relay.url; await relay.down();
 */
export class TcpRelay {
  readonly #target: URL;
  readonly #sockets = new Set<Socket>();
  #server: Server | undefined;
  #port = 0;
  #stalled = false;

  constructor(target: string) {
    this.#target = new URL(target);
  }

  /** `http://127.0.0.1:<port>`, stable across `down()` / `up()`. */
  get url(): string {
    return `http://127.0.0.1:${this.#port}`;
  }

  /** Listens (again); resolves once connections are accepted. */
  async up(): Promise<void> {
    this.#stalled = false;
    const server = createServer((client) => {
      if (this.#stalled) {
        // Accept, read and drop: the client waits for an answer that never comes.
        this.#sockets.add(client);
        client.on("close", () => this.#sockets.delete(client));
        client.on("error", () => client.destroy());
        client.resume();
        return;
      }
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

  /**
   * From now on every new connection is accepted and never answered; open connections are cut, so
   * a client's pooled keep-alive socket cannot bypass the stall. Resolves 100 ms later.
   */
  async stall(): Promise<void> {
    this.#stalled = true;
    for (const socket of this.#sockets) socket.destroy();
    // Let the clients' pools see those sockets close, or their next request fails at once on a
    // dead keep-alive socket instead of waiting on a new, stalled one.
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  /** Relays new connections again after {@link TcpRelay.stall}; held ones are cut. */
  resume(): void {
    this.#stalled = false;
    for (const socket of this.#sockets) socket.destroy();
  }

  /** Stops listening and destroys every relayed connection. */
  async down(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    for (const socket of this.#sockets) socket.destroy();
    if (server !== undefined) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
