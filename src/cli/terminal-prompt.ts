/**
 * Asks one line on the process's terminal (stdin must be a TTY): the question goes to stderr
 * (stdout may be reserved for an envelope or a result); with `secret` the answer is not echoed.
 * Enter ends the line; Backspace removes a character; Ctrl-C or Ctrl-D answers empty.
 *
 * @example const secret = await promptOnTerminal("Join secret: ", { secret: true });
 */
export function promptOnTerminal(
  question: string,
  options: { readonly secret: boolean },
): Promise<string> {
  const stdin = process.stdin;
  process.stderr.write(question);
  return new Promise((resolve) => {
    let answer = "";
    const wasRaw = stdin.isRaw;
    stdin.setRawMode(true);
    stdin.resume();
    const done = (value: string): void => {
      stdin.off("data", onData);
      stdin.setRawMode(wasRaw);
      stdin.pause();
      process.stderr.write("\n");
      resolve(value);
    };
    const onData = (chunk: Buffer): void => {
      for (const ch of chunk.toString("utf8")) {
        if (ch === "\r" || ch === "\n") {
          done(answer);
          return;
        }
        if (ch === "\u0003" || ch === "\u0004") {
          done("");
          return;
        }
        if (ch === "\u007f" || ch === "\b") {
          if (answer.length > 0) {
            answer = Array.from(answer).slice(0, -1).join("");
            if (!options.secret) process.stderr.write("\b \b");
          }
          continue;
        }
        answer += ch;
        if (!options.secret) process.stderr.write(ch);
      }
    };
    stdin.on("data", onData);
  });
}
