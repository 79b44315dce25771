import type { FastifyInstance } from 'fastify';
import { readSmtpSettings, writeSmtpSettings } from '../../mail/smtp-settings-store.ts';
import type { SmtpSettings } from '../../mail/mailer.ts';
import type { AppDeps } from '../app-deps.ts';
import { smtpSettingsSchema } from '../identity-schemas.ts';
import { parseAdminInput } from '../parse-admin-input.ts';
import { recordAdminChange } from './record-admin-change.ts';

/** The SMTP server the gateway mails through (issue 29); its password is sealed and never shown back. */
export function registerAdminSmtpRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { store } = deps;
  app.register(
    async (admin) => {
      admin.get('/smtp', async () => smtpView(await readSmtpSettings(store)));
      admin.patch('/smtp', async (request) => {
        const input = parseAdminInput(smtpSettingsSchema, request.body);
        const before = smtpView(await readSmtpSettings(store));
        await writeSmtpSettings(store, {
          host: input.host,
          port: input.port,
          secure: input.secure,
          user: input.user ?? null,
          from: input.from,
          ...(input.password === undefined ? {} : { password: input.password }),
        });
        const after = smtpView(await readSmtpSettings(store));
        await recordAdminChange(deps, request, { action: 'smtp.update', targetKind: 'settings', targetId: 'smtp', targetName: null, before, after });
        return after;
      });
    },
    { prefix: '/api/admin' },
  );
}

function smtpView(settings: SmtpSettings | undefined) {
  if (!settings) return { configured: false };
  const { password, ...rest } = settings;
  return { configured: true, ...rest, passwordSet: password !== null };
}
