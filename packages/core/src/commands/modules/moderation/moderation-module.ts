import type { ChatEvent } from "../../../chat/event.js";
import { ChatBudget } from "../../chat-budget.js";
import { CommandError } from "../../command-error.js";
import { CHAT_PATTERN_LIMITS, CommandRegex, patternSetProblem } from "../../command-regex.js";
import { isInGroups } from "../exemptions.js";
import { BOT_MODULE_ERROR_CODES, BotModuleError, parseModuleConfig } from "../module-error.js";
import { isAllowedHost, linkHosts } from "./links.js";
import { MODERATION_LIMITS } from "./moderation-bounds.js";
import {
  MODERATION_ACTION_TYPES,
  moderationSettingsSchema,
  type ModerationAction,
  type ModerationRule,
  type ModerationSettings,
  type ModerationSettingsInput,
} from "./moderation-record.js";
import { readings, wordVariants } from "./normalize.js";
import type { ToxicityScorer } from "./toxicity.js";

/** Why a message breaks the rules and what to do about it. */
export interface ModerationVerdict {
  rule: ModerationRule;
  action: ModerationAction;
  /** What was found, for the log and the warning (`link to evil.example`, `82 % capitals`...). */
  detail: string;
}

/** Moderation settings with their patterns compiled and their words folded. */
export interface PreparedModeration {
  settings: ModerationSettings;
  patterns: CommandRegex[];
  /** Single bad words, folded. */
  words: Set<string>;
  /** Bad phrases of several words, folded. */
  phrases: string[][];
  /** The phrases as a tree of words, walked once along a message. */
  phraseTree: PhraseNode;
}

/** A node of the phrase tree: the words that may follow, and whether a phrase ends here. */
export interface PhraseNode {
  next: Map<string, PhraseNode>;
  end: boolean;
}

const SEVERITY: Readonly<Record<ModerationAction["type"], number>> = { warn: 0, delete: 1, timeout: 2, ban: 3 };

/** The stronger of two verdicts (ban > timeout > delete > warn; a longer timeout is stronger). */
function stronger(a: ModerationVerdict | null, b: ModerationVerdict): ModerationVerdict {
  if (a === null) return b;
  const diff = SEVERITY[b.action.type] - SEVERITY[a.action.type];
  if (diff !== 0) return diff > 0 ? b : a;
  if (a.action.type === "timeout" && b.action.type === "timeout") return b.action.seconds > a.action.seconds ? b : a;
  return a;
}

/** The text of a message without emotes and cheermotes (emote names such as `LUL` are not shouting). */
function writtenText(event: ChatEvent): string {
  if (event.fragments.length === 0) return event.message;
  return event.fragments
    .filter((fragment) => fragment.type === "text" || fragment.type === "mention")
    .map((fragment) => fragment.text)
    .join("");
}

/**
 * Auto-moderation of each channel: caps, symbols, links, bad words, length and a toxicity score.
 * {@link check} returns the strongest verdict among the rules a message breaks (rules sparing the
 * sender's groups are skipped), or null. Carrying the action out is the host's job: through the
 * platform plugin's optional moderation part (`deleteMessage`, `timeout`, `ban`), or a chat warning.
 */
export class ModerationModule {
  readonly #channels = new Map<string, PreparedModeration>();
  readonly #scorer: ToxicityScorer | null;
  readonly #budget: ChatBudget;

  /** `budget`: the time budget of pattern matching per message and channel (share the command runtime's). */
  constructor(options: { scorer?: ToxicityScorer | null; budget?: ChatBudget } = {}) {
    this.#scorer = options.scorer ?? null;
    this.#budget = options.budget ?? new ChatBudget();
  }

  /** The toxicity scorer in use, or null. */
  get scorer(): ToxicityScorer | null {
    return this.#scorer;
  }

