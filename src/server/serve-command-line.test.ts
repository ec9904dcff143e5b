import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runServeCommandLine } from "./serve-command-line.ts";

async function run(argv: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const status = await runServeCommandLine(
    argv,
    {
      stdout: (t) => {
        stdout += t;
      },
      stderr: (t) => {
        stderr += t;
      },
      env: {},
    },
    { help: "HELP\n" },
  );
  return { status, stdout, stderr };
}

describe("brigade serve --registration parsing", () => {
  test("anything but open or closed is a usage error (2), before anything is opened", async () => {
    for (const value of ["ajar", "OPEN", "Closed", "", "open,closed"]) {
      expect(
        await run(["--registration", value, "--data", "/nonexistent/x/brigade.sqlite"]),
      ).toEqual({
        status: 2,
        stdout: "",
        stderr: "brigade serve: --registration must be open or closed\n",
      });
    }
  });

  test("the flag without a value, or twice with a bad last value, is refused too", async () => {
    expect((await run(["--registration"])).status).toBe(2);
    expect((await run(["--registration", "closed", "--registration", "x"])).status).toBe(2);
  });

  test("--help still answers without starting", async () => {
    expect(await run(["--registration", "closed", "--help"])).toEqual({
      status: 0,
      stdout: "HELP\n",
      stderr: "",
    });
  });
});

describe("brigade serve: empty values", () => {
  test("an empty --host (an unset variable in a unit file) is refused, never every interface", async () => {
    expect(await run(["--host", "", "--port", "0", "--data", "/nonexistent/x/b.sqlite"])).toEqual({
      status: 2,
      stdout: "",
      stderr:
        "brigade serve: --host needs an address to listen on (127.0.0.1, 0.0.0.0, ::, or a host name)\n",
    });
  });

  test("an empty --data is refused as such, not as a file that is not regular", async () => {
    expect(await run(["--data", "", "--port", "0"])).toEqual({
      status: 2,
      stdout: "",
      stderr: "brigade serve: --data needs the path of the SQLite data file\n",
    });
  });
});

describe("brigade serve: a --data file that is not SQLite", () => {
  test("is one line saying so, and the file is left as it was", async () => {
    const dir = mkdtempSync(join(tmpdir(), "brigade-serve-notdb-"));
    try {
      const file = join(dir, "notes.txt");
      writeFileSync(file, "not a database\n", { mode: 0o600 });
      expect(await run(["--data", file, "--port", "0"])).toEqual({
        status: 1,
        stdout: "",
        stderr:
          "brigade serve: cannot start (SQLITE_NOTADB): the --data file is not an SQLite database; check the path (nothing was written to it)\n",
      });
      expect(readFileSync(file, "utf8")).toBe("not a database\n");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("brigade serve: a flag given twice", () => {
  test("a value flag twice is refused, never last-one-wins; --trusted-proxy repeats", async () => {
    for (const argv of [
      ["--port", "0", "--port", "0"],
      ["--data", "/nonexistent/a", "--data", "/nonexistent/b"],
      ["--host", "127.0.0.1", "--host=0.0.0.0"],
    ]) {
      const flag = argv[0] as string;
      expect(await run(argv)).toEqual({
        status: 2,
        stdout: "",
        stderr: `brigade serve: ${flag} is given more than once (run "brigade serve --help")\n`,
      });
    }
    const repeated = await run([
      ...["--trusted-proxy", "10.0.0.1", "--trusted-proxy", "10.0.0.2"],
      ...["--data", "/nonexistent/x/b.sqlite"],
    ]);
    expect(repeated.stderr).toContain("(data_folder_missing)");
  });
});
