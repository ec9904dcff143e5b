/**
 * `url` with its host and port replaced by `127.0.0.1:<port>` (e.g. a `TcpRelay` in front
 * of the real server, or a port where nothing listens) and, when given, its password set to
 * `password` — to check that a secret in the address is never shown. Throws `TypeError` when
 * `url` is not an absolute URL.
 *
 * @example viaLoopback(schema.url, Number(new URL(relay.url).port), "hunter2-secret")
 */
export function viaLoopback(url: string, port: number, password?: string): string {
  const rerouted = new URL(url);
  rerouted.host = `127.0.0.1:${port}`;
  if (password !== undefined) rerouted.password = password;
  return rerouted.toString();
}
