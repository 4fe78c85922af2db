import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { EventEmitter } from "node:events";
import type { KeyValueStore, OutgoingMessage } from "../../index.js";
import { chatEvent } from "./chat-events.js";

const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8");

/** The first ```ts block of the README's "## Embedding" section, exactly as written. */
function embeddingExample(): string {
  const section = readme.split(/^## /m).find((part) => part.startsWith("Embedding"));
  const code = section?.match(/```ts\n([\s\S]*?)```/)?.[1];
  if (code === undefined) throw new Error("README.md has no ```ts block under ## Embedding");
  return code;
}

describe("the README embedding example", () => {
  const dir = mkdtempSync(join(tmpdir(), "ovation-embedding-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("is about 20 lines", () => {
    expect(embeddingExample().trim().split("\n").length).toBeLessThanOrEqual(30);
  });

  it("runs as written: chat events in, messages out, points in the bot's own store", async () => {
    const file = join(dir, "example.ts");
    writeFileSync(file, embeddingExample());
    const example = (await import(/* @vite-ignore */ file)) as { chat: EventEmitter; store: KeyValueStore };
    const sent: OutgoingMessage[] = [];
    const invalid: unknown[] = [];
    example.chat.on("send", (message: OutgoingMessage) => sent.push(message));
    example.chat.on("invalid", (error: unknown) => invalid.push(error));
    const next = () => new Promise<OutgoingMessage>((resolve) => example.chat.once("send", resolve));

    let answer = next();
    example.chat.emit("event", chatEvent("!hello", { channel: "channel-1" }));
    expect((await answer).text).toBe("Hello from my bot!");

    example.chat.emit("event", chatEvent("just chatting", { channel: "channel-1" }));
    answer = next();
    example.chat.emit("event", chatEvent("!song", { channel: "channel-1", user: "v1", username: "viewer" }));
    expect((await answer).text).toBe("@viewer !song costs 10 points; you have 0.");

    await example.store.update("channel-1", "points", "v1", () => 25);
    const request = chatEvent("!song", { channel: "channel-1", user: "v1" });
    answer = next();
    example.chat.emit("event", request);
    expect(await answer).toEqual({ channel: request.channel, text: "Song queued.", send_as: "reply", reply_to: request.id });
    expect(await example.store.table("channel-1", "points")).toEqual({ v1: 15 });

    const failed = new Promise((resolve) => example.chat.once("invalid", resolve));
    example.chat.emit("event", { message: "!hello", channel: { id: "channel-1" } });
    expect(String(await failed)).toMatch(/invalid chat event/);
    expect(sent).toHaveLength(3);
    expect(invalid).toHaveLength(1);
  });
});
