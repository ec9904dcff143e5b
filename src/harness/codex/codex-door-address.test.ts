import { describe, expect, test } from "vitest";
import { codexDoorAddress, codexListenAddress } from "./codex-door-address.ts";

const HOME = "/home/lee/.codex";
const CONTROL = "/home/lee/.codex/app-server-control/app-server-control.sock";

describe("codexListenAddress", () => {
  test.each([
    [
      ["/x/codex", "app-server", "--listen", "unix://", "--managed-daemon"],
      { ok: true, socketPath: CONTROL },
    ],
    [
      ["/x/codex", "app-server", "--listen=unix:///run/cx.sock"],
      { ok: true, socketPath: "/run/cx.sock" },
    ],
    [
      ["/x/codex", "-c", "a=b", "app-server", "--listen", "unix://rel.sock"],
      { ok: false, reason: "socket_foreign" },
    ],
    [["/x/codex", "app-server"], { ok: false, reason: "stdio" }],
    [["/x/codex", "app-server", "--listen", "stdio://"], { ok: false, reason: "stdio" }],
    [
      ["/x/codex", "app-server", "--listen", "ws://127.0.0.1:4500"],
      { ok: false, reason: "websocket" },
    ],
    [["/x/codex", "app-server", "--listen", "off"], { ok: false, reason: "no_listener" }],
    [
      ["/x/codex", "exec", "--skip-git-repo-check", "app-server"],
      { ok: false, reason: "in_process" },
    ],
    [["/x/codex"], { ok: false, reason: "in_process" }],
    [["/usr/bin/node", "/x/codex.js", "app-server"], { ok: false, reason: "not_codex" }],
    [[], { ok: false, reason: "not_codex" }],
  ])("%j", (argv, expected) => {
    expect(codexListenAddress(argv, HOME)).toEqual(expected);
  });
});

describe("codexDoorAddress", () => {
  test("a process whose arguments cannot be read has no door", () => {
    expect(codexDoorAddress(2 ** 30, HOME, 0)).toEqual({ ok: false, reason: "unreadable" });
  });

  test("this process is no Codex", () => {
    expect(codexDoorAddress(process.pid, HOME, process.getuid?.() ?? 0)).toEqual({
      ok: false,
      reason: "not_codex",
    });
  });
});
