import { LexiconToxicityScorer, ModerationModule, PluginHost, enforceVerdict } from "@ovation/core";
import type { ChatEvent, EnforcementResult } from "@ovation/core";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TwitchPlugin } from "../plugin.js";
import { FakeEventSubServer } from "../testing/fake-eventsub-server.js";
import { FakeHelix } from "../testing/fake-helix.js";
import { FakeIrcServer } from "../testing/fake-irc-server.js";

const logger = pino({ level: "silent" });

/** A chat line as Twitch IRC sends it, from `login` (user id `userId`) wearing `badges`. */
function privmsg(id: string, login: string, userId: string, text: string, badges = ""): string {
  return `@badges=${badges};color=;display-name=${login};emotes=;id=${id};room-id=12345678;tmi-sent-ts=1700000000000;user-id=${userId} :${login}!${login}@${login}.tmi.twitch.tv PRIVMSG #dallas :${text}`;
}

describe("auto-moderation on Twitch (fake IRC, Helix and EventSub on loopback)", () => {
  let irc: FakeIrcServer;
  let helix: FakeHelix;
  let eventsub: FakeEventSubServer;
  let host: PluginHost;
  const outcomes: (EnforcementResult & { id: string })[] = [];
  const moderation = new ModerationModule({ scorer: new LexiconToxicityScorer() });

  beforeAll(async () => {
    irc = await FakeIrcServer.start({ dallas: "12345678" });
    helix = await FakeHelix.start();
    eventsub = await FakeEventSubServer.start();
    moderation.set("owner-1", {
      caps: { enabled: true, min_length: 8, action: { type: "timeout", seconds: 120 } },
      links: { enabled: true, allowed_domains: ["twitch.tv"], action: { type: "delete" } },
      bad_words: { enabled: true, words: ["darn"], action: { type: "ban" }, exempt: ["broadcaster", "moderator", "vip"] },
      length: { enabled: true, max_length: 40, action: { type: "warn" } },
    });
    // What the server's bot host does with a plugin's chat: check, then act through the plugin's moderation part.
    host = new PluginHost({
      logger,
      runtime: async (event: ChatEvent, source) => {
        const verdict = await moderation.check(event);
        if (!verdict) return [];
        const outcome = await enforceVerdict(event, verdict, host.moderationTarget(source.name), "en");
        outcomes.push({ ...outcome, id: event.id });
        return outcome.warning ? [{ text: outcome.warning, send_as: "say" }] : [];
      },
    });
    host.register(
      new TwitchPlugin({
        channels: [{ id: "owner-1", login: "dallas" }],
        username: "ovationbot",
        token: "good-token",
        clientId: "client-1",
        irc: { server: "127.0.0.1", port: irc.port, secure: false },
        helixUrl: `${helix.base}/helix`,
        eventsub: { enabled: true, url: eventsub.url },
      }),
    );
    await host.connect("twitch");
  }, 30_000);

  afterAll(async () => {
    await host.stop();
    await eventsub.close();
    await irc.close();
    await helix.close();
  });

  /** Publishes a chat line, waits until the host has taken it and finished with it; the outcome, or null when no rule was broken. */
  async function chat(id: string, login: string, userId: string, text: string, badges = ""): Promise<EnforcementResult | null> {
    const before = outcomes.length;
    const seen = host.health()[0]!.counters.chat;
    irc.publish("dallas", privmsg(id, login, userId, text, badges));
    const deadline = Date.now() + 10_000;
    while (host.health()[0]!.counters.chat === seen) {
      if (Date.now() > deadline) throw new Error(`the plugin never emitted "${text}"`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await host.idle();
    return outcomes.length > before ? (outcomes.at(-1) as EnforcementResult) : null;
  }

  it("times out, deletes, bans through Helix's moderation endpoints and warns in chat; exemptions hold", { timeout: 30_000 }, async () => {
    expect(await chat("11111111-0000-4000-8000-000000000001", "loud", "501", "WHY IS NOBODY TALKING")).toMatchObject({ result: "done" });
    expect(helix.of("POST", "/moderation/bans").at(-1)?.body).toEqual({ data: { user_id: "501", duration: 120, reason: "auto-moderation: caps" } });
    expect(Object.fromEntries(helix.of("POST", "/moderation/bans").at(-1)?.query ?? [])).toEqual({ broadcaster_id: "12345678", moderator_id: "999" });

    expect(await chat("11111111-0000-4000-8000-000000000002", "spam", "502", "free followers at growfast.xyz")).toMatchObject({ result: "done" });
    expect(Object.fromEntries(helix.of("DELETE", "/moderation/chat").at(-1)?.query ?? [])).toEqual({
      broadcaster_id: "12345678",
      moderator_id: "999",
      message_id: "11111111-0000-4000-8000-000000000002",
    });

    expect(await chat("11111111-0000-4000-8000-000000000003", "rude", "503", "oh d4rn")).toMatchObject({ result: "done" });
    expect(helix.of("POST", "/moderation/bans").at(-1)?.body).toEqual({ data: { user_id: "503", reason: "auto-moderation: bad_words" } });

    const bans = helix.of("POST", "/moderation/bans").length;
    expect(await chat("11111111-0000-4000-8000-000000000004", "friend", "504", "oh darn", "vip/1")).toBeNull();
    expect(await chat("11111111-0000-4000-8000-000000000005", "fan", "505", "clip at clips.twitch.tv/abc")).toBeNull();
    expect(helix.of("POST", "/moderation/bans")).toHaveLength(bans);

    expect(await chat("11111111-0000-4000-8000-000000000006", "chatty", "506", "this message is far too long for the rules here")).toMatchObject({
      result: "done",
      warning: "@chatty, please follow the chat rules (length).",
    });
    const warned = await irc.waitFor((line) => line.includes("please follow the chat rules"), 10_000);
    expect(warned).toBe("PRIVMSG #dallas :@chatty, please follow the chat rules (length).");
  });
});
