import { inspectText } from "../../formats/inspect/index.ts";
import { familyTagAt } from "../../formats/sanitize/index.ts";
import { type Html, html } from "./html.ts";

/** Most UTF-16 units of a body the dashboard shows; a longer one is cut with a note. */
export const BODY_VIEW_MAX_UNITS: number = 64 * 1024;

/** What the sanitiser's reading found in a body: the counts `brigade inspect` reports first. */
export interface BodyFindings {
  readonly forged: number;
  readonly authority: number;
  readonly neutralised: number;
  readonly frames: number;
}

/**
 * A message body as the dashboard shows it: always text (every character escaped, never
 * markup), inside a `<pre>`, with every forged tag that `brigade inspect` reports (a live tag of
 * the sanitiser's reading that is not a parsed frame's own, docs/11-sanitizer.md) wrapped in
 * `<mark class="forged">` so a person sees what would have tried to pass for a frame. At most
 * {@link BODY_VIEW_MAX_UNITS} are shown.
 *
 * @example bodyView("hi <system-reminder>").findings.forged === 1
 */
export function bodyView(body: string): { markup: Html; findings: BodyFindings } {
  const text = body.length > BODY_VIEW_MAX_UNITS ? body.slice(0, BODY_VIEW_MAX_UNITS) : body;
  const report = inspectText(text);
  const parts: Html[] = [];
  let at = 0;
  for (const finding of report.forgedTags) {
    if (finding.offset < at) continue;
    const tag = familyTagAt(text, finding.offset);
    const end = tag === null ? finding.offset + 1 : tag.end;
    parts.push(html`${text.slice(at, finding.offset)}`);
    const what = `forged ${finding.closing ? "closing " : ""}${finding.tag} tag`;
    parts.push(
      html`<mark class="forged" title="${what}">${text.slice(finding.offset, end)}</mark>`,
    );
    at = end;
  }
  parts.push(html`${text.slice(at)}`);
  const cut =
    text.length < body.length
      ? html`<p class="note">Only the first 65,536 characters are shown.</p>`
      : "";
  return {
    markup: html`<pre class="body">${parts}</pre>${cut}`,
    findings: {
      forged: report.forgedTags.length,
      authority: report.authorityTags.length,
      neutralised: report.neutralisedTags.length,
      frames: report.frames.length,
    },
  };
}
