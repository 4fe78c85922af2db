import type { PlatformAlertDeclaration, PlatformDeclaration } from "@ovation/core/contracts";

type CatalogParameter = PlatformAlertDeclaration["parameters"][number];

const text = (name: string, example: string, description: string, conditional = false): CatalogParameter => ({ name, type: "string", default: "", example, description, conditional });
const number = (name: string, example: number, description: string): CatalogParameter => ({ name, type: "number", default: 0, example, description, conditional: true });

/**
 * TikTok as a platform of the alert catalog: gifts are `donation` alerts (the diamond value as the
 * amount, in "TikTok diamonds"), follows `follow`, subscriptions `subscribe`. Shares
 * (`tiktok.share`) and the like windows (`tiktok.likes`) are notifications outside the catalog.
 */
export const TIKTOK_PLATFORM: PlatformDeclaration = {
  name: "TikTok",
  alerts: [
    {
      type: "donation",
      parameters: [
        text("name", "rose.sender", "Who sent the gift (their @handle)"),
        text("gift_name", "Rose", "The gift's name", true),
        text("gift_id", "5655", "TikTok's gift id", true),
        number("count", 5, "How many were sent (a streak's final count)"),
        number("diamonds", 1, "Diamonds one gift is worth"),
        text("amount", "5", "Diamonds of the whole gift (diamonds x count)", true),
        text("currency", "TikTok diamonds", "Always TikTok diamonds"),
        text("message", "", "Always empty: TikTok gifts carry no message"),
      ],
      default: { title: "{{name}} sent {{count}} x {{gift_name}}!", subtitle: "{{amount}} {{currency}}" },
    },
    {
      type: "follow",
      parameters: [text("name", "new.follower", "Who followed")],
      default: { title: "{{name}} followed on TikTok", subtitle: "Welcome!" },
    },
    {
      type: "subscribe",
      parameters: [
        text("name", "subscriber.7", "Who subscribed"),
        text("tier", "1000", "Always 1000: TikTok has one subscription level"),
        { name: "is_gift", type: "boolean", default: false, example: false, description: "Always false on TikTok", conditional: false },
      ],
      default: { title: "{{name}} subscribed on TikTok!" },
    },
  ],
};
