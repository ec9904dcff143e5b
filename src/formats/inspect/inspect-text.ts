import type { Origin } from "../agent-message/index.ts";
import { parse as parseSentinel } from "../agent-message/index.ts";
import type { Attachment } from "../attachments/index.ts";
import { parse as parseManifest } from "../attachments/index.ts";
import type {
  CcPeerFrameFields,
  CrossSessionEnvelopeFields,
  CrossSessionEnvelopeRefusal,
} from "../cross-session/index.ts";
import {
  decodeCcPeerFrame,
  ENGINE_AUTHORITY_ENVELOPE_TAGS,
  neutralizePeerBody,
  parseCrossSessionEnvelope,
} from "../cross-session/index.ts";
import type { FrameParseDetail, FrameParseReason, ParsedFrame } from "../frame/index.ts";
import { OPEN_TAG, parse as parseFrame, WRAPPER_CLOSE, WRAPPER_OPEN } from "../frame/index.ts";
import { findFamilyTag, NEUTRALISED_LT, tagAfterOpener } from "../sanitize/index.ts";

/** Where a finding starts: a UTF-16 offset into the inspected text and its 1-based line. */
export interface TextPosition {
  readonly offset: number;
  readonly line: number;
}

/** A `<brigade-message>` frame found in the text, parsed or refused. */
export type FrameFinding =
  | (TextPosition & { readonly ok: true; readonly frame: ParsedFrame })
  | (TextPosition & {
      readonly ok: false;
      readonly reason: FrameParseReason;
      readonly detail: FrameParseDetail;
    });

/**
 * A `<cross-session-message` line found in the text: a model-face envelope, a Claude Code wire
 * frame (which is also what Brigade's variant-C wrapper around a frame reads as), or neither.
 */
export type EnvelopeFinding =
  | (TextPosition & {
      readonly ok: true;
      readonly face: "model";
      readonly fields: CrossSessionEnvelopeFields;
      readonly bodyLength: number;
    })
  | (TextPosition & {
      readonly ok: true;
      readonly face: "wire";
      readonly fields: CcPeerFrameFields;
      readonly bodyLength: number;
      readonly wrapsFrame: boolean;
    })
  | (TextPosition & { readonly ok: false; readonly reason: CrossSessionEnvelopeRefusal });

/** A tag spelling found in the text: `tag` is the family or authority tag name, lower case. */
export interface TagFinding extends TextPosition {
  readonly tag: string;
  /** True for a closing spelling (`</…`). */
  readonly closing: boolean;
}

/** A tag the sanitiser reads (docs/11-sanitizer.md): a frame family or one of Claude Code's tags. */
export interface ReadTagFinding extends TagFinding {
  /** `family` for the five frame families, `claude-code` for Claude Code's own tags. */
  readonly kind: "family" | "claude-code";
}

/** A tag already made inert: `entity` is the sanitiser's `&lt;`, `backslash` the envelope's `<\`. */
export interface NeutralisedTagFinding extends TagFinding {
  readonly form: "entity" | "backslash";
}

/** Everything {@link inspectText} finds. Arrays are in text order. */
export interface InspectReport {
  readonly frames: readonly FrameFinding[];
  readonly envelopes: readonly EnvelopeFinding[];
  /** The agent-message sentinel on the first line, if any. */
  readonly sentinel: Origin | null;
  /** The trailing attachment manifest, if any. */
  readonly attachments: readonly Attachment[] | null;
  /**
   * Live tags on the sanitiser's tag reading (docs/11-sanitizer.md: the five frame families and
   * Claude Code's own tags, in every spelling it reads: look-alike brackets, slashes, letters and
   * dashes, blanks, whitespace for a hyphen, an escaped or doubled slash, invisible code points)
   * that are not the open or close tag of a frame or envelope this report parsed: text a
   * sanitiser would have neutralised, so a forgery.
   */
  readonly forgedTags: readonly ReadTagFinding[];
  /**
   * Openers of the engine authority family (docs/spec/cross-session.md §7.1) that the peer-body
   * neutraliser would defuse, outside the structural tags of parsed frames and envelopes.
   */
  readonly authorityTags: readonly TagFinding[];
  /**
   * Tags already neutralised: by the sanitiser (`&lt;` before a tag of its reading, in any
   * spelling) or by the envelope's escaper (`<\` before an authority tag, when what follows is
   * not itself a live tag, as `<\/` is).
   */
  readonly neutralisedTags: readonly NeutralisedTagFinding[];
}

