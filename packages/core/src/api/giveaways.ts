// The giveaways' API schemas live beside their routes (commands/modules/giveaways/giveaway-routes.ts).
export {
  giveawayCurrentSchema,
  giveawayDrawBodySchema,
  giveawayDrawSchema,
  giveawayRerollBodySchema,
  giveawayRerollSchema,
  giveawayViewSchema,
  giveawayWinnerViewSchema as giveawayWinnerSchema,
} from "../commands/modules/giveaways/giveaway-routes.js";
