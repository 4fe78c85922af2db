import { pino } from "pino";
import { afterAll, beforeAll } from "vitest";
import { createOvationClient } from "@ovation/client";
import type { HttpClientOptions, OvationClient } from "@ovation/client";
import { buildApp } from "../../app.js";
import type { OvationApp } from "../../app.js";
import { hashPassword } from "../../identity/accounts/passwords.js";
import { loadIdentityEnv } from "../../identity/identity-env.js";
import { startSmtp } from "../../identity/__tests__/harness.js";
import { listen } from "../socket-helpers.js";
import { tempDataDir, testConfig } from "../helpers.js";

/** The password of the fixture's user. */
export const PASSWORD = "a long and sturdy passphrase";

/** A real server (identity module and SMTP on loopback) with one user and a client on it. */
export interface ClientFixture {
  app: OvationApp;
  base: string;
  smtp: Awaited<ReturnType<typeof startSmtp>>;
  user: { id: number; uuid: string; email: string; token: string };
  /** A client of the user (every scope). */
  client: OvationClient;
  /** Another client on the same server. */
  clientWith(options: Omit<HttpClientOptions, "baseUrl">): OvationClient;
  /** An EAT of the user: the first call mails a code and exchanges it through the client (the real flow); later calls reuse it (codes are rate limited). */
  eat(): Promise<string>;
}

/** Registers `beforeAll`/`afterAll` that start and stop a {@link ClientFixture}; read its fields inside tests. */
export function useClientFixture(env: Record<string, string> = {}): ClientFixture {
  const data = tempDataDir();
  const fixture = {} as ClientFixture;
  beforeAll(async () => {
    fixture.smtp = await startSmtp();
    fixture.app = await buildApp({
      config: testConfig(data.dir, env),
      logger: pino({ level: "silent" }),
      identity: { env: loadIdentityEnv({}), smtpUrl: `smtp://127.0.0.1:${fixture.smtp.port}` },
    });
    fixture.base = await listen(fixture.app);
    const email = "sam@example.test";
    const record = fixture.app.ovation.repos.users.create({ name: "Sam", email, email_verified_at: new Date().toISOString(), password_hash: await hashPassword(PASSWORD) });
    const { token } = fixture.app.ovation.repos.tokens.create({ user_id: record.id, name: "client tests", scopes: ["*"] });
    fixture.user = { id: record.id, uuid: record.uuid, email, token };
    fixture.clientWith = (options) => createOvationClient({ baseUrl: fixture.base, ...options });
    fixture.client = fixture.clientWith({ token });
    let eat: string | null = null;
    fixture.eat = async () => {
      if (eat !== null) return eat;
      const before = fixture.smtp.mails.filter((m) => m.to.includes(email)).length;
      await fixture.client.eat.requestVerification();
      const mail = await fixture.smtp.waitFor(email, before + 1);
      const code = /verification code is: (\d{6})/.exec(mail.text)?.[1] ?? "";
      eat = (await fixture.client.eat.verifyCode(code)).token;
      return eat;
    };
  }, 60_000);
  afterAll(async () => {
    await fixture.app?.close();
    await fixture.smtp?.close();
    data.remove();
  });
  return fixture;
}
