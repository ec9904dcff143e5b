import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { testTempDir } from "../../../test/support/temp-dir.ts";
import { ATTACHMENT_LIMITS } from "../../protocol/index.ts";
import { attachmentRefusalLine } from "./attachment-lines.ts";
import {
  type AttachmentSettings,
  readAttachmentSettings,
  STRICT_ATTACHMENT_SETTINGS,
} from "./attachment-settings.ts";
import { isCredentialName } from "./credential-names.ts";
import { type AttachmentScope, prepareAttachments } from "./prepare-attachments.ts";

const TOKEN = "tok3nOfTheProfileThatMustNeverLeaveX0123456";

/**
 * A git repository `project` with a tracked file, an ignored one and a `.gitignore`; Brigade's
 * folders (`config`, `state`) and an `outside` folder beside it; a home with `.ssh/id_ed25519`.
 */
function world() {
  const root = testTempDir("brigade-attach-");
  const project = join(root, "project");
  const outside = join(root, "outside");
  const config = join(root, "config");
  const state = join(root, "state");
  const ssh = join(root, "home", ".ssh");
  for (const dir of [project, outside, config, state, ssh, join(project, "src")]) {
    mkdirSync(dir, { recursive: true });
  }
  execFileSync("git", ["init", "-q", project]);
  writeFileSync(join(project, ".gitignore"), "secrets/\n*.log\n");
  writeFileSync(join(project, "src", "main.ts"), "export const x = 1;\n");
  writeFileSync(join(project, "build.log"), "ignored by git\n");
  writeFileSync(join(project, ".env"), "API_KEY=x\n");
  writeFileSync(join(outside, "notes.txt"), "outside the project\n");
  writeFileSync(join(ssh, "id_ed25519"), "-----BEGIN OPENSSH PRIVATE KEY-----\n");
  writeFileSync(join(config, "stolen.txt"), "a file in Brigade's folder\n");
  const scope = (overrides: Partial<AttachmentScope> = {}): AttachmentScope => ({
    project,
    cwd: project,
    brigadeFolders: [config, state],
    secrets: [TOKEN],
    settings: STRICT_ATTACHMENT_SETTINGS,
    limits: { ...ATTACHMENT_LIMITS },
    env: { PATH: process.env.PATH, HOME: join(root, "home") },
    ...overrides,
  });
  const widened = (settings: Partial<AttachmentSettings>) =>
    scope({ settings: { ...STRICT_ATTACHMENT_SETTINGS, ...settings } });
  return { root, project, outside, config, ssh, scope, widened };
}

function refusal(paths: readonly string[], scope: AttachmentScope): string {
  const prepared = prepareAttachments(paths, scope);
  if (prepared.ok) {
    for (const f of prepared.files) f.close();
    return "ok";
  }
  return `${prepared.index}:${prepared.refusal}`;
}

