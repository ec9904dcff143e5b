import { describe, expect, test } from "vitest";
import { DEFAULT_ATTACHMENT_SETTINGS } from "../service/index.ts";
import { DEFAULT_REQUEST_TIMEOUTS } from "./request-timeouts.ts";
import {
  attachmentSettingsOf,
  changedLimits,
  DEFAULT_SERVER_LIMITS,
  mintingLimitsOf,
  parseServerLimits,
  requestTimeoutsOf,
  SERVER_LIMIT_MAX,
  SERVER_LIMIT_NAMES,
  watchLimitsOf,
} from "./server-limits.ts";

describe("parseServerLimits", () => {
  test("no setting is every default; a setting changes only its own limit", () => {
    expect(parseServerLimits([])).toEqual({ ok: true, limits: DEFAULT_SERVER_LIMITS });
    const parsed = parseServerLimits([
      "principals_per_server_per_hour=100000",
      "watches_per_session=8",
    ]);
    expect(parsed).toEqual({
      ok: true,
      limits: {
        ...DEFAULT_SERVER_LIMITS,
        principals_per_server_per_hour: 100_000,
        watches_per_session: 8,
      },
    });
  });

  test("every name takes 1 and its maximum", () => {
    for (const name of SERVER_LIMIT_NAMES) {
      for (const value of [1, SERVER_LIMIT_MAX[name]]) {
        const parsed = parseServerLimits([`${name}=${value}`]);
        expect(parsed.ok && parsed.limits[name], name).toBe(value);
      }
    }
  });

  test("a bad number is refused naming the flag and the limit, never the value", () => {
    const name = "watches_per_principal";
    for (const value of ["0", "-1", "+5", "05", "1e3", "1.5", "", " 5", "5 ", "1_000", "x"]) {
      expect(parseServerLimits([`${name}=${value}`]), JSON.stringify(value)).toEqual({
        ok: false,
        message: "--limit watches_per_principal must be a whole number from 1 to 100000",
      });
    }
    expect(parseServerLimits(["watches_per_principal=100001"])).toEqual({
      ok: false,
      message: "--limit watches_per_principal must be a whole number from 1 to 100000",
    });
    expect(parseServerLimits(["principals_per_server_per_hour=1000001"])).toEqual({
      ok: false,
      message: "--limit principals_per_server_per_hour must be a whole number from 1 to 1000000",
    });
  });

  test("an unknown name or a setting without = is refused without repeating it", () => {
    for (const setting of [
      "send_rate=100",
      "WATCHES_PER_SESSION=5",
      "=5",
      "watches per session=5",
    ]) {
      const parsed = parseServerLimits([setting]);
      expect(parsed).toEqual({
        ok: false,
        message:
          '--limit names no limit of brigade serve (run "brigade serve --help" for the names)',
      });
    }
    for (const setting of ["watches_per_session", "secret-token-like-text", ""]) {
      expect(parseServerLimits([setting])).toEqual({
        ok: false,
        message: '--limit needs NAME=NUMBER (run "brigade serve --help" for the names)',
      });
    }
  });

  test("one name given twice is refused, never last-one-wins", () => {
    expect(parseServerLimits(["watches_per_session=5", "watches_per_session=6"])).toEqual({
      ok: false,
      message: "--limit watches_per_session is given more than once",
    });
  });
});

describe("what the limits feed", () => {
  test("changedLimits lists only what differs from the defaults, in the names' order", () => {
    expect(changedLimits(DEFAULT_SERVER_LIMITS)).toEqual([]);
    expect(
      changedLimits({
        ...DEFAULT_SERVER_LIMITS,
        watches_per_principal: 64,
        principals_per_address_per_minute: 30,
        principals_per_address_per_hour: 600,
      }),
    ).toEqual([
      { name: "principals_per_address_per_hour", value: 600, defaultValue: 120 },
      { name: "watches_per_principal", value: 64, defaultValue: 32 },
    ]);
  });

  test("the defaults are the budget's and the watch registry's own", () => {
    expect(mintingLimitsOf(DEFAULT_SERVER_LIMITS)).toEqual({
      perAddressPerMinute: 30,
      perAddressPerHour: 120,
      serverPerMinute: 120,
      serverPerHour: 1200,
    });
    expect(watchLimitsOf(DEFAULT_SERVER_LIMITS)).toEqual({
      perSession: 4,
      perPrincipal: 32,
      backlog: 256,
    });
  });

  test("the attachment limits and the request time, in bytes and ms; never above the protocol's ceilings", () => {
    expect(attachmentSettingsOf(DEFAULT_SERVER_LIMITS)).toEqual(DEFAULT_ATTACHMENT_SETTINGS);
    expect(requestTimeoutsOf(DEFAULT_SERVER_LIMITS)).toEqual(DEFAULT_REQUEST_TIMEOUTS);
    const set = parseServerLimits([
      "attachment_file_mib=5",
      "team_storage_mib=2048",
      "request_seconds=600",
      "attachments_per_message=3",
    ]);
    if (!set.ok) throw new Error(set.message);
    expect(attachmentSettingsOf(set.limits)).toEqual({
      maxFilesPerMessage: 3,
      maxFileBytes: 5 * 1024 * 1024,
      maxMessageBytes: 100 * 1024 * 1024,
      teamQuotaBytes: 2048 * 1024 * 1024,
    });
    expect(requestTimeoutsOf(set.limits)).toEqual({
      requestMs: 600_000,
      headersMs: 20_000,
      checkEveryMs: 5_000,
    });
    expect(requestTimeoutsOf({ ...set.limits, request_seconds: 5 }).headersMs).toBe(5_000);
    for (const over of [
      "attachment_file_mib=26",
      "attachment_message_mib=101",
      "attachments_per_message=11",
    ]) {
      expect(parseServerLimits([over]).ok, over).toBe(false);
    }
  });
});
