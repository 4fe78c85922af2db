import { readFileSync } from "node:fs";

const root = new URL("../../../../fixtures/tiktok/", import.meta.url);

/** One decoded TikTok message: its protobuf type and its fields (tiktok-live-proto v3 names). */
export interface TikTokFixtureMessage {
  method: string;
  data: Record<string, unknown>;
}

interface Steps<S> {
  template: TikTokFixtureMessage;
  steps: S[];
}

/** fixtures/tiktok/messages.json. */
export const tiktokFixtures = JSON.parse(readFileSync(new URL("messages.json", root), "utf8")) as {
  room: { roomId: string; uniqueId: string; ownerId: string; title: string; createTime: number };
  messages: Record<string, TikTokFixtureMessage>;
  giftStreak: Steps<{ msgId: string; repeatCount: number; repeatEnd: number }>;
  likes: Steps<{ msgId: string; count: number; total: string; userId: string; displayId: string }>;
  malformed: Record<string, TikTokFixtureMessage>;
};

/** The loopback TLS certificate and key of the fake (test only: fixtures/tiktok/tls). */
export const loopbackTls = {
  cert: readFileSync(new URL("tls/loopback-cert.pem", root), "utf8"),
  key: readFileSync(new URL("tls/loopback-key.pem", root), "utf8"),
};

/** A message fixture by name (deep copy). */
export function tiktokMessage(name: string): TikTokFixtureMessage {
  const m = tiktokFixtures.messages[name] ?? tiktokFixtures.malformed[name];
  if (m === undefined) throw new Error(`no TikTok fixture named ${name}`);
  return structuredClone(m);
}

/** The gift streak's messages, in order: repeats, then the one that ends it. */
export function giftStreakMessages(): TikTokFixtureMessage[] {
  const { template, steps } = tiktokFixtures.giftStreak;
  return steps.map((s) => {
    const m = structuredClone(template);
    Object.assign(m.data, { repeatCount: s.repeatCount, repeatEnd: s.repeatEnd });
    Object.assign(m.data["common"] as Record<string, unknown>, { msgId: s.msgId });
    return m;
  });
}

/** The like messages, in order. */
export function likeMessages(): TikTokFixtureMessage[] {
  const { template, steps } = tiktokFixtures.likes;
  return steps.map((s) => {
    const m = structuredClone(template);
    Object.assign(m.data, { count: s.count, total: s.total, user: { id: s.userId, nickname: s.displayId, displayId: s.displayId } });
    Object.assign(m.data["common"] as Record<string, unknown>, { msgId: s.msgId });
    return m;
  });
}
