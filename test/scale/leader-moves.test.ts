import assert from 'node:assert/strict';
import { test } from 'node:test';
import { waitFor } from '../helpers/wait-for.ts';
import { startGatewayProcesses, type GatewayProcess } from './gateway-processes.ts';

const LEADS = /this instance now runs the leader work/;

/**
 * Three gateway processes on one database and one Redis: exactly one runs the leader-only jobs
 * (health checks, pruning, alerts); when it is SIGKILLed (its lock is not released, it expires
 * after 15 s) one of the others takes the work over.
 */
// Heavy (three processes started as operators start them: about a minute): SCALE_HEAVY=1.
test('leader-only jobs run on one of three processes and move when the leader is SIGKILLed', {
  timeout: 120_000,
  skip: process.env.SCALE_HEAVY !== '1',
}, async () => {
  const processes = await startGatewayProcesses({ count: 3 });
  try {
    const leads = (gateway: GatewayProcess) => LEADS.test(gateway.output());
    await waitFor(() => processes.gateways.some(leads), 'one process leads', 20_000);
    const leaders = processes.gateways.filter(leads);
    assert.equal(leaders.length, 1, 'exactly one process leads');
    const [leader] = leaders as [GatewayProcess];
    const killedAt = Date.now();
    await leader.kill('SIGKILL');
    const others = processes.gateways.filter((gateway) => gateway !== leader);
    await waitFor(() => others.some(leads), 'another process takes the leader work over', 25_000);
    const movedMs = Date.now() - killedAt;
    assert.equal(others.filter(leads).length, 1, 'exactly one of the survivors leads');
    // The lock expires 15 s after its last renewal; a survivor tries every 5 s.
    assert.ok(movedMs <= 20_000 + 2_000, `the work moved ${movedMs} ms after the kill`);
    console.log(`[figures leader] moved ${movedMs} ms after SIGKILL`);
  } finally {
    await processes.close();
  }
});
