// The import graph of the workspace's source, read by the layering test (scripts/__tests__/import-layers.test.ts).
//
// A package is a folder of packages/, plugins/, apps/ or examples/ with a package.json and a src/ folder. Its
// graph holds every .ts/.tsx file under src/ except tests (`__tests__/`) and declaration files, and one edge
// per import between two of them: `import`, `import type`, `export ... from`, `import("...")` calls and
// `import("...")` types all count, since each one ties the importer to the imported file.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, posix, relative, resolve, sep } from "node:path";
import ts from "typescript";

/** One import of one file by another, both inside the same package's src/ (paths relative to src/). */
export interface FileImport {
  readonly from: string;
  readonly to: string;
}

export interface PackageGraph {
  /** The package's folder, relative to the workspace root (`apps/server`). */
  readonly dir: string;
  /** Its npm name (`@ovation/server`). */
  readonly name: string;
  /** Its source files, relative to its src/ folder, with forward slashes. */
  readonly files: readonly string[];
  readonly imports: readonly FileImport[];
  /** Workspace packages it imports by name (`@ovation/core/alerts` counts as `@ovation/core`). */
  readonly packageImports: ReadonlySet<string>;
  /** Relative imports that leave the package's src/ folder. */
  readonly escapes: readonly { readonly from: string; readonly specifier: string }[];
}

const PACKAGE_PARENTS = ["packages", "plugins", "apps", "examples"];
const SOURCE_FILE = /\.tsx?$/;

function sourceFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir).sort()) {
    if (entry === "__tests__" || entry === "node_modules") continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) found.push(...sourceFiles(path));
    else if (SOURCE_FILE.test(entry) && !entry.endsWith(".d.ts")) found.push(path);
  }
  return found;
}

/** Every module specifier a file names, type positions included. */
export function importSpecifiers(fileName: string, text: string): string[] {
  const kind = fileName.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  const specifiers: string[] = [];
  const literal = (node: ts.Node | undefined): void => {
    if (node && ts.isStringLiteralLike(node)) specifiers.push(node.text);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) literal(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      literal(node.moduleReference.expression);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) literal(node.argument.literal);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) literal(node.arguments[0]);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers;
}

function resolveRelative(fromFile: string, specifier: string, files: ReadonlySet<string>): string | null {
  const base = resolve(dirname(fromFile), specifier);
  const stem = base.replace(/\.(js|jsx|ts|tsx)$/, "");
  for (const candidate of [`${stem}.ts`, `${stem}.tsx`, join(base, "index.ts"), join(base, "index.tsx")]) {
    if (files.has(candidate)) return candidate;
  }
  return null;
}

function workspaceName(specifier: string, names: ReadonlySet<string>): string | null {
  const parts = specifier.split("/");
  const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? "");
  return names.has(name) ? name : null;
}

const toPosix = (path: string): string => path.split(sep).join(posix.sep);

/** The graph of every package of the workspace at `root`. */
export function workspaceGraphs(root: string): PackageGraph[] {
  const dirs: { dir: string; name: string }[] = [];
  for (const parent of PACKAGE_PARENTS) {
    const parentDir = join(root, parent);
    if (!existsSync(parentDir)) continue;
    for (const entry of readdirSync(parentDir).sort()) {
      const dir = join(parentDir, entry);
      if (!existsSync(join(dir, "package.json")) || !existsSync(join(dir, "src"))) continue;
      const { name } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name: string };
      dirs.push({ dir, name });
    }
  }
  const names = new Set(dirs.map((d) => d.name));
  return dirs.map(({ dir, name }) => {
    const src = join(dir, "src");
    const absolute = sourceFiles(src);
    const fileSet = new Set(absolute);
    const rel = (path: string): string => toPosix(relative(src, path));
    const imports: FileImport[] = [];
    const packageImports = new Set<string>();
    const escapes: { from: string; specifier: string }[] = [];
    for (const file of absolute) {
      for (const specifier of importSpecifiers(file, readFileSync(file, "utf8"))) {
        if (specifier.startsWith(".")) {
          const target = resolveRelative(file, specifier, fileSet);
          if (target) imports.push({ from: rel(file), to: rel(target) });
          else if (!resolve(dirname(file), specifier).startsWith(src + sep)) escapes.push({ from: rel(file), specifier });
          continue;
        }
        const other = workspaceName(specifier, names);
        if (other && other !== name) packageImports.add(other);
      }
    }
    return { dir: toPosix(relative(root, dir)), name, files: absolute.map(rel), imports, packageImports, escapes };
  });
}

/** The strongly connected components of more than one node (Tarjan), each sorted. */
export function circles(nodes: readonly string[], edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string | undefined;
    do {
      w = stack.pop();
      if (w === undefined) break;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return found;
}

/**
 * Where an import sits in the folder tree: the deepest folder holding both files (`""` for src/ itself) and
 * the two children of that folder that hold them (a file's own name, or the name of a sub-folder).
 */
export function placeImport({ from, to }: FileImport): { folder: string; fromUnit: string; toUnit: string } {
  const a = from.split("/");
  const b = to.split("/");
  let shared = 0;
  while (shared < a.length - 1 && shared < b.length - 1 && a[shared] === b[shared]) shared += 1;
  return { folder: a.slice(0, shared).join("/"), fromUnit: a[shared] ?? "", toUnit: b[shared] ?? "" };
}

/** A unit's name without a file's extension: `start-server.ts` -> `start-server`, `cli` -> `cli`. */
export const unitName = (unit: string): string => unit.replace(SOURCE_FILE, "");

export interface BackEdge {
  /** The folder (relative to src/, `""` for src/ itself) whose children import each other in a circle. */
  readonly folder: string;
  /** The children of that folder on the circle. */
  readonly units: readonly string[];
  /** Every file import between those children. */
  readonly imports: readonly FileImport[];
}

/**
 * The circles among the children of every folder of a package: each child (a file, or a sub-folder with
 * all it holds) is one node, and an import between files in two different children is an edge between them.
 * A file circle shows up here too, in the deepest folder that holds the whole circle.
 */
export function folderCircles(graph: PackageGraph): BackEdge[] {
  const byFolder = new Map<string, { edges: Map<string, Set<string>>; imports: FileImport[] }>();
  for (const edge of graph.imports) {
    const { folder, fromUnit, toUnit } = placeImport(edge);
    if (fromUnit === toUnit) continue;
    const entry = byFolder.get(folder) ?? { edges: new Map<string, Set<string>>(), imports: [] };
    byFolder.set(folder, entry);
    const targets = entry.edges.get(fromUnit) ?? new Set<string>();
    entry.edges.set(fromUnit, targets.add(toUnit));
    entry.imports.push(edge);
  }
  const found: BackEdge[] = [];
  for (const [folder, { edges, imports }] of [...byFolder].sort(([a], [b]) => a.localeCompare(b))) {
    for (const units of circles([...edges.keys()].sort(), edges)) {
      const members = new Set(units);
      const inside = imports.filter((edge) => {
        const { fromUnit, toUnit } = placeImport(edge);
        return members.has(fromUnit) && members.has(toUnit);
      });
      found.push({ folder, units, imports: inside });
    }
  }
  return found;
}
