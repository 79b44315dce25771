import pino, { type Logger } from 'pino';
import { resolveAdminToken } from '../access/admin-token.ts';
import { startClusterServices } from '../cluster/start-cluster-services.ts';
import { createRuntime } from '../core/create-runtime.ts';
import type { RuntimeContext } from '../core/runtime-context.ts';
import type { Kv } from '../kv/kv.ts';
import { SnapshotHolder } from '../snapshot/snapshot-holder.ts';
import { createStore } from '../store/create-store.ts';
import { loadGatewaySecret } from '../store/load-gateway-secret.ts';
import { createSecretBox } from '../store/secret-box.ts';
import type { Store } from '../store/store.ts';
import type { GatewayOptions } from './gateway-options.ts';

/** What one instance keeps: the store, the snapshot of it every request reads, the cluster and its counters. */
export interface GatewayState {
  options: GatewayOptions;
  logger: Logger;
  runtime: RuntimeContext;
  /** GATEWAY_SECRET's key: channel secrets in the store, sealed reasoning. */
  secretKey: Buffer;
  store: Store;
  adminTokenHash: string;
  /** A generated admin token nobody has used yet (see RunningGateway). */
  generatedAdminToken: string | undefined;
  snapshot: SnapshotHolder;
  cluster: Awaited<ReturnType<typeof startClusterServices>>;
  kv: Kv;
  /** Whether this instance runs the leader work (health checks, pruning). */
  leader: () => boolean;
}

/** Opens the store (migrated, the config file applied), the admin token, the snapshot and the cluster services. */
export async function openGatewayState(options: GatewayOptions): Promise<GatewayState> {
  const logger = options.logger ?? pino({ level: 'info' });
  const runtime = options.runtime ?? createRuntime();
  const secretKey = loadGatewaySecret({ databaseUrl: options.databaseUrl, gatewaySecret: options.gatewaySecret });
  const store = await createStore({ databaseUrl: options.databaseUrl, secretKey, ...(options.database ? { database: options.database } : {}) });
  await options.applyConfig?.(store);
  const { adminTokenHash, pendingAdminToken } = await resolveAdminToken(store, options.adminToken, createSecretBox(secretKey));
  const snapshot = await SnapshotHolder.load(store, runtime.now);
  const cluster = await startClusterServices({
    redisTarget: options.redisTarget ?? (options.redisUrl === undefined ? undefined : { mode: 'standalone', url: options.redisUrl }),
    outageMode: options.redisOutageMode ?? 'local',
    redisPrefix: options.redisPrefix,
    databaseUrl: options.databaseUrl,
    logger,
    now: runtime.now,
  });
  const leader = () => cluster.leader.isLeader();
  return {
    options,
    logger,
    runtime,
    secretKey,
    store,
    adminTokenHash,
    generatedAdminToken: pendingAdminToken,
    snapshot,
    cluster,
    kv: options.kv ?? cluster.kv,
    leader,
  };
}