  /** Validates settings and compiles their patterns (RE2, linear time). Throws `BotModuleError` listing every problem. */
  prepare(input: ModerationSettingsInput | unknown): PreparedModeration {
    const settings = parseModuleConfig("moderation settings", moderationSettingsSchema, input);
    const issues: string[] = [];
    const patterns: CommandRegex[] = [];
    settings.bad_words.patterns.forEach((source, index) => {
      try {
        patterns.push(CommandRegex.compile(source));
      } catch (error) {
        const message = error instanceof CommandError ? error.message.replace(/^command_regex/, "the pattern") : String(error);
        issues.push(`bad_words.patterns.${index}: ${message}`);
      }
    });
    const tooMuch = patternSetProblem("patterns", patterns, {
      maxCount: MODERATION_LIMITS.patterns,
      countLimit: "patterns",
      maxTotal: CHAT_PATTERN_LIMITS.moderationProgramTotal,
      totalLimit: "moderationProgramTotal",
    });
    if (issues.length === 0 && tooMuch !== null) issues.push(`bad_words.patterns: ${tooMuch}`);
    if (issues.length > 0) {
      throw new BotModuleError(BOT_MODULE_ERROR_CODES.invalidConfig, `invalid moderation settings: ${issues.join("; ")}`, { details: { issues } });
    }
    const words = new Set<string>();
    const phrases: string[][] = [];
    const phraseTree: PhraseNode = { next: new Map(), end: false };
    for (const entry of settings.bad_words.words) {
      const folded = readings(entry).literal;
      if (folded.length === 1) words.add(folded[0] as string);
      else if (folded.length > 1) {
        phrases.push(folded);
        let node = phraseTree;
        for (const part of folded) {
          let child = node.next.get(part);
          if (child === undefined) {
            child = { next: new Map(), end: false };
            node.next.set(part, child);
          }
          node = child;
        }
        node.end = true;
      }
    }
    return { settings, patterns, words, phrases, phraseTree };
  }

  /** Sets a channel's settings (validated as in {@link prepare}) and returns them. */
  set(channel: string, input: ModerationSettingsInput | unknown): ModerationSettings {
    const prepared = this.prepare(input);
    this.#channels.set(channel, prepared);
    return prepared.settings;
  }

  /** The channel's settings, or null when none were set. */
  settings(channel: string): ModerationSettings | null {
    return this.#channels.get(channel)?.settings ?? null;
  }

  /** Forgets a channel's settings. */
  removeChannel(channel: string): void {
    this.#channels.delete(channel);
  }

