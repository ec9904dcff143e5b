import { describe, expect, test } from "vitest";
import { DEFAULT_SERVER_LIMITS, SERVER_LIMIT_NAMES } from "../server/server-limits.ts";
import { runServe, SERVE_HELP } from "./serve-command.ts";

describe("brigade serve --help", () => {
  test("names every settable limit with its default, so the text cannot drift from the code", () => {
    const listed = [...SERVE_HELP.matchAll(/^ {25}([a-z_]+) +\[(\d+)\]/gm)].map((m) => [
      m[1],
      Number(m[2]),
    ]);
    expect(listed).toEqual(SERVER_LIMIT_NAMES.map((name) => [name, DEFAULT_SERVER_LIMITS[name]]));
  });
});

describe("brigade serve: an unknown flag", () => {
  test("names the nearest flag of serve's own, as the CLI wires it; never the input", async () => {
    const run = async (argv: string[]) => {
      let stderr = "";
      const status = await runServe(argv, {
        stdin: (async function* () {})(),
        env: {},
        stdout: () => undefined,
        stderr: (text) => {
          stderr += text;
        },
      });
      return { status, stderr };
    };
    expect(await run(["--prot", "0"])).toEqual({
      status: 2,
      stderr:
        'brigade serve: unknown option; did you mean "--port"? (run "brigade serve --help")\n',
    });
    expect(await run(["--<script>", "0"])).toEqual({
      status: 2,
      stderr: 'brigade serve: unknown option or argument (run "brigade serve --help")\n',
    });
  });
});
