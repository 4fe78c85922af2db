import { z } from "zod";
import { browserSourceConfigSchema } from "@ovation/core/api";
import { overlaySwitches, presentGoalBar } from "@ovation/core";
import { ApiError } from "../../errors.js";
import type { BrowserSourceBootstrap } from "@ovation/browser-source";
import { BROWSER_SOURCE_TYPES } from "../../store/records.js";
import type { BrowserSourceRecord } from "../../store/records.js";
import { ownRoom } from "../../realtime/rooms.js";
import { presentAlertSet } from "./alert-set-view.js";
import { presentBrowserSource, readBrowserSourceSettings } from "./browser-source-routes.js";
import { chatRoomOf } from "../../plugins/chat-routing.js";
import { presentLogEntry } from "../../realtime/gateway.js";
import type { UserRecord } from "../../store/records.js";
import { moderateSpeech } from "../../tts/index.js";
import { speechSettingsSchema } from "@ovation/core/overlays";
import { speakOrThrow } from "./tts.js";
import { errorBodySchema } from "../types.js";
import type { ZodApp } from "../types.js";

/** How the page is produced: the browser-source package's renderer, or the server's fallback. */
export interface BrowserSourcePageRenderer {
  render(bootstrap: BrowserSourceBootstrap): string;
  /** A plain error page (no data): a message and a detail sentence. */
  renderError(message: string, detail?: string): string;
  /** Directory of the page's built assets, served at `/browser-source/assets/`. */
  assetsDir: string;
}

const tokenParam = z.string().min(1).max(128);

/** How many logged alerts an `events` source gets at start (its own `limit` option is at most 50). */
const EVENTS_BACKLOG = 50;

/**
 * The browser-source page `GET /browser-source/:type/:token`, its assets and its configuration
 * `GET /browser-source/api/:token/config` (docs/contracts.md). The access token in the path is the
 * only credential; a bad or revoked token gets a plain error page (or a 404 JSON) and no data.
 */
