import { isIP } from "node:net";
import { type ProtocolError, rateLimitedError } from "../protocol/index.ts";
import { SlidingWindowLimiter } from "./sliding-window-limiter.ts";

/** Principals one client address may mint per minute (`POST /v1/principals`). */
export const PRINCIPALS_PER_ADDRESS_PER_MINUTE = 30;

/**
 * Principals one client address may mint per hour **[ours]**: a tenth of the server's hourly
 * budget, so no single address can spend all of it (at 30 a minute alone it would in 40 minutes,
 * and then refuse every newcomer for as long as it kept going).
 */
export const PRINCIPALS_PER_ADDRESS_PER_HOUR = 120;

/**
 * Principals the whole server mints per minute and per hour, whatever the addresses **[ours]**:
 * a bound on what many addresses together (a botnet, an IPv6 prefix) can add, while a team
 * onboarding dozens of people at once stays far below it.
 */
export const PRINCIPALS_PER_SERVER: Readonly<{ per_minute: number; per_hour: number }> =
  Object.freeze({ per_minute: 120, per_hour: 1200 });

/** The four windows of a {@link PrincipalMintingBudget}: principals per window, each at least 1. */
export interface MintingLimits {
  readonly perAddressPerMinute: number;
  readonly perAddressPerHour: number;
  readonly serverPerMinute: number;
  readonly serverPerHour: number;
}

/** The budget `brigade serve` runs with unless `--limit` says otherwise. */
export const DEFAULT_MINTING_LIMITS: MintingLimits = Object.freeze({
  perAddressPerMinute: PRINCIPALS_PER_ADDRESS_PER_MINUTE,
  perAddressPerHour: PRINCIPALS_PER_ADDRESS_PER_HOUR,
  serverPerMinute: PRINCIPALS_PER_SERVER.per_minute,
  serverPerHour: PRINCIPALS_PER_SERVER.per_hour,
});

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const SERVER_KEY = "server";

/**
 * The key an address is budgeted under: an IPv6 address by its /64 prefix (`2001:db8:0:1::/64`),
 * an IPv4-mapped one (`::ffff:0:0/96`, dotted or hex) as the IPv4 address it carries, anything
 * else as it is. One IPv6 subscriber is routed a /64 or more, so keyed by full address a single
 * client could mint from 2^64 addresses and the per-address budget would bind nobody; a mapped
 * address is one IPv4 client, never to be lumped with every other one under `::/64`.
 *
 * @example addressKey("2001:db8:0:1::9") === "2001:db8:0:1::/64"; addressKey("::ffff:c000:201") === "192.0.2.1"
 */
export function addressKey(address: string): string {
  const bare = address.split("%")[0] ?? "";
  if (isIP(bare) !== 6) return address;
  const groups = ipv6Groups(bare);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail as two). */
function ipv6Groups(address: string): number[] {
  const split = address.indexOf("::");
  const parts = (text: string): number[] =>
    text
      .split(":")
      .filter((g) => g !== "")
      .flatMap((g) => {
        if (!g.includes(".")) return [Number.parseInt(g, 16)];
        const [a = 0, b = 0, c = 0, d = 0] = g.split(".").map(Number);
        return [(a << 8) | b, (c << 8) | d];
      });
  const head = parts(split < 0 ? address : address.slice(0, split));
  const tail = split < 0 ? [] : parts(address.slice(split + 2));
  return [...head, ...Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}

/**
 * The budget of anonymous principal minting: per client address (an IPv6 one by its /64,
 * {@link addressKey}) and server-wide, each per minute and per hour ({@link MintingLimits}). A mint is
 * counted against every window only when all of them have room, so a refused request spends
 * nothing. In memory: a restart forgets it, which is harmless (principals hold nothing until they
 * join or create a team, and unused ones are collected, docs/21-service.md).
 *
 * @example
 * const budget = new PrincipalMintingBudget(Date.now);
 * budget.take("127.0.0.1"); // null: mint
 */
export class PrincipalMintingBudget {
  readonly #perAddress: SlidingWindowLimiter;
  readonly #perAddressHour: SlidingWindowLimiter;
  readonly #serverMinute: SlidingWindowLimiter;
  readonly #serverHour: SlidingWindowLimiter;

  /** `now` is the clock in ms; `limits` defaults to {@link DEFAULT_MINTING_LIMITS}. */
  constructor(now: () => number, limits: MintingLimits = DEFAULT_MINTING_LIMITS) {
    this.#perAddress = new SlidingWindowLimiter(limits.perAddressPerMinute, MINUTE_MS, now);
    this.#perAddressHour = new SlidingWindowLimiter(limits.perAddressPerHour, HOUR_MS, now);
    this.#serverMinute = new SlidingWindowLimiter(limits.serverPerMinute, MINUTE_MS, now);
    this.#serverHour = new SlidingWindowLimiter(limits.serverPerHour, HOUR_MS, now);
  }

  /**
   * The `rate_limited` refusal a mint for `address` would get now, or `null` when it has room;
   * spends nothing: reason `register_principal` when the address's own budget is spent (checked
   * first), `server_principal_budget` when the server-wide one is; `retry_after_ms` is the wait
   * of the window that refused. Lets a caller refuse before doing the work a mint needs (reading
   * the body) without spending on a request that may yet fail.
   */
  refusal(address: string): ProtocolError | null {
    const key = addressKey(address);
    const addressWait = Math.max(this.#perAddress.wait(key), this.#perAddressHour.wait(key));
    if (addressWait > 0) return rateLimitedError("register_principal", addressWait);
    const serverWait = Math.max(
      this.#serverMinute.wait(SERVER_KEY),
      this.#serverHour.wait(SERVER_KEY),
    );
    if (serverWait > 0) return rateLimitedError("server_principal_budget", serverWait);
    return null;
  }

  /**
   * Spends one mint for `address` and returns `null`, or returns {@link refusal}'s answer and
   * spends nothing.
   */
  take(address: string): ProtocolError | null {
    const refused = this.refusal(address);
    if (refused !== null) return refused;
    const key = addressKey(address);
    this.#perAddress.take(key);
    this.#perAddressHour.take(key);
    this.#serverMinute.take(SERVER_KEY);
    this.#serverHour.take(SERVER_KEY);
    return null;
  }
}
