import { toWellFormed } from "../../formats/text/index.ts";

/**
 * Markup that is safe to place in a page as it is: built only by {@link html} (which escapes
 * every value it is given) or {@link trusted} (fixed text of this program).
 */
export class Html {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * `text` as HTML text or a quoted attribute value: `&`, `<`, `>`, `"` and `'` become character
 * references, so no value can close an element or an attribute. Lone surrogates become U+FFFD
 * (`toWellFormed`), so the page is always valid UTF-8.
 *
 * @example escapeHtml("<b>") === "&lt;b&gt;"
 */
export function escapeHtml(text: string): string {
  return toWellFormed(text).replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** A value {@link html} can place: text (escaped), a number, markup, a list of those, or nothing. */
export type HtmlValue = string | number | Html | readonly HtmlValue[] | null | undefined | false;

function place(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return "";
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(place).join("");
  if (typeof value === "number") return String(value);
  return escapeHtml(value as string);
}

/**
 * A template tag that escapes every placed value unless it is already {@link Html}: the one way
 * the dashboard writes markup, so a message body, a label or a session name is always text.
 *
 * @example html`<p>${label}</p>`
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0] ?? "";
  values.forEach((value, i) => {
    out += place(value) + (strings[i + 1] ?? "");
  });
  return new Html(out);
}

/** Fixed markup of this program (never a value from a request or the store). */
export function trusted(text: string): Html {
  return new Html(text);
}
