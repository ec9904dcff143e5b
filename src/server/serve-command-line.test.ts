import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { freshPostgresSchema } from "../../test/support/postgres-schema.ts";
import { runServeCommandLine, WIDE_PROXY_WARNING } from "./serve-command-line.ts";

async function run(
  argv: string[],
  env: Record<string, string> = {},
): Promise<{ status: number; stdout: string; stderr: string }> {
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
      env,
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

describe("brigade serve: a very wide --trusted-proxy range", () => {
  const data = ["--data", "/nonexistent/x/b.sqlite"];

  test("0.0.0.0/0, ::/0 and the like print one warning line, the range not repeated", async () => {
    for (const wide of [
      "0.0.0.0/0",
      "::/0",
      "128.0.0.0/1",
      "2000::/3",
      "::ffff:0:0/96",
      "::ffff:128.0.0.0/97",
      // Longer than /7, yet holding ::ffff:0:0/96, so every IPv4 client is in them.
      "::ffff:0:0/95",
      "::fffe:0:0/95",
      "::/80",
      "::/8",
    ]) {
      const r = await run(["--trusted-proxy", "10.0.0.5", "--trusted-proxy", wide, ...data]);
      expect(r.stderr.startsWith(WIDE_PROXY_WARNING), wide).toBe(true);
      expect(r.stderr.split(WIDE_PROXY_WARNING)).toHaveLength(2);
      expect(WIDE_PROXY_WARNING).not.toContain(wide);
      expect(r.stderr).toContain("(data_folder_missing)");
    }
  });

  test("addresses and private-network-sized ranges start without it", async () => {
    for (const narrow of [
      "10.0.0.0/8",
      "fd00::/8",
      "fc00::/7",
      "0.0.0.0",
      "203.0.113.7",
      "::ffff:10.0.0.0/104",
      // Beside the mapped range, not over it: no IPv4 client is in them.
      "::/81",
      "::/96",
      "64:ff9b::/96",
    ]) {
      const r = await run(["--trusted-proxy", narrow, ...data]);
      expect(r.stderr, narrow).not.toContain("warning");
      expect(r.stderr).toContain("(data_folder_missing)");
    }
  });

  test("a malformed entry is still the usage error, with no warning", async () => {
    const r = await run(["--trusted-proxy", "0.0.0.0/0", "--trusted-proxy", "nope/0", ...data]);
    expect(r.status).toBe(2);
    expect(r.stderr).not.toContain("warning");
  });
});

describe("brigade serve --store parsing", () => {
  const usage =
    "brigade serve: --store (or BRIGADE_STORE) must be a postgres://user@host:port/database URL; SQLite is the default (--data)\n";

  test("anything but a postgres:// URL is a usage error (2), the value never echoed", async () => {
    for (const value of ["sqlite:/x.db", "/var/lib/x.db", "mysql://u:pw@h/d", "postgres://[", ""]) {
      const r = await run(["--store", value, "--data", "/nonexistent/x/brigade.sqlite"]);
      expect(r).toEqual({ status: 2, stdout: "", stderr: usage });
    }
  });

  test("BRIGADE_STORE is read when the flag is absent; an empty one means SQLite", async () => {
    const bad = await run(["--data", "/nonexistent/x/y.sqlite"], { BRIGADE_STORE: "mysql://pw@h" });
    expect(bad).toEqual({ status: 2, stdout: "", stderr: usage });
    const flagWins = await run(["--store", "nope", "--store-wait", "1"], {
      BRIGADE_STORE: "postgres://h/d",
    });
    expect(flagWins.status).toBe(2);
  });

  test("--store-wait takes whole seconds only", async () => {
    for (const value of ["1e3", "1.5", "x", "", "99999"]) {
      const r = await run(["--store", "postgres://127.0.0.1:1/d", "--store-wait", value]);
      expect(r).toEqual({
        status: 2,
        stdout: "",
        stderr: "brigade serve: --store-wait must be a number of seconds from 0 to 9999\n",
      });
    }
  });

  test("a database that does not answer: exit 1, one line naming it without the password", async () => {
    const r = await run(["--port", "0", "--store", "postgres://brigade:pw-s3cret@127.0.0.1:1/d"]);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      "brigade serve: cannot start (store_unavailable): the store's database is unreachable (postgres://brigade@127.0.0.1:1/d, waited 0 s)\n",
    );
  });

  test("a database that refuses: exit 1, its SQLSTATE and a fixed explanation", async () => {
    const cluster = process.env.BRIGADE_TEST_POSTGRES_URL;
    if (cluster === undefined) throw new Error("the run's PostgreSQL is not set up");
    const missing = new URL(cluster);
    missing.pathname = "/no_such_database";
    const r = await run(["--port", "0", "--store", missing.toString()]);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      `brigade serve: cannot start (3D000): the database does not exist (postgres://brigade@${missing.host}/no_such_database, waited 0 s)\n`,
    );
  });
});

