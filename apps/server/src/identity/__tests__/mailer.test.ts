import { Writable } from "node:stream";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { createMailer } from "../mail/mailer.js";
import { startSmtp } from "./harness.js";

describe("mailer", () => {
  it("prints the whole mail to the log when no SMTP server is configured", async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString("utf8"));
        done();
      },
    });
    const mailer = createMailer({ logger: pino({ level: "info" }, sink) });
    await mailer.send({ to: "viewer@example.com", subject: "Your Ovation verification code", text: "your verification code is: 424242\n" });
    mailer.close();
    const entry = JSON.parse(lines.join("").trim().split("\n").at(-1) ?? "{}") as { to?: string; subject?: string; mail?: string };
    expect(entry.to).toBe("viewer@example.com");
    expect(entry.subject).toBe("Your Ovation verification code");
    expect(entry.mail).toContain("To: viewer@example.com");
    expect(entry.mail).toContain("424242");
  });

  it("delivers over SMTP to the configured server with the configured sender", async () => {
    const smtp = await startSmtp();
    try {
      const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${smtp.port}`, from: "Ovation <id@ovation.example>", logger: pino({ level: "silent" }) });
      await mailer.send({ to: "viewer@example.com", subject: "Hello", text: "Zwölf Boxkämpfer jagen Viktor quer über den großen Sylter Deich.\n" });
      mailer.close();
      const mail = await smtp.waitFor("viewer@example.com");
      expect(mail.raw).toMatch(/^From: Ovation <id@ovation\.example>/m);
      expect(mail.subject).toBe("Hello");
      expect(mail.text).toContain("Zwölf Boxkämpfer jagen Viktor quer über den großen Sylter Deich.");
    } finally {
      await smtp.close();
    }
  });
});
