/** Languages of the bot's own messages (set per channel with `!language de|en`). */
export const BOT_LANGUAGES = ["en", "de"] as const;
/** One of {@link BOT_LANGUAGES}. */
export type BotLanguage = (typeof BOT_LANGUAGES)[number];
