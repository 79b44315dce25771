import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';

/**
 * The queue of connections the kernel holds before the gateway accepts them is the configured
 * LISTEN_BACKLOG, not Node's 511: `ss -ltn` shows a listening socket's backlog as its Send-Q.
 */
describe('listen backlog', () => {
  const harnesses: Harness[] = [];
  after(async () => {
    for (const harness of harnesses) await harness.close();
  });

  const backlogOf = (url: string): number => {
    const port = new URL(url).port;
    const line = execFileSync('ss', ['-ltnH', `sport = :${port}`], { encoding: 'utf8' }).trim();
    const sendQ = line.split(/\s+/)[2];
    assert.ok(sendQ !== undefined, `ss listed no listening socket on ${port}: ${JSON.stringify(line)}`);
    return Number(sendQ);
  };

  test('the default is 4,096 (as far as the kernel allows) and LISTEN_BACKLOG changes it', async () => {
    const byDefault = await startHarness();
    harnesses.push(byDefault);
    const kernelCap = Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8').trim());
    assert.equal(backlogOf(byDefault.url), Math.min(4_096, kernelCap));

    const configured = await startHarness({ serverLimits: { listenBacklog: 77 } });
    harnesses.push(configured);
    assert.equal(backlogOf(configured.url), 77);
  });
});
