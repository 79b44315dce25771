import { DEFAULT_AUTH_THROTTLE } from '../access/auth-failure-throttle.ts';
import { createStoreMailer } from '../mail/smtp-settings-store.ts';
import { startLedgerPruner } from '../ledger/ledger-pruner.ts';
import { ReconciliationEvents } from '../ledger/reconciliation-events.ts';
import { createAccessServices, type AccessServices } from '../billing/access-services.ts';
import { loadSpendBaseline } from '../billing/load-spend-baseline.ts';
import { startUsagePruner } from '../billing/usage-pruner.ts';
import { DEFAULT_USAGE_WRITER_OPTIONS, UsageWriter } from '../billing/usage-writer.ts';
import type { StreamGauge } from '../relay/stream-gauge.ts';
import {
  DEFAULT_RESPONSES_MAX_CHAIN_TURNS,
  DEFAULT_RESPONSES_MAX_TURN_BYTES,
  DEFAULT_RESPONSES_MAX_CHAIN_BYTES,
  DEFAULT_RESPONSES_MAX_KEY_BYTES,
  DEFAULT_RESPONSES_RETENTION_HOURS,
  type StatefulResponses,
} from '../responses/stateful-responses.ts';
import { startStoredResponsePruner } from '../responses/stored-response-pruner.ts';
import { StoredBytesQuota } from '../responses/stored-bytes-quota.ts';
import { ChannelHealth } from '../relay/routing/channel-health.ts';
import { DEFAULT_CIRCUIT_OPTIONS } from '../relay/routing/circuit-breaker.ts';
import { ConversationAffinity, DEFAULT_AFFINITY_TTL_SECONDS } from '../relay/routing/conversation-affinity.ts';
import { logCircuitTransitions } from '../relay/routing/log-circuit-transitions.ts';
import { notifyCircuitTransitions } from '../notify/notify-circuit-transitions.ts';
import { startNotifications, type NotificationServices } from '../notify/start-notifications.ts';
import { logGenerationAccess } from '../server/observability/access-log.ts';
import { GatewayMetrics } from '../server/observability/gateway-metrics.ts';
import { startHourlyPruner } from '../store/start-hourly-pruner.ts';
import { totalTimeoutMs } from './gateway-options.ts';
import type { GatewayState } from './open-gateway-state.ts';

const APPLIED_BATCH_RETENTION_MS = 7 * 86_400_000;

/** The per-process services every request uses, besides the relay. */
export interface GatewayServices {
  access: AccessServices;
  health: ChannelHealth;
  streams: StreamGauge;
  metrics: GatewayMetrics;
  usageWriter: UsageWriter;
  /** `reconciliation.drift` events of this process (subscribe to alert on them). */
  reconciliation: ReconciliationEvents;
  responses: StatefulResponses;
  affinity: ConversationAffinity | undefined;
  /** Alerts (issue 30): emitNotification, the outbox and the leader's scans. */
  notifications: NotificationServices;
  /** Leader-only background work (usage log, stored Responses turns, charge-batch ids), stopped on close. */
  pruners: { stop(): void }[];
}

/**
 * Access and billing, channel health (shared through the cluster, transitions logged), metrics,
 * and the usage writer, which hears its listeners: each row's access line as it is recorded, and
 * the metrics' counts as it is written (a scrape first observes the rows still queued).
 */
export async function buildGatewayServices(state: GatewayState): Promise<GatewayServices> {
  const { options, store, snapshot, runtime, logger } = state;
  const access = createAccessServices({
    kv: state.kv,
    slotLeaseMs: totalTimeoutMs(options) + 60_000,
    store,
    snapshot,
    now: runtime.now,
    logger,
    trustedProxies: options.trustedProxies ?? [],
    clientIpHeader: options.clientIpHeader ?? 'x-forwarded-for',
    adminAuthThrottle: { ...DEFAULT_AUTH_THROTTLE, ...options.adminAuthThrottle },
    strictPricing: options.strictPricing ?? true,
    ...(options.reservedOutputTokens === undefined ? {} : { reservedOutputTokens: options.reservedOutputTokens }),
    spendBaseline: await loadSpendBaseline(store.usage, runtime.now()),
  });
  const health = new ChannelHealth(runtime.now, { ...DEFAULT_CIRCUIT_OPTIONS, ...options.circuit });
  state.cluster.attach(snapshot, health);
  logCircuitTransitions(health, snapshot, logger);
  const notifications = startGatewayNotifications(state, access);
  notifyCircuitTransitions(health, { snapshot, notifier: notifications.notifier, history: store.circuitHistory, logger, now: runtime.now });
  const streams: StreamGauge = { open: 0 };
  const metrics = new GatewayMetrics({ streams, health, snapshot });
  const usageWriter = new UsageWriter(store.usage, logger, DEFAULT_USAGE_WRITER_OPTIONS, {
    // Bound, not wrapped: a row goes straight to the access log and the metrics.
    recorded: logGenerationAccess.bind(undefined, logger),
    observed: metrics.observe.bind(metrics),
  });
  metrics.beforeScrape = () => usageWriter.observeQueued();
  const affinityTtlMs = (options.affinityTtlSeconds ?? DEFAULT_AFFINITY_TTL_SECONDS) * 1000;
  const affinity = affinityTtlMs > 0 ? new ConversationAffinity(state.kv, affinityTtlMs) : undefined;
  const reconciliation = new ReconciliationEvents();
  // A drifting channel-day is the alerting's `reconciliation.drift`, one alert per channel and day.
  reconciliation.subscribe((event) => {
    const { type: _type, ...data } = event;
    void notifications.notifier.emitNotification('reconciliation.drift', { subject: `${event.channelId}:${event.day}`, ...data }, Math.abs(event.driftMicros));
  });
  return {
    access,
    health,
    streams,
    metrics,
    usageWriter,
    reconciliation,
    responses: statefulResponses(state),
    affinity,
    notifications,
    pruners: startPruners(state),
  };
}

