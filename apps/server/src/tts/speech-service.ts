import { createHash } from "node:crypto";
import type { SpeechAudio, SpeechProvider } from "./speech-provider.js";

/** Most audio the cache keeps, in bytes (about 12 minutes of eSpeak's 22 kHz mono). */
const CACHE_BYTES = 32 * 1024 * 1024;

/** A message held for approval in the dashboard's speech queue. */
export interface HeldSpeech {
  notification_id: string;
  type: string;
  name: string;
  text: string;
  held_at: string;
}

/** Most messages held per user; the oldest go first. */
const MAX_HELD = 100;

/**
 * Speech for the server: the provider behind a cache keyed by provider, voice and text (the same
 * tip read by three sources is synthesised once; a concurrent request waits for the first), and the
 * per-user approval queue of held messages.
 */
export class SpeechService {
  readonly #cache = new Map<string, Promise<SpeechAudio>>();
  readonly #sizes = new Map<string, number>();
  #bytes = 0;
  readonly #held = new Map<number, Map<string, HeldSpeech>>();
  /** Messages approved (notification ids) per user: their speech is served even with approval on. */
  readonly #approved = new Map<number, Set<string>>();

  constructor(readonly provider: SpeechProvider) {}

  /** The audio of `text` in `voice` (the provider's default when empty), from the cache when it was made before. */
  speak(text: string, voice: string): Promise<SpeechAudio> {
    const chosen = voice === "" ? this.provider.defaultVoice : voice;
    const key = createHash("sha256").update(`${this.provider.id}\u0000${chosen}\u0000${text}`).digest("hex");
    const cached = this.#cache.get(key);
    if (cached) {
      this.#cache.delete(key);
      this.#cache.set(key, cached); // most recently used last
      return cached;
    }
    const made = this.provider.synthesize(text, chosen);
    this.#cache.set(key, made);
    made.then(
      (audio) => {
        if (!this.#cache.has(key)) return;
        this.#sizes.set(key, audio.wav.length);
        this.#bytes += audio.wav.length;
        for (const old of this.#cache.keys()) {
          if (this.#bytes <= CACHE_BYTES || old === key) break;
          this.#evict(old);
        }
      },
      () => this.#evict(key),
    );
    return made;
  }

  /** How many texts the cache holds. */
  get cached(): number {
    return this.#cache.size;
  }

  #evict(key: string): void {
    this.#cache.delete(key);
    this.#bytes -= this.#sizes.get(key) ?? 0;
    this.#sizes.delete(key);
  }

  /** Holds a message for approval (once per notification). */
  hold(userId: number, item: HeldSpeech): void {
    const queue = this.#held.get(userId) ?? new Map<string, HeldSpeech>();
    this.#held.set(userId, queue);
    if (queue.has(item.notification_id)) return;
    queue.set(item.notification_id, item);
    for (const id of queue.keys()) {
      if (queue.size <= MAX_HELD) break;
      queue.delete(id);
    }
  }

  /** The held messages of a user, oldest first. */
  held(userId: number): HeldSpeech[] {
    return [...(this.#held.get(userId)?.values() ?? [])];
  }

  /** Approves a held message; false when none is held with that id. */
  approve(userId: number, notificationId: string): boolean {
    if (!this.#held.get(userId)?.delete(notificationId)) return false;
    const approved = this.#approved.get(userId) ?? new Set<string>();
    this.#approved.set(userId, approved);
    approved.add(notificationId);
    if (approved.size > MAX_HELD) approved.delete(approved.values().next().value as string);
    return true;
  }

  /** Drops a held message; false when none is held with that id. */
  skip(userId: number, notificationId: string): boolean {
    return this.#held.get(userId)?.delete(notificationId) ?? false;
  }

  /** Whether the message was approved. */
  isApproved(userId: number, notificationId: string): boolean {
    return this.#approved.get(userId)?.has(notificationId) ?? false;
  }
}
