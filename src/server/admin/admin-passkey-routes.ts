import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GatewayError } from '../../core/gateway-error.ts';
import type { Admin } from '../../domain/admin.ts';
import { refuseWhenOidcOnly } from '../../identity/sign-in-settings.ts';
import type { AppDeps } from '../app-deps.ts';
import { parseAdminInput } from '../parse-admin-input.ts';
import { admitPasskeyOptions } from '../passkey-options-cap.ts';
import {
  asAuthenticationResponse,
  asRegistrationResponse,
  ceremonyCookieOf,
  defaultPasskeyName,
  passkeyRegistrationSchema,
  passkeyRenameSchema,
  passkeySignInSchema,
  passkeysOf,
  passkeyView,
  setCeremonyCookie,
} from '../passkey-http.ts';
import { requireJson } from '../require-json.ts';
import { sameOrigin } from '../session-cookie.ts';
import { actorOf, adminView } from './admin-people-routes.ts';
import { param } from './admin-route-helpers.ts';
import { openConsoleSession } from './open-console-session.ts';
import { recordAdminChange } from './record-admin-change.ts';

/**
 * The console's passkeys (issue 29): each person registers, lists, renames and removes their own
 * (`/me/passkeys`), signs in with one (`/session/passkey`, a two-factor sign-in on its own), and
 * an owner sees and removes another admin's (a lost device).
 */
export function registerAdminPasskeyRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { store } = deps;
  const passkeys = passkeysOf(deps);
  const mine = async (request: FastifyRequest) => ({ kind: 'admin' as const, id: (await signedInPerson(deps, request)).id });

  app.register(
    async (admin) => {
      admin.post('/session/passkey/options', async (request, reply) => {
        if (!sameOrigin(request)) throw new GatewayError('csrf_failed', 'This sign-in came from another site; sign in on this gateway’s console.');
        await refuseWhenOidcOnly(store.settings);
        await admitPasskeyOptions(deps, request, 'console');
        const started = await passkeys.startSignIn('console');
        setCeremonyCookie(request, reply, started.ceremonyId);
        return started.options;
      });
      admin.post('/session/passkey', async (request, reply) => {
        requireJson(request);
        if (!sameOrigin(request)) throw new GatewayError('csrf_failed', 'This sign-in came from another site; sign in on this gateway’s console.');
        await refuseWhenOidcOnly(store.settings);
        const { response } = parseAdminInput(passkeySignInSchema, request.body);
        const passkey = await passkeys.finishSignIn(ceremonyCookieOf(request), 'console', asAuthenticationResponse(response));
        const person = await store.admins.find(passkey.owner.id);
        if (!person || !person.enabled || person.id !== passkey.owner.id)
          throw new GatewayError('sign_in_failed', 'This passkey’s admin is disabled or removed.');
        const { csrfToken, expiresAt } = await openConsoleSession(deps, request, reply, person, 'passkey');
        return { admin: adminView(person), csrfToken, sessionExpiresAt: new Date(expiresAt).toISOString() };
      });

      admin.get('/me/passkeys', async (request) => ({ data: (await store.passkeys.list(await mine(request))).map(passkeyView) }));
      admin.post('/me/passkeys/options', async (request, reply) => {
        const person = await signedInPerson(deps, request);
        const started = await passkeys.startRegistration({ kind: 'admin', id: person.id }, person.email);
        setCeremonyCookie(request, reply, started.ceremonyId);
        return started.options;
      });
      admin.post('/me/passkeys', async (request, reply) => {
        const owner = await mine(request);
        const input = parseAdminInput(passkeyRegistrationSchema, request.body);
        const saved = await passkeys.finishRegistration(
          ceremonyCookieOf(request),
          owner,
          asRegistrationResponse(input.response),
          input.name ?? defaultPasskeyName(request),
        );
        await recordPasskeyChange(request, 'admin.passkey.add', owner.id, null, passkeyView(saved));
        return reply.code(201).send(passkeyView(saved));
      });
      admin.patch('/me/passkeys/:passkeyId', async (request) => {
        const { name } = parseAdminInput(passkeyRenameSchema, request.body);
        const renamed = await store.passkeys.rename(await mine(request), param(request, 'passkeyId'), name);
        if (!renamed) throw new GatewayError('not_found', `You have no passkey "${param(request, 'passkeyId')}".`);
        return passkeyView(renamed);
      });
      admin.delete('/me/passkeys/:passkeyId', async (request, reply) => {
        const owner = await mine(request);
        if (!(await store.passkeys.delete(owner, param(request, 'passkeyId'))))
          throw new GatewayError('not_found', `You have no passkey "${param(request, 'passkeyId')}".`);
        await recordPasskeyChange(request, 'admin.passkey.remove', owner.id, { passkey: param(request, 'passkeyId') }, null);
        return reply.code(204).send();
      });

      admin.get('/admins/:id/passkeys', async (request) => ({
        data: (await store.passkeys.list({ kind: 'admin', id: (await findAdmin(request)).id })).map(passkeyView),
      }));
      admin.delete('/admins/:id/passkeys/:passkeyId', async (request, reply) => {
        const person = await findAdmin(request);
        if (!(await store.passkeys.delete({ kind: 'admin', id: person.id }, param(request, 'passkeyId'))))
          throw new GatewayError('not_found', `${person.name} has no passkey "${param(request, 'passkeyId')}".`);
        await recordPasskeyChange(request, 'admin.passkey.remove', person.id, { passkey: param(request, 'passkeyId') }, null);
        return reply.code(204).send();
      });
    },
    { prefix: '/api/admin' },
  );

  async function findAdmin(request: FastifyRequest): Promise<Admin> {
    const person = await store.admins.find(param(request, 'id'));
    if (!person) throw new GatewayError('not_found', `No admin "${param(request, 'id')}" exists.`);
    return person;
  }
  async function recordPasskeyChange(request: FastifyRequest, action: string, adminId: string, before: unknown, after: unknown): Promise<void> {
    await recordAdminChange(deps, request, { action, targetKind: 'admin', targetId: adminId, targetName: null, before, after });
  }
}

async function signedInPerson(deps: AppDeps, request: FastifyRequest): Promise<Admin> {
  const actor = actorOf(request);
  const person = actor.via === 'session' && actor.adminId ? await deps.store.admins.find(actor.adminId) : undefined;
  if (!person) throw new GatewayError('invalid_request', 'Passkeys belong to a person: sign in to the console as yourself (not with a token).');
  return person;
}
