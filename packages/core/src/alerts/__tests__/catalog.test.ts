import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ALERT_CATALOG, ALERT_TYPES } from "../catalog-data.js";
import { catalogPairs, catalogParameters, exampleAlertData, getCatalogPlatform, isAlertType } from "../catalog.js";
import { normalizePlatform } from "../../platforms.js";

interface FixtureParameter { name: string; type: string; conditional: boolean; options?: { value: string }[] }
interface FixtureType { type: string; platforms: { type: string; parameters: FixtureParameter[]; default: Record<string, string> }[] }
const fixture = JSON.parse(
  readFileSync(fileURLToPath(new URL("../../../../../fixtures/alert-catalog.ae4.json", import.meta.url)), "utf8"),
) as { version: number; variations: FixtureType[] };

describe("the alert catalog matches the reference catalog", () => {
  it("has the same types in the same order", () => {
    expect(fixture.version).toBe(4);
    expect([...ALERT_TYPES]).toEqual(fixture.variations.map((v) => v.type));
    expect(ALERT_CATALOG.map((t) => t.type)).toEqual(fixture.variations.map((v) => v.type));
  });

  it("has the same platforms per type, with own3d as ovation", () => {
    for (const ref of fixture.variations) {
      const ours = ALERT_CATALOG.find((t) => t.type === ref.type);
      expect(ours?.platforms.map((p) => p.platform)).toEqual(ref.platforms.map((p) => normalizePlatform(p.type)));
    }
    expect(getCatalogPlatform("donation", "ovation")).toBeDefined();
    expect(ALERT_CATALOG.some((t) => t.platforms.some((p) => (p.platform as string) === "own3d"))).toBe(false);
  });

  it("has the same parameter names, types, conditional flags, enum options and default texts", () => {
    for (const ref of fixture.variations) {
      for (const refPlatform of ref.platforms) {
        const platform = normalizePlatform(refPlatform.type);
        const params = catalogParameters(ref.type, platform);
        expect(params.map((p) => p.name)).toEqual(refPlatform.parameters.map((p) => p.name));
        expect(params.map((p) => [p.type, p.conditional])).toEqual(refPlatform.parameters.map((p) => [p.type, p.conditional]));
        expect(params.map((p) => p.options?.map((o) => o.value))).toEqual(refPlatform.parameters.map((p) => p.options?.map((o) => o.value)));
        expect(getCatalogPlatform(ref.type, platform)?.default).toEqual(refPlatform.default);
      }
    }
  });

  it("answers lookups for known and unknown pairs", () => {
    expect(isAlertType("cheer")).toBe(true);
    expect(isAlertType("folow")).toBe(false);
    expect(catalogParameters("cheer", "youtube")).toEqual([]);
    expect(catalogPairs()).toHaveLength(fixture.variations.reduce((n, v) => n + v.platforms.length, 0));
    expect(exampleAlertData("follow", "twitch")).toEqual({ name: "Someone" });
    expect(exampleAlertData("cheer", "youtube")).toEqual({});
  });
});

describe("catalog-data.ts", () => {
  it("is what scripts/catalog-data.mjs generates from the fixture", () => {
    const script = fileURLToPath(new URL("../../../scripts/catalog-data.mjs", import.meta.url));
    const generated = execFileSync(process.execPath, [script, "--stdout"], { encoding: "utf8", timeout: 30_000 });
    expect(generated).toBe(readFileSync(new URL("../catalog-data.ts", import.meta.url), "utf8"));
  });
});
