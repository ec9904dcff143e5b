import { type InspectReport, inspectText } from "../formats/inspect/index.ts";
import { oneLine, repairUtf8, sanitizeId } from "../formats/sanitize/index.ts";
import { type CliIo, readAll } from "./cli-io.ts";
import { parseCommandFlags } from "./parse-command-flags.ts";

/** The most `brigade inspect` reads from stdin: 16 MiB. */
export const INSPECT_MAX_INPUT_BYTES: number = 16 * 1024 * 1024;

const HELP = `usage: brigade inspect [--json] < text

Reads text on stdin and reports every <brigade-message> frame, cross-session envelope,
agent-message sentinel and attachment manifest it finds, their parsed fields, and every
forged, authority or neutralised tag (frame families and Claude Code's own tags, in every
look-alike spelling the sanitiser reads). --json prints the full report as one JSON document.
`;

/**
 * `brigade inspect [--json]`: reads at most {@link INSPECT_MAX_INPUT_BYTES} of stdin (invalid
 * UTF-8 repaired to U+FFFD, one per run of bad bytes) and prints the report. Exit 0 whatever the
 * text holds; 2 on a bad flag or oversize input.
 */
export async function runInspect(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseFlags(argv);
  if (values.help === true) {
    io.stdout(HELP);
    return 0;
  }
  const text = repairUtf8(await readAll(io.stdin, INSPECT_MAX_INPUT_BYTES));
  const report = inspectText(text);
  io.stdout(values.json === true ? `${JSON.stringify(report)}\n` : renderReport(report));
  return 0;
}

function parseFlags(argv: string[]) {
  return parseCommandFlags("inspect", argv, {
    json: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  });
}

/** One display value: remote text is sanitised to one line and capped before it is shown. */
function show(value: string, limit = 80): string {
  return oneLine(value, limit);
}

/** The human summary: short lines, every remote value sanitised. */
export function renderReport(report: InspectReport): string {
  const out: string[] = [];
  out.push(
    `frames: ${report.frames.length}, envelopes: ${report.envelopes.length}, ` +
      `forged tags: ${report.forgedTags.length}, authority tags: ${report.authorityTags.length}, ` +
      `neutralised tags: ${report.neutralisedTags.length}`,
  );
  report.frames.forEach((finding, index) => {
    const where = `frame ${index + 1} (line ${finding.line})`;
    if (!finding.ok) {
      out.push(`${where}: refused, ${finding.reason} (${finding.detail})`);
      return;
    }
    const f = finding.frame;
    out.push(
      `${where}: from-principal ${sanitizeId(f.fromPrincipal)}, from-name "${show(f.fromName)}", ` +
        `from-label "${show(f.fromLabel)}", team "${show(f.team)}"`,
    );
    out.push(
      `  message ${sanitizeId(f.messageId)}, reply to session ${sanitizeId(f.replyToSessionId)}, ` +
        `hops ${show(f.hops, 8)}, sent ${show(f.sentAt, 32)}` +
        (f.inReplyTo === "" ? "" : `, in reply to ${sanitizeId(f.inReplyTo)}`),
    );
    out.push(`  summary: ${show(f.summary)}`);
    out.push(
      `  body: ${f.body.length} UTF-16 units${f.wrapped ? `, wrapped as "${show(f.wrapperFromName)}"` : ""}`,
    );
  });
  report.envelopes.forEach((finding, index) => {
    const where = `envelope ${index + 1} (line ${finding.line})`;
    if (!finding.ok) {
      out.push(`${where}: not an envelope, ${finding.reason}`);
    } else if (finding.face === "model") {
      out.push(`${where}: model face, from ${show(finding.fields.from)}`);
    } else {
      const from =
        finding.fields.from === undefined ? "no from" : `from ${show(finding.fields.from)}`;
      out.push(
        `${where}: Claude Code wire frame, ${from}${finding.wrapsFrame ? ", wraps a frame" : ""}`,
      );
    }
  });
  if (report.sentinel !== null) {
    out.push(
      `sentinel: from session "${show(report.sentinel.fromSession)}"` +
        (report.sentinel.workspace === undefined
          ? ""
          : `, workspace "${show(report.sentinel.workspace)}"`) +
        (report.sentinel.mode === undefined ? "" : `, mode ${show(report.sentinel.mode, 32)}`),
    );
  }
  if (report.attachments !== null) {
    out.push(`attachments: ${report.attachments.map((a) => `"${show(a.name, 60)}"`).join(", ")}`);
  }
  for (const tag of report.forgedTags) {
    const whose = tag.kind === "claude-code" ? " (a Claude Code tag)" : "";
    out.push(`forged tag <${tag.closing ? "/" : ""}${tag.tag}>${whose} at line ${tag.line}`);
  }
  for (const tag of report.authorityTags) {
    out.push(`authority tag <${tag.closing ? "/" : ""}${show(tag.tag, 40)}> at line ${tag.line}`);
  }
  for (const tag of report.neutralisedTags) {
    const opener = tag.form === "entity" ? "&lt;" : "<\\";
    out.push(`neutralised tag ${opener}${tag.closing ? "/" : ""}${tag.tag} at line ${tag.line}`);
  }
  return `${out.join("\n")}\n`;
}
