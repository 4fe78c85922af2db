import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { tempDataDir } from "../../__tests__/helpers.js";
import { createRepositories } from "../repositories.js";
import { LOCK_FILE, STORE_FILE, Store } from "../store.js";

const dirs: Array<{ remove(): void }> = [];
const dir = () => {
  const d = tempDataDir();
  dirs.push(d);
  return d.dir;
};
afterAll(() => dirs.forEach((d) => d.remove()));

describe("Store", () => {
  test("changes reach the file once persisted, and survive a reopen", async () => {
    const path = dir();
    const store = await Store.open(path);
    const repos = createRepositories(store);
    const user = repos.users.create({ name: "Alice" });
    await store.persisted();
    expect(JSON.parse(readFileSync(join(path, STORE_FILE), "utf8")).users[0].name).toBe("Alice");
    await store.close();
    const again = await Store.open(path);
    expect(createRepositories(again).users.get(user.id)?.uuid).toBe(user.uuid);
    await again.close();
  });

  test("close writes a change nobody waited for (graceful shutdown flushes the store)", async () => {
    const path = dir();
    const store = await Store.open(path);
    const user = createRepositories(store).users.create({ name: "Unwaited" });
    await store.close();
    expect(JSON.parse(readFileSync(join(path, STORE_FILE), "utf8")).users.map((u: { uuid: string }) => u.uuid)).toEqual([user.uuid]);
  });

  test("one process at a time: a second open is refused until the first closes; a stale lock is taken over", async () => {
    const path = dir();
    const store = await Store.open(path);
    await expect(Store.open(path)).rejects.toMatchObject({ code: "OVATION_ERR_STORE_LOCKED" });
    await store.close();
    writeFileSync(join(path, LOCK_FILE), "999999999");
    const next = await Store.open(path);
    expect(readFileSync(join(path, LOCK_FILE), "utf8")).toBe(String(process.pid));
    await next.close();
  });

  test("a data directory that is a file, or cannot be written, is reported by name", async () => {
    const file = join(dir(), "not-a-directory");
    writeFileSync(file, "x");
    await expect(Store.open(file)).rejects.toMatchObject({ code: "OVATION_ERR_STORE_UNUSABLE", message: expect.stringContaining(`${file} (OVATION_DATA_DIR) cannot be used`) });
    await expect(Store.open(join(file, "below"))).rejects.toMatchObject({ code: "OVATION_ERR_STORE_UNUSABLE" });
    expect(readFileSync(file, "utf8")).toBe("x");
  });

  test("a corrupt file is reported and left untouched", async () => {
    for (const content of ["{not json", JSON.stringify({ schema_version: 9 }), "[]"]) {
      const path = dir();
      writeFileSync(join(path, STORE_FILE), content);
      await expect(Store.open(path)).rejects.toMatchObject({ code: "OVATION_ERR_STORE_CORRUPT" });
      expect(readFileSync(join(path, STORE_FILE), "utf8")).toBe(content);
    }
  });

  test("many updates in one turn are written together and all kept", async () => {
    const path = dir();
    const store = await Store.open(path);
    const repos = createRepositories(store);
    for (let i = 0; i < 200; i++) repos.users.create({ name: `user${i}` });
    await store.persisted();
    expect(JSON.parse(readFileSync(join(path, STORE_FILE), "utf8")).users).toHaveLength(200);
    await store.close();
  });

  test("personal access tokens keep only the hash; extensions keep other modules' data", async () => {
    const path = dir();
    const store = await Store.open(path);
    const repos = createRepositories(store);
    const user = repos.users.create({ name: "Bob" });
    const { token, record } = repos.tokens.create({ user_id: user.id, name: "t", scopes: ["alerts:manage", "alerts:manage"] });
    expect(record.scopes).toEqual(["alerts:manage"]);
    const kv = store.extension<{ n: number }>("test", () => ({ n: 0 }));
    kv.update((v) => (v.n += 2));
    await store.persisted();
    const text = readFileSync(join(path, STORE_FILE), "utf8");
    expect(text).not.toContain(token);
    expect(JSON.parse(text).extensions.test).toEqual({ n: 2 });
    await store.close();
  });
});
