import { type AttachmentSettings, DEFAULT_ATTACHMENT_SETTINGS, MIB } from "../service/index.ts";
import {
  type MintingLimits,
  PRINCIPALS_PER_ADDRESS_PER_HOUR,
  PRINCIPALS_PER_ADDRESS_PER_MINUTE,
  PRINCIPALS_PER_SERVER,
} from "./principal-minting-budget.ts";
import { DEFAULT_REQUEST_TIMEOUTS, type RequestTimeouts } from "./request-timeouts.ts";
import { DEFAULT_WATCH_LIMITS, type WatchLimits } from "./watch-registry.ts";

/**
 * The limits of `brigade serve` an operator may set (`--limit NAME=NUMBER`, docs/50-operator.md,
 * "Limits"): the server's own bounds on what anyone who can reach it may take, as opposed to the
 * BAP/1 limits every backend advertises alike (send rates, inbox caps, sizes, hop count), which
 * stay fixed because clients read them from `describe`. Each is a whole number:
 *
 * - `principals_per_address_per_minute`, `principals_per_address_per_hour`: anonymous principals
 *   one client address may mint (an IPv6 address counted by its /64);
 * - `principals_per_server_per_minute`, `principals_per_server_per_hour`: the same for the whole
 *   process, whatever the addresses;
 * - `watches_per_session`, `watches_per_principal`: `message watch` streams open at once;
 * - `watch_backlog_messages`: messages a watch stream may owe its reader before it is dropped
 *   with `overflow`;
 * - `attachments_per_message`, `attachment_file_mib`, `attachment_message_mib`: the attachment
 *   limits **[ours]** (capability `message.attachments`), at most the protocol's 10 files, 25 MiB
 *   a file and 100 MiB a message, which are also their defaults;
 * - `team_storage_mib`: the bytes of blobs and uploads under way one team may hold (1 GiB by
 *   default), in MiB;
 * - `request_seconds`: how long a client may take to send one whole request (30 s), an upload's
 *   body included; a server whose members upload over slow links raises it (docs/50-operator.md).
 *
 * @example SERVER_LIMIT_NAMES.includes("watches_per_session") === true;
 */
export const SERVER_LIMIT_NAMES = [
  "principals_per_address_per_minute",
  "principals_per_address_per_hour",
  "principals_per_server_per_minute",
  "principals_per_server_per_hour",
  "watches_per_session",
  "watches_per_principal",
  "watch_backlog_messages",
  "attachments_per_message",
  "attachment_file_mib",
  "attachment_message_mib",
  "team_storage_mib",
  "request_seconds",
] as const;

/** One of {@link SERVER_LIMIT_NAMES}. */
export type ServerLimitName = (typeof SERVER_LIMIT_NAMES)[number];

/** A value for every settable limit. */
export type ServerLimits = Readonly<Record<ServerLimitName, number>>;

/**
 * The values a server runs with unless told otherwise (their reasons are beside the constants
 * they come from, and in docs/30-http-api.md).
 */
export const DEFAULT_SERVER_LIMITS: ServerLimits = Object.freeze({
  principals_per_address_per_minute: PRINCIPALS_PER_ADDRESS_PER_MINUTE,
  principals_per_address_per_hour: PRINCIPALS_PER_ADDRESS_PER_HOUR,
  principals_per_server_per_minute: PRINCIPALS_PER_SERVER.per_minute,
  principals_per_server_per_hour: PRINCIPALS_PER_SERVER.per_hour,
  watches_per_session: DEFAULT_WATCH_LIMITS.perSession,
  watches_per_principal: DEFAULT_WATCH_LIMITS.perPrincipal,
  watch_backlog_messages: DEFAULT_WATCH_LIMITS.backlog,
  attachments_per_message: DEFAULT_ATTACHMENT_SETTINGS.maxFilesPerMessage,
  attachment_file_mib: DEFAULT_ATTACHMENT_SETTINGS.maxFileBytes / MIB,
  attachment_message_mib: DEFAULT_ATTACHMENT_SETTINGS.maxMessageBytes / MIB,
  team_storage_mib: DEFAULT_ATTACHMENT_SETTINGS.teamQuotaBytes / MIB,
  request_seconds: DEFAULT_REQUEST_TIMEOUTS.requestMs / 1000,
});

/**
 * The largest value each limit takes (the smallest is 1 for all). A minting window remembers one
 * timestamp per principal it counts, so a million bounds that memory to a few MiB; a watch holds
 * a connection, which the process's open-file limit bounds well below 100,000; a backlog holds
 * message ids, and past 100,000 a reader that stopped is never told. The attachment limits stop at
 * the protocol's ceilings (a client reads those from `describe`, and a server never accepts more);
 * a team's storage at a million MiB (about a TiB).
 */
