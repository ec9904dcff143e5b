import type { IncomingMessage, ServerResponse } from "node:http";
import type { Server, Socket } from "node:net";

/**
 * The TCP connections of one listener, and which of them carry a request being answered, so a
 * shutdown can close every other one at once: idle keep-alive connections, a request whose
 * header never finished (Node counts it as busy and would keep it for its 60 s header timeout)
 * and a TLS handshake left half done. A connection is busy from its request's complete header
 * (the `request` event) until its response closes. With TLS the request's socket is the TLS
 * socket over the TCP one; both are matched by the peer's address and port.
 *
 * @example const connections = new OpenConnections(server); … connections.closeUnanswered();
 */
export class OpenConnections {
  readonly #sockets = new Map<string, Socket>();
  readonly #busy = new Map<string, number>();
  #closing = false;

  constructor(server: Server) {
    server.on("connection", (socket: Socket) => {
      const key = peerKey(socket);
      if (this.#closing) {
        socket.destroy();
        return;
      }
      this.#sockets.set(key, socket);
      socket.once("close", () => {
        if (this.#sockets.get(key) === socket) this.#sockets.delete(key);
      });
    });
    server.on("request", (request: IncomingMessage, response: ServerResponse) => {
      const key = peerKey(request.socket);
      this.#busy.set(key, (this.#busy.get(key) ?? 0) + 1);
      response.once("close", () => {
        const left = (this.#busy.get(key) ?? 1) - 1;
        if (left > 0) this.#busy.set(key, left);
        else this.#busy.delete(key);
        // Node would keep it open for its keep-alive timeout: once the answer is flushed, go.
        if (this.#closing && left <= 0) request.socket.destroySoon();
      });
    });
  }

  /**
   * From now on, destroys every connection that carries no request being answered, and every
   * new one; a busy connection is closed once its response is flushed.
   */
  closeUnanswered(): void {
    this.#closing = true;
    for (const [key, socket] of this.#sockets) {
      if (!this.#busy.has(key)) socket.destroy();
    }
  }
}

/** The peer's address and port: the one key a TCP socket and the TLS socket over it share. */
function peerKey(socket: Socket): string {
  return `${socket.remoteAddress ?? ""}|${socket.remotePort ?? ""}`;
}
