/**
 * Platform icons and badge glyphs drawn as inline SVG from constant path data (no image host, nothing
 * from the message): `createElementNS` only, so nothing here parses markup.
 */

const SVG_NS = "http://www.w3.org/2000/svg";

interface Glyph {
  /** Background colour of the rounded square behind the glyph. */
  fill: string;
  /** Path data in a 24x24 box, drawn in white. */
  path: string;
}

const PLATFORM_GLYPHS: Record<string, Glyph> = {
  twitch: { fill: "#9146ff", path: "M5 3 4 6v13h4v2h2l2-2h3l4-4V3H5zm12 11-2 2h-3l-2 2v-2H7V5h10v9zm-3-7h2v5h-2zm-4 0h2v5h-2z" },
  youtube: { fill: "#ff0000", path: "M9.5 7.5v9l7.5-4.5z" },
  kick: { fill: "#53fc18", path: "M5 4h4.5v5H11V7h2V5h5.5v5H16v2h-2v.5h2V15h2.5v5H13v-2h-2v-2H9.5v4H5z" },
  tiktok: { fill: "#111111", path: "M13 3h3a4 4 0 0 0 4 4v3a7 7 0 0 1-4-1.3V15a6 6 0 1 1-6-6v3.2A2.8 2.8 0 1 0 13 15z" },
  ovation: { fill: "#2f80ed", path: "M5 6l6 6-6 6-1.5-1.5L8 12 3.5 7.5zM12 16.5h8V19h-8z" },
};

const BADGE_GLYPHS: Record<string, Glyph> = {
  broadcaster: { fill: "#e91916", path: "M4 7h11v10H4zm12 3 4-2.5v9L16 14z" },
  moderator: { fill: "#00ad03", path: "M14.5 3 21 3v6.5l-8 8 1.5 1.5-1.5 1.5-2.5-2.5L7 21l-2-2 3-3.5L5.5 13 7 11.5 8.5 13z" },
  vip: { fill: "#e005b9", path: "M7 4h10l4 5-9 11L3 9z" },
  subscriber: { fill: "#8205b4", path: "m12 3 2.6 5.6 6.1.7-4.5 4.2 1.2 6L12 16.5 6.6 19.5l1.2-6L3.3 9.3l6.1-.7z" },
  member: { fill: "#0f9d58", path: "m12 3 2.6 5.6 6.1.7-4.5 4.2 1.2 6L12 16.5 6.6 19.5l1.2-6L3.3 9.3l6.1-.7z" },
  founder: { fill: "#f0a30a", path: "m12 3 2.6 5.6 6.1.7-4.5 4.2 1.2 6L12 16.5 6.6 19.5l1.2-6L3.3 9.3l6.1-.7z" },
  verified: { fill: "#1d9bf0", path: "M10 16.5 5.5 12 7 10.5l3 3 7-7L18.5 8z" },
  staff: { fill: "#111111", path: "M4 10h16v4H4z" },
  bot: { fill: "#6b7280", path: "M7 8h10v9H7zm2 3v2h2v-2zm4 0v2h2v-2zM11 4h2v4h-2z" },
};

function glyph(doc: Document, icon: Glyph, className: string, title: string): SVGSVGElement {
  const svg = doc.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", className);
  svg.setAttribute("role", "img");
  const label = doc.createElementNS(SVG_NS, "title");
  label.textContent = title;
  const back = doc.createElementNS(SVG_NS, "rect");
  back.setAttribute("width", "24");
  back.setAttribute("height", "24");
  back.setAttribute("rx", "5");
  back.setAttribute("fill", icon.fill);
  const path = doc.createElementNS(SVG_NS, "path");
  path.setAttribute("d", icon.path);
  path.setAttribute("fill", icon.fill === "#53fc18" ? "#000000" : "#ffffff");
  svg.append(label, back, path);
  return svg;
}

/** The platform's icon; a platform without a glyph (a third-party plugin's) gets its first letter. */
export function platformIcon(doc: Document, platform: string): Element {
  const icon = PLATFORM_GLYPHS[platform];
  if (icon) {
    const svg = glyph(doc, icon, "ovation-platform-icon", platform);
    svg.dataset.platform = platform;
    return svg;
  }
  const letter = doc.createElement("span");
  letter.className = "ovation-platform-icon ovation-platform-letter";
  letter.dataset.platform = platform;
  letter.textContent = platform.slice(0, 1).toUpperCase();
  letter.title = platform;
  return letter;
}

/** A badge: the glyph of a known type, else a small chip with its title (as text). */
export function badgeIcon(doc: Document, badge: { type: string; text: string | null }): Element {
  const icon = BADGE_GLYPHS[badge.type];
  const title = badge.text ?? badge.type;
  if (icon) {
    const svg = glyph(doc, icon, "ovation-badge", title);
    svg.dataset.badge = badge.type;
    return svg;
  }
  const chip = doc.createElement("span");
  chip.className = "ovation-badge ovation-badge-chip";
  chip.dataset.badge = badge.type;
  chip.textContent = title.slice(0, 12);
  return chip;
}