describe("what a session may attach", () => {
  test("a file of the project is read once, through one descriptor, for its digest and size", async () => {
    const w = world();
    const prepared = prepareAttachments(["src/main.ts", join(w.project, ".gitignore")], w.scope());
    if (!prepared.ok) throw new Error(prepared.refusal);
    const [main, ignore] = prepared.files;
    const bytes = readFileSync(join(w.project, "src", "main.ts"));
    expect(main?.attachment).toEqual({
      sha256: createHash("sha256").update(bytes).digest("hex"),
      size: bytes.length,
      name: "main.ts",
    });
    expect(ignore?.attachment.name).toBe(".gitignore");
    // The upload reads the same descriptor from its start, as often as asked.
    for (let i = 0; i < 2; i++) {
      const chunks: Buffer[] = [];
      for await (const chunk of main?.bytes() ?? []) chunks.push(Buffer.from(chunk));
      expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
    }
    for (const f of prepared.files) f.close();
  });

  test("the default rules refuse what lies outside, in .git, ignored by git or named like a credential", () => {
    const w = world();
    symlinkSync(join(w.outside, "notes.txt"), join(w.project, "link-out.txt"));
    symlinkSync(join(w.project, "src", "main.ts"), join(w.project, "link-in.ts"));
    writeFileSync(join(w.project, "server.pem"), "not really\n");
    mkdirSync(join(w.project, "secrets"));
    writeFileSync(join(w.project, "secrets", "notes.md"), "ignored folder\n");
    expect(refusal([join(w.outside, "notes.txt")], w.scope())).toBe("0:outside_project");
    expect(refusal(["link-out.txt"], w.scope())).toBe("0:outside_project");
    expect(refusal(["../outside/notes.txt"], w.scope())).toBe("0:outside_project");
    expect(refusal([join(w.ssh, "id_ed25519")], w.scope())).toBe("0:outside_project");
    expect(refusal(["link-in.ts"], w.scope())).toBe("ok");
    expect(refusal(["src/main.ts", ".git/config"], w.scope())).toBe("1:git_dir");
    expect(refusal([".env"], w.scope())).toBe("0:credential_name");
    expect(refusal(["server.pem"], w.scope())).toBe("0:credential_name");
    expect(refusal(["build.log"], w.scope())).toBe("0:git_ignored");
    expect(refusal(["secrets/notes.md"], w.scope())).toBe("0:git_ignored");
    expect(refusal(["src"], w.scope())).toBe("0:not_regular");
    expect(refusal(["missing.txt"], w.scope())).toBe("0:unreadable");
    expect(refusal(["src/main.ts"], w.scope({ project: undefined }))).toBe("0:no_project");
  });

  test("a FIFO is refused without hanging, and so is a name a message cannot carry", () => {
    const w = world();
    execFileSync("mkfifo", [join(w.project, "pipe")]);
    expect(refusal(["pipe"], w.scope())).toBe("0:not_regular");
    writeFileSync(join(w.project, "bad\u0007name.txt"), "x");
    expect(refusal(["bad\u0007name.txt"], w.scope())).toBe("0:unsendable_name");
  });

  test("the person widens each rule in their settings; Brigade's folders and secrets stay refused", () => {
    const w = world();
    expect(refusal([join(w.outside, "notes.txt")], w.widened({ extraFolders: [w.outside] }))).toBe(
      "ok",
    );
    expect(refusal([join(w.ssh, "id_ed25519")], w.widened({ extraFolders: [w.ssh] }))).toBe(
      "0:credential_name",
    );
    expect(
      refusal(
        [join(w.ssh, "id_ed25519")],
        w.widened({ extraFolders: [w.ssh], allowNames: ["id_ed25519"] }),
      ),
    ).toBe("ok");
    expect(refusal(["build.log"], w.widened({ allowGitIgnored: true }))).toBe("ok");
    expect(refusal([".git/HEAD"], w.widened({ allowGitDir: true }))).toBe("ok");

    const everything = w.widened({
      extraFolders: [w.config, w.root],
      allowGitIgnored: true,
      allowGitDir: true,
      allowNames: ["stolen.txt", ".env"],
    });
    expect(refusal([join(w.config, "stolen.txt")], everything)).toBe("0:brigade_folder");
    writeFileSync(join(w.project, "copied.txt"), `header\n${TOKEN}\n`);
    expect(refusal(["copied.txt"], everything)).toBe("0:brigade_secret");
    // A join secret split across two read pieces is still found.
    const padding = "x".repeat(256 * 1024 - 7);
    writeFileSync(join(w.project, "notes.md"), `${padding}brg1.t-9c1e.Zm9vYmFyYmF6\n`);
    expect(refusal(["notes.md"], everything)).toBe("0:brigade_secret");
  });

  test("the limits: size per file, files per message, bytes per message", () => {
    const w = world();
    writeFileSync(join(w.project, "a.txt"), "x".repeat(600));
    writeFileSync(join(w.project, "b.txt"), "y".repeat(600));
    const limits = {
      max_attachments_per_message: 2,
      max_attachment_bytes: 700,
      max_message_attachment_bytes: 1000,
    };
    expect(refusal(["a.txt"], w.scope({ limits: { ...limits, max_attachment_bytes: 500 } }))).toBe(
      "0:too_large",
    );
    expect(refusal(["a.txt", "b.txt", "src/main.ts"], w.scope({ limits }))).toBe("2:too_many");
    expect(refusal(["a.txt", "b.txt"], w.scope({ limits }))).toBe("1:message_too_large");
  });

  test("without git, an ignored file cannot be told apart: refused unless the person allows ignored files", () => {
    const w = world();
    const noGit = { PATH: join(w.root, "nothing-here"), HOME: w.root };
    expect(refusal(["src/main.ts"], w.scope({ env: noGit }))).toBe("0:git_unknown");
    expect(refusal(["src/main.ts"], { ...w.widened({ allowGitIgnored: true }), env: noGit })).toBe(
      "ok",
    );
  });
});

