import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { TemplateSandbox } from "../template-sandbox.js";
import { recordingFunctions, variables } from "./template-test-kit.js";

const DIST_SANDBOX = new URL("../../../dist/templates/template-sandbox.js", import.meta.url);

describe("the sandbox process", () => {
  it("is killed and replaced when it stops answering (a frozen process)", { timeout: 60_000 }, async () => {
    const sandbox = new TemplateSandbox();
    try {
      const vars = variables(["!cmd", "x"]);
      expect(await sandbox.render(sandbox.compile("a{{ 1 }}"), vars, recordingFunctions())).toBe("a1");
      const pid = sandbox.sandboxPid as number;
      process.kill(pid, "SIGSTOP");
      await expect(sandbox.render(sandbox.compile("b{{ 2 }}"), vars, recordingFunctions())).rejects.toMatchObject({
        code: "OVATION_ERR_TEMPLATE_SANDBOX_CRASHED",
      });
      expect(await sandbox.render(sandbox.compile("c{{ 3 }}"), vars, recordingFunctions())).toBe("c3");
      expect(sandbox.sandboxPid).not.toBe(pid);
    } finally {
      await sandbox.close();
    }
  });

  it("runs from the built package in a host started without --no-node-snapshot", () => {
    expect(existsSync(DIST_SANDBOX), "build @ovation/core first (npm run build)").toBe(true);
    const script = `
      const { TemplateSandbox } = await import(${JSON.stringify(DIST_SANDBOX.href)});
      const sandbox = new TemplateSandbox();
      const out = await sandbox.render(sandbox.compile("{{ args[1]|upper ~ '!' }}"), { command: {}, event: {}, args: ["!x", "built"], irc: { channel: "c", message: "m" } }, {});
      await sandbox.close();
      process.stdout.write(out);
    `;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: fileURLToPath(new URL("../../../", import.meta.url)),
      encoding: "utf8",
      timeout: 30_000,
      env: { PATH: process.env["PATH"] ?? "" },
    });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("BUILT!");
  });
});
