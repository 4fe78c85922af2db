import type { Harness } from "./harness.js";
import { api } from "./oauth-helpers.js";

/** Requests a code by mail (real SMTP) and exchanges it for an EAT. */
export async function obtainEat(h: Pick<Harness, "base" | "smtp">, token: string, email: string): Promise<string> {
  const before = h.smtp.mails.filter((m) => m.to.includes(email)).length;
  const sent = await api(h.base, "/api/eat/request-verification", token, { method: "POST" });
  if (sent.status !== 202) throw new Error(`request-verification answered ${sent.status}: ${JSON.stringify(sent.body)}`);
  const mail = await h.smtp.waitFor(email, before + 1);
  const code = /verification code is: (\d{6})/.exec(mail.text)?.[1] ?? "";
  const issued = await api(h.base, "/api/eat/verify-code", token, { body: { code } });
  if (issued.status !== 201) throw new Error(`verify-code answered ${issued.status}: ${JSON.stringify(issued.body)}`);
  return String(issued.body.token);
}