/** Notifications read the snapshot's accounts and the meters' live balances; only the leader scans and sends. */
function startGatewayNotifications({ options, store, snapshot, runtime, logger, leader }: GatewayState, access: AccessServices): NotificationServices {
  const settings = options.notifications ?? {};
  return startNotifications({
    store,
    now: runtime.now,
    logger,
    isLeader: leader,
    // E-mail alerts go through the operator's SMTP settings (PATCH /api/admin/smtp), read when a mail is sent.
    mailer: settings.mailer ?? createStoreMailer(store),
    ...(settings.outboxPollMs === undefined ? {} : { outboxPollMs: settings.outboxPollMs }),
    ...(settings.scanIntervalMs === undefined ? {} : { scanIntervalMs: settings.scanIntervalMs }),
    allowPrivateAccountTargets: settings.allowPrivateAccountTargets ?? false,
    accounts: {
      users: () => snapshot.current.users.values(),
      keys: () => snapshot.current.keysByHash.values(),
      *subscriptions() {
        const now = runtime.now();
        for (const list of snapshot.current.subscriptionsByUser.values()) {
          for (const subscription of list) {
            const plan = snapshot.current.plans.get(subscription.planId);
            if (plan && !subscription.suspended && subscription.expiresAt > now && subscription.startsAt <= now) yield { subscription, plan };
          }
        }
      },
      walletAvailable: (user) => access.wallets.available(user),
      keyAvailable: (key) => access.balances.available(key),
      subscriptionUsage: (subscription, plan) => access.subscriptions.usage(subscription, plan),
    },
    traffic: { channelName: (id) => snapshot.current.channels.get(id)?.name },
  });
}

function statefulResponses({ options, store, runtime }: GatewayState): StatefulResponses {
  return {
    repository: store.responses,
    retentionMs: (options.responsesRetentionHours ?? DEFAULT_RESPONSES_RETENTION_HOURS) * 3_600_000,
    maxTurnBytes: options.responsesMaxTurnBytes ?? DEFAULT_RESPONSES_MAX_TURN_BYTES,
    maxChainTurns: DEFAULT_RESPONSES_MAX_CHAIN_TURNS,
    maxChainBytes: options.responsesMaxChainBytes ?? DEFAULT_RESPONSES_MAX_CHAIN_BYTES,
    keyBytes: new StoredBytesQuota(store.responses, options.responsesMaxKeyBytes ?? DEFAULT_RESPONSES_MAX_KEY_BYTES, runtime.now),
  };
}

function startPruners({ options, store, runtime, logger, leader }: GatewayState): { stop(): void }[] {
  return [
    startUsagePruner({ usage: store.usage, retentionDays: options.logRetentionDays ?? 30, now: runtime.now, logger, isLeader: leader }),
    startLedgerPruner({ ledger: store.ledger, retentionDays: options.ledgerRetentionDays ?? 400, now: runtime.now, logger, isLeader: leader }),
    startStoredResponsePruner({ repository: store.responses, now: runtime.now, logger, isLeader: leader }),
    // A charge batch can only be retried while the process that wrote it still runs; a week is ample.
    startHourlyPruner({
      what: 'applied charge-batch ids',
      prune: () => store.appliedBatches.pruneBefore(runtime.now() - APPLIED_BATCH_RETENTION_MS),
      logger,
      isLeader: leader,
    }),
    // The status page looks back 30 days.
    startHourlyPruner({ what: 'circuit history', prune: () => store.circuitHistory.pruneBefore(runtime.now() - 31 * 86_400_000), logger, isLeader: leader }),
    startHourlyPruner({ what: 'sent notifications', prune: () => store.outbox.pruneSentBefore(runtime.now() - 30 * 86_400_000), logger, isLeader: leader }),
  ];
}