describe("the settings file and the refusal lines", () => {
  test("an absent file is the default; a shared or malformed one refuses every attachment", () => {
    const w = world();
    expect(readAttachmentSettings(w.config)).toEqual({
      ok: true,
      settings: STRICT_ATTACHMENT_SETTINGS,
    });
    const file = join(w.config, "attachments.json");
    writeFileSync(file, JSON.stringify({ extra_folders: [w.outside], allow_git_ignored: true }));
    chmodSync(file, 0o644);
    expect(readAttachmentSettings(w.config)).toEqual({ ok: false, refusal: "settings_unsafe" });
    chmodSync(file, 0o600);
    expect(readAttachmentSettings(w.config)).toEqual({
      ok: true,
      settings: { ...STRICT_ATTACHMENT_SETTINGS, extraFolders: [w.outside], allowGitIgnored: true },
    });
    for (const bad of ["{", "[]", '{"extra_folders":["relative"]}', '{"allow_git_dir":"yes"}']) {
      writeFileSync(file, bad);
      expect(readAttachmentSettings(w.config)).toEqual({ ok: false, refusal: "settings_invalid" });
    }
  });

  test("each line names the rule, the file's position and the person's setting, never the path", () => {
    const facts = {
      index: 1,
      maxFiles: 10,
      maxFileBytes: 26_214_400,
      maxMessageBytes: 104_857_600,
      settingsPath: "/home/dana/.config/brigade/attachments.json",
      home: "/home/dana",
    };
    expect(attachmentRefusalLine("git_ignored", facts)).toBe(
      'invalid_input: attachment 2 is ignored by git, and ignored files are where .env files and keys live; your user (not you) can allow it with "allow_git_ignored": true in ~/.config/brigade/attachments.json',
    );
    expect(attachmentRefusalLine("brigade_secret", facts)).toMatch(/can never be attached/);
    expect(attachmentRefusalLine("outside_project", facts)).toContain('"extra_folders"');
    expect(attachmentRefusalLine("credential_name", facts)).toContain('"allow_names"');
  });

  test("credential names match in any letter case; an allowed exact name passes", () => {
    for (const name of [
      ".env",
      ".env.local",
      "prod.env",
      "ID_RSA",
      "cert.PEM",
      "app.key",
      ".netrc",
    ]) {
      expect(isCredentialName(name, [])).toBe(true);
    }
    for (const name of ["env.md", "id_rsa.pub", "keys.txt", "main.ts", "pem"]) {
      expect(isCredentialName(name, [])).toBe(false);
    }
    expect(isCredentialName("server.pem", ["server.pem"])).toBe(false);
  });
});

describe("an empty file", () => {
  test("is attached with no bytes, even if it grows after it was checked", async () => {
    const root = testTempDir("brigade-attach-empty-");
    execFileSync("git", ["init", "-q", root]);
    writeFileSync(join(root, "empty.log"), "");
    const prepared = prepareAttachments(["empty.log"], {
      project: root,
      cwd: root,
      brigadeFolders: [],
      secrets: [],
      settings: { ...STRICT_ATTACHMENT_SETTINGS, allowGitIgnored: true },
      limits: { ...ATTACHMENT_LIMITS },
      env: { PATH: process.env.PATH, HOME: root },
    });
    if (!prepared.ok) throw new Error(prepared.refusal);
    const [file] = prepared.files;
    expect(file?.attachment.size).toBe(0);
    writeFileSync(join(root, "empty.log"), "grew");
    const chunks: Uint8Array[] = [];
    for await (const chunk of file?.bytes() ?? []) chunks.push(chunk);
    expect(chunks).toEqual([]);
    file?.close();
  });
});
