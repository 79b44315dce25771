import type { FastifyRequest } from 'fastify';
import type { Caller } from '../access/authenticate-key.ts';
import { isIpAllowed } from '../access/check-ip-allowed.ts';
import { diagnoseModel, type Diagnosis } from '../access/diagnose-model.ts';
import { checkPayment } from '../billing/check-payment.ts';
import { invalidRequest } from '../core/gateway-error.ts';
import { circuitStateFor } from '../relay/routing/health-status.ts';
import type { AppDeps } from './app-deps.ts';
import { clientIpOf } from './authenticate-request.ts';

export interface DiagnoseKeyOptions {
  /** Say that other groups serve the model: the operator always; a key holder with REVEAL_OTHER_GROUP_MODELS. */
  revealOtherGroups: boolean;
  /** An account's check: the groups it may create keys in, so a model of another of them is named as such. */
  accountGroups?: readonly string[];
}

/**
 * The model check of one key, the same six checks wherever it is asked: `/api/diagnose` (the key
 * itself, the CLI's `switchyard-diagnose`), the portal (`/api/account/diagnose`) and the console
 * (`/api/admin/keys/:id/diagnose`). The query names the model and, optionally, the client kind.
 */
export async function diagnoseKey(deps: AppDeps, request: FastifyRequest, caller: Caller, options: DiagnoseKeyOptions): Promise<Diagnosis> {
  const query = request.query as Record<string, unknown>;
  if (typeof query.model !== 'string' || query.model === '') {
    throw invalidRequest(
      'model: name the model to check (?model=<name>&client=<kind>). Keep any spaces exactly as your client sends them (URL-encoded).',
      'model',
    );
  }
  const snapshot = deps.snapshot.current;
  const now = deps.runtime.now();
  const clientIp = clientIpOf(deps, request);
  const keyBalanceMicros = await deps.access.balances.available(caller.key);
  return diagnoseModel({
    snapshot,
    caller,
    model: query.model,
    client: typeof query.client === 'string' && query.client !== '' ? query.client : undefined,
    now,
    origin: requestOrigin(request),
    altPrefix: deps.settings.altPrefix,
    clientIp,
    ipAllowed: isIpAllowed(caller.key, clientIp),
    availableMicros: keyBalanceMicros,
    channelState: (channel, model) => circuitStateFor(deps.relay.health.describe(channel), model),
    revealOtherGroups: options.revealOtherGroups,
    ...(options.accountGroups ? { accountGroups: options.accountGroups } : {}),
    payment: await checkPayment({
      snapshot,
      key: caller.key,
      group: caller.group,
      now,
      wallets: deps.access.wallets,
      subscriptions: deps.access.subscriptions,
      keyBalanceMicros,
    }),
  });
}

/** `http://host:port` as this client reached the gateway; the base addresses are built from it. */
function requestOrigin(request: FastifyRequest): string {
  const host = typeof request.headers.host === 'string' && /^[A-Za-z0-9.\-:[\]]+$/.test(request.headers.host) ? request.headers.host : 'localhost';
  const scheme = request.headers['x-forwarded-proto'] === 'https' ? 'https' : 'http';
  return `${scheme}://${host}`;
}
