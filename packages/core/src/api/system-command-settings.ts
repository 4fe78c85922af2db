// The system commands' API schemas live beside their routes (commands/modules/system/system-routes.ts).
export { systemCommandsBodySchema, systemCommandsViewSchema } from "../commands/modules/system/system-routes.js";
