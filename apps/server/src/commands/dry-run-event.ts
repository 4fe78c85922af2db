import { randomUUID } from "node:crypto";
import type { ChatEvent } from "@ovation/core";
import type { z } from "zod";
import type { commandTestBodySchema } from "@ovation/core/api";
import type { UserRecord } from "../store/records.js";
import type { Repositories } from "../store/repositories.js";

/**
 * The chat message of a dry run (a command's, or an auto-moderation test) as a platform would bring
 * it: in `user`'s own channel, by a viewer without badges on twitch unless `event` says otherwise.
 */
export function dryRunChatEvent(repos: Repositories, user: UserRecord, message: string, event: z.output<typeof commandTestBodySchema>["event"]): ChatEvent {
  const platform = event?.platform ?? "twitch";
  const connection = repos.connections.listForUser(user.id).find((c) => c.platform === platform);
  return {
    id: randomUUID(),
    type: "message",
    timestamp: Date.now(),
    platform,
    user: {
      platform_id: event?.user?.platform_id ?? "dry-run-viewer",
      username: event?.user?.username ?? "viewer",
      avatar_url: "",
      color: null,
      badges: event?.user?.badges ?? event?.badges ?? [],
    },
    channel: { id: String(user.id), platform_id: connection?.platform_user_id ?? String(user.id), username: connection?.username ?? user.name, avatar_url: user.avatar ?? "" },
    message,
    fragments: [{ type: "text", text: message }],
    parent: null,
    attributes: { edited: false, accent: null, action: false, highlight: false },
  };
}
