// The auto-moderation API's schemas are the module's own (its routes declare them); listed here with the other API schemas.
export { moderationTestBodySchema, moderationTestResultSchema, moderationViewSchema } from "../commands/modules/moderation/moderation-view.js";
