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
      // The watchdog kills the frozen process; the render in flight is re-run in a new one.
      expect(await sandbox.render(sandbox.compile("b{{ 2 }}"), vars, recordingFunctions())).toBe("b2");
      expect(sandbox.sandboxPid).not.toBe(pid);
      expect(sandbox.restartCount).toBe(1);
    } finally {
      await sandbox.close();
    }
  });

  it("re-runs the renders in flight when the process dies, each alone", async () => {
    const sandbox = new TemplateSandbox();
    try {
      const vars = variables(["!cmd", "x"]);
      const ordinary = sandbox.compile("fine {{ args[1] }}");
      expect(await sandbox.render(ordinary, vars, recordingFunctions())).toBe("fine x");
      const pid = sandbox.sandboxPid as number;
      process.kill(pid, "SIGSTOP");
      const renders = Array.from({ length: 30 }, () => sandbox.render(ordinary, vars, recordingFunctions()));
      await new Promise((resolve) => setTimeout(resolve, 100));
      process.kill(pid, "SIGKILL");
      expect(await Promise.all(renders)).toEqual(Array.from({ length: 30 }, () => "fine x"));
      expect(sandbox.restartCount).toBe(1);

      expect(await sandbox.render(ordinary, vars, recordingFunctions())).toBe("fine x");
    } finally {
      await sandbox.close();
    }
  });

  it("fails a render that was in flight through two deaths of the process; its neighbours render", async () => {
    const sandbox = new TemplateSandbox({ timeoutMs: 60_000 });
    try {
      const vars = variables(["!cmd", "x"]);
      const ordinary = sandbox.compile("fine {{ args[1] }}");
      const spinner = sandbox.compile(
        "{% for i in range(1, 10000) %}{% for j in range(1, 10000) %}{% endfor %}{% endfor %}",
      );
      expect(await sandbox.render(ordinary, vars, recordingFunctions())).toBe("fine x");
      const firstPid = sandbox.sandboxPid as number;
      process.kill(firstPid, "SIGSTOP");
      const renders = Array.from({ length: 10 }, () => sandbox.render(ordinary, vars, recordingFunctions()));
      const doomed = sandbox.render(spinner, vars, recordingFunctions());
      await new Promise((resolve) => setTimeout(resolve, 100));
      process.kill(firstPid, "SIGKILL");
      // Re-run one at a time in order: the ordinary renders finish, then the spinner runs alone.
      expect(await Promise.all(renders)).toEqual(Array.from({ length: 10 }, () => "fine x"));
      await new Promise((resolve) => setTimeout(resolve, 300));
      process.kill(sandbox.sandboxPid as number, "SIGKILL");
      await expect(doomed).rejects.toMatchObject({ code: "OVATION_ERR_TEMPLATE_SANDBOX_CRASHED" });
      expect(await sandbox.render(ordinary, vars, recordingFunctions())).toBe("fine x");
      expect(sandbox.restartCount).toBe(2);
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
