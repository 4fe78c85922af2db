import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const REPO = fileURLToPath(new URL("../../../../", import.meta.url));

/** The workspaces packed for the test, and the sample third-party plugin (not a workspace). */
const WORKSPACES = ["packages/core", "packages/client", "apps/server", "apps/browser-source", "apps/dashboard", "plugins/console", "plugins/twitch", "plugins/youtube", "plugins/kick", "plugins/tiktok"];
export const SAMPLE_PLUGIN_DIR = join(REPO, "examples", "plugin-fakechat");

interface PackageJson {
  name: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  bin?: Record<string, string>;
}

const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8")) as PackageJson;

/**
 * A directory outside the workspace holding what `npm pack` made of the core, the server (with the
 * packages it depends on) and the sample plugin, installed the offline way this test can rely on:
 *
 * Each tarball is unpacked into `<dir>/node_modules/<name>` exactly as npm would install it (only the
 * files the package publishes). Third-party dependencies are not downloaded: each dependency an
 * Ovation package declares is linked from the workspace's `node_modules` (filled by `npm ci`).
 * `npm install --offline` of the tarballs cannot work on a clean machine, because `npm ci` caches
 * tarballs but not the registry metadata npm needs to resolve version ranges. Linking only the
 * declared dependencies still catches a package that imports something it does not declare.
 */
export interface PackedInstall {
  dir: string;
  tarballs: string[];
  remove(): void;
}

function linkDependency(dir: string, name: string, fromPackage: string): void {
  const target = join(dir, "node_modules", name);
  if (existsSync(target)) return;
  let source: string;
  try {
    source = dirname(createRequire(join(fromPackage, "package.json")).resolve(`${name}/package.json`));
  } catch {
    // Packages whose exports hide package.json: find the directory on the node_modules path.
    const candidates = [join(fromPackage, "node_modules", name), join(REPO, "node_modules", name)];
    const found = candidates.find((c) => existsSync(join(c, "package.json")));
    if (!found) throw new Error(`dependency ${name} of ${fromPackage} is not installed in the workspace (run npm ci)`);
    source = found;
  }
  mkdirSync(dirname(target), { recursive: true });
  symlinkSync(realpathSync(source), target, "dir");
}

/** Builds the sample plugin, packs everything and installs it into a new temporary directory. */
export function packAndInstall(): PackedInstall {
  const unbuilt = WORKSPACES.filter((w) => !existsSync(join(REPO, w, "dist")));
  if (unbuilt.length > 0) throw new Error(`build first (npm run build): ${unbuilt.join(", ")} ha${unbuilt.length > 1 ? "ve" : "s"} no dist to pack`);
  const dir = mkdtempSync(join(tmpdir(), "ovation-packaged-"));
  const packs = join(dir, "tarballs");
  mkdirSync(packs);
  const npm = (args: string[], cwd: string) =>
    execFileSync("npm", [...args, "--silent", "--pack-destination", packs], { cwd, stdio: ["ignore", "pipe", "pipe"], timeout: 60_000 });
  // The sample plugin is compiled with the workspace's TypeScript against the built @ovation/core.
  execFileSync(process.execPath, [join(REPO, "node_modules", "typescript", "bin", "tsc"), "-p", SAMPLE_PLUGIN_DIR], { stdio: "pipe", timeout: 60_000 });
  npm(["pack", ...WORKSPACES.flatMap((w) => ["-w", w])], REPO);
  npm(["pack"], SAMPLE_PLUGIN_DIR);
  const tarballs = readdirSync(packs).filter((f) => f.endsWith(".tgz")).map((f) => join(packs, f));

  const installed: { dir: string; pkg: PackageJson; source: string }[] = [];
  for (const tarball of tarballs) {
    const staging = mkdtempSync(join(dir, "unpack-"));
    execFileSync("tar", ["-xzf", tarball, "-C", staging], { stdio: "pipe" });
    const pkg = readJson(join(staging, "package", "package.json"));
    const target = join(dir, "node_modules", pkg.name);
    mkdirSync(dirname(target), { recursive: true });
    execFileSync("mv", [join(staging, "package"), target]);
    rmSync(staging, { recursive: true, force: true });
    const source = pkg.name === "ovation-plugin-fakechat" ? SAMPLE_PLUGIN_DIR : join(REPO, WORKSPACES.find((w) => readJson(join(REPO, w, "package.json")).name === pkg.name) ?? "");
    installed.push({ dir: target, pkg, source });
  }
  const ours = new Set(installed.map((i) => i.pkg.name));
  for (const { pkg, source } of installed) {
    const optional = pkg.peerDependenciesMeta ?? {};
    const wanted = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})];
    for (const name of wanted) {
      if (ours.has(name)) continue;
      if (optional[name]?.optional && !existsSync(join(REPO, "node_modules", name))) continue;
      linkDependency(dir, name, source);
    }
    for (const [bin, path] of Object.entries(pkg.bin ?? {})) {
      mkdirSync(join(dir, "node_modules", ".bin"), { recursive: true });
      symlinkSync(join("..", pkg.name, path), join(dir, "node_modules", ".bin", bin));
    }
  }
  return { dir, tarballs, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