  /**
   * The strongest verdict for a chat event, or null when it breaks no rule (or the channel has none).
   * `budget`: the time budget of this check's pattern matching instead of the channel's chat budget
   * (a dry run's own, so "test a message" neither spends the channel's chat time nor loses its
   * patterns to it on a busy machine).
   */
  async check(event: ChatEvent, options: { budget?: ChatBudget } = {}): Promise<ModerationVerdict | null> {
    const prepared = this.#channels.get(event.channel.id);
    if (prepared === undefined) return null;
    const { settings } = prepared;
    let verdict: ModerationVerdict | null = null;
    const applies = (rule: { enabled: boolean; exempt: readonly ("broadcaster" | "moderator" | "vip" | "subscriber")[] }) =>
      rule.enabled && !isInGroups(event, rule.exempt);
    const text = writtenText(event);

    if (applies(settings.length)) {
      const length = Array.from(event.message).length;
      if (length > settings.length.max_length) verdict = stronger(verdict, { rule: "length", action: settings.length.action, detail: `${length} characters` });
    }
    if (applies(settings.caps)) {
      const letters = text.replace(/[^\p{L}]/gu, "");
      const cased = letters.replace(/[^\p{Lu}\p{Ll}]/gu, "");
      const upper = cased.replace(/\P{Lu}/gu, "").length;
      if (cased.length >= settings.caps.min_length) {
        const share = Math.round((upper / cased.length) * 100);
        if (share > settings.caps.max_percent) verdict = stronger(verdict, { rule: "caps", action: settings.caps.action, detail: `${share} % capitals` });
      }
    }
    if (applies(settings.symbols)) {
      const visible = Array.from(text.replace(/\s/gu, ""));
      if (visible.length >= settings.symbols.min_length) {
        const symbols = visible.filter((char) => !/[\p{L}\p{N}]/u.test(char)).length;
        const share = Math.round((symbols / visible.length) * 100);
        if (share > settings.symbols.max_percent) verdict = stronger(verdict, { rule: "symbols", action: settings.symbols.action, detail: `${share} % symbols` });
      }
    }
    if (applies(settings.links)) {
      const banned = linkHosts(text).find((host) => !isAllowedHost(host, settings.links.allowed_domains));
      if (banned !== undefined) verdict = stronger(verdict, { rule: "links", action: settings.links.action, detail: `link to ${banned}` });
    }
    if (applies(settings.bad_words)) {
      const found = this.#badWord(prepared, event.message, event.channel.id, options.budget ?? this.#budget);
      if (found !== null) verdict = stronger(verdict, { rule: "bad_words", action: settings.bad_words.action, detail: found });
    }
    if (settings.toxicity.enabled && this.#scorer !== null && !isInGroups(event, settings.toxicity.exempt)) {
      const score = Math.round((await this.#scorer.score(text)) * 100);
      const { thresholds } = settings.toxicity;
      for (const type of [...MODERATION_ACTION_TYPES].reverse()) {
        const threshold = thresholds[type];
        if (threshold === null || score < threshold) continue;
        const action: ModerationAction = type === "timeout" ? { type, seconds: settings.toxicity.timeout_seconds } : { type };
        verdict = stronger(verdict, { rule: "toxicity", action, detail: `toxicity ${score} %` });
        break;
      }
    }
    return verdict;
  }

  /**
   * The bad word, phrase or pattern a message holds, or null. Each word's variants are computed
   * once, and phrases are found in one walk of the phrase tree along the message (the partial
   * phrases under way are carried from word to word), so a 1,000-entry list costs about as much
   * as a short one. It all runs within the channel's chat budget: when the budget is spent the
   * rest is skipped (and reported).
   */
  #badWord(prepared: PreparedModeration, message: string, channel: string, budget: ChatBudget): string | null {
    const meter = budget.start(channel);
    try {
      // A channel that spent its window skips even the reading of the message.
      if (meter.stop("moderation_words", prepared.words.size + prepared.phrases.length)) return null;
      const { literal, substituted } = readings(message);
      const variantsOf = new Map<string, string[]>();
      const variants = (word: string): string[] => {
        let found = variantsOf.get(word);
        if (found === undefined) {
          found = wordVariants(word);
          variantsOf.set(word, found);
        }
        return found;
      };
      if (prepared.words.size > 0) {
        for (const word of new Set([...literal, ...substituted])) {
          if (variants(word).some((variant) => prepared.words.has(variant))) return "a blocked word";
        }
      }
      if (prepared.phraseTree.next.size > 0) {
        for (const list of [literal, substituted]) {
          let under: PhraseNode[] = [];
          for (const [index, word] of list.entries()) {
            if (index % 16 === 0 && meter.stop("moderation_words", list.length - index)) return null;
            const next = new Set<PhraseNode>();
            for (const node of [prepared.phraseTree, ...under]) {
              for (const variant of variants(word)) {
                const child = node.next.get(variant);
                if (child === undefined) continue;
                if (child.end) return "a blocked phrase";
                next.add(child);
              }
            }
            under = [...next];
          }
        }
      }
      for (const [index, pattern] of prepared.patterns.entries()) {
        if (meter.stop("moderation_patterns", prepared.patterns.length - index)) return null;
        if (pattern.test(message)) return `the pattern ${pattern.source}`;
      }
      return null;
    } finally {
      meter.end();
    }
  }
}
