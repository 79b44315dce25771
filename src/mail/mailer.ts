import type * as Nodemailer from 'nodemailer';
import { requireOnDemand } from '../core/require-on-demand.ts';

/** One e-mail. `html` is optional: every mail has a plain-text body people can read anywhere. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Sends e-mail; reused by anything that writes to people (sign-up, password reset, alerts). */
export interface Mailer {
  /** Resolves once the SMTP server accepted the message; rejects with `MailerNotConfiguredError` when no SMTP is set. */
  send(message: MailMessage): Promise<void>;
}

/** The operator's SMTP server (`PATCH /api/admin/smtp`). */
export interface SmtpSettings {
  host: string;
  port: number;
  /** TLS from the first byte (port 465); false: plain, upgraded with STARTTLS when the server offers it. */
  secure: boolean;
  user: string | null;
  password: string | null;
  /** The From address, e.g. `Switchyard <noreply@example.com>`. */
  from: string;
}

export class MailerNotConfiguredError extends Error {
  constructor() {
    super('No SMTP server is set: an owner sets one with PATCH /api/admin/smtp.');
    this.name = 'MailerNotConfiguredError';
  }
}

/**
 * A Mailer over nodemailer that reads the SMTP settings on every send, so a change made on one
 * instance applies to all at once and a password is held in memory only while sending.
 */
export function createSmtpMailer(loadSettings: () => Promise<SmtpSettings | undefined>): Mailer {
  return {
    async send(message) {
      const settings = await loadSettings();
      if (!settings) throw new MailerNotConfiguredError();
      // Loaded on the first mail sent, not at start-up (idle RSS: nodemailer is ~660 kB of source).
      const { createTransport } = requireOnDemand('nodemailer') as typeof Nodemailer;
      const transport = createTransport({
        host: settings.host,
        port: settings.port,
        secure: settings.secure,
        ...(settings.user ? { auth: { user: settings.user, pass: settings.password ?? '' } } : {}),
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
      });
      try {
        await transport.sendMail({
          from: settings.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          ...(message.html ? { html: message.html } : {}),
        });
      } finally {
        transport.close();
      }
    },
  };
}
