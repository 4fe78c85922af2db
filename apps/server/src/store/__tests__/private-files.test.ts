import { chmodSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { tempDataDir, testApp } from "../../__tests__/helpers.js";
import { createRepositories } from "../repositories.js";
import { STORE_DIR } from "../file-backend.js";
import { Store } from "../store.js";

const temp = tempDataDir();
afterAll(() => temp.remove());
let made = 0;
/** A fresh directory inside the test's temporary directory. */
const dir = (): string => join(temp.dir, `case-${++made}`);

const mode = (path: string) => statSync(path).mode & 0o777;

/** Every file and directory under `root` with its mode. */
function modes(root: string): Array<[string, number]> {
  const out: Array<[string, number]> = [[root, mode(root)]];
  for (const name of readdirSync(root)) {
    const path = join(root, name);
    if (statSync(path).isDirectory()) out.push(...modes(path));
    else out.push([path, mode(path)]);
  }
  return out;
}

/** Issue 10, low: ovation.json and identity.json were 0644 and hold signing secrets and browser-source tokens. */
describe("data directory permissions", () => {
  test("a fresh server creates every file 0600 and the directory 0700, also after writes", async () => {
    const path = join(dir(), "data");
    const app = await testApp(path);
    const user = app.ovation.repos.users.create({ name: "Alice" });
    app.ovation.repos.signingSecrets.get(user.id);
    await app.ovation.repos.store.persisted();
    expect(readdirSync(path)).toEqual(expect.arrayContaining([STORE_DIR, "identity.json"]));
    for (const [file, m] of modes(path)) {
      expect([file, m.toString(8)]).toEqual([file, statSync(file).isDirectory() ? "700" : "600"]);
    }
    await app.close();
  });

  test("existing wider modes are fixed when the store opens", async () => {
    const path = dir();
    const first = await Store.open(path);
    createRepositories(first).users.create({ name: "Bob" });
    await first.close();
    mkdirSync(join(path, "extra"), { mode: 0o755 });
    writeFileSync(join(path, "extra", "old.json"), "{}", { mode: 0o664 });
    for (const [file] of modes(path)) chmodSync(file, statSync(file).isDirectory() ? 0o755 : 0o644);
    const store = await Store.open(path);
    const all = modes(path);
    expect(all.length).toBeGreaterThan(4);
    for (const [file, m] of all) expect([file, m.toString(8)]).toEqual([file, statSync(file).isDirectory() ? "700" : "600"]);
    await store.close();
  });
});
