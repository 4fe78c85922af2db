import { emotewallSourceSettingsSchema } from "@ovation/core/overlays";
import type { EmotewallSourceSettings } from "@ovation/core/overlays";
import type { ChatEvent } from "@ovation/core/contracts";
import type { BrowserSourceBootstrap } from "../../bootstrap.js";
import type { PageStatus } from "../page-state.js";
import { emotesOf } from "./emotes.js";
import { readSettings, runOverlay } from "./overlay-runner.js";
import { RateCap } from "./rate-cap.js";

/**
 * The emote wall: every emote of the chat (images where the platform's address follows from the id)
 * bursts up from a random spot and fades, at most `max_per_second` started a second, `max_on_screen`
 * at once and `max_per_message` from one message; what is over the cap is dropped, not queued.
 */
export class EmoteWall {
  readonly element: HTMLElement;
  readonly #doc: Document;
  #settings: EmotewallSourceSettings;
  readonly #cap: RateCap;
  #live = 0;
  #shown = 0;
  #dropped = 0;

  constructor(doc: Document, settings: EmotewallSourceSettings) {
    this.#doc = doc;
    this.#settings = settings;
    this.#cap = new RateCap(settings.max_per_second);
    this.element = doc.createElement("div");
    this.element.className = "ovation-emotewall";
  }

  configure(settings: EmotewallSourceSettings): void {
    this.#settings = settings;
    this.#cap.perSecond = settings.max_per_second;
  }

  /** Throws the message's emotes on the wall, as far as the caps allow. */
  add(event: ChatEvent): void {
    const s = this.#settings;
    if (s.platforms.length > 0 && !s.platforms.includes(event.platform)) return;
    const emotes = emotesOf(event.fragments).filter((e) => e.url !== null).slice(0, s.max_per_message);
    for (const { fragment, url } of emotes) {
      if (this.#live >= s.max_on_screen || !this.#cap.take()) {
        this.#dropped += 1;
        continue;
      }
      this.#burst(url ?? "", fragment.text);
    }
    this.element.dataset.shown = String(this.#shown);
    this.element.dataset.dropped = String(this.#dropped);
  }

  #burst(url: string, alt: string): void {
    const s = this.#settings;
    const img = this.#doc.createElement("img");
    img.className = "ovation-wall-emote";
    img.alt = alt;
    img.decoding = "async";
    img.referrerPolicy = "no-referrer";
    img.src = url;
    img.style.width = `${s.size}px`;
    img.style.height = `${s.size}px`;
    img.style.left = `${(Math.random() * 90 + 5).toFixed(2)}%`;
    img.style.top = `${(Math.random() * 70 + 25).toFixed(2)}%`;
    this.#live += 1;
    this.#shown += 1;
    this.element.append(img);
    const drift = (Math.random() - 0.5) * 200;
    const rise = 150 + Math.random() * 250;
    const animation = img.animate(
      [
        { transform: "translate(-50%, -50%) scale(0.2)", opacity: 0 },
        { transform: "translate(-50%, -50%) scale(1.15)", opacity: 1, offset: 0.12 },
        { transform: `translate(calc(-50% + ${drift.toFixed(0)}px), calc(-50% - ${rise.toFixed(0)}px)) scale(1)`, opacity: 0 },
      ],
      { duration: s.duration_ms, easing: "ease-out", fill: "forwards" },
    );
    const done = () => {
      this.#live -= 1;
      img.remove();
    };
    animation.addEventListener("finish", done, { once: true });
    animation.addEventListener("cancel", done, { once: true });
  }
}

/** The `emotewall` page: joins the `.chat` rooms and bursts their emotes. */
export async function runEmotewallPage(bootstrap: BrowserSourceBootstrap, stage: HTMLElement, status: PageStatus): Promise<void> {
  let wall: EmoteWall | null = null;
  await runOverlay(bootstrap, status, {
    rooms: (config) => config.chat_rooms,
    start: (config, socket) => {
      const created = new EmoteWall(stage.ownerDocument, readSettings(emotewallSourceSettingsSchema, config, status));
      wall = created;
      stage.replaceChildren(created.element);
      socket.on("message", (event: ChatEvent) => created.add(event));
    },
    update: (config) => wall?.configure(readSettings(emotewallSourceSettingsSchema, config, status)),
    stop: () => stage.replaceChildren(),
  });
}
