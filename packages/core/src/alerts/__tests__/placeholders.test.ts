import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  escapeHtml,
  fillMessage,
  lookupPath,
  placeholderPaths,
  renderPlaceholderSegments,
  renderPlaceholdersHtml,
} from "../placeholders.js";

describe("placeholders", () => {
  it("fills {{name}} and {{ name }} and dotted paths; missing keys become empty", () => {
    const data = { name: "Alice", amount: 1500, user: { name: "Bob" }, emotes: [{ id: "42" }], gift: false };
    expect(fillMessage("{{name}} cheered {{ amount }}!", data)).toBe("Alice cheered 1500!");
    expect(fillMessage("{{ user.name }} / {{emotes.0.id}} / {{gift}}", data)).toBe("Bob / 42 / false");
    expect(fillMessage("[{{nope}}][{{user.nope.deeper}}][{{user}}]", data)).toBe("[][][]");
  });

  it("leaves other brace forms as written", () => {
    expect(fillMessage("{name} {{ name | upper }} {{}} {{ na me }}", { name: "A" })).toBe("{name} {{ name | upper }} {{}} {{ na me }}");
  });

  it("never reads through the prototype chain", () => {
    expect(fillMessage("{{constructor}}{{toString}}{{__proto__}}{{name.length}}", { name: "abc" })).toBe("");
    expect(lookupPath({ a: { b: 1 } }, "a.b")).toBe(1);
  });

  it("gives viewer text as separate data segments, so markup stays text", () => {
    const segments = renderPlaceholderSegments("<b>{{name}}</b> says {{message}}", { name: "<img src=x onerror=alert(1)>", message: "hi" });
    expect(segments).toEqual([
      { text: "<b>", fromData: false },
      { text: "<img src=x onerror=alert(1)>", fromData: true },
      { text: "</b> says ", fromData: false },
      { text: "hi", fromData: true },
    ]);
    expect(renderPlaceholdersHtml("{{name}} & co", { name: '<script>"x"</script>' })).toBe(
      "&#60;script&#62;&#34;x&#34;&#60;/script&#62; &#38; co",
    );
    expect(escapeHtml("'")).toBe("&#39;");
    expect(placeholderPaths("{{a}} {{ b.c }} {{a}}")).toEqual(["a", "b.c"]);
  });

  it("segments always join to the plain fill, and the HTML form never contains a raw < or > (property)", () => {
    const piece = fc.oneof(fc.string(), fc.constantFrom("{{name}}", "{{ msg }}", "{{ user.name }}", "{{missing}}", "{{", "}}", "<", "&"));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), fc.string(), fc.string(), (parts, name, msg) => {
        const template = parts.join("");
        const data = { name, msg, user: { name } };
        const segments = renderPlaceholderSegments(template, data);
        expect(segments.map((s) => s.text).join("")).toBe(fillMessage(template, data));
        expect(segments.every((s) => s.text.length > 0)).toBe(true);
        expect(renderPlaceholdersHtml(template, data)).not.toMatch(/[<>"']/);
      }),
      { numRuns: 500 },
    );
  });
});
