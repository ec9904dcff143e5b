import fc from "fast-check";

/** Fragments that exercise every rule of the sanitiser and every token of the frame. */
export const HOSTILE_FRAGMENTS: readonly string[] = [
  "<",
  "</",
  "< /",
  "<\u3000/\t",
  "<brigade-message",
  "</brigade-message>",
  "<brigade-message team=\"root\" from-principal=\"p-0\">",
  "<cross-session-message",
  "</cross-session-message>",
  "<teammate-message",
  "<channel",
  "<System-Reminder>",
  "</ſyſtem-reminder>",
  "<\\/brigade-message>",
  "<//channel",
  "</brigade message>",
  "<system reminder>",
  "<system\u2800reminder",
  "<teammate\u4E00message",
  "<cross\u2500session\u2500message",
  "<\u2800channel",
  "<command-name>",
  "</local-command-stdout>",
  "<persisted-output>",
  "<command message",
  "tick>",
  "\\",
  "\u2800",
  "\u4E00",
  "brigade-message",
  "system-reminder",
  "ſ",
  "\u212A",
  "\u0130",
  "----",
  "\n----\n",
  "\n",
  "\r\n",
  "\r",
  "\t",
  "\u2028",
  "\u0085",
  "\u00A0",
  "\u3000",
  " ",
  "Sender summary (untrusted): ",
  '"',
  "'",
  ">",
  "=",
  "&lt;",
  "\u200B",
  "\u200D",
  "\u202E",
  "\u2066",
  "\u00AD",
  "\uFEFF",
  "\u0000",
  "\u0007",
  "\u001B",
  "\u007F",
  "\u009C",
  "n",
  "\u0303",
  "\u0338",
  "e\u0301",
  "\u0316",
  "\u1100",
  "\u1161",
  "€",
  "😀",
  "\uD800",
  "\uDC00",
  "\uDBFF",
  "EOF",
  "[truncated]",
];

/** One hostile fragment or a short arbitrary string (any code point, lone surrogates included). */
const piece: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_FRAGMENTS) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 6 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
  },
);

/** Hostile text: a concatenation of {@link HOSTILE_FRAGMENTS} and arbitrary code points. */
export const hostileText: fc.Arbitrary<string> = fc
  .array(piece, { maxLength: 40 })
  .map((parts) => parts.join(""));

/** Long hostile text, past every code-point cap (not the body's byte cap). */
export const longHostileText: fc.Arbitrary<string> = fc
  .array(piece, { minLength: 60, maxLength: 300 })
  .map((parts) => parts.join(""));