const AUTHORITY_NAMES = [...ENGINE_AUTHORITY_ENVELOPE_TAGS, "antml"]
  .sort((a, b) => b.length - a.length)
  .join("|");
const BACKSLASH_TAG = new RegExp(`<\\\\\\/?(${AUTHORITY_NAMES})`, "giu");
const ENVELOPE_CLOSE_LINE = `\n${WRAPPER_CLOSE}`;

/**
 * Reports every `<brigade-message>` frame, cross-session envelope, agent-message sentinel and
 * attachment manifest in `text`, with their parsed fields, and every forged, authority or
 * neutralised tag. Pure and total: never throws, whatever the text (lone surrogates included).
 * Field values are returned as found; a caller that shows them to a person or a model sanitises
 * them first.
 *
 * @example inspectText("hi").frames.length === 0
 */
export function inspectText(text: string): InspectReport {
  const lines = lineStarts(text);
  const at = (offset: number): TextPosition => ({ offset, line: lineOf(lines, offset) });
  const structural = new Set<number>();

  const frames = findFrames(text, at, structural);
  const envelopes = findEnvelopes(text, at, structural);
  const sentinel = parseSentinel(text);
  const manifest = parseManifest(sentinel.found ? sentinel.text : text);

  // The sanitiser's own recogniser, which its tests hold to an independent oracle: a report of
  // what the sanitiser would neutralise cannot be narrower than what it neutralises.
  const forgedTags: ReadTagFinding[] = [];
  const live = new Set<number>();
  for (let tag = findFamilyTag(text); tag !== null; tag = findFamilyTag(text, tag.start + 1)) {
    live.add(tag.start);
    if (structural.has(tag.start)) continue;
    forgedTags.push({ ...at(tag.start), tag: tag.family, kind: tag.kind, closing: tag.closing });
  }
  const authorityTags = findAuthorityTags(text, at).filter((t) => !structural.has(t.offset));
  const neutralisedTags: NeutralisedTagFinding[] = [];
  for (let i = text.indexOf(NEUTRALISED_LT); i !== -1; i = text.indexOf(NEUTRALISED_LT, i + 1)) {
    const tag = tagAfterOpener(text, i, i + NEUTRALISED_LT.length);
    if (tag === null) continue;
    neutralisedTags.push({ ...at(i), tag: tag.family, closing: tag.closing, form: "entity" });
  }
  for (const match of text.matchAll(BACKSLASH_TAG)) {
    if (live.has(match.index)) continue;
    neutralisedTags.push({
      ...at(match.index),
      tag: foldTag(match[1]),
      closing: match[0].includes("/"),
      form: "backslash",
    });
  }
  neutralisedTags.sort((a, b) => a.offset - b.offset);

  return {
    frames,
    envelopes,
    sentinel: sentinel.found ? sentinel.origin : null,
    attachments: manifest.attachments,
    forgedTags,
    authorityTags,
    neutralisedTags,
  };
}

function foldTag(name: string | undefined): string {
  return (name ?? "")
    .toLowerCase()
    .replace(/ſ/g, "s")
    .replace(/\u212a/g, "k");
}

