import { BlockList, isIP } from "node:net";

/**
 * Which peers are trusted reverse proxies (`brigade serve --trust-proxy`). `none`: forwarded
 * headers are ignored and the client is the TCP peer. `proxies`: a peer in `list` is a proxy
 * whose `X-Forwarded-For` names the client.
 */
export type ProxyTrust =
  | { readonly mode: "none" }
  | { readonly mode: "proxies"; readonly list: BlockList };

/** Trust nobody: the client address is always the TCP peer's. */
export const TRUST_NO_PROXY: ProxyTrust = { mode: "none" };

/** The loopback addresses `--trust-proxy` trusts when no `--trusted-proxy` is given. */
export const LOOPBACK_PROXIES: readonly string[] = ["127.0.0.0/8", "::1/128"];

/** Most `X-Forwarded-For` entries read, from the right; a longer chain is cut there. */
export const MAX_FORWARDED_HOPS = 16;

/** One `--trusted-proxy` entry: an address (`bits` undefined) or a subnet. */
interface TrustedEntry {
  readonly address: string;
  readonly type: "ipv4" | "ipv6";
  readonly bits: number | undefined;
}

/** Reads an address or subnet (`10.0.0.5`, `10.0.0.0/8`, `fd00::/8`); `null` when it is neither. */
function parseTrustedEntry(entry: string): TrustedEntry | null {
  const [address = "", prefix, extra] = entry.trim().split("/");
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return null;
  const type = family === 4 ? "ipv4" : "ipv6";
  if (prefix === undefined) return { address, type, bits: undefined };
  const bits = /^\d{1,3}$/.test(prefix) ? Number(prefix) : -1;
  if (bits < 0 || bits > (family === 4 ? 32 : 128)) return null;
  return { address, type, bits };
}

/**
 * Builds a {@link ProxyTrust} from addresses and subnets (`10.0.0.5`, `10.0.0.0/8`, `::1`,
 * `fd00::/8`). Returns `null` when an entry is neither (the caller's usage error; the entry is
 * not echoed).
 *
 * @example trustProxies(LOOPBACK_PROXIES)
 */
export function trustProxies(entries: readonly string[]): ProxyTrust | null {
  const list = new BlockList();
  for (const text of entries) {
    const entry = parseTrustedEntry(text);
    if (entry === null) return null;
    if (entry.bits === undefined) list.addAddress(entry.address, entry.type);
    else list.addSubnet(entry.address, entry.bits, entry.type);
  }
  return { mode: "proxies", list };
}

/** The shortest prefix of a private network: 10.0.0.0/8 (IPv4), fc00::/7 (IPv6). */
const WIDEST_PRIVATE_BITS = { ipv4: 8, ipv6: 7 } as const;

/** The first address and the prefix of the IPv4-mapped IPv6 range, `::ffff:0:0/96`. */
const IPV4_MAPPED_START = "::ffff:0:0";
const IPV4_MAPPED_BITS = 96;

/** The IPv4-mapped range: a subnet inside it is an IPv4 range. */
const IPV4_MAPPED = new BlockList();
IPV4_MAPPED.addSubnet(IPV4_MAPPED_START, IPV4_MAPPED_BITS, "ipv6");

/**
 * Whether any entry is a range wider than the widest private network: an IPv4 prefix shorter than
 * /8; an IPv6 one shorter than /7; an IPv4-mapped IPv6 one shorter than /104; or an IPv6 one that
 * holds the whole IPv4-mapped range (`::/80`, `::ffff:0:0/95`), which trusts every IPv4 client
 * since a peer's IPv4 address is matched against IPv6 ranges in its mapped form. Such a range
 * cannot be only the operator's own proxies, so every client in it could choose the address it is
 * counted as. Entries that do not parse are not wide (they are refused elsewhere).
 *
 * @example hasWideTrustedRange(["0.0.0.0/0"]) === true; hasWideTrustedRange(["10.0.0.0/8"]) === false
 */
