import { z } from "zod";
import { readField, storedNumber } from "../../key-value-store.js";
import type { KeyValueStore } from "../../key-value-store.js";
import { PERMISSION_LEVELS, permissionLevelOf } from "../../permission-levels.js";
import { BotRouteError } from "../../runtime/bot-module.js";
import type { BotChatLine, BotChatResult, BotModule, BotModuleContext, BotModuleRoute } from "../../runtime/bot-module.js";
import { QUOTES_ERROR_CODES, QUOTES_META_TABLE, QUOTES_NEXT_KEY, QUOTES_TABLE, QUOTE_LIMITS, quoteInputSchema, quoteSchema } from "./quote-record.js";
import type { Quote } from "./quote-record.js";
import { quotesMessage } from "./quotes-messages.js";
import type { QuotesMessageKey } from "./quotes-messages.js";

/** The token scope of the quotes routes. */
export const QUOTES_SCOPE = "chatbot:manage:quotes";
/** How long `!quote add` waits for the platform's title and category before saving without them. */
const STREAM_INFO_WAIT_MS = 3_000;
const WHITESPACE = /\s+/;

/** Options of {@link quotesModule}. */
export interface QuotesModuleOptions {
  /** A random integer in [0, n) (default `Math.random`); tests fix it. */
  randomInt?: (n: number) => number;
}

/** Every stored quote of a channel, by number (values that are not quotes are left out). */
export async function listQuotes(store: KeyValueStore, channel: string): Promise<Quote[]> {
  const quotes: Quote[] = [];
  for (const value of Object.values(await store.table(channel, QUOTES_TABLE))) {
    const parsed = quoteSchema.safeParse(value);
    if (parsed.success) quotes.push(parsed.data);
  }
  return quotes.sort((a, b) => a.id - b.id);
}

/** One stored quote, or null. */
export async function readQuote(store: KeyValueStore, channel: string, id: number): Promise<Quote | null> {
  const parsed = quoteSchema.safeParse(await readField(store, channel, QUOTES_TABLE, String(id)));
  return parsed.success ? parsed.data : null;
}

/** Stores a new quote under the next number; null when the channel has the most quotes it may have. */
export async function addQuote(store: KeyValueStore, channel: string, fields: Omit<Quote, "id">): Promise<Quote | null> {
  if (Object.keys(await store.table(channel, QUOTES_TABLE)).length >= QUOTE_LIMITS.quotes) return null;
  // Numbers are never reused, so `!quote 12` keeps meaning the same quote after a deletion.
  const id = storedNumber(await store.update(channel, QUOTES_META_TABLE, QUOTES_NEXT_KEY, (current) => Math.max(1, storedNumber(current)) + 1)) - 1;
  const quote: Quote = { id, ...fields };
  await store.update(channel, QUOTES_TABLE, String(id), () => quote);
  return quote;
}

/** "Just Chatting, 2026-11-23": what a quote is shown with in chat. */
function context(quote: Quote): string {
  const date = quote.said_at.slice(0, 10);
  const where = quote.game ?? quote.title;
  return where === null || where === "" ? date : `${where}, ${date}`;
}

async function streamInfo(ctx: BotModuleContext, line: BotChatLine): Promise<{ title: string; game: string } | null> {
  if (ctx.streamInfo === undefined) return null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      ctx.streamInfo(line.channel, line.event.platform, line.event.channel.platform_id),
      new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), STREAM_INFO_WAIT_MS))),
    ]);
  } catch (err) {
    ctx.log.warn({ err, channel: line.channel }, "quotes: the stream's title and category could not be read");
    return null;
  } finally {
    clearTimeout(timer);
  }
}

const idParams = z.object({ id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) });

