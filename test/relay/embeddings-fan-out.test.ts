import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';

const AWS_ACCESS_KEY = 'AKIAIOSFODNN7EXAMPLE';
const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';

/**
 * Issue 23, item 10: Titan on Bedrock takes one text a call, so one embeddings request of many
 * texts is that many upstream calls. They count against the key's requests per minute (a 429
 * before any call when they do not fit), and a provider's 429 to one request's fan-out neither
 * opens the channel × model circuit nor pauses the channel every other key shares.
 */
describe('embeddings fan-out under per-key limits and shared circuits', () => {
  let harness: Harness;
  let limited: string;
  let bursty: string;
  let bystander: string;

  before(async () => {
    // A circuit that opens on the first failure, so one counted 429 would show.
    harness = await startHarness(
      { circuit: { minimumRequests: 1, errorRateThreshold: 0.5 } },
      { clouds: { bedrock: { credentials: { [AWS_ACCESS_KEY]: AWS_SECRET } } } },
    );
    await harness.addChannel({
      provider: 'bedrock',
      baseUrl: harness.simulator.url,
      region: 'us-east-1',
      apiKey: `${AWS_ACCESS_KEY}:${AWS_SECRET}`,
      models: ['titan'],
      modelMap: { titan: 'amazon.titan-embed-text-v2:0' },
    });
    limited = (await harness.addKey({ limits: { requestsPerMinute: 5 } })).key;
    bursty = (await harness.addKey()).key;
    bystander = (await harness.addKey()).key;
  });
  after(() => harness.close());

  const embed = async (key: string, input: string[]) => {
    const response = await fetch(`${harness.url}/v1/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'titan', input }),
    });
    return { status: response.status, json: (await response.json()) as any };
  };
  const embedCalls = () => harness.simulator.requests.filter((request) => request.endpoint === 'embed').length;

  test('a batch needing more upstream calls than the key has requests left is a 429 before any call', async () => {
    const before = embedCalls();
    const refused = await embed(
      limited,
      Array.from({ length: 40 }, (_, index) => `text ${index}`),
    );
    assert.equal(refused.status, 429, JSON.stringify(refused.json));
    assert.equal(refused.json.error.code, 'rate_limited');
    assert.match(refused.json.error.message, /40 upstream calls/);
    assert.equal(embedCalls(), before, 'no upstream call was made');
    // Three texts are three calls: the request and two more, within 5 a minute.
    const served = await embed(limited, ['a', 'b', 'c']);
    assert.equal(served.status, 200, JSON.stringify(served.json));
    assert.equal(embedCalls() - before, 3);
    // Three requests' worth of the window are spent; the next three-call batch no longer fits.
    assert.equal((await embed(limited, ['d', 'e', 'f'])).status, 429);
  });

  test("a provider 429 to one key's fan-out does not open the circuit other keys share", async () => {
    harness.simulator.enqueue({ fault: { type: 'status', status: 429, retryAfter: 30 } });
    const throttled = await embed(
      bursty,
      Array.from({ length: 8 }, (_, index) => `burst ${index}`),
    );
    assert.equal(throttled.status, 429, JSON.stringify(throttled.json));
    const other = await embed(bystander, ['an ordinary request']);
    assert.equal(other.status, 200, `another key is still served: ${JSON.stringify(other.json)}`);
  });
});
