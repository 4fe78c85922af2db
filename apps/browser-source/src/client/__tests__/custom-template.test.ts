import { describe, expect, it } from "vitest";
import { customAlertDocument, escapeFieldValue, isCustomTemplate, substituteFields, toCustomTemplate } from "../custom-template.js";

describe("variant 3 custom templates", () => {
  it("recognises html/css/js templates and not variant 2 ones", () => {
    expect(isCustomTemplate({ html: "<div>{key}</div>", fields: {} })).toBe(true);
    expect(isCustomTemplate({ title: "x", image_href: "" })).toBe(false);
    expect(isCustomTemplate(null)).toBe(false);
  });

  it("fills {key} fields whose values carry {{data}} placeholders (the reference example)", () => {
    const template = toCustomTemplate({ user_defaults: true, html: "<div>{key}</div>", css: "/** CSS */", js: "/** JS */", fields: { key: "{{message}}" } });
    expect(substituteFields(template.html, template.fields, { message: "Hello World!" }, "html")).toBe("<div>Hello World!</div>");
  });

  it("escapes field values per context so viewer text stays a value", () => {
    const data = { name: `</div><script>alert(1)</script>` };
    const fields = { who: "{{name}}" };
    const html = substituteFields("<p>{who}</p>", fields, data, "html");
    expect(html).not.toContain("<script>");
    expect(html).toContain("&#60;script&#62;");
    const js = substituteFields(`const who = "{who}";`, fields, { name: `"; alert(1); "` }, "js");
    expect(js).toBe(`const who = "\\u0022\\u003b alert\\u00281\\u0029\\u003b \\u0022";`);
    const css = substituteFields(".a{color:{color}}", { color: "red;} body{display:none" }, {}, "css");
    expect(css).not.toMatch(/[;{}]\s*body/);
  });

  it("leaves braces that name no field untouched", () => {
    expect(substituteFields(".a{color:red} .b{x}", { y: "1" }, {}, "css")).toBe(".a{color:red} .b{x}");
  });

  it("builds a document whose inline parts carry the nonce and cannot close their element early", () => {
    const doc = customAlertDocument(
      toCustomTemplate({ html: "<b>{k}</b>", css: "b{color:{c}}</style><x>", js: "var s='</script><x>';", fields: { k: "hi", c: "#f00" } }),
      {},
      "abc123==",
    );
    expect(doc).toContain(`<style nonce="abc123==">b{color:#f00}<\\/style><x></style>`);
    expect(doc).toContain(`<script nonce="abc123==">var s='<\\/script><x>';</script>`);
    expect(doc).toContain("<b>hi</b>");
  });

  it("escapeFieldValue keeps plain values readable", () => {
    expect(escapeFieldValue("Hello World 42", "js")).toBe("Hello World 42");
    expect(escapeFieldValue("12px", "css")).toBe("12px");
  });
});
