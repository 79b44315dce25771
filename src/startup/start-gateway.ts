import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Readiness } from '../cluster/readiness.ts';
import { DEFAULT_SERVER_LIMITS } from '../config/server-limits.ts';
import { buildGatewayApp } from './build-gateway-app.ts';
import { buildGatewayRelay, type GatewayRelay } from './build-gateway-relay.ts';
import { buildGatewayServices, type GatewayServices } from './build-gateway-services.ts';
import type { GatewayOptions, RunningGateway } from './gateway-options.ts';
import { openGatewayState, type GatewayState } from './open-gateway-state.ts';

/**
 * One gateway instance: open its state (store, admin token, snapshot, cluster), build the
 * services (access and billing, channel health, metrics, the usage writer), the relay, the app,
 * and listen. Used by `main.ts` and by the end-to-end tests, so the tests run the gateway
 * exactly as users do.
 */
export async function startGateway(options: GatewayOptions): Promise<RunningGateway> {
  const state = await openGatewayState(options);
  const services = await buildGatewayServices(state);
  const relay = buildGatewayRelay(state, services);
  const { app, readiness } = buildGatewayApp(state, services, relay.relay);
  const url = await listen(app, options);
  return running(url, { state, services, relay, app, readiness });
}

/** Listens with the configured backlog (LISTEN_BACKLOG); returns the address, IPv6 in brackets. */
async function listen(app: FastifyInstance, options: GatewayOptions): Promise<string> {
  await app.listen({ port: options.port, host: options.host, backlog: options.serverLimits?.listenBacklog ?? DEFAULT_SERVER_LIMITS.listenBacklog });
  const address = app.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

interface Parts {
  state: GatewayState;
  services: GatewayServices;
  relay: GatewayRelay;
  app: FastifyInstance;
  readiness: Readiness;
}

/** The running instance; `close` drains, lets open requests and streams finish, then closes in reverse order. */
function running(url: string, { state, services, relay, app, readiness }: Parts): RunningGateway {
  let closing: Promise<void> | undefined;
  return {
    url,
    store: state.store,
    generatedAdminToken: state.generatedAdminToken,
    cluster: { shared: () => state.cluster.shared(), leader: state.leader, kv: state.kv },
    notifications: services.notifications,
    drain: () => readiness.startDraining(),
    cutOpenRequests: () => services.openRequests.cutAll(),
    close() {
      closing ??= (async () => {
        readiness.startDraining();
        relay.healthChecker.stop();
        // Idle keep-alive connections are closed at once; open requests and streams finish.
        await app.close();
        for (const pruner of services.pruners) pruner.stop();
        await services.notifications.stop();
        await services.usageWriter.close();
        await services.access.close();
        await state.cluster.close();
        await relay.upstream.close();
        await state.store.close();
      })();
      return closing;
    },
  };
}
