import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DASHBOARD_BUNDLE_BUDGET } from "../budget.js";
import { budgetProblems } from "../bundle-report.js";
import type { BundleReport } from "../bundle-report.js";

const packageDir = fileURLToPath(new URL("../../", import.meta.url));

/** The modules `pages/registry.ts` loads with `import()`, as esbuild names entry points (`src/app/pages/tokens.tsx`). */
async function lazyPageModules(): Promise<string[]> {
  const registry = await readFile(path.join(packageDir, "src", "app", "pages", "registry.ts"), "utf8");
  const modules = [...registry.matchAll(/import\("(\.\/[^"]+)\.js"\)/g)].map((m) => m[1] ?? "");
  const pagesDir = path.join(packageDir, "src", "app", "pages");
  return Promise.all(
    modules.map(async (module) => {
      const dir = path.join(pagesDir, path.dirname(module));
      const file = (await readdir(dir)).find((f) => f === `${path.basename(module)}.tsx` || f === `${path.basename(module)}.ts`);
      if (file === undefined) throw new Error(`registry.ts loads ${module}.js, which has no source`);
      return path.relative(packageDir, path.join(dir, file)).split(path.sep).join("/");
    }),
  );
}

/**
 * The real build (build.mjs, esbuild with splitting) into a scratch directory, measured chunk by
 * chunk: the first load under 60 KiB gzip, every page a chunk of its own, every chunk within its
 * budget, and the alert engine (zod) only in what the alert-set editor loads.
 */
describe("dashboard bundle budget (issue 30)", () => {
  let dir: string;
  let report: BundleReport;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "ovation-dashboard-bundle-"));
    const out = path.join(dir, "assets");
    const file = path.join(dir, "report.json");
    execFileSync(process.execPath, [path.join(packageDir, "build.mjs"), "--out", out, "--report", file], { cwd: packageDir, stdio: "pipe", timeout: 180_000 });
    report = JSON.parse(await readFile(file, "utf8")) as BundleReport;
  }, 240_000);
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("the first load (app.js and its static chunks: shell, sign-in, overview) is under 60 KiB gzip and holds no zod", () => {
    expect(DASHBOARD_BUNDLE_BUDGET.firstLoad).toBeLessThanOrEqual(60 * 1024);
    expect(report.firstLoad.files).toContain("app.js");
    expect(report.firstLoad.gzip).toBeLessThanOrEqual(DASHBOARD_BUNDLE_BUDGET.firstLoad);
    const first = report.chunks.filter((c) => c.firstLoad);
    expect(first.flatMap((c) => c.packages)).not.toContain("zod");
    expect(first.flatMap((c) => c.modules)).toContain("src/app/pages/overview.tsx");
  });

  it("every page of the registry is a chunk of its own, fetched on its first visit and not part of the first load", async () => {
    const pages = await lazyPageModules();
    expect(pages.length).toBeGreaterThanOrEqual(18);
    const firstModules = new Set(report.chunks.filter((c) => c.firstLoad).flatMap((c) => c.modules));
    for (const page of pages) {
      expect(report.chunks.find((c) => c.entry === page)?.file, page).toMatch(/^chunks\/[\w-]+-[A-Z0-9]{8}\.js$/);
      expect(firstModules.has(page), `${page} in the first load`).toBe(false);
    }
  });

  it("every other chunk is within its budget, and zod is only in chunks that the alert-set editor alone loads", () => {
    const lazy = report.chunks.filter((c) => !c.firstLoad);
    expect(lazy.length).toBeGreaterThan(18);
    for (const chunk of lazy) {
      expect(chunk.budget, chunk.file).not.toBeNull();
      expect(chunk.gzip, `${chunk.file} (${chunk.loadedBy.join(", ")})`).toBeLessThanOrEqual(chunk.budget ?? 0);
    }
    const withZod = lazy.filter((c) => c.packages.includes("zod"));
    expect(withZod.length).toBeGreaterThan(0);
    for (const chunk of withZod) for (const by of chunk.loadedBy) expect(DASHBOARD_BUNDLE_BUDGET.engine.entries, chunk.file).toContain(by);
    // The list of alert sets loads the engine only when a set is created (default-set.ts), not to show the list.
    const listChunks = lazy.filter((c) => c.loadedBy.includes("src/app/pages/alert-sets/list.tsx"));
    expect(listChunks.flatMap((c) => c.packages)).not.toContain("zod");
    expect(budgetProblems(report, DASHBOARD_BUNDLE_BUDGET)).toEqual([]);
    expect(report.css.gzip).toBeLessThanOrEqual(DASHBOARD_BUNDLE_BUDGET.css);
  });
});
