import type { Server } from "node:net";

/** Which of `brigade serve`'s listeners failed to start. */
export type ListenerName = "api" | "metrics";

/**
 * A listener could not bind its address. `code` is the system's (`EADDRINUSE`, `EACCES`,
 * `EADDRNOTAVAIL`, …); the message names the listener, the port and what to do, never more.
 */
export class ListenError extends Error {
  readonly code: string;
  readonly listener: ListenerName;
  readonly port: number;
  constructor(code: string, listener: ListenerName, port: number) {
    super(explainListenFailure(code, listener, port));
    this.name = "ListenError";
    this.code = code;
    this.listener = listener;
    this.port = port;
  }
}

/**
 * One line for an operator: what went wrong binding `port` and what to do about it.
 *
 * @example explainListenFailure("EADDRINUSE", "api", 7777)
 * // "port 7777 is already in use (another brigade serve?); stop what holds it, or pick another with --port"
 */
export function explainListenFailure(code: string, listener: ListenerName, port: number): string {
  const flag = listener === "api" ? "--port" : "--metrics";
  switch (code) {
    case "EADDRINUSE":
      return `port ${port} is already in use (another brigade serve?); stop what holds it, or pick another with ${flag}`;
    case "EACCES":
      return `port ${port} needs privileges this user does not have; use a port above 1023 with ${flag} (and a reverse proxy in front for 443)`;
    case "EADDRNOTAVAIL":
      return `the address to listen on is not one of this machine's; check ${listener === "api" ? "--host" : "--metrics"}`;
    default:
      return `port ${port} could not be opened; check ${flag} and the address`;
  }
}

/**
 * Listens on `host:port` and resolves once bound, or rejects with a {@link ListenError}.
 *
 * @example await listen(server, "127.0.0.1", 7777, "api");
 */
export function listen(
  server: Server,
  host: string,
  port: number,
  listener: ListenerName,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException): void => {
      reject(new ListenError(error.code ?? "unknown", listener, port));
    };
    server.once("error", failed);
    server.listen(port, host, () => {
      server.off("error", failed);
      resolve();
    });
  });
}
