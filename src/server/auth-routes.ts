import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError, invalidRequest } from '../core/gateway-error.ts';
import type { SignInAudience, SignInProvider } from '../domain/identity.ts';
import { linkExternalIdentity } from '../identity/link-external-identity.ts';
import { OidcSignIn } from '../identity/oidc-sign-in.ts';
import { GithubSignIn } from '../identity/github-sign-in.ts';
import { SignInFlows } from '../identity/sign-in-flows.ts';
import type { AppDeps } from './app-deps.ts';
import { userAgentOf } from './portal/account-security-routes.ts';
import { hashSessionToken, newSessionSecret } from '../accounts/session-secret.ts';
import { CONSOLE_SESSION_COOKIE, PORTAL_SESSION_COOKIE, setSessionCookie } from './session-cookie.ts';
import { clientIpOf } from './authenticate-request.ts';

const SESSION_TTL_MS = 12 * 3_600_000;
/** Binds a started sign-in to the browser that started it (no one else's callback link signs you in). */
const FLOW_COOKIE = 'switchyard_oauth';

/**
 * Sign-in through a provider (issue 29): `GET /api/auth/{name}/start?audience=portal|console`
 * redirects to the provider; `GET /api/auth/{name}/callback` exchanges the code, links the person
 * by verified e-mail, opens the audience's session (the same cookie as a password sign-in) and
 * sends the browser to the console.
 */
export function registerAuthRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { store } = deps;
  const flows = new SignInFlows(deps.access.kv);
  const oidc = new OidcSignIn(flows);
  const github = new GithubSignIn(flows);

  app.get('/api/auth/:name/start', async (request, reply) => {
    const provider = await providerOf(request);
    const audience = (request.query as Record<string, unknown>).audience;
    if (audience !== 'portal' && audience !== 'console') throw invalidRequest('audience: "portal" or "console".', 'audience');
    if (!provider.audiences.includes(audience))
      throw new GatewayError('sign_in_method_disabled', `The provider "${provider.name}" does not sign people in to the ${audience}.`);
    const { url, state } = await (provider.type === 'github' ? github : oidc).start(provider, audience, callbackUrl(provider));
    reply.header('set-cookie', `${FLOW_COOKIE}=${state}; Path=/api/auth; Max-Age=600; HttpOnly; SameSite=Lax${secure(request)}`);
    return reply.code(302).header('cache-control', 'no-store').header('location', url).send();
  });

  app.get('/api/auth/:name/callback', async (request, reply) => {
    const provider = await providerOf(request);
    const query = request.query as Record<string, unknown>;
    const state = typeof query.state === 'string' ? query.state : '';
    if (state === '' || flowCookie(request) !== state)
      throw new GatewayError('sign_in_failed', 'This sign-in did not start in this browser (state mismatch): start it again.');
    const { identity, audience } =
      provider.type === 'github'
        ? await github.finish(provider, typeof query.code === 'string' ? query.code : '', state, callbackUrl(provider))
        : await oidc.finish(provider, new URL(request.url, callbackUrl(provider)), state);
    const who = await linkExternalIdentity(store, audience, identity);
    await openSession(request, reply, audience, who.kind === 'user' ? who.user.id : who.admin.id);
    deps.logger.info({ event: 'external_sign_in', provider: provider.name, audience, subject: identity.subject }, 'signed in through a provider');
    return reply.code(302).header('location', '/console').send();
  });

  async function providerOf(request: FastifyRequest): Promise<SignInProvider> {
    const name = (request.params as Record<string, string>).name ?? '';
    const provider = await store.identity.findProvider(name);
    if (!provider) throw new GatewayError('not_found', `No sign-in provider "${name}" exists.`);
    return provider;
  }

  function callbackUrl(provider: SignInProvider): string {
    if (!deps.settings.publicUrl)
      throw new GatewayError('internal_error', 'PUBLIC_URL is not set, so a provider cannot call this gateway back; the operator must set it.');
    return `${deps.settings.publicUrl}/api/auth/${encodeURIComponent(provider.name)}/callback`;
  }

  async function openSession(request: FastifyRequest, reply: FastifyReply, audience: SignInAudience, ownerId: string): Promise<void> {
    const token = newSessionSecret();
    const session = {
      tokenHash: hashSessionToken(token),
      csrfToken: newSessionSecret(),
      clientIp: clientIpOf(deps, request),
      createdAt: deps.runtime.now(),
      expiresAt: deps.runtime.now() + SESSION_TTL_MS,
    };
    if (audience === 'console') await store.admins.createSession({ ...session, adminId: ownerId });
    else await store.accountSessions.create({ ...session, userId: ownerId });
    await store.sessionDevices[audience].touch(session.tokenHash, session.createdAt, userAgentOf(request));
    setSessionCookie(request, reply, token, SESSION_TTL_MS / 1000, audience === 'console' ? CONSOLE_SESSION_COOKIE : PORTAL_SESSION_COOKIE);
  }
}

function flowCookie(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return undefined;
  for (const part of header.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === FLOW_COOKIE) return value.join('=');
  }
  return undefined;
}

function secure(request: FastifyRequest): string {
  return request.protocol === 'https' || request.headers['x-forwarded-proto'] === 'https' ? '; Secure' : '';
}
