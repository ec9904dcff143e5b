// The character sets of docs/spec/cross-session.md §6.1, as regex source text (for use inside
// `[…]`, flags `giu`). OPEN, CLOSE and SLASH are literal characters in the spec's order; the regex
// sources and their SHA-256 in docs/spec/cross-session.md §6.2 depend on that exact spelling.

/** ASCII name characters. */
export const NAME_SET = "A-Za-z0-9_\\-";

/** `<` and its 29 look-alikes (literal characters). */
export const OPEN_SET: string = `<${String.fromCodePoint(
  0x02c2,
  0x1438,
  0x16b2,
  0x2039,
  0x226e,
  0x227a,
  0x2280,
  0x22d6,
  0x2329,
  0x276c,
  0x276e,
  0x2770,
  0x27e8,
  0x2991,
  0x2993,
  0x29fc,
  0x2a79,
  0x2aa6,
  0x3008,
  0xfe3f,
  0xfe64,
  0xff1c,
  0x1d236,
  0x226a,
  0x22d8,
  0x2aa1,
  0x2af7,
  0x27ea,
  0xfe3d,
)}`;

/** `>` and its 19 look-alikes (literal characters). */
export const CLOSE_SET: string = `>${String.fromCodePoint(
  0x02c3,
  0x1433,
  0x203a,
  0x226f,
  0x227b,
  0x2281,
  0x22d7,
  0x232a,
  0x276d,
  0x276f,
  0x2771,
  0x27e9,
  0x29fd,
  0x3009,
  0xfe40,
  0xfe65,
  0xff1e,
  0x16f3f,
  0x1d237,
)}`;

/** `/` and its 3 look-alikes (literal characters). */
export const SLASH_SET: string = `/${String.fromCodePoint(0xff0f, 0x2215, 0x2044)}`;

/** `-`, `_` and their look-alikes (class body; `-` is in `\p{Pd}`). */
export const DASH_SET: string = String.raw`_\p{Pc}\u2017\u02cd\u07fa\u0640\p{Pd}\u2212\u207b\u208b\u02d7\u2796\u2043\u30fc\uff70`;

/** {@link DASH_SET} as a complete character class, brackets included. */
export const DASH_CLASS: string = `[${DASH_SET}]`;

/** Dash look-alikes that are also EQUALS characters: never folded, accepted raw as a dash. */
export const EXTRA_DASH_SET: string = String.raw`\u2e40\u30a0\u1400`;

/** `:` and its look-alikes. */
export const COLON_SET: string = String.raw`:\uff1a\ufe55\ufe13\ua789\u2236\u02d0\u02f8\u05c3\u0589\u0703\u0704\u16ec\u1803\u1809\u205a\ua4fd\ufe30`;

/**
 * `=` and its look-alikes, including the three docs/spec/cross-session.md §7 additions U+2E40,
 * U+30A0, U+1400.
 */
export const EQUALS_SET: string = String.raw`=\u207c\u208c\ufe66\uff1d\ua78a\u2550\u268c\ua4ff\u{1f7f0}\u2e40\u30a0\u1400`;

/** Separators that count as a word boundary after `channel` even though they are invisible. */
export const SEP_SET: string = String.raw`\x0b\x0c\x1c-\x1f\x85\u2028\u2029\u115f\u1160\u3164\uffa0`;

/** Characters tolerated between the letters of a tag name. */
export const INVIS_SET: string = String.raw`\u0600-\u0605\u06dd\u070f\u0890\u0891\u08e2\u{110bd}\u{110cd}\u{ad}\u{34f}\u{61c}\u{115f}-\u{1160}\u{17b4}-\u{17b5}\u{180b}-\u{180f}\u{200b}-\u{200f}\u{202a}-\u{202e}\u{2060}-\u{206f}\u{3164}\u{fe00}-\u{fe0f}\u{feff}\u{ffa0}\u{fff0}-\u{fffb}\u{1107f}\u{13430}-\u{1343f}\u{16fe4}\u{1bca0}-\u{1bca3}\u{1d173}-\u{1d17a}\u{e0000}-\u{e0fff}\u0300-\u0344\u0346-\u036f\u0483-\u0489\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06dc\u06df-\u06e4\u06e7\u06e8\u06ea-\u06ed\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\u3099\u309a\ufe20-\ufe2f\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029`;
