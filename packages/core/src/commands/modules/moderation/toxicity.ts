import { matchingWords, wordVariants } from "./normalize.js";

/**
 * Scores how toxic a chat message is, from 0 (harmless) to 1 (certainly toxic). Auto-moderation
 * compares the score (as a percentage) with per-action thresholds. Implement it to plug in a model
 * or a remote service; the built-in one is {@link LexiconToxicityScorer}.
 */
export interface ToxicityScorer {
  /** A short name shown in the moderation settings (`lexicon-v1`, for example). */
  readonly name: string;
  /** One sentence saying what the scorer is and what it misses. */
  readonly description: string;
  score(text: string): number | Promise<number>;
}

/**
 * Insults and abuse in English and German with their weight (how sure a single use makes the
 * message toxic). Slurs against groups weigh most; mild words least. Words are matched after the
 * same folding as bad words (case, accents, look-alike characters, stretched letters).
 */
const LEXICON: Readonly<Record<string, number>> = {
  // English
  idiot: 0.45, moron: 0.5, stupid: 0.35, dumb: 0.3, dumbass: 0.55, loser: 0.35, trash: 0.3, garbage: 0.3,
  pathetic: 0.35, worthless: 0.5, ugly: 0.3, shut: 0.15, stfu: 0.5, gtfo: 0.5, kys: 0.95, kill: 0.4,
  hate: 0.3, retard: 0.8, retarded: 0.8, bitch: 0.6, bastard: 0.55, asshole: 0.65, dick: 0.45, dickhead: 0.6,
  cunt: 0.8, whore: 0.75, slut: 0.7, fuck: 0.4, fucking: 0.35, motherfucker: 0.7, shit: 0.25, scum: 0.55,
  disgusting: 0.35, freak: 0.35, clown: 0.25, noob: 0.15, cancer: 0.35, faggot: 0.95, fag: 0.9, nigger: 0.98,
  nigga: 0.85, tranny: 0.85, spastic: 0.7,
  // German
  idiotin: 0.45, dumm: 0.3, dummkopf: 0.45, blod: 0.3, depp: 0.4, trottel: 0.45, vollidiot: 0.6,
  arschloch: 0.65, arsch: 0.4, wichser: 0.7, hurensohn: 0.8, hure: 0.75, schlampe: 0.7, fotze: 0.85, missgeburt: 0.85,
  spast: 0.7, behindert: 0.6, mongo: 0.75, opfer: 0.4, versager: 0.4, abschaum: 0.6, hasslich: 0.3,
  halts: 0.15, maul: 0.35, fresse: 0.45, verpiss: 0.6, stirb: 0.6, scheiße: 0.25, scheisse: 0.25, kacke: 0.2,
};

/** Second-person words: an insult aimed at someone weighs more than one said in general. */
const TARGETED = new Set(["you", "your", "youre", "u", "ur", "du", "dich", "dir", "dein", "deine", "ihr", "euch"]);

/**
 * The built-in scorer: a word list, not a learned model. It runs offline with no download and in
 * microseconds. Each listed word found in the message adds its weight by noisy-OR
 * (`1 - Π(1 - w)`), and weights are raised by a quarter (to at most 0.98) when the message also
 * addresses someone (`you`, `du`...). It knows only English and German insults, and it misses
 * sarcasm, context, new slang and spelling tricks beyond look-alike characters and stretched letters.
 */
export class LexiconToxicityScorer implements ToxicityScorer {
  readonly name = "lexicon-v1";
  readonly description =
    "A built-in list of English and German insults with weights (not a machine-learned model): catches explicit abuse, misses sarcasm and context.";

  score(text: string): number {
    const words = matchingWords(text);
    const targeted = words.some((word) => TARGETED.has(word));
    let harmless = 1;
    for (const word of words) {
      let weight = 0;
      for (const variant of wordVariants(word)) weight = Math.max(weight, LEXICON[variant] ?? 0);
      if (weight === 0) continue;
      harmless *= 1 - (targeted ? Math.min(weight * 1.25, 0.98) : weight);
    }
    return 1 - harmless;
  }
}
