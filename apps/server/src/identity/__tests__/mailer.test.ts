import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { createMailer } from "../mail/mailer.js";
import { serveIdentity, startSmtp } from "./harness.js";
import { api } from "./oauth-helpers.js";

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

  it("says where a verification code went: mailed over SMTP, or only written to the server log (issue 26, bug 5)", async () => {
    expect(createMailer({ logger: pino({ level: "silent" }) }).transport).toBe("log");
    const smtp = await startSmtp();
    const dirs: string[] = [];
    try {
      for (const smtpUrl of [undefined, `smtp://127.0.0.1:${smtp.port}`]) {
        const dir = await mkdtemp(join(tmpdir(), "ovation-mailer-"));
        dirs.push(dir);
        const served = await serveIdentity(dir, 0, smtpUrl === undefined ? {} : { smtpUrl });
        try {
          const user = served.repos.users.create({ name: "kim", email: "kim@example.com" });
          const { token } = served.repos.tokens.create({ user_id: user.id, name: "test", scopes: ["*"] });
          const sent = await api(`http://127.0.0.1:${served.port}`, "/api/eat/request-verification", token, { method: "POST" });
          expect(sent.status).toBe(202);
          if (smtpUrl === undefined) {
            expect(sent.body).toMatchObject({ delivery: "server-log", sent_to: "k***@example.com" });
            expect(sent.body.message).toMatch(/No mail server is configured \(OVATION_SMTP_URL\).*server's log/);
          } else {
            expect(sent.body).toMatchObject({ delivery: "email", message: "A verification code was sent to your email address." });
          }
        } finally {
          await served.stop();
        }
      }
    } finally {
      await smtp.close();
      for (const dir of dirs) await rm(dir, { recursive: true, force: true });
    }
  });
});
