import type { OvationApp } from "../app.js";
import { seedDefaultAlertSet, seedUser, testApp } from "./helpers.js";
import type { SeededUser } from "./helpers.js";

/** A streamer's channel with three other accounts, served on loopback: what the managers' tests start from. */
export interface ManagedChannel {
  app: OvationApp;
  base: string;
  streamer: SeededUser;
  editor: SeededUser;
  moderator: SeededUser;
  stranger: SeededUser;
}

/**
 * Starts an app in `dir` with a streamer and Eddie, Mona and a stranger, each with a token of
 * `scopes`. `managed`: the streamer also gets the default alert set and grants Eddie the editor
 * role and Mona the moderator role.
 */
export async function startManagedChannel(dir: string, scopes: readonly string[], options: { managed?: boolean } = {}): Promise<ManagedChannel> {
  const app = await testApp(dir);
  const streamer = seedUser(app, "Streamer", scopes);
  const editor = seedUser(app, "Eddie", scopes);
  const moderator = seedUser(app, "Mona", scopes);
  const stranger = seedUser(app, "Stranger", scopes);
  if (options.managed) {
    await seedDefaultAlertSet(app, streamer.userId);
    app.ovation.repos.managers.grant(streamer.userId, editor.userId, "editor");
    app.ovation.repos.managers.grant(streamer.userId, moderator.userId, "moderator");
  }
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === "string") throw new Error("no address");
  return { app, base: `http://127.0.0.1:${address.port}`, streamer, editor, moderator, stranger };
}
