import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDataDir } from "../../__tests__/helpers.js";
import { startOwnRedis } from "../../__tests__/services/redis.js";
import { waitFor } from "../../__tests__/socket-helpers.js";
import type { OwnRedis } from "../../__tests__/services/redis.js";
import { EAT_CODE_RULES, EatService } from "../../identity/eat/service.js";
import type { Mailer, OutgoingMail } from "../../identity/mail/mailer.js";
import { IdentityStore } from "../../identity/identity-store.js";
import { closeRedis, openRedis } from "../connection.js";
import { RedisWindowCounter } from "../window-counter.js";

/** The code of the last mail. */
function capturingMailer(): Mailer & { code(): string } {
  const mails: OutgoingMail[] = [];
  return {
    transport: "smtp",
    send: async (mail) => void mails.push(mail),
    close: () => undefined,
    code: () => /code is: (\d{6})/.exec(mails.at(-1)?.text ?? "")?.[1] ?? "",
  };
}

function codeOf(error: unknown): string {
  return (error as { code?: string }).code ?? String(error);
}

// Two nodes' EAT services over one identity store (as PostgreSQL gives them), each with its own
// Redis connection: wrong codes count together, atomically.
describe("EAT verification code tries shared through Redis", () => {
  let own: OwnRedis;
  let a: Redis;
  let b: Redis;
  const dir = tempDataDir();
  beforeAll(async () => {
    own = await startOwnRedis();
    a = await openRedis(own.url, { name: "eat-a", failFast: true });
    b = await openRedis(own.url, { name: "eat-b", failFast: true });
  }, 120_000);
  afterAll(async () => {
    await closeRedis(a);
    await closeRedis(b);
    await own.close();
    dir.remove();
  });

  it("five wrong codes spread over two nodes burn the code; with Redis down no code is compared (503)", async () => {
    const store = await IdentityStore.open(dir.dir);
    const mailer = capturingMailer();
    const lifetimes = { eat: 900, eatCode: 600 };
    const nodeA = new EatService(store, mailer, Date.now, lifetimes, new RedisWindowCounter(a, "ovation:eat-attempts:"));
    const nodeB = new EatService(store, mailer, Date.now, lifetimes, new RedisWindowCounter(b, "ovation:eat-attempts:"));
    const user = { id: 1, email: "alice@example.test", name: "Alice" };
    await nodeA.requestVerification(user);
    const right = mailer.code();
    const wrong = right === "000000" ? "111111" : "000000";
    const outcomes: string[] = [];
    for (let i = 0; i < EAT_CODE_RULES.maxWrongAttempts; i++) outcomes.push(codeOf(await (i % 2 === 0 ? nodeA : nodeB).verifyCode(1, wrong).catch((e: unknown) => e)));
    expect(outcomes).toEqual([...Array<string>(4).fill("OVATION_ERR_IDENTITY_EAT_CODE_INVALID"), "OVATION_ERR_IDENTITY_EAT_CODE_BURNED"]);
    expect(codeOf(await nodeB.verifyCode(1, right).catch((e: unknown) => e))).toBe("OVATION_ERR_IDENTITY_EAT_CODE_INVALID");

    // A fresh code; Redis goes down: even the right code is not compared, so no guess goes uncounted.
    await nodeB.requestVerification(user);
    const next = mailer.code();
    await own.kill();
    expect(codeOf(await nodeA.verifyCode(1, next).catch((e: unknown) => e))).toBe("OVATION_ERR_IDENTITY_COUNTERS_UNAVAILABLE");
    await own.start();
    await waitFor(() => a.status === "ready");
    expect((await nodeA.verifyCode(1, next)).token).toMatch(/^oveat_/);
  }, 60_000);
});
