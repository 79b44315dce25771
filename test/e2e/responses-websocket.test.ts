import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import WebSocket from 'ws';
import { captureLogLines } from '../helpers/capture-log-lines.ts';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';
import { createMemoryKv } from '../../src/kv/create-memory-kv.ts';
import { outputText, SdkResponsesSocket } from '../helpers/responses-socket.ts';
import { waitFor } from '../helpers/wait-for.ts';

type Json = Record<string, any>;

const BEDROCK_KEY = 'bedrock-api-key-for-tests';

/**
 * Responses over WebSocket (OpenAI's WebSocket mode) through the official openai SDK's
 * `ResponsesWS`, on every upstream kind: each `response.create` is one generation through the
 * pipeline (its own usage row, transport `websocket`), `previous_response_id` continues a chain
 * within the socket under `store: false`, a cut socket aborts the upstream and bills what was
 * delivered, and a key over its socket cap (or a gateway with the mode off) gets 426.
 */
const UPSTREAMS = [
  { name: 'openai', model: 'ws-openai', channel: { provider: 'openai', supportsResponses: true, modelMap: { 'ws-openai': 'gpt-5' } } },
  { name: 'anthropic', model: 'ws-anthropic', channel: { provider: 'anthropic', modelMap: { 'ws-anthropic': 'claude-sonnet-4-6' } } },
  { name: 'gemini', model: 'ws-gemini', channel: { provider: 'gemini', modelMap: { 'ws-gemini': 'gemini-2.5-flash' } } },
  {
    name: 'bedrock',
    model: 'ws-bedrock',
    channel: { provider: 'bedrock', region: 'us-west-2', apiKey: BEDROCK_KEY, modelMap: { 'ws-bedrock': 'us.amazon.nova-pro-v1:0' } },
  },
] as const;

const WEATHER_TOOL = {
  type: 'function',
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  strict: false,
} as const;

