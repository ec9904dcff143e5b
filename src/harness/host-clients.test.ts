import { describe, expect, test } from "vitest";
import {
  CLIENT_COMMAND_ENVS,
  CLIENT_SESSION_VARIABLES,
  HOST_CLIENTS,
  insideAgentSession,
} from "./host-clients.ts";

describe("insideAgentSession", () => {
  test("every client's own markers are in the list, and the list marks nothing else", async () => {
    for (const [name, load] of Object.entries(HOST_CLIENTS)) {
      const client = await load();
      const own = CLIENT_SESSION_VARIABLES.filter((v) => client.insideSession({ [v]: "1" }));
      const ownEnvs = CLIENT_COMMAND_ENVS.filter((marks) => client.insideSession(marks));
      expect(own.length + ownEnvs.length, name).toBeGreaterThan(0);
      expect(client.insideSession({}), name).toBe(false);
    }
    for (const variable of CLIENT_SESSION_VARIABLES) {
      const clients = await Promise.all(Object.values(HOST_CLIENTS).map((load) => load()));
      expect(
        clients.some((c) => c.insideSession({ [variable]: "1" })),
        variable,
      ).toBe(true);
    }
  });

  test("Claude Code's four variables and each client's mark a session; empty values do not", () => {
    for (const variable of [
      "CLAUDE_PID",
      "CLAUDECODE",
      "CLAUDE_CODE_ENTRYPOINT",
      "CLAUDE_CODE_SESSION_ID",
      ...CLIENT_SESSION_VARIABLES,
    ]) {
      expect(insideAgentSession({ [variable]: "1" }), variable).toBe(true);
      expect(insideAgentSession({ [variable]: "" }), variable).toBe(false);
    }
    expect(insideAgentSession({ HOME: "/home/dana", PATH: "/usr/bin" })).toBe(false);
  });

  test("a client's model shell marked by its values together (Cline's pagers): all of them, not one", () => {
    for (const marks of CLIENT_COMMAND_ENVS) {
      expect(insideAgentSession({ ...marks })).toBe(true);
      for (const name of Object.keys(marks)) {
        expect(insideAgentSession({ ...marks, [name]: undefined }), name).toBe(false);
      }
    }
    expect(insideAgentSession({ PAGER: "cat" })).toBe(false);
  });
});
