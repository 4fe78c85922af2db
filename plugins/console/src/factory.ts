import { definePlugin } from "@ovation/core/contracts";
import { z } from "zod";
import { ConsolePlugin } from "./console-plugin.js";

/**
 * The console plugin factory (`OVATION_PLUGINS=console`, the default). It has no settings; the
 * server serves its socket namespace (`/console`) for `ovation chat`.
 */
export const consoleFactory = definePlugin({ id: "console", settings: z.object({}) }, () => new ConsolePlugin());

export default consoleFactory;
