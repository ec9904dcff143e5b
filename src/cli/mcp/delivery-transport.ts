import type { Readable, Writable } from "node:stream";
import type { JSONRPCMessage, RequestId } from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";

/** What happens once the response to one request was written, or could not be. */
export interface ResponseDelivery {
  /** The response was written to stdout (the host has it): acknowledge what it carried. */
  delivered(): Promise<void>;
  /** It was not written (a write error, the connection closed, the request was cancelled). */
  undelivered(): void;
}

/**
 * The stdio transport of `brigade mcp`, told which responses carry messages
 * (docs/48-mcp.md "Delivered = read by the model"): after the response to a request registered
 * with {@link DeliveryTransport.onResponse} is written to stdout (handed to the pipe: the last
 * step this process can see), its `delivered()` runs, in the background, so the acknowledgement
 * never holds up the wire; when the write fails, the response is an error, or the connection
 * closes first, `undelivered()` runs. Only a written tool result counts, so a message fetched
 * for any other reason, or lost with a crash before the write, is never acknowledged.
 *
 * @example transport.onResponse(ctx.mcpReq.id, take); return result;
 */
export class DeliveryTransport extends StdioServerTransport {
  readonly #pending = new Map<RequestId, ResponseDelivery>();
  readonly #closed: Promise<void>;
  #resolveClosed: () => void = () => {};

  /** Over this process's stdin and stdout unless streams are given (tests). */
  constructor(stdin: Readable = process.stdin, stdout: Writable = process.stdout) {
    super(stdin, stdout);
    this.#closed = new Promise((resolve) => {
      this.#resolveClosed = resolve;
    });
  }

  /** Resolves once the connection closed (stdin ended, or `close()`). */
  get closed(): Promise<void> {
    return this.#closed;
  }

  /** Registers what to do when the response to request `id` is written (or is not). */
  onResponse(id: RequestId, delivery: ResponseDelivery): void {
    this.#pending.get(id)?.undelivered();
    this.#pending.set(id, delivery);
  }

  /** The request was given up before its response (cancelled): its delivery did not happen. */
  cancel(id: RequestId): void {
    this.#pending.get(id)?.undelivered();
    this.#pending.delete(id);
  }

  override async send(message: JSONRPCMessage): Promise<void> {
    const response = "result" in message || "error" in message;
    const id = response && "id" in message ? message.id : undefined;
    const delivery = id === undefined ? undefined : this.#pending.get(id);
    if (id !== undefined) this.#pending.delete(id);
    try {
      await super.send(message);
    } catch (error) {
      delivery?.undelivered();
      throw error;
    }
    if (delivery === undefined) return;
    if ("error" in message) delivery.undelivered();
    else void delivery.delivered();
  }

  override async close(): Promise<void> {
    for (const delivery of this.#pending.values()) delivery.undelivered();
    this.#pending.clear();
    await super.close();
    this.#resolveClosed();
  }
}
