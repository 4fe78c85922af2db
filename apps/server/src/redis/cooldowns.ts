import { CooldownTracker } from "@ovation/core/commands";
import type { CooldownClaim, CooldownEntry, CooldownStore } from "@ovation/core/commands";
import type { Redis } from "ioredis";
import type { Logger } from "pino";
import { FailOpen } from "./outage.js";
import { withScripts } from "./scripts.js";

// Check every entry (unless forced), then take them all: one script, so two nodes racing for the
// same free cooldown never both get it. A key holds the time of its last use and expires with its
// cooldown. Returns {0} when taken, else {index (1-based), milliseconds left}.
const CLAIM = `
local now = tonumber(ARGV[1])
if ARGV[2] ~= '1' then
  for i = 1, #KEYS do
    local ms = tonumber(ARGV[2 + i]) * 1000
    if ms > 0 then
      local last = redis.call('GET', KEYS[i])
      if last then
        local left = tonumber(last) + ms - now
        if left > 0 then return {i, left} end
      end
    end
  end
end
for i = 1, #KEYS do
  local ms = tonumber(ARGV[2 + i]) * 1000
  if ms > 0 then redis.call('SET', KEYS[i], ARGV[1], 'PX', ms) end
end
return {0}`;

// Gives back keys still holding this claim's time (nobody took them since).
const RELEASE = `
for i = 1, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[1] then redis.call('DEL', KEYS[i]) end
end
return 1`;

interface CooldownCommands {
  ovationCooldownClaim(...args: (string | number)[]): Promise<number[]>;
  ovationCooldownRelease(...args: (string | number)[]): Promise<number>;
}

const PREFIX = "ovation:cooldown:";
const NOTHING_TO_RELEASE = (): void => undefined;

/**
 * Command cooldowns shared by every node (Redis): a cooldown taken on one node holds on all, and the
 * check-and-take is atomic (a Lua script), so a command under a cooldown is answered once whatever
 * node its chat message reaches. Times come from the node's clock. While Redis fails, each node keeps
 * cooldowns in its own memory (logged): chat keeps being answered, at worst once per node.
 */
export class RedisCooldownStore implements CooldownStore {
  readonly #redis: Redis & CooldownCommands;
  readonly #local: CooldownTracker;
  readonly #outage: FailOpen;

  constructor(
    redis: Redis,
    private readonly now: () => number = Date.now,
    logger?: Logger,
  ) {
    this.#redis = withScripts<CooldownCommands>(redis, { ovationCooldownClaim: { lua: CLAIM }, ovationCooldownRelease: { lua: RELEASE } });
    this.#local = new CooldownTracker({ now });
    this.#outage = new FailOpen("command cooldowns", logger);
  }

  remainingSeconds(key: string, cooldownSeconds: number): Promise<number> {
    return this.#outage.run(
      async () => {
        if (cooldownSeconds <= 0) return 0;
        const last = await this.#redis.get(PREFIX + key);
        if (last === null) return 0;
        const left = Number(last) + cooldownSeconds * 1000 - this.now();
        return left > 0 ? Math.ceil(left / 1000) : 0;
      },
      () => this.#local.remainingSeconds(key, cooldownSeconds),
    );
  }

  claim(entries: readonly CooldownEntry[], options: { force?: boolean } = {}): Promise<CooldownClaim> {
    return this.#outage.run(
      async (): Promise<CooldownClaim> => {
        if (entries.length === 0) return { ok: true, release: NOTHING_TO_RELEASE };
        const keys = entries.map((entry) => PREFIX + entry.key);
        const taken = String(this.now());
        const result = await this.#redis.ovationCooldownClaim(keys.length, ...keys, taken, options.force === true ? "1" : "0", ...entries.map((entry) => entry.seconds));
        const index = Number(result[0]);
        if (index > 0) return { ok: false, index: index - 1, remainingSeconds: Math.ceil(Number(result[1]) / 1000) };
        return {
          ok: true,
          release: async () => {
            await this.#outage.run(
              async () => void (await this.#redis.ovationCooldownRelease(keys.length, ...keys, taken)),
              () => undefined,
            );
          },
        };
      },
      () => this.#local.claim(entries, options),
    );
  }
}