export function hasWideTrustedRange(entries: readonly string[]): boolean {
  return entries.some((text) => {
    const entry = parseTrustedEntry(text);
    if (entry?.bits === undefined) return false;
    if (entry.type === "ipv4") return entry.bits < WIDEST_PRIVATE_BITS.ipv4;
    if (entry.bits >= IPV4_MAPPED_BITS) {
      // As long a prefix as the mapped range's: wholly inside it (an IPv4 range) or outside it.
      return (
        IPV4_MAPPED.check(entry.address, "ipv6") &&
        entry.bits - IPV4_MAPPED_BITS < WIDEST_PRIVATE_BITS.ipv4
      );
    }
    // A shorter prefix either holds the whole mapped range or none of it.
    return (
      entry.bits < WIDEST_PRIVATE_BITS.ipv6 ||
      subnetHolds(entry.address, entry.bits, IPV4_MAPPED_START)
    );
  });
}

/** Whether the IPv6 subnet `start`/`bits` holds `address`. */
function subnetHolds(start: string, bits: number, address: string): boolean {
  const range = new BlockList();
  range.addSubnet(start, bits, "ipv6");
  return range.check(address, "ipv6");
}

/**
 * The client address of a request, the key of the per-address limits. Without trusted proxies it
 * is the TCP peer, whatever the headers say. With them, and only when the peer is one of them,
 * `X-Forwarded-For` is read from the right (each proxy appends the address it saw), skipping
 * trusted proxies: the first address that is not one is the client. The walk stops at the peer's
 * own address when the header is absent, and at the last trusted hop when an entry is not an IP
 * address or the chain is longer than {@link MAX_FORWARDED_HOPS}: a malformed header can then
 * only make the limits count a proxy's traffic together, never split one client into many.
 * IPv4-mapped IPv6 addresses are reported as IPv4. Never throws.
 *
 * @example clientAddressOf("127.0.0.1", "203.0.113.7", trustProxies(LOOPBACK_PROXIES)) === "203.0.113.7"
 */
export function clientAddressOf(
  peer: string | undefined,
  forwardedFor: string | undefined,
  trust: ProxyTrust,
): string {
  const peerAddress = peer === undefined ? undefined : normalize(peer);
  if (peerAddress === undefined) return "unknown";
  if (trust.mode === "none" || !isTrusted(peerAddress, trust.list)) return peerAddress;
  if (forwardedFor === undefined) return peerAddress;
  const hops = forwardedFor.split(",");
  let client = peerAddress;
  for (let i = hops.length - 1, read = 0; i >= 0; i -= 1, read += 1) {
    if (read === MAX_FORWARDED_HOPS) return client;
    const hop = normalize(hops[i] as string);
    if (hop === undefined) return client;
    client = hop;
    if (!isTrusted(hop, trust.list)) return client;
  }
  return client;
}

/** An IP address in canonical form (IPv4-mapped IPv6 as IPv4), or `undefined`. */
function normalize(raw: string): string | undefined {
  const text = raw.trim();
  if (text.length > 45) return undefined;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(text);
  const address = mapped === null ? text : (mapped[1] as string);
  const family = isIP(address);
  if (family === 0) return undefined;
  return family === 4 ? address : address.toLowerCase();
}

function isTrusted(address: string, list: BlockList): boolean {
  return list.check(address, isIP(address) === 4 ? "ipv4" : "ipv6");
}

/**
 * The scheme a trusted proxy says the browser used (`X-Forwarded-Proto`: `https` or `http`, its
 * last entry), when the TCP peer is a proxy `trust` trusts; `undefined` otherwise (the request's
 * own scheme stands). The dashboard's origin check reads it behind a TLS-terminating proxy.
 */
export function forwardedProtoOf(
  peer: string | undefined,
  forwardedProto: string | undefined,
  trust: ProxyTrust,
): string | undefined {
  const peerAddress = peer === undefined ? undefined : normalize(peer);
  if (peerAddress === undefined || trust.mode === "none" || !isTrusted(peerAddress, trust.list)) {
    return undefined;
  }
  const last = forwardedProto?.split(",").at(-1)?.trim().toLowerCase();
  return last === "https" || last === "http" ? last : undefined;
}
