/** What `GET /readyz` reports: one entry per dependency, and whether traffic should come here. */
export interface ReadinessReport {
  ready: boolean;
  draining: boolean;
  checks: { store: boolean; redis: boolean | null; snapshot: boolean };
}

export interface Readiness {
  check(): Promise<ReadinessReport>;
  /** From now on the instance reports not ready, so load balancers send nothing new. */
  startDraining(): void;
  readonly draining: boolean;
}

const CHECK_TIMEOUT_MS = 1_000;

/**
 * Ready when the store answers, Redis (if configured) answers and the snapshot is loaded; not
 * ready while draining. Each check is bounded, so a hung dependency makes /readyz answer 503
 * promptly instead of hanging the probe.
 */
export function createReadiness(input: {
  pingStore: () => Promise<unknown>;
  pingRedis: (() => Promise<unknown>) | undefined;
  snapshotLoaded: () => boolean;
}): Readiness {
  const bounded = async (ping: () => Promise<unknown>): Promise<boolean> => {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        ping(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS);
        }),
      ]);
      return true;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  };
  // `draining` is a plain field, not a getter: every response reads it (server/observability/health-routes.ts).
  const readiness = {
    draining: false,
    startDraining() {
      readiness.draining = true;
    },
    async check(): Promise<ReadinessReport> {
      const [store, redis] = await Promise.all([bounded(input.pingStore), input.pingRedis ? bounded(input.pingRedis) : null]);
      const snapshot = input.snapshotLoaded();
      const { draining } = readiness;
      return { ready: !draining && store && redis !== false && snapshot, draining, checks: { store, redis, snapshot } };
    },
  };
  return readiness;
}
