import type { Logger } from "pino";
import { ApiError } from "../errors.js";

/** Reserves the ids `[last - size + 1, last]` of a sequence, all above `floor`, never handed out before. */
export type ReserveIds = (sequence: string, size: number, floor: number) => Promise<{ last: number }>;

/**
 * The first block size of a sequence; a block used up within {@link FAST_BLOCK_MS} doubles the next.
 * Ids are not scarce (a block a node does not finish is only skipped), so the first block is large
 * enough that a burst of creations (a node's first minutes, a batch of sign-ups) does not outrun the
 * database's answer to the refill asked for at half a block: with 100, 50 creations on a loaded
 * machine could use the rest of a block before that answer came, and the 51st failed.
 */
const DEFAULT_FIRST_BLOCK = 1_000;
const MAX_BLOCK = 65_536;
const FAST_BLOCK_MS = 5_000;

interface Block {
  next: number;
  last: number;
}

interface SequenceState {
  name: string;
  blocks: Block[];
  size: number;
  startedAt: number;
  refilling: Promise<void> | null;
  floor: number;
}

/**
 * Ids handed out synchronously from blocks reserved ahead in a shared sequence (hi/lo): with
 * several nodes on one PostgreSQL database each node takes its own blocks, so no id is given twice
 * and none is ever reused (a block a node does not finish is skipped). The next block is reserved
 * in the background once half of the current one is used; blocks grow when they run out fast.
 */
export class IdBlocks {
  readonly #sequences = new Map<string, SequenceState>();

  /** `firstBlock` overrides the first block size of every sequence (tests use small blocks). */
  constructor(
    private readonly reserve: ReserveIds,
    private readonly logger: Logger | undefined,
    private readonly firstBlock = DEFAULT_FIRST_BLOCK,
  ) {}

  /** Reserves the first block of each sequence (ids above `floors[name]`); call before `next`. */
  async prepare(floors: Record<string, number>): Promise<void> {
    await Promise.all(Object.entries(floors).map(([name, floor]) => this.#refill(this.#state(name, floor))));
    const missing = Object.keys(floors).filter((name) => this.#sequences.get(name)?.blocks.length === 0);
    if (missing.length > 0) throw new Error(`could not reserve ids for ${missing.join(", ")}`);
  }

  #state(name: string, floor = 0): SequenceState {
    let state = this.#sequences.get(name);
    if (!state) {
      state = { name, blocks: [], size: this.firstBlock, startedAt: Date.now(), refilling: null, floor };
      this.#sequences.set(name, state);
    }
    return state;
  }

  #refill(state: SequenceState): Promise<void> {
    const size = state.size;
    state.refilling ??= this.reserve(state.name, size, state.floor)
      .then(({ last }) => {
        state.blocks.push({ next: last - size + 1, last });
      })
      .catch((error: unknown) => this.logger?.error({ err: error, sequence: state.name }, "could not reserve ids"))
      .finally(() => {
        state.refilling = null;
      });
    return state.refilling;
  }

  /**
   * The next id of `name`. Throws the 503 `OVATION_ERR_STORE_IDS_UNAVAILABLE` when the node has no
   * reserved id left (the database did not answer while half a block was used up); a sequence never
   * prepared gets its first block in the background and throws meanwhile.
   */
  next(name: string): number {
    const state = this.#state(name);
    let block = state.blocks[0];
    while (block && block.next > block.last) {
      state.blocks.shift();
      block = state.blocks[0];
      if (block && Date.now() - state.startedAt < FAST_BLOCK_MS) state.size = Math.min(state.size * 2, MAX_BLOCK);
      state.startedAt = Date.now();
    }
    if (!block) {
      void this.#refill(state);
      throw new ApiError("OVATION_ERR_STORE_IDS_UNAVAILABLE", { message: `No ${name} id is reserved yet (the database did not answer in time); try again.` });
    }
    const id = block.next++;
    const left = block.last - block.next + 1 + state.blocks.slice(1).reduce((n, b) => n + b.last - b.next + 1, 0);
    if (left <= state.size / 2 && state.refilling === null) void this.#refill(state);
    return id;
  }
}