describe("brigade serve --store: start failures that are not the database's refusal", () => {
  const cluster = (): URL => {
    const url = process.env.BRIGADE_TEST_POSTGRES_URL;
    if (url === undefined) throw new Error("the run's PostgreSQL is not set up");
    return new URL(url);
  };

  test("sslmode asking a database without TLS: what to check, never the library's text", async () => {
    const url = cluster();
    url.searchParams.set("sslmode", "require");
    const r = await run(["--port", "0", "--store", url.toString()]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      ": the connection to the database failed; check the address and its parameters (sslmode:",
    );
    expect(r.stderr).not.toContain("does not support SSL");
    expect(r.stderr.split("\n").filter(Boolean)).toHaveLength(1);
  });

  test("a taken port is the port's line alone, without the database's address", async () => {
    const taken = createServer();
    await new Promise<void>((done) => taken.listen(0, "127.0.0.1", done));
    const { port } = taken.address() as AddressInfo;
    const schema = await freshPostgresSchema();
    try {
      const r = await run(["--port", String(port), "--store", schema.url]);
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(
        /^brigade serve: cannot start \(EADDRINUSE\): port \d+ is already in use/,
      );
      expect(r.stderr).not.toContain("postgres://");
      expect(r.stderr).not.toContain("waited");
    } finally {
      await new Promise<void>((done) => taken.close(() => done()));
      await schema.drop();
    }
  });
});

describe("brigade serve --metrics", () => {
  test("the API's own port is a usage error (2) naming the mix-up, before anything is opened", async () => {
    const refusal = {
      status: 2,
      stdout: "",
      stderr:
        "brigade serve: --metrics needs a port of its own, not the API's --port (e.g. --metrics 9464)\n",
    };
    const data = ["--data", "/nonexistent/x/b.sqlite"];
    expect(await run(["--port", "7777", "--metrics", "7777", ...data])).toEqual(refusal);
    expect(await run(["--metrics", "127.0.0.1:7777", ...data])).toEqual(refusal);
    expect(await run(["--host", "0.0.0.0", "--metrics", "7777", ...data])).toEqual(refusal);
    // Another port, or the same one on another address, goes on (to the missing data folder).
    for (const argv of [
      ["--metrics", "9464"],
      ["--host", "10.0.0.5", "--metrics", "127.0.0.1:7777"],
    ]) {
      expect((await run([...argv, ...data])).stderr).toContain("data_folder_missing");
    }
  });
});

describe("brigade serve --registration closed on PostgreSQL", () => {
  test("--create-operator-key without --registration closed is a usage error", async () => {
    expect(await run(["--create-operator-key", "--data", "/nonexistent/x/b.sqlite"])).toEqual({
      status: 2,
      stdout: "",
      stderr: "brigade serve: --create-operator-key goes with --registration closed\n",
    });
  });

  test("a process without the operator key file refuses to start, says what is missing, and makes none", async () => {
    const schema = await freshPostgresSchema("opkey");
    const dir = mkdtempSync(join(tmpdir(), "brigade-serve-opkey-"));
    try {
      const dataFile = join(dir, "secret-name.sqlite");
      const r = await run([
        "--port",
        "0",
        "--data",
        dataFile,
        "--registration",
        "closed",
        "--store",
        schema.url,
      ]);
      expect(r).toEqual({
        status: 1,
        stdout: "",
        stderr:
          "brigade serve: cannot start (operator_key_file_missing): --registration closed on a shared PostgreSQL database needs the operator key file (the --data path with .operator-key added), the same on every process: copy it from the process that made it, or make the first one with --create-operator-key\n",
      });
      expect(existsSync(`${dataFile}.operator-key`)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await schema.drop();
    }
  });
});

describe("brigade serve --limit", () => {
  const data = ["--data", "/nonexistent/x/b.sqlite"];

  test("a bad setting is a usage error (2) naming the flag, never the value, before anything is opened", async () => {
    const cases: [string[], string][] = [
      [
        ["--limit", "watches_per_session=0"],
        "--limit watches_per_session must be a whole number from 1 to 100000",
      ],
      [
        ["--limit", "principals_per_server_per_hour=1e9"],
        "--limit principals_per_server_per_hour must be a whole number from 1 to 1000000",
      ],
      [
        ["--limit", "send_rate=100"],
        '--limit names no limit of brigade serve (run "brigade serve --help" for the names)',
      ],
      [
        ["--limit", "hunter2"],
        '--limit needs NAME=NUMBER (run "brigade serve --help" for the names)',
      ],
      [
        ["--limit", "watches_per_session=5", "--limit", "watches_per_session=6"],
        "--limit watches_per_session is given more than once",
      ],
    ];
    for (const [argv, message] of cases) {
      expect(await run([...argv, ...data])).toEqual({
        status: 2,
        stdout: "",
        stderr: `brigade serve: ${message}\n`,
      });
    }
    expect((await run(["--limit", ...data])).status).toBe(2);
  });

  test("good settings, repeated for different names, go on to start (here: the missing data folder)", async () => {
    const r = await run([
      ...["--limit", "principals_per_server_per_hour=100000"],
      ...["--limit=watches_per_principal=64"],
      ...data,
    ]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("(data_folder_missing)");
  });
});
