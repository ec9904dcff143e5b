/**
 * Another program posting to a Claude Code inbox socket, as a second poster does in the field
 * (another session, a script): one child process writes each content as a post of its own
 * (docs/spec/claude-code.md §3.2, without the auth line, which Linux does not enforce:
 * docs/spec/claude-code.md §0.6).
 * Claude Code keys its per-sender limits by the poster's process when the post names no sender,
 * so each call is one sender of its own (docs/spec/claude-code.md §3.3).
 */
import { spawn } from "node:child_process";

const POSTER = `
const { connect } = require("node:net");
let input = "";
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", async () => {
  const { socketPath, contents } = JSON.parse(input);
  for (const content of contents) {
    await new Promise((resolve, reject) => {
      const socket = connect(socketPath, () => {
        socket.end(JSON.stringify({ type: "user", message: { role: "user", content } }) + "\\n");
      });
      socket.once("close", resolve);
      socket.once("error", reject);
    });
  }
});
`;

/**
 * Posts `contents` in order from a new child process, one connection per post; resolves once
 * every post was written and closed, rejects when the child fails.
 *
 * @example await postAsAnotherProgram(session.registry().messagingSocketPath, ["hello"]);
 */
export function postAsAnotherProgram(
  socketPath: string,
  contents: readonly string[],
): Promise<void> {
  const child = spawn(process.execPath, ["-e", POSTER], { stdio: ["pipe", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  child.stdin.end(JSON.stringify({ socketPath, contents }));
  return new Promise((resolve, reject) => {
    child.once("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`the poster exited ${code}: ${stderr}`)),
    );
  });
}
