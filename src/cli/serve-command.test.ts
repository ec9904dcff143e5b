import { describe, expect, test } from "vitest";
import { DEFAULT_SERVER_LIMITS, SERVER_LIMIT_NAMES } from "../server/server-limits.ts";
import { SERVE_HELP } from "./serve-command.ts";

describe("brigade serve --help", () => {
  test("names every settable limit with its default, so the text cannot drift from the code", () => {
    const listed = [...SERVE_HELP.matchAll(/^ {25}([a-z_]+) +\[(\d+)\]/gm)].map((m) => [
      m[1],
      Number(m[2]),
    ]);
    expect(listed).toEqual(SERVER_LIMIT_NAMES.map((name) => [name, DEFAULT_SERVER_LIMITS[name]]));
  });
});