export async function browserSourcePageRoutes(app: ZodApp, renderer: BrowserSourcePageRenderer): Promise<void> {
  const { repos, config } = app.ovation;
  const browserSourcePath = new URL(config.browserSourceUrl).pathname.replace(/\/+$/, "");
  const pagePrefix = browserSourcePath === "" ? "" : browserSourcePath;

  /**
   * The public `.chat` rooms of a user's channels: the console's (`ovation` platform, the user's id),
   * every channel a loaded platform plugin serves for the user (its platform id known once joined), and
   * every linked platform account.
   */
  const chatRooms = (user: UserRecord): string[] => {
    const rooms = new Set<string>([chatRoomOf(user.uuid, "ovation", String(user.id))]);
    if (app.hasDecorator("platformPlugins")) {
      const host = app.platformPlugins;
      for (const name of host.names()) {
        const plugin = host.get(name);
        const platform = plugin.metadata.platform;
        for (const channel of plugin.channels()) {
          if (channel.id === String(user.id) && channel.platform_id !== "") rooms.add(chatRoomOf(user.uuid, platform, channel.platform_id));
        }
      }
    }
    for (const c of repos.connections.listForUser(user.id)) rooms.add(chatRoomOf(user.uuid, c.platform, c.platform_user_id));
    return [...rooms];
  };

  /** The scene's parts that still name one of the user's sources, with their addresses. */
  const sceneParts = (record: BrowserSourceRecord) => {
    const parts = (readBrowserSourceSettings(record).parts ?? []) as Array<{ browser_source_id: number; x: number; y: number; width: number; height: number }>;
    return parts.flatMap((part) => {
      const target = repos.browserSources.getForUser(record.user_id, part.browser_source_id);
      if (!target || target.browser_source_type === "scenes") return [];
      const view = presentBrowserSource(target, config.browserSourceUrl);
      return [{ ...part, browser_source_type: view.browser_source_type, browser_source_url: view.browser_source_url }];
    });
  };

  /** The state a bot module gives a new source of its kind (`queue`, `poll`); null for other kinds. */
  const moduleSourceState = async (type: string, channel: string): Promise<unknown> => {
    const runtime = app.ovation.botModules.runtime;
    const feed = runtime.modules().find((m) => m.sources?.[type] !== undefined)?.sources?.[type];
    return feed ? ((await feed(channel, runtime.context)) ?? null) : null;
  };

  const find = (type: string | null, token: string): BrowserSourceRecord | null => {
    const record = repos.browserSources.findByAccessToken(token);
    if (!record || (type !== null && record.browser_source_type !== type)) return null;
    return repos.users.get(record.user_id) ? record : null;
  };

  app.get(
    `${pagePrefix}/:type/:token`,
    { schema: { hide: true, params: z.object({ type: z.string(), token: z.string() }) } },
    async (request, reply) => {
      const { type, token } = request.params;
      reply.header("cache-control", "no-store").header("referrer-policy", "no-referrer").header("x-content-type-options", "nosniff");
      const record = (BROWSER_SOURCE_TYPES as readonly string[]).includes(type) && token.length <= 128 ? find(type, token) : null;
      if (!record) {
        return reply
          .code(404)
          .type("text/html; charset=utf-8")
          .send(renderer.renderError("Browser source not found", "This browser source address is not valid. Generate a new one and paste it into your broadcasting software."));
      }
      const html = renderer.render({ type: record.browser_source_type, access_token: token, api_base: config.publicUrl, socket_url: config.publicUrl });
      return reply.type("text/html; charset=utf-8").send(html);
    },
  );

  app.get(
    "/browser-source/api/:token/config",
    {
      schema: {
        tags: ["browser sources"],
        summary: "Configuration of a browser source, authorised by its access token",
        params: z.object({ token: tokenParam }),
        response: {
          200: browserSourceConfigSchema,
          404: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store").header("access-control-allow-origin", "*");
      const record = find(null, request.params.token);
      const user = record ? repos.users.get(record.user_id) : null;
      if (!record || !user) throw new ApiError("OVATION_ERR_BROWSER_SOURCES_INVALID_TOKEN");
      let alertSet = null;
      // effect-alerts resolves each alert's display time with the active set, to keep step with the alerts source.
      if (record.browser_source_type === "effect-alerts") alertSet = repos.alertSets.activeForUser(user.id);
      if (record.browser_source_type === "alerts") {
        alertSet = record.identifier === null ? repos.alertSets.activeForUser(user.id) : repos.alertSets.getForUser(user.id, Number(record.identifier));
      }
      const goalBar =
        record.browser_source_type === "goalbars" && record.identifier !== null && /^\d+$/.test(record.identifier)
          ? repos.goalBars.getForUser(user.id, Number(record.identifier))
          : null;
      return {
        browser_source: presentBrowserSource(record, config.browserSourceUrl),
        room: ownRoom(user),
        alert_set: alertSet ? presentAlertSet(alertSet) : null,
        goal_bar: goalBar ? presentGoalBar(goalBar) : null,
        overlay: overlaySwitches(app.ovation.botModules.system.settings(String(user.id))),
        chat_rooms: record.browser_source_type === "chat" || record.browser_source_type === "emotewall" ? chatRooms(user) : [],
        alert_log: record.browser_source_type === "events" ? repos.alertLog.recent(user.id, EVENTS_BACKLOG).map((entry) => presentLogEntry(entry).notification) : [],
        scene_parts: record.browser_source_type === "scenes" ? sceneParts(record) : [],
        module_state: await moduleSourceState(record.browser_source_type, String(user.id)),
      };
    },
  );

  app.get(
    "/browser-source/api/:token/speech/:notification_id",
    {
      schema: {
        tags: ["browser sources"],
        summary: "The read-aloud audio of an alert for an alerts source (docs/tts.md), authorised by its access token",
        description:
          "200 audio/wav with `x-ovation-speech-text` (the moderated text, URL-encoded); 204 when nothing is read (`x-ovation-speech` says why); " +
          "202 when the message is held for approval (the source gets `tts-speak` once it is approved).",
        params: z.object({ token: tokenParam, notification_id: z.string().min(1).max(128) }),
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store").header("access-control-allow-origin", "*").header("access-control-expose-headers", "x-ovation-speech, x-ovation-speech-text");
      const record = find("alerts", request.params.token);
      const user = record ? repos.users.get(record.user_id) : null;
      if (!record || !user) throw new ApiError("OVATION_ERR_BROWSER_SOURCES_INVALID_TOKEN");
      const tts = speechSettingsSchema.parse((readBrowserSourceSettings(record) as { tts?: unknown }).tts ?? {});
      if (!tts.enabled) return reply.code(204).header("x-ovation-speech", "disabled").send();
      const entry = repos.alertLog.find(user.id, request.params.notification_id);
      if (!entry) return reply.code(204).header("x-ovation-speech", "unknown_alert").send();
      const notification = presentLogEntry(entry).notification;
      const event = notification.event && !Array.isArray(notification.event) ? notification.event : {};
      const text = (key: string) => (typeof event[key] === "string" ? (event[key] as string) : typeof event[key] === "number" ? String(event[key]) : "");
      const amountKey = ["amount", "bits", "months", "count", "viewers"].find((key) => text(key) !== "");
      const decision = moderateSpeech(
        {
          type: notification.subscription.type,
          amount: amountKey === undefined ? 0 : Number(text(amountKey)) || 0,
          name: text("name") || text("user_name") || text("username"),
          userId: text("user_id") || null,
          message: text("message") || text("comment"),
        },
        tts,
        app.ovation.repos.botState.moderation(user.id)?.bad_words.words ?? [],
      );
      if (!decision.read) return reply.code(204).header("x-ovation-speech", decision.reason).send();
      if (tts.approval && !app.ovation.speech.isApproved(user.id, notification.notification.id)) {
        app.ovation.speech.hold(user.id, {
          notification_id: notification.notification.id,
          type: notification.subscription.type,
          name: text("name") || text("user_name") || "",
          text: decision.text,
          held_at: new Date().toISOString(),
        });
        return reply.code(202).header("x-ovation-speech", "held").send();
      }
      const audio = await speakOrThrow(app.ovation.speech, decision.text, tts.voice);
      return reply
        .type("audio/wav")
        .header("x-ovation-speech", "read")
        .header("x-ovation-speech-text", encodeURIComponent(decision.text))
        .send(audio.wav);
    },
  );
}