function quoteRoutes(): BotModuleRoute[] {
  const found = async (store: KeyValueStore, channel: string, id: number) => {
    const quote = await readQuote(store, channel, id);
    if (quote === null) throw new BotRouteError(404, QUOTES_ERROR_CODES.notFound, `There is no quote ${id}.`);
    return quote;
  };
  return [
    {
      method: "GET",
      path: "quotes",
      scope: QUOTES_SCOPE,
      summary: "Every quote, by number",
      response: z.object({ data: z.array(quoteSchema) }),
      handle: async (request) => ({ data: await listQuotes(request.context.store, request.channel) }),
    },
    {
      method: "POST",
      path: "quotes",
      scope: QUOTES_SCOPE,
      summary: "Add a quote (said_at defaults to now)",
      body: quoteInputSchema,
      response: quoteSchema,
      status: 201,
      async handle(request) {
        const input = quoteInputSchema.parse(request.body);
        const { store, now } = request.context;
        const quote = await addQuote(store, request.channel, {
          text: input.text,
          game: input.game,
          title: input.title,
          said_at: input.said_at === undefined ? new Date(now()).toISOString() : new Date(input.said_at).toISOString(),
          added_by: "api",
          platform: null,
        });
        if (quote === null) throw new BotRouteError(422, QUOTES_ERROR_CODES.limitReached, `A channel keeps at most ${QUOTE_LIMITS.quotes} quotes; delete one first.`);
        return quote;
      },
    },
    {
      method: "GET",
      path: "quotes/:id",
      scope: QUOTES_SCOPE,
      summary: "One quote",
      errors: [404],
      params: idParams,
      response: quoteSchema,
      handle: (request) => found(request.context.store, request.channel, Number(request.params["id"])),
    },
    {
      method: "PUT",
      path: "quotes/:id",
      scope: QUOTES_SCOPE,
      summary: "Edit a quote's text, game, title or date (said_at left out keeps the date)",
      errors: [404],
      params: idParams,
      body: quoteInputSchema,
      response: quoteSchema,
      async handle(request) {
        const id = Number(request.params["id"]);
        const { store } = request.context;
        const before = await found(store, request.channel, id);
        const input = quoteInputSchema.parse(request.body);
        const quote: Quote = {
          ...before,
          text: input.text,
          game: input.game,
          title: input.title,
          said_at: input.said_at === undefined ? before.said_at : new Date(input.said_at).toISOString(),
        };
        await store.update(request.channel, QUOTES_TABLE, String(id), () => quote);
        return quote;
      },
    },
    {
      method: "DELETE",
      path: "quotes/:id",
      scope: QUOTES_SCOPE,
      summary: "Delete a quote (its number is not given to another one)",
      errors: [404],
      params: idParams,
      status: 204,
      async handle(request) {
        const id = Number(request.params["id"]);
        await found(request.context.store, request.channel, id);
        await request.context.store.update(request.channel, QUOTES_TABLE, String(id), () => undefined);
      },
    },
  ];
}

/**
 * Quotes: `!quote` (a random one), `!quote 12`, and moderators' `!quote add <text>`, each kept with
 * the category and title the stream had when it was said (the platform's lookups) and the date; plus
 * the API routes to list, add, edit and delete them. Stored in the channel's `quotes` table.
 */
export function quotesModule(options: QuotesModuleOptions = {}): BotModule {
  const randomInt = options.randomInt ?? ((n: number) => Math.floor(Math.random() * n));
  return {
    name: "quotes",
    stage: "command",
    routes: quoteRoutes(),
    async onChat(line: BotChatLine, ctx: BotModuleContext): Promise<BotChatResult | null> {
      const event = line.event;
      const text = event.message.trim();
      if (text.charCodeAt(0) !== 33) return null;
      const [word = "", sub, ...rest] = text.split(WHITESPACE);
      if (word.toLowerCase() !== "!quote") return null;
      const language = ctx.language(line.channel);
      const say = (key: QuotesMessageKey, params: Record<string, string | number> = {}): BotChatResult => ({
        handled: true,
        answers: [{ text: quotesMessage(language, key, params), send_as: "say" }],
      });
      const show = (quote: Quote) => say("quote", { id: quote.id, text: quote.text, context: context(quote) });
      const { store } = ctx;
      if (sub === undefined) {
        const quotes = await listQuotes(store, line.channel);
        const quote = quotes[randomInt(quotes.length)];
        return quote === undefined ? say("none") : show(quote);
      }
      if (/^#?[0-9]{1,15}$/.test(sub)) {
        const id = Number(sub.replace("#", ""));
        const quote = await readQuote(store, line.channel, id);
        return quote === null ? say("missing", { id }) : show(quote);
      }
      if (sub.toLowerCase() !== "add") return say("usage");
      if (permissionLevelOf(event) < PERMISSION_LEVELS.moderator) return say("moderators_only", { user: event.user.username });
      const parsed = quoteInputSchema.shape.text.safeParse(text.slice(word.length).trimStart().slice(sub.length));
      if (rest.length === 0 || !parsed.success) return say("usage");
      const info = await streamInfo(ctx, line);
      const quote = await addQuote(store, line.channel, {
        text: parsed.data,
        game: info?.game ? info.game.slice(0, QUOTE_LIMITS.game) : null,
        title: info?.title ? info.title.slice(0, QUOTE_LIMITS.title) : null,
        said_at: new Date(ctx.now()).toISOString(),
        added_by: event.user.username.slice(0, QUOTE_LIMITS.addedBy),
        platform: event.platform,
      });
      return quote === null ? say("full", { limit: QUOTE_LIMITS.quotes }) : say("added", { id: quote.id });
    },
  };
}
