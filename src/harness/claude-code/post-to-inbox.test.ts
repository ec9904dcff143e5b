import {
  chmodSync,
  chownSync,
  linkSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ClaudeCodeHost } from "../../../test/support/claude-code-host/index.ts";
import { wrap } from "../../formats/frame/index.ts";
import { encodeInboxPostLines } from "./inbox-post-lines.ts";
import { checkInboxSocketPath } from "./inbox-socket-path.ts";
import { type InboxPostResult, postToInbox } from "./post-to-inbox.ts";

let host: ClaudeCodeHost;
let scratch: string;

beforeAll(async () => {
  host = await ClaudeCodeHost.start();
  scratch = mkdtempSync(join(tmpdir(), "inbox-post-"));
});

afterAll(async () => {
  await host.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** Posts `content` to `socketPath` with the host's token. */
function post(socketPath: string, content = "hello"): Promise<InboxPostResult> {
  return postToInbox({ socketPath, token: host.token, content });
}

describe("encodeInboxPostLines", () => {
  test("two JSON lines, members in the spec's order, each ending in \\n", () => {
    expect(encodeInboxPostLines("abc", "hi")).toBe(
      '{"type":"auth","token":"abc"}\n{"type":"user","message":{"role":"user","content":"hi"}}\n',
    );
  });

  test("newlines, CR, quotes and backslashes are escaped; U+2028 and non-ASCII stay raw", () => {
    expect(encodeInboxPostLines("t", 'a\nb\r"c"\\ d\u2028é')).toBe(
      '{"type":"auth","token":"t"}\n' +
        '{"type":"user","message":{"role":"user","content":"a\\nb\\r\\"c\\"\\\\ d\u2028é"}}\n',
    );
  });
});

describe("postToInbox against the Claude Code stand-in", () => {
  test("writes exactly the two lines, with the session's token, and the model reads the content", async () => {
    const before = host.posts.length;
    const content = wrap(
      '<brigade-message id="m-1">\nline one\nline "two"\n</brigade-message>',
      "api",
    );
    const result = await post(host.socketPath, content);
    expect(result).toEqual({ ok: true });
    await host.waitForPosts(before + 1);
    const record = host.posts[before];
    expect(record?.raw).toBe(
      `{"type":"auth","token":"${host.token}"}\n` +
        `{"type":"user","message":{"role":"user","content":${JSON.stringify(content)}}}\n`,
    );
    expect(record?.authToken).toBe(host.token);
    expect(record?.authOk).toBe(true);
    expect(record?.outcome).toBe("delivered");
    expect(host.socketReads().at(-1)).toBe(content);
    expect(content.startsWith('<cross-session-message from-name="api">\n')).toBe(true);
    host.settle();
  });

  test("the result never carries the token", async () => {
    const before = host.posts.length;
    const results = [
      await post(host.socketPath, "x"),
      await post("relative.sock"),
      await post(join(scratch, "missing.sock")),
    ];
    for (const result of results) expect(JSON.stringify(result)).not.toContain(host.token);
    await host.waitForPosts(before + 1);
    host.settle();
  });

  test("size limit: exactly 1,048,576 characters for both lines is posted, one more is refused", async () => {
    const overhead = encodeInboxPostLines(host.token, "").length;
    const fits = "x".repeat(1_048_576 - overhead);
    expect(encodeInboxPostLines(host.token, fits).length).toBe(1_048_576);
    const before = host.posts.length;
    expect(await post(host.socketPath, fits)).toEqual({ ok: true });
    await host.waitForPosts(before + 1);
    expect(host.posts[before]?.outcome).toBe("delivered");
    expect(await post(host.socketPath, `${fits}y`)).toEqual({
      ok: false,
      stage: "refused",
      reason: "message_too_large",
    });
    // an escaped character counts as its serialised length (two characters for \n)
    expect(await post(host.socketPath, `${fits.slice(1)}\n`)).toMatchObject({
      reason: "message_too_large",
    });
    host.settle();
  });

  test("empty content is refused before anything else", async () => {
    expect(await post(host.socketPath, "")).toEqual({
      ok: false,
      stage: "refused",
      reason: "content_empty",
    });
  });
});

describe("pre-checks: a refused path is never dialled", () => {
  const refused = async (path: string, reason: string, uid?: number): Promise<void> => {
    const before = host.posts.length;
    const result = await postToInbox({
      socketPath: path,
      token: host.token,
      content: "never sent",
      ...(uid === undefined ? {} : { uid }),
    });
    expect(result).toEqual({ ok: false, stage: "refused", reason });
    // a dialled post would show up as a connection of the stand-in
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(host.posts.length).toBe(before);
  };

  test("relative path", () => refused("cc-socks/1.sock", "path_not_absolute"));

  test("empty path or a NUL character", async () => {
    await refused("", "path_invalid");
    await refused(`${host.socketPath}\0x`, "path_invalid");
  });

  test("longer than sun_path: 108 bytes refused on Linux, 107 checked; 104 refused on macOS", async () => {
    const at107 = `/${"a".repeat(106)}`;
    expect(Buffer.byteLength(at107)).toBe(107);
    expect(await checkInboxSocketPath(`${at107}b`, { platform: "linux" })).toEqual({
      ok: false,
      reason: "path_too_long",
    });
    expect(await checkInboxSocketPath(at107, { platform: "linux" })).toEqual({
      ok: false,
      reason: "socket_missing",
    });
    expect(await checkInboxSocketPath(at107.slice(0, 104), { platform: "darwin" })).toEqual({
      ok: false,
      reason: "path_too_long",
    });
    expect(await checkInboxSocketPath(at107.slice(0, 103), { platform: "darwin" })).toEqual({
      ok: false,
      reason: "socket_missing",
    });
    // bytes, not characters: 54 two-byte characters are 108 bytes
    await refused(`/${"é".repeat(53)}x`, "path_too_long");
  });

  test("missing socket", () => refused(join(scratch, "gone.sock"), "socket_missing"));

  test("a symlink to the real socket", async () => {
    const link = join(scratch, "link.sock");
    symlinkSync(host.socketPath, link);
    await refused(link, "socket_is_symlink");
  });

  test("a regular file with mode 0600", async () => {
    const file = join(scratch, "file.sock");
    writeFileSync(file, "", { mode: 0o600 });
    await refused(file, "not_a_socket");
  });

  test("the socket with mode 0644, 0700 or 0400", async () => {
    try {
      for (const mode of [0o644, 0o700, 0o400, 0o1600]) {
        chmodSync(host.socketPath, mode);
        await refused(host.socketPath, "socket_mode_not_0600");
      }
    } finally {
      chmodSync(host.socketPath, 0o600);
    }
  });

  test("the socket owned by uid 1234 (and ours refused for a caller of another uid)", async () => {
    try {
      chownSync(host.socketPath, 1234, 1234);
      await refused(host.socketPath, "socket_wrong_owner");
    } finally {
      chownSync(host.socketPath, 0, 0);
    }
    await refused(host.socketPath, "socket_wrong_owner", 1234);
  });

  test("lstat failing otherwise (a symlink loop on the way)", async () => {
    symlinkSync(join(scratch, "loop-b"), join(scratch, "loop-a"));
    symlinkSync(join(scratch, "loop-a"), join(scratch, "loop-b"));
    await refused(join(scratch, "loop-a", "x.sock"), "socket_unreadable");
  });

  test("positive control: after the checks above, the real socket is posted to", async () => {
    const before = host.posts.length;
    expect(await post(host.socketPath, "after the refusals")).toEqual({ ok: true });
    await host.waitForPosts(before + 1);
    expect(host.posts.length).toBe(before + 1);
    host.settle();
  });
});

describe("failures after dialling", () => {
  /** Starts a private 0600 socket server in `scratch`. */
  async function server(
    name: string,
    options: { pauseOnConnect?: boolean } = {},
  ): Promise<{
    server: Server;
    path: string;
  }> {
    const path = join(scratch, name);
    const srv = createServer(options);
    await new Promise<void>((resolve) => srv.listen(path, resolve));
    chmodSync(path, 0o600);
    return { server: srv, path };
  }

  test("nobody listening on a socket file: connect_failed, not connected", async () => {
    const { server: srv, path } = await server("dead.sock");
    const kept = join(scratch, "dead-kept.sock");
    linkSync(path, kept); // closing the server unlinks its path; the hard link stays a socket
    await new Promise<void>((resolve) => srv.close(() => resolve()));
    expect(await post(kept)).toEqual({
      ok: false,
      stage: "failed",
      reason: "connect_failed",
      connected: false,
    });
  });

  test("a peer that never reads: write_timeout once the deadline passes", async () => {
    const { server: srv, path } = await server("stall.sock", { pauseOnConnect: true });
    const big = "z".repeat(1_000_000); // more than the socket buffers hold
    const started = Date.now();
    const result = await postToInbox({
      socketPath: path,
      token: "t",
      content: big,
      writeTimeoutMs: 300,
    });
    expect(result).toEqual({
      ok: false,
      stage: "failed",
      reason: "write_timeout",
      connected: true,
    });
    expect(Date.now() - started).toBeLessThan(3_000);
    srv.close();
  });

  test("a peer that closes at once: write_failed, connected", async () => {
    const { server: srv, path } = await server("rude.sock");
    srv.on("connection", (socket) => socket.destroy());
    const big = "z".repeat(1_000_000);
    const result = await postToInbox({ socketPath: path, token: "t", content: big });
    expect(result).toEqual({ ok: false, stage: "failed", reason: "write_failed", connected: true });
    srv.close();
  });
});
