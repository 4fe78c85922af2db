/** Look-alike characters read as letters when matching bad words (`sh1t` -> `shit`, `@ss` -> `ass`). */
const SUBSTITUTIONS: Readonly<Record<string, string>> = {
  "0": "o",
  "1": "i",
  "3": "e",
  "4": "a",
  "5": "s",
  "7": "t",
  "8": "b",
  "@": "a",
  $: "s",
  "!": "i",
  "|": "l",
  "+": "t",
  "€": "e",
};

const LETTER = /\p{L}/u;
const NOT_LETTER = /[^\p{L}]+/u;
const MARKS = /\p{M}+/gu;

/** Lowercase, compatibility-folded (fullwidth -> ASCII) and without accents (`Ünïcödé` -> `unicode`). */
export function foldText(text: string): string {
  return text.normalize("NFKD").replace(MARKS, "").toLowerCase();
}

/**
 * The words of a message as bad-word matching sees them, in two readings: folded ({@link foldText})
 * and split on everything that is not a letter (`darn!` -> `darn`); and the same with look-alike
 * characters read as letters inside tokens that have a letter (`d4rn`, `@ss` -> `darn`, `ass`; a
 * plain number stays a number). `literal` and `substituted` keep word order, for phrases.
 */
export function readings(text: string): { literal: string[]; substituted: string[] } {
  const literal: string[] = [];
  const substituted: string[] = [];
  for (const raw of foldText(text).split(/\s+/)) {
    if (raw === "" || !LETTER.test(raw)) continue;
    let mapped = "";
    for (const char of raw) mapped += SUBSTITUTIONS[char] ?? char;
    for (const word of raw.split(NOT_LETTER)) if (word !== "") literal.push(word);
    for (const word of mapped.split(NOT_LETTER)) if (word !== "") substituted.push(word);
  }
  return { literal, substituted };
}

/** Every word of both {@link readings}, each once. */
export function matchingWords(text: string): string[] {
  const { literal, substituted } = readings(text);
  return [...new Set([...literal, ...substituted])];
}

/** A word and its stretched-out readings: runs of a letter cut to one and to two (`fuuuck` -> `fuck`, `fuuck`). */
export function wordVariants(word: string): string[] {
  const one = word.replace(/(\p{L})\1+/gu, "$1");
  const two = word.replace(/(\p{L})\1{2,}/gu, "$1$1");
  return [...new Set([word, one, two])];
}