describe('Responses over WebSocket through the openai SDK', { concurrency: false }, () => {
  let harness: Harness;
  let key: { id: string; key: string };
  const capture = captureLogLines();
  const logLines = capture.lines;

  before(async () => {
    harness = await startHarness(
      { logger: capture.logger, responsesWebSocket: { maxPerKey: 2 } },
      { clouds: { bedrock: { credentials: {}, apiKeys: [BEDROCK_KEY] } } },
    );
    for (const upstream of UPSTREAMS) {
      await harness.addChannel({ ...upstream.channel, ...(upstream.name === 'bedrock' ? { baseUrl: harness.simulator.url } : {}), models: [upstream.model] });
    }
    key = await harness.addKey();
  });
  after(() => harness.close());

  const socket = () => new SdkResponsesSocket(`${harness.url}/v1`, key.key);
  const rows = async (): Promise<Json[]> => (await harness.admin('GET', `/logs?key=${key.id}&limit=100`)).data;

  for (const upstream of UPSTREAMS) {
    test(`${upstream.name}: a plain turn, then a tool loop over one socket with previous_response_id and store:false`, async () => {
      const client = socket();
      try {
        harness.simulator.enqueue({ text: 'The capital of France is Paris.' });
        const plain = await client.turn({ model: upstream.model, input: 'Capital of France?', store: false });
        assert.equal(plain.error, undefined, JSON.stringify(plain.error));
        assert.equal(outputText(plain.response), 'The capital of France is Paris.');
        assert.equal(plain.events[0]?.type, 'response.created');

        harness.simulator.enqueue({ toolCalls: [{ id: 'call_weather_1', name: 'get_weather', arguments: { city: 'Paris' } }] });
        const call = await client.turn({
          model: upstream.model,
          input: 'And the weather there?',
          tools: [WEATHER_TOOL],
          store: false,
          previous_response_id: plain.response?.id,
        });
        assert.equal(call.error, undefined, JSON.stringify(call.error));
        const functionCall = (call.response?.output as Json[]).find((item) => item.type === 'function_call');
        assert.ok(functionCall, 'the model called the tool');
        assert.equal(functionCall.name, 'get_weather');
        // The chain reached the upstream whole: the socket replayed the first turn.
        const second = harness.simulator.requests.filter((request) => request.endpoint === 'generate').at(-1)!;
        assert.match(second.rawBody, /Capital of France\?/);
        assert.match(second.rawBody, /The capital of France is Paris\./);

        harness.simulator.enqueue({ text: 'Sunny, 21 °C in Paris.' });
        const answer = await client.turn({
          model: upstream.model,
          input: [{ type: 'function_call_output', call_id: functionCall.call_id, output: '{"sky":"sunny","celsius":21}' }],
          tools: [WEATHER_TOOL],
          store: false,
          previous_response_id: call.response?.id,
        });
        assert.equal(answer.error, undefined, JSON.stringify(answer.error));
        assert.equal(outputText(answer.response), 'Sunny, 21 °C in Paris.');
        const third = harness.simulator.requests.filter((request) => request.endpoint === 'generate').at(-1)!;
        assert.match(third.rawBody, /get_weather/);
        assert.match(third.rawBody, /sunny/);

        // Each turn is its own usage row: Responses protocol, WebSocket transport, billed.
        const turnRows = (await rows()).filter((row) => row.model === upstream.model);
        assert.equal(turnRows.length, 3, JSON.stringify(turnRows));
        for (const row of turnRows) {
          assert.equal(row.clientProtocol, 'openai-responses');
          assert.equal(row.transport, 'websocket');
          assert.equal(row.status, 200);
          assert.ok(row.inputTokens > 0);
        }
      } finally {
        client.close();
      }
    });
  }

  test('the access log has one line for the upgrade (101) and each turn its own line, never a plain POST', async () => {
    const upgrades = logLines.filter((line) => line.msg === 'request' && line.status === 101);
    assert.ok(upgrades.length >= UPSTREAMS.length, `one 101 line per socket: ${JSON.stringify(upgrades)}`);
    assert.ok(upgrades.every((line) => line.method === 'GET' && line.path === '/v1/responses' && line.transport === 'websocket'));
    const turns = logLines.filter((line) => line.msg === 'request' && line.transport === 'websocket' && line.status === 200);
    assert.ok(turns.length >= UPSTREAMS.length * 3);
    assert.ok(
      turns.every((line) => line.method === 'WS'),
      'a socket turn is never logged as a POST',
    );
  });

  test('generate:false warm-up is answered without an upstream call or a charge, and continues', async () => {
    const client = socket();
    try {
      const before = harness.simulator.requests.length;
      const rowsBefore = (await rows()).length;
      const warm = await client.turn({ model: 'ws-anthropic', input: 'You are in a repository.', instructions: 'Be brief.', generate: false, store: false });
      assert.equal(warm.error, undefined, JSON.stringify(warm.error));
      assert.match(warm.response?.id, /^resp_/);
      assert.deepEqual(warm.response?.output, []);
      assert.equal(harness.simulator.requests.length, before, 'no upstream call');
      assert.equal((await rows()).length, rowsBefore, 'no usage row, no charge');

      harness.simulator.enqueue({ text: 'Ready.' });
      const next = await client.turn({ model: 'ws-anthropic', input: 'Start.', previous_response_id: warm.response?.id, store: false });
      assert.equal(outputText(next.response), 'Ready.');
      assert.match(harness.simulator.requests.at(-1)!.rawBody, /You are in a repository\./, 'the warm-up input was carried into the turn');
    } finally {
      client.close();
    }
  });

  for (const upstream of UPSTREAMS) {
    test(`${upstream.name}: a cut socket aborts the upstream and bills what was delivered`, async () => {
      const client = socket();
      harness.simulator.enqueue({ text: Array.from({ length: 200 }, (_, index) => `word${index}`).join(' '), chunkDelayMs: 20 });
      let deltas = 0;
      const turn = client.turn(
        { model: upstream.model, input: 'Count slowly.', store: false },
        {
          onEvent: (event) => {
            if (event.type === 'response.output_text.delta') {
              deltas += 1;
              if (deltas === 5) client.ws.socket.close();
            }
          },
          timeoutMs: 2_000,
        },
      );
      await assert.rejects(turn);
      await waitFor(async () => (await rows()).some((row) => row.model === upstream.model && row.errorCode !== null), 'the cut turn is recorded');
      const row = (await rows()).find((candidate) => candidate.model === upstream.model && candidate.errorCode !== null)!;
      assert.equal(row.transport, 'websocket');
      assert.ok(row.outputTokens > 0 && row.outputTokens < 200, `billed what was delivered: ${row.outputTokens}`);
      assert.ok(row.costMicros >= 0);
    });
  }

  test('a key at its socket cap gets 426 with a body saying to use HTTP; a freed slot opens again', async () => {
    const first = socket();
    const second = socket();
    try {
      harness.simulator.enqueue({ text: 'one' });
      harness.simulator.enqueue({ text: 'two' });
      await first.turn({ model: 'ws-openai', input: 'hi', store: false });
      await second.turn({ model: 'ws-openai', input: 'hi', store: false });
      const refused = await rawUpgrade(harness.url, key.key);
      assert.equal(refused.status, 426);
      assert.equal(refused.body.error.code, 'websocket_unavailable');
      assert.match(refused.body.error.message, /POST \/v1\/responses/);
      assert.ok(logLines.some((line) => line.status === 426 && line.transport === 'websocket'));
    } finally {
      first.close();
      second.close();
    }
    await waitFor(async () => (await rawUpgrade(harness.url, key.key)).status === 101, 'a slot frees when a socket closes');
  });

  test('upgrades are authenticated like a POST: no key or a wrong key is a 401 in OpenAI shape', async () => {
    const refused = await rawUpgrade(harness.url, 'sk-not-a-key');
    assert.equal(refused.status, 401);
    assert.equal(refused.body.error.code, 'invalid_api_key');
  });

  test('bad messages get an error event and the socket stays usable', async () => {
    const client = socket();
    try {
      const wrong = await client.turn({ model: 'ws-anthropic', input: 'x', background: true });
      assert.equal(wrong.error?.status, 400);
      assert.equal(wrong.error?.error?.param, 'background');
      const unknown = await client.turn({ model: 'no-such-model', input: 'x' });
      assert.equal(unknown.error?.status, 404);
      harness.simulator.enqueue({ text: 'still here' });
      const fine = await client.turn({ model: 'ws-anthropic', input: 'x', store: false });
      assert.equal(outputText(fine.response), 'still here');
    } finally {
      client.close();
    }
  });
});

