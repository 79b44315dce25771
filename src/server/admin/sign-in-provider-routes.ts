import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../../core/gateway-error.ts';
import type { SignInProvider } from '../../domain/identity.ts';
import type { AppDeps } from '../app-deps.ts';
import { param } from './admin-route-helpers.ts';
import { signInProviderSchema } from '../identity-schemas.ts';
import { parseAdminInput } from '../parse-admin-input.ts';
import { recordAdminChange } from './record-admin-change.ts';

/** OIDC providers people sign in with (issue 29); the client secret is sealed and never shown back. */
export function registerSignInProviderRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { store } = deps;
  app.register(
    async (admin) => {
      admin.get('/sign-in-providers', async () => ({ data: (await store.identity.listProviders()).map(providerView) }));
      admin.post('/sign-in-providers', async (request, reply) => {
        const input = parseAdminInput(signInProviderSchema, request.body);
        const before = await store.identity.findProvider(input.name);
        const saved = await store.identity.saveProvider({
          ...input,
          issuer: input.issuer.replace(/\/$/, ''),
          audiences: [...new Set(input.audiences)],
          apiBase: input.apiBase ?? null,
        });
        await recordAdminChange(deps, request, {
          action: before ? 'sign-in-provider.update' : 'sign-in-provider.create',
          targetKind: 'sign-in-provider',
          targetId: saved.name,
          targetName: saved.name,
          before: before ? providerView(before) : null,
          after: providerView(saved),
        });
        return reply.code(before ? 200 : 201).send(providerView(saved));
      });
      admin.delete('/sign-in-providers/:name', async (request, reply) => {
        const before = await store.identity.findProvider(param(request, 'name'));
        if (!before || !(await store.identity.deleteProvider(before.name)))
          throw new GatewayError('not_found', `No sign-in provider "${param(request, 'name')}" exists.`);
        await recordAdminChange(deps, request, {
          action: 'sign-in-provider.delete',
          targetKind: 'sign-in-provider',
          targetId: before.name,
          targetName: before.name,
          before: providerView(before),
          after: null,
        });
        return reply.code(204).send();
      });
    },
    { prefix: '/api/admin' },
  );
}

function providerView(provider: SignInProvider) {
  return {
    name: provider.name,
    type: provider.type,
    issuer: provider.issuer,
    clientId: provider.clientId,
    audiences: provider.audiences,
    apiBase: provider.apiBase,
    startUrl: `/api/auth/${provider.name}/start`,
    createdAt: new Date(provider.createdAt).toISOString(),
    updatedAt: new Date(provider.updatedAt).toISOString(),
  };
}
