import { CONSOLE_BADGES, CONSOLE_NAMESPACE } from "@ovation/plugin-console";
import type { ConsoleBadge, ConsoleLineResult, ConsolePlugin } from "@ovation/plugin-console";
import type { ChatChannel } from "@ovation/core";
import type { Server } from "socket.io";
import { z } from "zod";
import type { OvationServices } from "../services.js";

/** The longest line the console accepts (Twitch's limit, so answers behave alike). */
const MAX_LINE = 500;

const handshakeSchema = z.object({
  token: z.string({ error: "auth.token: a bearer token is required" }).min(1, "auth.token: a bearer token is required").max(512),
  as: z
    .string()
    .regex(/^[A-Za-z0-9_]{1,25}$/, "auth.as: must be 1-25 letters, digits or _")
    .optional(),
  badges: z
    .array(z.enum(CONSOLE_BADGES, { error: `auth.badges: each must be one of ${CONSOLE_BADGES.join(", ")}` }))
    .max(CONSOLE_BADGES.length)
    .optional(),
});

interface ConsoleSocketData {
  userId: number;
  as: string | undefined;
  badges: ConsoleBadge[];
}

/** A token may open the console when it may use the chat bot. */
function mayChat(scopes: readonly string[]): boolean {
  return scopes.some((s) => s === "*" || s.startsWith("chatbot:"));
}

/**
 * Serves the console plugin on the socket.io namespace `/console`: the handshake carries a bearer
 * token (a `chatbot:*` scope), optionally `as` (a viewer name) and `badges`; each typed line becomes
 * a chat message of the token owner's own channel, and the bot's answers come back as `say`.
 */
export function attachConsoleNamespace(io: Server, plugin: ConsolePlugin, services: OvationServices): void {
  const namespace = io.of(CONSOLE_NAMESPACE);
  namespace.use((socket, next) => {
    const parsed = handshakeSchema.safeParse(socket.handshake.auth);
    if (!parsed.success) {
      next(new Error(`${parsed.error.issues.map((i) => i.message).join("; ")} (OVATION_ERR_REALTIME_UNAUTHENTICATED)`));
      return;
    }
    void Promise.resolve(services.verifiers.verify(parsed.data.token)).then(
      (principal) => {
        if (!principal) {
          next(new Error("Unauthenticated: the token is unknown, expired or revoked (OVATION_ERR_REALTIME_UNAUTHENTICATED)"));
          return;
        }
        if (!mayChat(principal.scopes)) {
          next(new Error("This token has no chatbot scope (chatbot:read, chatbot:manage...) (OVATION_ERR_AUTH_MISSING_SCOPE)"));
          return;
        }
        const data: ConsoleSocketData = { userId: principal.userId, as: parsed.data.as, badges: parsed.data.badges ?? [] };
        socket.data = data;
        next();
      },
      () => next(new Error("The token could not be checked (OVATION_ERR_REALTIME_UNAUTHENTICATED)")),
    );
  });
  namespace.on("connection", (socket) => {
    const data = socket.data as ConsoleSocketData;
    const user = services.repos.users.get(data.userId);
    if (!user) {
      socket.disconnect(true);
      return;
    }
    const channel: ChatChannel = { id: String(user.id), platform_id: String(user.id), username: user.name, avatar_url: "" };
    const speaker = { name: data.as ?? user.name, owner: data.as === undefined, badges: data.badges };
    const session = plugin.openSession(channel, speaker, (output) => socket.emit("say", output));
    socket.on("line", (text: unknown, ack: unknown) => {
      const answer = typeof ack === "function" ? (ack as (result: ConsoleLineResult) => void) : () => undefined;
      if (typeof text !== "string" || text.trim() === "" || text.length > MAX_LINE) {
        answer({ accepted: false, message: `a line must be 1-${MAX_LINE} characters of text` });
        return;
      }
      const result = session.say(text.trim());
      answer(result.accepted ? { accepted: true, id: result.id ?? "" } : { accepted: false, message: result.message });
    });
    const stopModeration = plugin.onModeration(channel.id, (action) => socket.emit("moderation", action));
    socket.on("disconnect", () => {
      session.close();
      stopModeration();
    });
    socket.emit("ready", { channel: channel.username, as: speaker.name, badges: [...speaker.badges] });
  });
}
