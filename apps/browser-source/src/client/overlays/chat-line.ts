import type { ChatEvent } from "@ovation/core/contracts";
import type { ChatSourceSettings } from "@ovation/core/overlays";
import { emoteImageUrl } from "./emotes.js";
import { badgeIcon, platformIcon } from "./icons.js";

const HEX_COLOUR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** A readable name colour: the platform's when it is a plain hex colour, else one drawn from the name. */
export function nameColour(event: Pick<ChatEvent, "user">): string {
  const given = event.user.color;
  if (given && HEX_COLOUR.test(given)) return given;
  let hash = 0;
  for (const ch of event.user.username) hash = (hash * 31 + ch.charCodeAt(0)) | 0;
  return `hsl(${Math.abs(hash) % 360} 70% 65%)`;
}

/**
 * Builds one chat line from a chat event: platform icon, badges, the name in its colour, the message
 * with emotes as images, the replied-to message above it, highlighted when the platform says so.
 * Every piece of viewer text goes in through `textContent` or an attribute value, so a message such as
 * `<img src=x onerror=alert(1)>` shows as those characters and never becomes markup.
 */
export function buildChatLine(doc: Document, event: ChatEvent, settings: Pick<ChatSourceSettings, "show_badges" | "show_platform_icon">): HTMLElement {
  const line = doc.createElement("div");
  line.className = "ovation-chat-line";
  line.dataset.id = event.id;
  line.dataset.platform = event.platform;
  line.dataset.user = event.user.platform_id;
  const highlighted = event.attributes.highlight || event.type === "announcement";
  if (highlighted) {
    line.classList.add("ovation-chat-highlight");
    const accent = event.attributes.accent;
    if (accent && HEX_COLOUR.test(accent)) line.style.setProperty("--ovation-accent", accent);
  }
  if (event.attributes.action) line.classList.add("ovation-chat-action");

  if (event.parent) {
    const reply = doc.createElement("div");
    reply.className = "ovation-chat-reply";
    reply.textContent = event.parent.message === null ? "replying" : `replying to: ${event.parent.message.slice(0, 140)}`;
    line.append(reply);
  }

  const head = doc.createElement("span");
  head.className = "ovation-chat-head";
  if (settings.show_platform_icon) head.append(platformIcon(doc, event.platform));
  if (settings.show_badges) for (const badge of event.user.badges.slice(0, 6)) head.append(badgeIcon(doc, badge));
  const author = doc.createElement("span");
  author.className = "ovation-chat-name";
  author.style.color = nameColour(event);
  author.textContent = event.user.username;
  head.append(author);
  line.append(head);

  const body = doc.createElement("span");
  body.className = "ovation-chat-message";
  if (event.attributes.action) body.style.color = nameColour(event);
  const fragments = event.fragments.length > 0 ? event.fragments : [{ type: "text" as const, text: event.message }];
  for (const fragment of fragments) {
    if (fragment.type === "emote" || fragment.type === "cheermote") {
      const url = emoteImageUrl(fragment);
      if (url) {
        const img = doc.createElement("img");
        img.className = fragment.type === "cheermote" ? "ovation-emote ovation-cheermote" : "ovation-emote";
        img.alt = fragment.text;
        img.title = fragment.text;
        img.decoding = "async";
        img.referrerPolicy = "no-referrer";
        img.src = url;
        // A broken image gives way to its text, so the message still reads.
        img.addEventListener("error", () => img.replaceWith(emoteChip(doc, fragment.text)), { once: true });
        body.append(img);
        if (fragment.type === "cheermote" && fragment.data?.bits !== undefined) {
          const bits = doc.createElement("span");
          bits.className = "ovation-cheer-bits";
          bits.textContent = String(fragment.data.bits);
          body.append(bits);
        }
        continue;
      }
      body.append(emoteChip(doc, fragment.text));
      continue;
    }
    if (fragment.type === "mention") {
      const mention = doc.createElement("span");
      mention.className = "ovation-chat-mention";
      mention.textContent = fragment.text;
      body.append(mention);
      continue;
    }
    body.append(doc.createTextNode(fragment.text));
  }
  line.append(body);
  return line;
}

function emoteChip(doc: Document, text: string): HTMLElement {
  const chip = doc.createElement("span");
  chip.className = "ovation-emote-text";
  chip.textContent = text;
  return chip;
}