describe('Responses over WebSocket turned off', () => {
  test('RESPONSES_WEBSOCKET=false answers the upgrade with 426 and a body saying to use HTTP', async () => {
    const harness = await startHarness({ responsesWebSocket: { enabled: false } });
    try {
      const { key } = await harness.addKey();
      const refused = await rawUpgrade(harness.url, key);
      assert.equal(refused.status, 426);
      assert.equal(refused.body.error.code, 'websocket_unavailable');
      assert.match(refused.body.error.message, /use HTTP: POST \/v1\/responses/);
    } finally {
      await harness.close();
    }
  });
});

describe('Responses WebSocket limits', () => {
  test('the per-key cap holds across instances sharing the counters', async () => {
    const kv = createMemoryKv();
    const one = await startHarness({ kv, responsesWebSocket: { maxPerKey: 1 } });
    try {
      const { key } = await one.addKey();
      // A second instance on the same database and counters (as behind a load balancer with Redis).
      const two = await startHarness({ kv, responsesWebSocket: { maxPerKey: 1 }, databaseUrl: `sqlite:${one.databasePath}` });
      try {
        const held = new WebSocket(`${one.url.replace('http', 'ws')}/v1/responses`, { headers: { authorization: `Bearer ${key}` } });
        await new Promise((resolve) => held.once('open', resolve));
        assert.equal((await rawUpgrade(two.url, key)).status, 426, 'the other instance sees the open socket');
        held.close();
        await waitFor(async () => (await rawUpgrade(two.url, key)).status === 101, 'the slot is free on every instance once closed');
      } finally {
        await two.close();
      }
    } finally {
      await one.close();
    }
  });

  test('an idle socket is closed (1000), a message over BODY_LIMIT_BYTES closes it with 1009', async () => {
    const harness = await startHarness({ responsesWebSocket: { idleMs: 150, pingMs: 50 }, bodyLimitBytes: 4096 });
    try {
      const { key } = await harness.addKey();
      const open = async () => {
        const ws = new WebSocket(`${harness.url.replace('http', 'ws')}/v1/responses`, { headers: { authorization: `Bearer ${key}` } });
        await new Promise((resolve) => ws.once('open', resolve));
        return ws;
      };
      const closed = (ws: WebSocket) => new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
      const idle = await open();
      assert.equal(await closed(idle), 1000);
      const big = await open();
      const bigClosed = closed(big);
      big.send(JSON.stringify({ type: 'response.create', model: 'x', input: 'x'.repeat(10_000) }));
      assert.equal(await bigClosed, 1009);
    } finally {
      await harness.close();
    }
  });
});

/** An upgrade with the `ws` client: the status, and the body of a refusal. */
async function rawUpgrade(base: string, apiKey: string): Promise<{ status: number; body: Json }> {
  const ws = new WebSocket(`${base.replace('http', 'ws')}/v1/responses`, { headers: { authorization: `Bearer ${apiKey}` } });
  return new Promise((resolve, reject) => {
    ws.on('open', () => {
      ws.close();
      resolve({ status: 101, body: {} });
    });
    ws.on('unexpected-response', (_request, response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text === '' ? {} : JSON.parse(text) }));
    });
    ws.on('error', (error) => {
      if (!String(error.message).includes('Unexpected server response')) reject(error);
    });
  });
}
