/**
 * Normalises a `brigade serve` base URL: an absolute `http:`/`https:` URL without user info,
 * query or fragment; the result has no trailing `/` (`http://127.0.0.1:7777`,
 * `https://brigade.example.org/base`). `undefined` when the text is not such a URL. Never throws.
 *
 * @example
 * normalizeServerUrl("http://127.0.0.1:7777/") === "http://127.0.0.1:7777";
 * normalizeServerUrl("ftp://x") === undefined;
 */
export function normalizeServerUrl(text: string): string | undefined {
  if (typeof text !== "string" || text.length > 2048) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  if (url.username !== "" || url.password !== "" || url.search !== "" || url.hash !== "") {
    return undefined;
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}
