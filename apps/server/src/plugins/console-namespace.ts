import { CONSOLE_BADGES, CONSOLE_NAMESPACE } from "@ovation/plugin-console";
import type { ConsoleBadge, ConsolePlugin } from "@ovation/plugin-console";
import { CONSOLE_INBOUND_EVENT_SCHEMAS } from "@ovation/core";
import type { ChatChannel, ConsoleClientEvents, ConsoleLineResult, ConsoleServerEvents } from "@ovation/core";
import type { Namespace, Server } from "socket.io";
import { z } from "zod";
import { checkBearer } from "../auth/bearer-check.js";
import { MAX_BEARER_TOKEN_LENGTH } from "../auth/token-verifier-chain.js";
import { onGuardedEvent, refuseUnknownEvents } from "../realtime/socket-guard.js";
import type { SocketAck } from "../realtime/socket-guard.js";
import { credentialOf } from "../realtime/revoked-credentials.js";
import type { SocketCredential } from "../realtime/socket-types.js";
import type { OvationServices } from "../services.js";

const handshakeSchema = z.object({
  // As long as the HTTP API accepts: OAuth access tokens are JWTs of more than 512 characters.
  token: z
    .string({ error: "auth.token: a bearer token is required" })
    .min(1, "auth.token: a bearer token is required")
    .max(MAX_BEARER_TOKEN_LENGTH, `auth.token: must be at most ${MAX_BEARER_TOKEN_LENGTH} characters`),
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
  /** The token the console was opened with (revoking it closes the console). */
  credential: SocketCredential;
  as: string | undefined;
  badges: ConsoleBadge[];
}

/** The typed `/console` namespace (event maps in core's realtime contracts). */
type ConsoleNamespace = Namespace<ConsoleClientEvents, ConsoleServerEvents, Record<string, never>, ConsoleSocketData>;

/** A token may open the console when it may use the chat bot. */
function mayChat(scopes: readonly string[]): boolean {
  return scopes.some((s) => s === "*" || s.startsWith("chatbot:"));
}

const refuseLine = (ack: SocketAck, message: string): void => ack({ accepted: false, message } satisfies ConsoleLineResult);

/**
 * Serves the console plugin on the socket.io namespace `/console`: the handshake carries a bearer
 * token (a `chatbot:*` scope), optionally `as` (a viewer name) and `badges`; each typed line becomes
 * a chat message of the token owner's own channel, and the bot's answers come back as `say`. Failed
 * handshakes count in the shared failed-authentication throttle; `line` is schema-checked and guarded
 * like every socket event.
 */
export function attachConsoleNamespace(io: Server, plugin: ConsolePlugin, services: OvationServices): void {
  const namespace = io.of(CONSOLE_NAMESPACE) as unknown as ConsoleNamespace;
  const logger = services.logger.child({ area: "console" });
  namespace.use((socket, next) => {
    const parsed = handshakeSchema.safeParse(socket.handshake.auth);
    if (!parsed.success) {
      next(new Error(`${parsed.error.issues.map((i) => i.message).join("; ")} (OVATION_ERR_REALTIME_UNAUTHENTICATED)`));
      return;
    }
    void checkBearer(services.verifiers, services.failedAuth, socket.handshake.address, parsed.data.token).then(
      (check) => {
        if (!check.ok || services.hub.isRevoked(credentialOf(check.principal))) {
          next(
            new Error(
              !check.ok && check.retryAfterSeconds > 0
                ? `Too Many Attempts. Retry after ${check.retryAfterSeconds} seconds. (OVATION_ERR_REALTIME_TOO_MANY_FAILURES)`
                : "Unauthenticated: the token is unknown, expired or revoked (OVATION_ERR_REALTIME_UNAUTHENTICATED)",
            ),
          );
          return;
        }
        if (!mayChat(check.principal.scopes)) {
          next(new Error("This token has no chatbot scope (chatbot:read, chatbot:manage...) (OVATION_ERR_AUTH_MISSING_SCOPE)"));
          return;
        }
        socket.data = { userId: check.principal.userId, credential: credentialOf(check.principal), as: parsed.data.as, badges: parsed.data.badges ?? [] };
        next();
      },
      (err: unknown) => {
        logger.error({ err }, "console handshake failed");
        next(new Error("The token could not be checked (OVATION_ERR_REALTIME_UNAUTHENTICATED)"));
      },
    );
  });
  namespace.on("connection", (socket) => {
    const data = socket.data;
    if (services.hub.refuseIfRevoked(socket, data.credential)) return;
    const user = services.repos.users.get(data.userId);
    if (!user) {
      socket.disconnect(true);
      return;
    }
    const channel: ChatChannel = { id: String(user.id), platform_id: String(user.id), username: user.name, avatar_url: "" };
    const speaker = { name: data.as ?? user.name, owner: data.as === undefined, badges: data.badges };
    const session = plugin.openSession(channel, speaker, (output) => socket.emit("say", output));
    refuseUnknownEvents(socket, Object.keys(CONSOLE_INBOUND_EVENT_SCHEMAS));
    onGuardedEvent(socket, "line", CONSOLE_INBOUND_EVENT_SCHEMAS.line, { logger, refuseAck: refuseLine }, ([text], ack) => {
      const result = session.say(text.trim());
      ack?.(result.accepted ? { accepted: true, id: result.id ?? "" } : { accepted: false, message: result.message });
    });
    const stopModeration = plugin.onModeration(channel.id, (action) => socket.emit("moderation", action));
    socket.on("disconnect", () => {
      session.close();
      stopModeration();
    });
    socket.emit("ready", { channel: channel.username, as: speaker.name, badges: [...speaker.badges] });
  });
}
