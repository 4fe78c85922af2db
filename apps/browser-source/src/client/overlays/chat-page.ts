import { chatSourceSettingsSchema } from "@ovation/core/overlays";
import type { ChatEvent } from "@ovation/core/contracts";
import type { BrowserSourceBootstrap } from "../../bootstrap.js";
import type { PageStatus } from "../page-state.js";
import { ChatBox } from "./chat-box.js";
import { readSettings, runOverlay } from "./overlay-runner.js";

/**
 * The `chat` page: one chat box for the user's channels on every platform. It joins the public `.chat`
 * room of each channel the config names and draws their `message` events; `delete-message` and
 * `clear-chat` take lines away.
 */
export async function runChatPage(bootstrap: BrowserSourceBootstrap, stage: HTMLElement, status: PageStatus): Promise<void> {
  let box: ChatBox | null = null;
  await runOverlay(bootstrap, status, {
    rooms: (config) => config.chat_rooms,
    start: (config, socket) => {
      const chat = new ChatBox(stage.ownerDocument, readSettings(chatSourceSettingsSchema, config, status));
      box = chat;
      stage.classList.add("ovation-stage-chat");
      stage.replaceChildren(chat.element);
      // The server checked every event against the chat event schema before it reached the room.
      socket.on("message", (event: ChatEvent) => chat.add(event));
      socket.on("delete-message", (payload) => chat.delete(payload.id, payload.platform));
      socket.on("clear-chat", (payload) => chat.clear(payload.platform, payload.user_platform_id));
    },
    update: (config) => box?.configure(readSettings(chatSourceSettingsSchema, config, status)),
    stop: () => {
      box?.close();
      stage.replaceChildren();
    },
  });
}
