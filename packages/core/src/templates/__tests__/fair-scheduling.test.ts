import { afterAll, describe, expect, it } from "vitest";
import { FAIR_SCHEDULING, FairQueue } from "../fair-queue.js";
import type { TemplateVariables } from "../template-sandbox.js";
import { TemplateSandbox } from "../template-sandbox.js";
import { recordingFunctions, variables } from "./template-test-kit.js";

/** Issue 10, medium: 4 loops of timeout bombs in one channel made another channel's `!hug` p50 go from 7 ms to 207 ms. */
describe("FairQueue", () => {
  it("takes quiet channels round-robin, so a long queue of one channel does not fill a batch", () => {
    const queue = new FairQueue<string>();
    for (let i = 0; i < 5; i++) queue.push("busy", `busy-${i}`);
    queue.push("quiet", "quiet-0");
    expect(queue.takeQuiet(4)).toEqual(["busy-0", "quiet-0", "busy-1", "busy-2"]);
    expect(queue.size).toBe(2);
  });

  it("keeps a penalised channel out of the quiet batches until its penalty decays, then serves it again", () => {
    let now = 0;
    const queue = new FairQueue<string>(() => now);
    queue.penalize("noisy");
    queue.push("noisy", "bomb-1");
    queue.push("noisy", "bomb-2");
    queue.push("quiet", "hug");
    expect(queue.takeQuiet(64)).toEqual(["hug"]);
    expect(queue.takeNoisy()).toBe("bomb-1");
    now += FAIR_SCHEDULING.penaltyHalfLifeMs * 2;
    expect(queue.isNoisy("noisy")).toBe(false);
    expect(queue.takeQuiet(64)).toEqual(["bomb-2"]);
  });

  it("serves the least penalised noisy channel first", () => {
    const queue = new FairQueue<string>(() => 0);
    queue.penalize("worse");
    queue.penalize("worse");
    queue.penalize("bad");
    queue.push("worse", "w");
    queue.push("bad", "b");
    expect(queue.takeNoisy()).toBe("b");
    expect(queue.takeNoisy()).toBe("w");
    expect(queue.takeNoisy()).toBeUndefined();
  });
});

describe("fair scheduling in the sandbox", () => {
  const sandbox = new TemplateSandbox();
  afterAll(async () => {
    await sandbox.close();
  });

  const inChannel = (channel: string, args: string[]): TemplateVariables => {
    const base = variables(args);
    return { ...base, event: { ...base.event, channel: { ...base.event.channel, id: channel } } };
  };

  it("a quiet channel's render is not held behind a noisy channel's timeout bombs", async () => {
    const bomb = sandbox.compile("{% for i in range(1, 10000) %}{% for j in range(1, 10000) %}{% endfor %}{% endfor %}");
    const hug = sandbox.compile("{{ event.user.username }} hugs {{ args[1] }}");
    await expect(sandbox.render(bomb, inChannel("noisy", ["!bomb"]), recordingFunctions())).rejects.toMatchObject({ reason: "timeout" });
    const order: string[] = [];
    const bombs = Array.from({ length: 4 }, (_, i) =>
      sandbox.render(bomb, inChannel("noisy", ["!bomb"]), recordingFunctions()).catch(() => order.push(`bomb-${i}`)),
    );
    const quiet = sandbox.render(hug, inChannel("quiet", ["!hug", "bob"]), recordingFunctions()).then((text) => {
      order.push("hug");
      return text;
    });
    expect(await quiet).toBe("viewer42 hugs bob");
    await Promise.all(bombs);
    // Bombs of a noisy channel run one at a time, after the quiet render was sent: it cannot wait behind them.
    expect(order.indexOf("hug")).toBeLessThan(order.indexOf("bomb-3"));
    expect(order.indexOf("hug")).toBeLessThanOrEqual(1);
  });
});
