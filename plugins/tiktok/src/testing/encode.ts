import * as proto from "tiktok-live-proto/v3";
import type { TikTokFixtureMessage } from "./fixtures.js";

interface MessageFns {
  encode(message: unknown): { finish(): Uint8Array };
  decode(input: Uint8Array): Record<string, unknown>;
}

/** Field name -> protobuf type of the nested messages the fixtures use ("" = a plain wrapper). */
const NESTED: Readonly<Record<string, string>> = {
  common: "CommonMessageData",
  user: "User",
  userIdentity: "UserIdentity",
  gift: "Gift",
  avatarThumb: "ImageModel",
  image: "ImageModel",
  userAttr: "UserAttr",
  emote: "EmoteModel",
  emotes: "",
  emoteList: "EmoteModel",
  displayText: "MessageCommonText",
};

function fns(type: string): MessageFns {
  const found = (proto as unknown as Record<string, MessageFns | undefined>)[type];
  if (!found || typeof found.encode !== "function") throw new Error(`tiktok-live-proto has no message type ${type}`);
  return found;
}

/** A full message of `type` (every field at its protobuf default) with the fixture's fields set. */
function complete(type: string, json: Record<string, unknown>): Record<string, unknown> {
  const base: Record<string, unknown> = type === "" ? {} : fns(type).decode(new Uint8Array(0));
  for (const [key, value] of Object.entries(json)) {
    if (key.startsWith("$")) continue;
    const nested = NESTED[key];
    if (nested === undefined || value === null || typeof value !== "object") base[key] = value;
    else base[key] = Array.isArray(value) ? value.map((v) => complete(nested, v as Record<string, unknown>)) : complete(nested, value as Record<string, unknown>);
  }
  return base;
}

/** Encodes a fixture message with tiktok-live-proto (the definitions tiktok-live-connector decodes with). */
export function encodeMessage(message: TikTokFixtureMessage): Uint8Array {
  return fns(message.method).encode(complete(message.method, message.data)).finish();
}

/** A ProtoMessageFetchResult holding `messages` (what the sign server and each push frame carry). */
export function encodeFetchResult(messages: readonly TikTokFixtureMessage[], extra: { cursor: string; internalExt: string; pushServer?: string }): Uint8Array {
  const result = fns("ProtoMessageFetchResult").decode(new Uint8Array(0));
  result["messages"] = messages.map((m) => {
    const base = fns("BaseProtoMessage").decode(new Uint8Array(0));
    const common = (m.data["common"] ?? {}) as { msgId?: string };
    return { ...base, method: m.method, payload: Buffer.from(encodeMessage(m)), msgId: common.msgId ?? "0" };
  });
  Object.assign(result, { cursor: extra.cursor, internalExt: extra.internalExt, fetchInterval: "1000", now: String(Date.now()), pushServer: extra.pushServer ?? "" });
  return fns("ProtoMessageFetchResult").encode(result).finish();
}

/** A WebcastPushFrame (the WebSocket's outer frame) carrying `payload` as `msg`. */
export function encodePushFrame(payload: Uint8Array, logId: string): Uint8Array {
  const frame = fns("WebcastPushFrame").decode(new Uint8Array(0));
  Object.assign(frame, { payloadEncoding: "pb", payloadType: "msg", payload: Buffer.from(payload), logId, seqId: logId });
  return fns("WebcastPushFrame").encode(frame).finish();
}
