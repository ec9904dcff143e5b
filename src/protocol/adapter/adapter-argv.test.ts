import { describe, expect, test } from "vitest";
import { ADAPTER_COMMAND_NAMES, parseAdapterArgv } from "./adapter-argv.ts";

function usageReason(argv: string[]): string | undefined {
  const r = parseAdapterArgv(argv);
  expect(r.ok).toBe(false);
  if (r.ok) return undefined;
  expect(r.error.code).toBe("usage");
  expect(r.error.retryable).toBe(false);
  return r.error.details?.reason;
}

describe("parseAdapterArgv (docs/spec/protocol.md §1.2)", () => {
  test("describe has no verb and takes only the common flags", () => {
    expect(parseAdapterArgv(["describe", "--profile", "work", "--log-level=debug"])).toEqual({
      ok: true,
      command: {
        name: "describe",
        group: "describe",
        verb: null,
        flags: { profile: "work", logLevel: "debug" },
      },
    });
    expect(usageReason(["describe", "--include-offline"])).toBe("unknown_flag");
    expect(usageReason(["describe", "now"])).toBe("unexpected_argument");
  });

  test("message receive: --session required, --limit default 50, range 1..200", () => {
    const r = parseAdapterArgv(["message", "receive", "--session", "s-51d0"]);
    expect(r.ok && r.command.flags).toEqual({ session: "s-51d0", limit: 50 });
    const r2 = parseAdapterArgv(["message", "receive", "--session=s-1", "--limit", "200"]);
    expect(r2.ok && r2.command.flags.limit).toBe(200);
    expect(usageReason(["message", "receive", "--session", "s", "--limit", "0"])).toBe(
      "out_of_range",
    );
    expect(usageReason(["message", "receive", "--session", "s", "--limit", "201"])).toBe(
      "out_of_range",
    );
    expect(usageReason(["message", "receive", "--session", "s", "--limit", "ten"])).toBe(
      "invalid_value",
    );
    expect(usageReason(["message", "receive", "--session", "s", "--limit", "-5"])).toBe(
      "invalid_value",
    );
    expect(usageReason(["message", "receive", "--session", "s", "--limit", "1.5"])).toBe(
      "invalid_value",
    );
    expect(usageReason(["message", "receive"])).toBe("missing_flag");
  });

  test("flags are per command", () => {
    expect(usageReason(["message", "send", "--session", "s"])).toBe("unknown_flag");
    expect(usageReason(["session", "register", "--limit", "5"])).toBe("unknown_flag");
    const list = parseAdapterArgv(["session", "list", "--include-offline", "--session", "s"]);
    expect(list.ok && list.command.flags).toEqual({ includeOffline: true, session: "s" });
    expect(parseAdapterArgv(["session", "list"]).ok).toBe(true);
  });

  test("--session is required where listed", () => {
    for (const name of ["session heartbeat", "session close", "message watch", "message ack"]) {
      expect(usageReason(name.split(" "))).toBe("missing_flag");
      expect(parseAdapterArgv([...name.split(" "), "--session", "s-1"]).ok).toBe(true);
    }
  });

  test("--join-secret is refused on every command in every form, before anything else", () => {
    for (const argv of [
      ["team", "join", "--join-secret", "brg1.t.s"],
      ["team", "join", "--join-secret=brg1.t.s"],
      ["describe", "-join-secret", "x"],
      ["nonsense", "--join-secret"],
      ["message", "send", "--join-secret"],
    ]) {
      expect(usageReason(argv)).toBe("secret_on_argv");
    }
  });

  test("unknown group, verb or flag → usage; errors never echo an argument", () => {
    expect(usageReason([])).toBe("unknown_command");
    expect(usageReason(["sessions", "list"])).toBe("unknown_command");
    expect(usageReason(["session"])).toBe("unknown_command");
    expect(usageReason(["session", "destroy"])).toBe("unknown_command");
    expect(usageReason(["Session", "list"])).toBe("unknown_command");
    const hostile = "brg1.t-9c1e.SECRETVALUE";
    for (const argv of [
      [hostile],
      ["session", hostile],
      ["session", "list", `--${hostile}`],
      ["session", "list", hostile],
      ["message", "receive", "--session", "s", "--limit", hostile],
      ["describe", "--log-level", hostile],
    ]) {
      const r = parseAdapterArgv(argv);
      expect(r.ok).toBe(false);
      expect(JSON.stringify(r)).not.toContain("SECRETVALUE");
    }
  });

  test("value and boolean flag rules", () => {
    expect(usageReason(["session", "close", "--session"])).toBe("missing_value");
    expect(usageReason(["session", "close", "--session", "--profile", "p"])).toBe("missing_value");
    expect(usageReason(["session", "close", "--session="])).toBe("invalid_value");
    expect(usageReason(["session", "list", "--include-offline=true"])).toBe("invalid_value");
    expect(usageReason(["session", "close", "--session", "a", "--session", "b"])).toBe(
      "duplicate_flag",
    );
    expect(usageReason(["describe", "--log-level", "trace"])).toBe("invalid_value");
    expect(usageReason(["describe", "--"])).toBe("unexpected_argument");
  });

  test("convention flags", () => {
    const create = parseAdapterArgv([
      "team",
      "create",
      "--name",
      "core",
      "--label",
      "dana",
      "--prompt",
      "--secret-file",
      "/tmp/s",
    ]);
    expect(create.ok && create.command.flags).toEqual({
      name: "core",
      label: "dana",
      prompt: true,
      secretFile: "/tmp/s",
    });
    const join = parseAdapterArgv(["team", "join", "--prompt", "--label", "sam"]);
    expect(join.ok && join.command.flags).toEqual({ prompt: true, label: "sam" });
    expect(usageReason(["team", "join", "--name", "x"])).toBe("unknown_flag");
    const init = parseAdapterArgv(["profile", "init", "--force"]);
    expect(init.ok && init.command.flags).toEqual({ force: true });
  });

  test("team.admin verbs: rotate-secret takes --secret-file; revoke-member and transfer need --principal", () => {
    const rotate = parseAdapterArgv(["team", "rotate-secret", "--secret-file=/tmp/s"]);
    expect(rotate.ok && rotate.command.flags).toEqual({ secretFile: "/tmp/s" });
    expect(usageReason(["team", "rotate-secret", "--principal", "p"])).toBe("unknown_flag");
    for (const verb of ["revoke-member", "transfer"]) {
      const r = parseAdapterArgv(["team", verb, "--principal", "p-77aa"]);
      expect(r.ok && r.command.flags).toEqual({ principal: "p-77aa" });
      const missing = parseAdapterArgv(["team", verb]);
      expect(missing.ok ? undefined : missing.error.details).toEqual({
        reason: "missing_flag",
        flag: "--principal",
      });
      expect(usageReason(["team", verb, "p-77aa"])).toBe("unexpected_argument");
      expect(usageReason(["team", verb, "--principal="])).toBe("invalid_value");
      expect(usageReason(["team", verb, "--principal"])).toBe("missing_value");
    }
    const accept = parseAdapterArgv(["team", "accept-transfer"]);
    expect(accept.ok && accept.command.flags).toEqual({});
    expect(usageReason(["team", "accept-transfer", "--principal", "p"])).toBe("unknown_flag");
    expect(usageReason(["team", "accept-transfer", "p-77aa"])).toBe("unexpected_argument");
  });

  test("the invitation and label verbs: decimal --uses / --expires-in, a required --invitation and --label", () => {
    const invite = parseAdapterArgv(["team", "invite", "--uses", "3", "--expires-in=60"]);
    expect(invite.ok && invite.command.flags).toEqual({ uses: 3, expiresIn: 60 });
    const plain = parseAdapterArgv(["team", "invite"]);
    expect(plain.ok && plain.command.flags).toEqual({});
    for (const bad of ["x", "-1", "1.5", "1e3", "0x10", "1234567890"]) {
      expect(usageReason(["team", "invite", "--uses", bad]), bad).toBe("invalid_value");
      expect(usageReason(["team", "invite", `--expires-in=${bad}`]), bad).toBe("invalid_value");
    }
    expect(usageReason(["team", "invite", "--principal", "p"])).toBe("unknown_flag");
    const revoke = parseAdapterArgv(["team", "revoke-invite", "--invitation", "i-1"]);
    expect(revoke.ok && revoke.command.flags).toEqual({ invitation: "i-1" });
    expect(usageReason(["team", "revoke-invite"])).toBe("missing_flag");
    expect(parseAdapterArgv(["team", "invitations"]).ok).toBe(true);
    expect(usageReason(["team", "invitations", "i-1"])).toBe("unexpected_argument");
    const label = parseAdapterArgv(["team", "label", "--label", "Dana"]);
    expect(label.ok && label.command.flags).toEqual({ label: "Dana" });
    expect(usageReason(["team", "label"])).toBe("missing_flag");
  });

  test("adapters may add flags to conventions, never to the core", () => {
    const options = {
      conventionFlags: {
        "profile init": [{ name: "server", takesValue: true }],
        "message send": [{ name: "urgent", takesValue: false }],
      },
    } as const;
    const r = parseAdapterArgv(["profile", "init", "--server", "https://x"], options);
    expect(r.ok && r.command.flags).toEqual({ extra: { server: "https://x" } });
    const core = parseAdapterArgv(["message", "send", "--urgent"], options);
    expect(core.ok).toBe(false);
  });

  test("every command in the table parses with its required flags", () => {
    for (const name of ADAPTER_COMMAND_NAMES) {
      const argv = name.split(" ");
      const r = parseAdapterArgv(argv);
      const missing = r.ok ? undefined : r.error.details?.flag;
      const r2 = missing === undefined ? r : parseAdapterArgv([...argv, missing, "x"]);
      expect(r2.ok).toBe(true);
      if (r2.ok) expect(r2.command.name).toBe(name);
    }
  });
});
