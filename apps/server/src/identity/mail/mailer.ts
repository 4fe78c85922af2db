import nodemailer from "nodemailer";
import type { Transporter } from "nodemailer";
import type { Logger } from "pino";
import { IdentityError } from "../identity-errors.js";

/** A plain-text mail the identity module sends. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

/** Sends mail: SMTP when configured, otherwise the log transport (prints the whole mail). A failed send is a 503 `..._MAIL_FAILED`. */
export interface Mailer {
  /** `smtp` when mail really leaves the server; `log` when it is only written to the log. */
  readonly transport: "smtp" | "log";
  send(mail: OutgoingMail): Promise<void>;
  /** Closes pooled SMTP connections. */
  close(): void;
}

/**
 * Builds the mailer. With `smtpUrl` (`OVATION_SMTP_URL`, e.g. `smtp://user:pass@127.0.0.1:2525`)
 * mail goes over SMTP; without it each mail is rendered and logged at `info`, so a self-hosted
 * instance without a mail server still shows its verification codes in the log.
 */
export function createMailer(options: { smtpUrl?: string | undefined; from?: string | undefined; logger: Logger }): Mailer {
  const from = options.from ?? "Ovation <no-reply@ovation.invalid>";
  const smtp = options.smtpUrl !== undefined;
  const transport: Transporter = smtp
    ? nodemailer.createTransport(options.smtpUrl, { from })
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" }, { from });
  return {
    transport: smtp ? "smtp" : "log",
    async send(mail) {
      let info: { message?: unknown; messageId?: string };
      try {
        info = (await transport.sendMail({ to: mail.to, subject: mail.subject, text: mail.text })) as { message?: unknown; messageId?: string };
      } catch (cause) {
        options.logger.error({ err: cause, to: mail.to, subject: mail.subject }, "mail could not be sent");
        throw new IdentityError("OVATION_ERR_IDENTITY_MAIL_FAILED", { cause });
      }
      if (!smtp) {
        const raw = Buffer.isBuffer(info.message) ? info.message.toString("utf8") : String(info.message);
        options.logger.info({ to: mail.to, subject: mail.subject, mail: raw }, "mail (log transport; set OVATION_SMTP_URL to send)");
      } else {
        options.logger.debug({ to: mail.to, subject: mail.subject, messageId: info.messageId }, "mail sent");
      }
    },
    close() {
      transport.close();
    },
  };
}
