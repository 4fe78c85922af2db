/** OpenAPI description of an identity API route (tags, summary, bearer security). */
export function apiDoc(summary: string, options: { eat?: boolean; public?: boolean } = {}): { schema: { tags: string[]; summary: string; description?: string; security?: Record<string, string[]>[] } } {
  return {
    schema: {
      tags: ["identity"],
      summary,
      ...(options.eat ? { description: "Needs the header `Elevated-Access-Token` besides the bearer token (see docs/identity.md)." } : {}),
      ...(options.public ? {} : { security: [{ bearerAuth: [] }] }),
    },
  };
}

/** Route options that keep a route (HTML pages, the mounted authorization server) out of the OpenAPI document. */
export const HIDDEN_ROUTE = Object.freeze({ schema: { hide: true } });