export const SERVER_LIMIT_MAX: Readonly<Record<ServerLimitName, number>> = Object.freeze({
  principals_per_address_per_minute: 1_000_000,
  principals_per_address_per_hour: 1_000_000,
  principals_per_server_per_minute: 1_000_000,
  principals_per_server_per_hour: 1_000_000,
  watches_per_session: 100_000,
  watches_per_principal: 100_000,
  watch_backlog_messages: 100_000,
  attachments_per_message: DEFAULT_ATTACHMENT_SETTINGS.maxFilesPerMessage,
  attachment_file_mib: DEFAULT_ATTACHMENT_SETTINGS.maxFileBytes / MIB,
  attachment_message_mib: DEFAULT_ATTACHMENT_SETTINGS.maxMessageBytes / MIB,
  team_storage_mib: 1_000_000,
  request_seconds: 3600,
});

/** The outcome of {@link parseServerLimits}: the limits, or a usage message that echoes no value. */
export type ServerLimitsParse =
  | { readonly ok: true; readonly limits: ServerLimits }
  | { readonly ok: false; readonly message: string };

/**
 * Reads the values of every `--limit NAME=NUMBER` given (in order) over the defaults. NUMBER is a
 * plain decimal from 1 to the limit's {@link SERVER_LIMIT_MAX} (no sign, leading zero, exponent,
 * separator or space). A setting without `=`, an unknown name, a bad number or a name given twice
 * is refused with one fixed message naming the flag (and, for a known name, the name, which is
 * ours), never the value given.
 *
 * @example
 * parseServerLimits(["principals_per_server_per_hour=100000"]); // ok, the rest default
 * parseServerLimits(["watches_per_session=0"]); // { ok: false, message: "--limit watches_per_session must be …" }
 */
export function parseServerLimits(settings: readonly string[]): ServerLimitsParse {
  const limits: Record<ServerLimitName, number> = { ...DEFAULT_SERVER_LIMITS };
  const given = new Set<ServerLimitName>();
  for (const setting of settings) {
    const equals = setting.indexOf("=");
    if (equals < 0) {
      return refused('--limit needs NAME=NUMBER (run "brigade serve --help" for the names)');
    }
    const name = setting.slice(0, equals);
    if (!isServerLimitName(name)) {
      return refused(
        '--limit names no limit of brigade serve (run "brigade serve --help" for the names)',
      );
    }
    if (given.has(name)) return refused(`--limit ${name} is given more than once`);
    given.add(name);
    const text = setting.slice(equals + 1);
    const max = SERVER_LIMIT_MAX[name];
    if (!/^[1-9][0-9]{0,6}$/.test(text) || Number(text) > max) {
      return refused(`--limit ${name} must be a whole number from 1 to ${max}`);
    }
    limits[name] = Number(text);
  }
  return { ok: true, limits: Object.freeze(limits) };
}

/** A limit whose value is not its default. */
export interface ChangedLimit {
  readonly name: ServerLimitName;
  readonly value: number;
  readonly defaultValue: number;
}

/**
 * The limits of `limits` that differ from {@link DEFAULT_SERVER_LIMITS}, in the order of
 * {@link SERVER_LIMIT_NAMES}: what the start-up lines name.
 *
 * @example changedLimits(DEFAULT_SERVER_LIMITS).length === 0;
 */
export function changedLimits(limits: ServerLimits): ChangedLimit[] {
  return SERVER_LIMIT_NAMES.filter((name) => limits[name] !== DEFAULT_SERVER_LIMITS[name]).map(
    (name) => ({ name, value: limits[name], defaultValue: DEFAULT_SERVER_LIMITS[name] }),
  );
}

/** The principal minting budget of `limits`. */
export function mintingLimitsOf(limits: ServerLimits): MintingLimits {
  return {
    perAddressPerMinute: limits.principals_per_address_per_minute,
    perAddressPerHour: limits.principals_per_address_per_hour,
    serverPerMinute: limits.principals_per_server_per_minute,
    serverPerHour: limits.principals_per_server_per_hour,
  };
}

/** The watch caps and backlog of `limits`. */
export function watchLimitsOf(limits: ServerLimits): WatchLimits {
  return {
    perSession: limits.watches_per_session,
    perPrincipal: limits.watches_per_principal,
    backlog: limits.watch_backlog_messages,
  };
}

/**
 * The request timeouts of `limits`: the whole request in `request_seconds`, its head in at most
 * the default 20 s (never longer than the whole), checked as often as by default.
 */
export function requestTimeoutsOf(limits: ServerLimits): RequestTimeouts {
  const requestMs = limits.request_seconds * 1000;
  return {
    requestMs,
    headersMs: Math.min(DEFAULT_REQUEST_TIMEOUTS.headersMs, requestMs),
    checkEveryMs: DEFAULT_REQUEST_TIMEOUTS.checkEveryMs,
  };
}

/** The attachment limits of `limits`, in files and bytes, for the service. */
export function attachmentSettingsOf(limits: ServerLimits): AttachmentSettings {
  return {
    maxFilesPerMessage: limits.attachments_per_message,
    maxFileBytes: limits.attachment_file_mib * MIB,
    maxMessageBytes: limits.attachment_message_mib * MIB,
    teamQuotaBytes: limits.team_storage_mib * MIB,
  };
}

function isServerLimitName(name: string): name is ServerLimitName {
  return (SERVER_LIMIT_NAMES as readonly string[]).includes(name);
}

function refused(message: string): ServerLimitsParse {
  return { ok: false, message };
}
