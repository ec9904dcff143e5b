// `brigade demo` as a person runs it: the BUILT CLI as a child process. What it prints is checked
// against the formats (frames parsed by the inspector, bodies against the sanitiser), not against a
// copy of its output; and it must leave nothing behind: no temp folder, no server, also after Ctrl-C.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import type { ParsedFrame } from "../src/formats/frame/index.ts";
import { inspectText } from "../src/formats/inspect/index.ts";
import { sanitize } from "../src/formats/sanitize/index.ts";
import { BUILT_MAIN, REPO_ROOT, runBuiltCli } from "./support/built-cli.ts";
import { testTempDir } from "./support/temp-dir.ts";

const hostile: { body: string; summary: string } = JSON.parse(
  readFileSync(join(REPO_ROOT, "samples", "hostile-envelope.json"), "utf8"),
);

/** The text the demo shows as read by a model: its `│ ` lines, without the indent. */
function modelText(stdout: string): string {
  return stdout
    .split("\n")
    .filter((line) => line.startsWith("    │ "))
    .map((line) => line.slice("    │ ".length))
    .join("\n");
}

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(true));
  });
}

describe("brigade demo (built CLI)", () => {
  test("two sessions exchange a question, a reply and a hostile message; each frame is genuine and the hostile text neutralised", async () => {
    const tmp = testTempDir("demo-tmp-");
    const home = testTempDir("demo-home-");
    const run = runBuiltCli(["demo"], { PATH: process.env.PATH ?? "", HOME: home, TMPDIR: tmp });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);

    // The sessions, as their SessionStart context lines name them.
    const started = [...run.stdout.matchAll(/this session is "([^"]+)" \(id (s-[^)]+)\)/g)];
    expect(started.map((m) => m[1])).toEqual(["api-rename", "web-client"]);
    const [danaId, leeId] = started.map((m) => m[2]);
    // The message id `brigade send` reports on the line after each heredoc (whatever its wording).
    const sentIds = [...run.stdout.matchAll(/ {4}EOF\n {4}│ [^\n]*?\b(m-[0-9A-Za-z_-]+)/g)].map(
      (m) => m[1],
    );
    expect(sentIds).toHaveLength(3);

    const report = inspectText(modelText(run.stdout));
    expect(report.forgedTags).toEqual([]);
    const frames = report.frames.map((f) => (f.ok ? f.frame : undefined));
    expect(frames.every((f) => f !== undefined)).toBe(true);
    const [question, reply, attack] = frames as ParsedFrame[];
    expect(frames).toHaveLength(3);

    // Provenance: what the server stamped, per sender.
    expect(question).toMatchObject({
      team: "orders",
      messageId: sentIds[0],
      fromName: "api-rename",
      replyToSessionId: danaId,
      inReplyTo: "",
      summary: "orders API rename",
    });
    expect(reply).toMatchObject({
      messageId: sentIds[1],
      fromName: "web-client",
      replyToSessionId: leeId,
      inReplyTo: question?.messageId,
    });
    expect(attack).toMatchObject({ messageId: sentIds[2], replyToSessionId: danaId });
    expect(attack?.fromPrincipal).toBe(question?.fromPrincipal);
    expect(reply?.fromPrincipal).not.toBe(question?.fromPrincipal);
    expect(question?.fromLabel).toContain("unverified");
    // The reply command each frame gives answers the sender's session.
    expect(question?.preamble).toContain(
      `brigade send ${danaId} --reply-to ${question?.messageId}`,
    );

    // The hostile text arrived whole, through the sanitiser: its tags are text, not structure.
    expect(attack?.body.trimEnd()).toBe(sanitize(hostile.body));
    expect(attack?.body).not.toBe(hostile.body);
    expect(attack?.summary).toBe(sanitize(hostile.summary.replace(/\s+/g, " ")));
    const inAttack = inspectText(attack?.frame ?? "");
    expect(inAttack.frames).toHaveLength(1);
    expect(inAttack.forgedTags).toEqual([]);
    expect(inAttack.neutralisedTags.length).toBeGreaterThanOrEqual(4);

    // Nothing left: the temporary folder is gone and the port is closed.
    expect(readdirSync(tmp)).toEqual([]);
    const port = Number(/http:\/\/127\.0\.0\.1:(\d+)/.exec(run.stdout)?.[1]);
    expect(await refused(port)).toBe(true);
  });

  test("Ctrl-C in the middle stops the server and removes everything (exit 130)", async () => {
    const tmp = testTempDir("demo-tmp-");
    const home = testTempDir("demo-home-");
    const child = spawn(process.execPath, [BUILT_MAIN, "demo"], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? "", HOME: home, TMPDIR: tmp },
    });
    let out = "";
    const port = await new Promise<number>((resolve) => {
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString("utf8");
        const found = /http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
        if (found !== null) resolve(Number(found[1]));
      });
    });
    expect(readdirSync(tmp)).toHaveLength(1);
    child.kill("SIGINT");
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).toBe(130);
    expect(readdirSync(tmp)).toEqual([]);
    expect(await refused(port)).toBe(true);
  });

  test("a reader that goes away (brigade demo | head) leaves nothing behind either", async () => {
    const tmp = testTempDir("demo-tmp-");
    const home = testTempDir("demo-home-");
    const child = spawn(process.execPath, [BUILT_MAIN, "demo"], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? "", HOME: home, TMPDIR: tmp },
    });
    await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).not.toBe(0);
    expect(readdirSync(tmp)).toEqual([]);
  });

  test("--help is a person's help; an argument is refused; no temp folder is one clear line", () => {
    const env = { PATH: process.env.PATH ?? "" };
    const help = runBuiltCli(["demo", "--help"], env);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^usage: brigade demo\n/);
    const bad = runBuiltCli(["demo", "--fast"], env);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe(
      'brigade demo: unknown option or argument (run "brigade demo --help")\n',
    );
  });
});
