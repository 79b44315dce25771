import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { SelfSignUp } from '../../identity/self-sign-up.ts';
import type { SignUpThrottleOptions } from '../../identity/sign-up-throttle.ts';
import { createStoreMailer } from '../../mail/smtp-settings-store.ts';
import { email, password } from '../../schemas/field-rules.ts';
import type { AppDeps } from '../app-deps.ts';
import { sameOrigin } from '../session-cookie.ts';
import { GatewayError, invalidRequest } from '../../core/gateway-error.ts';
import { clientIpOf } from '../authenticate-request.ts';
import { parseAdminInput } from '../parse-admin-input.ts';
import { requireJson } from '../require-json.ts';

export const signUpSchema = z.strictObject({
  email,
  password,
  captchaToken: z.string().max(4096).optional(),
  referralCode: z.string().trim().min(1).max(100).optional(),
});
const resetSchema = z.strictObject({ email });
const resetConfirmSchema = z.strictObject({ token: z.string().min(1).max(200), password });

/**
 * The portal's public routes (issue 29): self sign-up, its e-mailed verification link and password
 * reset. They sit outside the portal's session scope (no one is signed in yet) and answer 202
 * alike whether or not an address has an account.
 */
export function registerSignUpRoutes(app: FastifyInstance, deps: AppDeps, options: { throttle?: SignUpThrottleOptions } = {}): void {
  const signUp = new SelfSignUp({
    store: deps.store,
    kv: deps.access.kv,
    mailer: deps.mailer ?? createStoreMailer(deps.store),
    now: () => deps.runtime.now(),
    publicUrl: deps.settings.publicUrl,
    ...(options.throttle ? { throttle: options.throttle } : {}),
    onAccountCreated: async (user, { referralCode }) => {
      deps.logger.info({ event: 'account_signed_up', userId: user.id, referralCode }, 'an account signed up and verified its e-mail');
    },
  });

  app.register(
    async (account) => {
      account.addHook('onRoute', (route) => {
        route.config = { ...route.config, consumerFacing: true };
      });
      account.addHook('onRequest', async (request, reply) => {
        reply.header('cache-control', 'no-store');
        if (request.method === 'POST') {
          requireJson(request);
          if (!sameOrigin(request)) throw new GatewayError('csrf_failed', 'This request came from another site; use this gateway’s own pages.');
        }
      });

      account.post('/sign-up', async (request, reply) => {
        await signUp.signUp(parseAdminInput(signUpSchema, request.body), clientIpOf(deps, request));
        return reply.code(202).send({ status: 'pending', message: 'Check your inbox: the link in our e-mail finishes the sign-up.' });
      });
      account.get('/verify', async (request) => {
        const token = (request.query as Record<string, unknown>).token;
        if (typeof token !== 'string' || token === '' || token.length > 200) throw invalidRequest('token: the token from the e-mailed link.', 'token');
        const user = await signUp.verify(token);
        return {
          verified: true,
          user: { id: user.id, name: user.name, email: user.email },
          message: 'Your account is ready: sign in with your e-mail and password.',
        };
      });
      account.post('/password-reset', async (request, reply) => {
        await signUp.requestReset(parseAdminInput(resetSchema, request.body).email, clientIpOf(deps, request));
        return reply.code(202).send({ status: 'pending', message: 'If that address has an account, a reset link is on its way.' });
      });
      account.post('/password-reset/confirm', async (request) => {
        const input = parseAdminInput(resetConfirmSchema, request.body);
        await signUp.confirmReset(input.token, input.password);
        return { reset: true, message: 'Your password is changed and every session was signed out: sign in with the new one.' };
      });
    },
    { prefix: '/api/account' },
  );
}
