import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../../core/gateway-error.ts';
import { readSignInSettings, writeSignInSettings } from '../../identity/sign-in-settings.ts';
import { TotpFactors } from '../../identity/totp-factors.ts';
import type { AppDeps } from '../app-deps.ts';
import { param } from './admin-route-helpers.ts';
import { actorOf } from './admin-people-routes.ts';
import type { AdminActor } from './authorize-admin.ts';
import { signInSettingsSchema, totpCodeSchema } from './admin-people-schemas.ts';
import { parseAdminInput } from '../parse-admin-input.ts';
import { recordAdminChange } from './record-admin-change.ts';

/**
 * Two-factor sign-in of the console's people (issue 29): each admin enrols their own TOTP
 * (`/me/totp`), an owner can clear someone's lost authenticator, and the owner's sign-in rules
 * (`/sign-in-settings`: TOTP required of every admin, OIDC only) live here.
 */
export function registerAdminTotpRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { store } = deps;
  const factors = new TotpFactors(store.identity, () => deps.runtime.now());

  app.register(
    async (admin) => {
      admin.post('/me/totp', async (request) => {
        const person = await signedInPerson(deps, actorOf(request));
        // Shown once: the store keeps the secret sealed and the recovery codes hashed.
        return factors.enrol({ kind: 'admin', id: person.id }, `${person.name} (console)`);
      });
      admin.post('/me/totp/verify', async (request) => {
        const person = await signedInPerson(deps, actorOf(request));
        const { code } = parseAdminInput(totpCodeSchema, request.body);
        await factors.confirm({ kind: 'admin', id: person.id }, code);
        await recordAdminChange(deps, request, {
          action: 'admin.totp.enable',
          targetKind: 'admin',
          targetId: person.id,
          targetName: person.name,
          before: null,
          after: { totp: true },
        });
        return { totp: true };
      });
      admin.delete('/me/totp', async (request, reply) => {
        const person = await signedInPerson(deps, actorOf(request));
        const { code } = parseAdminInput(totpCodeSchema, request.body);
        // Turning it off needs a current code: a stolen session alone cannot remove the factor.
        if ((await factors.check({ kind: 'admin', id: person.id }, code)) !== 'passed')
          throw new GatewayError('sign_in_failed', 'That two-factor code is wrong or was already used.');
        await factors.disable({ kind: 'admin', id: person.id });
        await recordAdminChange(deps, request, {
          action: 'admin.totp.disable',
          targetKind: 'admin',
          targetId: person.id,
          targetName: person.name,
          before: { totp: true },
          after: { totp: false },
        });
        return reply.code(204).send();
      });
      admin.delete('/admins/:id/totp', async (request, reply) => {
        const person = await store.admins.find(param(request, 'id'));
        if (!person) throw new GatewayError('not_found', `No admin "${param(request, 'id')}" exists.`);
        if (!(await factors.disable({ kind: 'admin', id: person.id }))) throw new GatewayError('not_found', `${person.name} has no two-factor authenticator.`);
        await store.admins.deleteSessionsOf(person.id);
        await recordAdminChange(deps, request, {
          action: 'admin.totp.reset',
          targetKind: 'admin',
          targetId: person.id,
          targetName: person.name,
          before: { totp: true },
          after: { totp: false },
        });
        return reply.code(204).send();
      });

      admin.get('/sign-in-settings', async () => readSignInSettings(store.settings));
      admin.patch('/sign-in-settings', async (request) => {
        const input = parseAdminInput(signInSettingsSchema, request.body);
        const before = await readSignInSettings(store.settings);
        const after = { ...before, ...input };
        await writeSignInSettings(store.settings, after);
        await recordAdminChange(deps, request, {
          action: 'sign-in-settings.update',
          targetKind: 'settings',
          targetId: 'sign-in',
          targetName: null,
          before,
          after,
        });
        return after;
      });
    },
    { prefix: '/api/admin' },
  );
}

/** TOTP belongs to a person: a token or the break-glass credential has none to enrol. */
async function signedInPerson(deps: AppDeps, actor: AdminActor) {
  const person = actor.via === 'session' && actor.adminId ? await deps.store.admins.find(actor.adminId) : undefined;
  if (!person)
    throw new GatewayError('invalid_request', 'Two-factor sign-in belongs to a person: sign in to the console as yourself (not with a token) to enrol.');
  return person;
}
