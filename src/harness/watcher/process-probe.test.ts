import { spawn } from "node:child_process";
import { describe, expect, test } from "vitest";
import { parentPid, parseProcStat, processLiveness, processStartToken } from "./process-probe.ts";

// Fields 3..22 after the comm; field 22 (starttime) is the 20th of them.
const tail = "S 1 7 7 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654321 1000 50";

describe("parseProcStat", () => {
  test("a plain command name", () => {
    expect(parseProcStat(`4242 (claude) ${tail}`)).toEqual({
      ok: true,
      state: "S",
      ppid: 1,
      startTicks: "987654321",
    });
  });

  test("a command name holding ')' and spaces cannot shift the fields", () => {
    const hostile = "4242 (evil) Z 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 ) x ) ";
    expect(parseProcStat(`${hostile}${tail}`)).toEqual({
      ok: true,
      state: "S",
      ppid: 1,
      startTicks: "987654321",
    });
    expect(parseProcStat(`9 (a b (c)) ${tail.replace(/^S/, "Z")}`)).toMatchObject({
      state: "Z",
      startTicks: "987654321",
    });
  });

  test("refusals", () => {
    expect(parseProcStat("4242 claude S 1")).toEqual({ ok: false, reason: "no_comm_end" });
    expect(parseProcStat("4242 (c) S 1 2 3")).toEqual({ ok: false, reason: "too_few_fields" });
    expect(parseProcStat(`4242 (c) ${tail.replace("987654321", "12a")}`)).toEqual({
      ok: false,
      reason: "bad_start",
    });
    expect(parseProcStat(`4242 (c) ${tail.replace("S 1 ", "S -1 ")}`)).toEqual({
      ok: false,
      reason: "bad_ppid",
    });
  });
});

describe("parentPid (real processes)", () => {
  test("this process's parent, and nothing for a pid that is not one", () => {
    expect(parentPid(process.pid)).toBe(process.ppid);
    expect(parentPid(0)).toBeUndefined();
    expect(parentPid(2 ** 31 + 7)).toBeUndefined();
  });
});

describe("processLiveness and processStartToken (real processes)", () => {
  test("ourselves: alive, with a stable start token", () => {
    expect(processLiveness(process.pid)).toBe("alive");
    const token = processStartToken(process.pid);
    expect(token).toBeDefined();
    expect(processStartToken(process.pid)).toBe(token);
    if (process.platform === "linux") expect(token).toMatch(/^linux:[0-9]+$/);
  });

  test("a pid that does not exist is dead and has no token", () => {
    expect(processLiveness(2_147_483_000)).toBe("dead");
    expect(processStartToken(2_147_483_000)).toBeUndefined();
    expect(processLiveness(0)).toBe("dead");
  });

  test("a child that exited but was not reaped is a zombie (kill(pid, 0) still passes)", async () => {
    // perl forks; the child exits at once; the parent never waits and sleeps.
    const parent = spawn(
      "perl",
      ["-e", '$|=1; my $p = fork(); if ($p == 0) { exit 0 } print "$p\\n"; sleep 30;'],
      { stdio: ["ignore", "pipe", "ignore"] },
    );
    try {
      const childPid = await new Promise<number>((resolve, reject) => {
        let out = "";
        parent.stdout.on("data", (c: Buffer) => {
          out += c.toString();
          if (out.includes("\n")) resolve(Number(out.trim()));
        });
        parent.once("exit", () => reject(new Error("perl exited")));
      });
      const deadline = Date.now() + 5_000;
      while (processLiveness(childPid) !== "zombie" && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(() => process.kill(childPid, 0)).not.toThrow();
      expect(processLiveness(childPid)).toBe("zombie");
      expect(processLiveness(parent.pid as number)).toBe("alive");
    } finally {
      parent.kill("SIGKILL");
    }
  });
});
