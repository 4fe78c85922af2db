// The commands module declares its API schemas beside its routes (commands/modules/commands).
export { commandTestBodySchema, commandTestResultSchema, commandViewSchema, signingSecretSchema } from "../commands/modules/commands/command-view.js";