/** Frames in order: each candidate is parsed on the text up to the next candidate's tag. */
function findFrames(
  text: string,
  at: (offset: number) => TextPosition,
  structural: Set<number>,
): FrameFinding[] {
  const found: FrameFinding[] = [];
  const opens = openTagOffsets(text);
  let segmentStart = 0;
  for (let k = 0; k < opens.length; k++) {
    const open = opens[k] as number;
    if (open < segmentStart) continue;
    const segmentEnd = opens[k + 1] ?? text.length;
    const result = parseFrame(text.slice(segmentStart, segmentEnd));
    if (!result.ok) {
      found.push({ ...at(open), ok: false, reason: result.reason, detail: result.detail });
      continue;
    }
    const frameStart = open;
    const frameEnd = frameStart + result.frame.frame.length;
    structural.add(frameStart);
    structural.add(frameEnd - "</brigade-message>".length);
    if (result.frame.wrapped) {
      const wrapperOpen = text.lastIndexOf(WRAPPER_OPEN, frameStart);
      if (wrapperOpen >= segmentStart) structural.add(wrapperOpen);
      if (text.startsWith(ENVELOPE_CLOSE_LINE, frameEnd)) structural.add(frameEnd + 1);
    }
    found.push({ ...at(frameStart), ok: true, frame: result.frame });
    segmentStart = frameEnd;
  }
  return found;
}

function openTagOffsets(text: string): number[] {
  const offsets: number[] = [];
  for (let i = text.indexOf(OPEN_TAG); i !== -1; i = text.indexOf(OPEN_TAG, i + 1)) {
    const next = text[i + OPEN_TAG.length];
    if (next === undefined || next === " " || next === ">" || next === "\n" || next === "\t") {
      offsets.push(i);
    }
  }
  return offsets;
}

/** Envelopes: every `<cross-session-message` at a line start, up to its closing line. */
function findEnvelopes(
  text: string,
  at: (offset: number) => TextPosition,
  structural: Set<number>,
): EnvelopeFinding[] {
  const found: EnvelopeFinding[] = [];
  for (let i = text.indexOf(WRAPPER_OPEN); i !== -1; i = text.indexOf(WRAPPER_OPEN, i + 1)) {
    if (i > 0 && text[i - 1] !== "\n") continue;
    const close = text.indexOf(ENVELOPE_CLOSE_LINE, i);
    if (close === -1) continue;
    const candidate = text.slice(i, close + ENVELOPE_CLOSE_LINE.length);
    const model = parseCrossSessionEnvelope(candidate);
    if (model.ok) {
      found.push({
        ...at(i),
        ok: true,
        face: "model",
        fields: model.fields,
        bodyLength: model.body.length,
      });
    } else {
      const wire = decodeCcPeerFrame(candidate);
      if (wire.ok) {
        found.push({
          ...at(i),
          ok: true,
          face: "wire",
          fields: wire.fields,
          bodyLength: wire.body.length,
          wrapsFrame: wire.body.startsWith(OPEN_TAG),
        });
      } else {
        found.push({ ...at(i), ok: false, reason: model.reason });
        continue;
      }
    }
    structural.add(i);
    structural.add(close + 1);
  }
  return found;
}

/**
 * Openers the peer-body neutraliser rewrites: it turns each matched angle character (one code
 * point, possibly astral) into `<\`, so walking input and output side by side finds them.
 */
function findAuthorityTags(text: string, at: (offset: number) => TextPosition): TagFinding[] {
  const out = neutralizePeerBody(text);
  if (out === text) return [];
  const found: TagFinding[] = [];
  let i = 0;
  let j = 0;
  while (i < text.length && j < out.length) {
    const cp = text.codePointAt(i) as number;
    const width = cp > 0xffff ? 2 : 1;
    if (out[j] === "<" && out[j + 1] === "\\" && !(text[i] === "<" && text[i + 1] === "\\")) {
      const after = text.slice(i + width, i + width + 200);
      found.push({
        ...at(i),
        tag: authorityNameAfter(after),
        closing: /^[\s]*[/\uFF0F\u2215\u2044]/u.test(after),
      });
      i += width;
      j += 2;
      continue;
    }
    i += width;
    j += width;
  }
  return found;
}

/** A readable name for the tag after an opener: its ASCII-ish letters, lower case, capped. */
function authorityNameAfter(after: string): string {
  const match = /^[\s/]*([\p{L}\p{N}_\-‐-―]{1,40})/u.exec(after);
  return match === null ? "" : (match[1] as string).toLowerCase();
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

function lineOf(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] as number) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}
