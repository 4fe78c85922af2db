import type * as api from "@ovation/core/api";
import type { In, Out } from "./schema-types.js";
import type { CallOptions, HttpClient } from "./transport.js";

/** Routes of {@link simulatorApi}. */
export const SIMULATOR_ROUTES = {
  simulate: { method: "POST", path: "/v1/simulate" },
} as const;

/** Body of `POST /v1/simulate`. */
export type SimulateInput = In<typeof api.simulateBodySchema>;
/** Answer of `POST /v1/simulate`. */
export type SimulateResult = Out<typeof api.simulateResultSchema>;

/** The event simulator (`alerts:manage`). */
export function simulatorApi(http: HttpClient) {
  return {
    /** `POST /v1/simulate`: sends a catalog event of a platform as its plugin would (marked simulated in the alert log). */
    simulate: (input: SimulateInput, options?: CallOptions) => http.call<SimulateResult>(SIMULATOR_ROUTES.simulate, { ...options, body: input }),
  };
}

/** The API of {@link simulatorApi}. */
export type SimulatorApi = ReturnType<typeof simulatorApi>;
