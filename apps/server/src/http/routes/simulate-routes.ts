import { simulateBodySchema, simulateResultSchema } from "@ovation/core/api";
import { definedKeys } from "@ovation/core/contracts";
import { simulateEvent } from "../../simulator/simulate-event.js";
import type { SimulatorContext } from "../../simulator/simulate-event.js";
import { channelUserOf, channelRoute } from "../channel-routes.js";
import { authErrorResponses } from "../types.js";
import type { ZodApp } from "../types.js";
import { alertCatalog, platformRegistry } from "./alert-catalog.js";

/** The simulator of an app: its services and the catalog of its loaded platforms. */
export function simulatorOf(app: ZodApp | Parameters<typeof alertCatalog>[0]): SimulatorContext {
  return { services: app.ovation, catalog: () => alertCatalog(app), platforms: () => platformRegistry(app).map((p) => p.id) };
}

/**
 * `POST /v1/simulate` (`alerts:manage`): a catalog event of any platform (a follow on Kick, a raid,
 * going live) sent through the path of a platform plugin's events, marked simulated in the alert log;
 * also `POST /v1/bots/{user}/simulate` for a channel the caller manages.
 */
export async function simulateRoutes(app: ZodApp): Promise<void> {
  const auth = app.ovation.authenticate("alerts:manage");
  channelRoute(
    app,
    { method: "POST", path: "/v1/simulate" },
    (form) => ({
      preHandler: auth,
      schema: {
        params: form.params,
        tags: ["alerts"],
        summary: "Simulate a platform event",
        description:
          "Sends a catalog event of a platform (`follow`, `raid`, `stream.online`...) as if the platform's plugin had: alerts play, goal bars move, " +
          "timers see the stream live, `enable_when` commands switch. `data` goes over the catalog example's values; `name` sets `data.name`. " +
          "The notification is marked `ovation.simulated`. 422 names the field when the platform or type is unknown.",
        security: [{ bearerAuth: [] }],
        body: simulateBodySchema,
        response: { 201: simulateResultSchema, ...authErrorResponses },
      },
    }),
    async (request, reply) => {
      const { type, platform, name, data } = request.body;
      const notification = await simulateEvent(simulatorOf(app), {
        userId: channelUserOf(request),
        type,
        platform,
        ...definedKeys({ name, data }),
      });
      return reply.code(201).send({ notification });
    },
  );
}
