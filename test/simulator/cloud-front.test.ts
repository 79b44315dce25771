import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { signAwsRequest } from '../../src/relay/channels/auth/aws-credentials.ts';
import { signAssertion } from '../../src/relay/channels/auth/google-service-account-token.ts';
import { VERTEX_TOKEN_PATH } from './cloud-front.ts';
import { startProviderSimulator, type ProviderSimulator } from './provider-simulator.ts';

/** The simulator's cloud front doors refuse what the real clouds refuse, in their words. */
const AWS_ACCESS_KEY = 'AKIAIOSFODNN7EXAMPLE';
const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const EMAIL = 'sa@sim.iam.gserviceaccount.com';
const trusted = generateKeyPairSync('rsa', { modulusLength: 2048 });
const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = (key: { export(options: { type: 'pkcs8' | 'spki'; format: 'pem' }): string | Buffer }, type: 'pkcs8' | 'spki') =>
  key.export({ type, format: 'pem' }).toString();

describe('cloud front doors', () => {
  let sim: ProviderSimulator;
  before(async () => {
    sim = await startProviderSimulator({
      clouds: {
        azure: { apiKey: 'azure-key' },
        vertex: { serviceAccounts: { [EMAIL]: pem(trusted.publicKey, 'spki') } },
        bedrock: { credentials: { [AWS_ACCESS_KEY]: AWS_SECRET } },
      },
    });
  });
  after(() => sim.close());

  const converseBody = JSON.stringify({ messages: [{ role: 'user', content: [{ text: 'hi' }] }] });
  const signedConverse = async (secret: string, body = converseBody, sentBody = body) => {
    const url = `${sim.url}/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse`;
    const headers = await signAwsRequest({
      url: new URL(url),
      headers: { 'content-type': 'application/json' },
      body,
      region: 'us-east-1',
      service: 'bedrock',
      credential: { kind: 'sigv4', accessKeyId: AWS_ACCESS_KEY, secretAccessKey: secret },
    });
    return fetch(url, { method: 'POST', headers, body: sentBody });
  };

  test('Bedrock accepts a correct SigV4 signature', async () => {
    const response = await signedConverse(AWS_SECRET);
    assert.equal(response.status, 200);
    const body = (await response.json()) as { output: { message: { content: Array<{ text?: string }> } }; stopReason: string };
    assert.equal(body.output.message.content[0]?.text, 'Hello from the simulator.');
    assert.equal(body.stopReason, 'end_turn');
  });

  test('Bedrock refuses a wrong secret and a tampered body with InvalidSignatureException', async () => {
    for (const response of [await signedConverse('not-the-secret'), await signedConverse(AWS_SECRET, converseBody, converseBody.replace('hi', 'ho'))]) {
      assert.equal(response.status, 403);
      assert.match(response.headers.get('x-amzn-errortype') ?? '', /^InvalidSignatureException:/);
      const body = (await response.json()) as { message: string };
      assert.match(body.message, /^The request signature we calculated does not match the signature you provided/);
    }
  });

  test('Bedrock refuses an unknown access key and a missing signature', async () => {
    const unknown = await fetch(`${sim.url}/model/m/converse`, {
      method: 'POST',
      headers: {
        authorization:
          'AWS4-HMAC-SHA256 Credential=AKIAUNKNOWNKEY000000/20260101/us-east-1/bedrock/aws4_request, SignedHeaders=host, Signature=' + '0'.repeat(64),
        'x-amz-date': '20260101T000000Z',
      },
      body: converseBody,
    });
    assert.equal(unknown.status, 403);
    assert.match(unknown.headers.get('x-amzn-errortype') ?? '', /^UnrecognizedClientException:/);
    const missing = await fetch(`${sim.url}/model/m/converse`, { method: 'POST', body: converseBody });
    assert.equal(missing.status, 403);
    assert.match(missing.headers.get('x-amzn-errortype') ?? '', /^MissingAuthenticationTokenException:/);
  });

  test('Bedrock names every model error only in x-amzn-errortype (scripted status, in-stream fault asked without a stream)', async () => {
    sim.enqueue({ fault: { type: 'status', status: 429 } });
    const throttled = await signedConverse(AWS_SECRET);
    assert.equal(throttled.status, 429);
    assert.equal(throttled.headers.get('x-amzn-errortype'), 'ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/');
    assert.deepEqual(await throttled.json(), { message: 'Too many requests, please wait before trying again.' });
    sim.enqueue({ fault: { type: 'error-mid-stream', afterChunks: 1 } });
    const unavailable = await signedConverse(AWS_SECRET);
    assert.equal(unavailable.status, 503);
    assert.match(unavailable.headers.get('x-amzn-errortype') ?? '', /^ServiceUnavailableException:/);
  });

  test('Vertex token endpoint verifies the JWT signature and audience; model calls need its token', async () => {
    const tokenUri = `${sim.url}${VERTEX_TOKEN_PATH}`;
    const mint = (privateKey: string, audience = tokenUri) =>
      fetch(tokenUri, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
          assertion: signAssertion({ clientEmail: EMAIL, privateKey, tokenUri: audience }, Math.floor(Date.now() / 1000)),
        }).toString(),
      });
    const forged = await mint(pem(stranger.privateKey, 'pkcs8'));
    assert.equal(forged.status, 400);
    assert.deepEqual(await forged.json(), { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
    const wrongAudience = await mint(pem(trusted.privateKey, 'pkcs8'), 'https://example.test/token');
    assert.equal(wrongAudience.status, 400);

    const path = '/v1/projects/p/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent';
    const body = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
    const refused = await fetch(`${sim.url}${path}`, { method: 'POST', headers: { authorization: 'Bearer ya29.made-up' }, body });
    assert.equal(refused.status, 401);
    assert.equal(((await refused.json()) as { error: { status: string } }).error.status, 'UNAUTHENTICATED');

    const minted = (await (await mint(pem(trusted.privateKey, 'pkcs8'))).json()) as { access_token: string; expires_in: number };
    assert.equal(minted.expires_in, 3600);
    const accepted = await fetch(`${sim.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${minted.access_token}` }, body });
    assert.equal(accepted.status, 200);
  });

  test('Vertex Claude requires anthropic_version in the body and no model', async () => {
    const token = (
      (await (
        await fetch(`${sim.url}${VERTEX_TOKEN_PATH}`, {
          method: 'POST',
          body: new URLSearchParams({
            grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
            assertion: signAssertion(
              { clientEmail: EMAIL, privateKey: pem(trusted.privateKey, 'pkcs8'), tokenUri: `${sim.url}${VERTEX_TOKEN_PATH}` },
              Math.floor(Date.now() / 1000),
            ),
          }).toString(),
        })
      ).json()) as { access_token: string }
    ).access_token;
    const path = '/v1/projects/p/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:rawPredict';
    const send = (body: unknown) => fetch(`${sim.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
    const messages = [{ role: 'user', content: 'hi' }];
    assert.equal((await send({ max_tokens: 10, messages })).status, 400);
    assert.equal((await send({ anthropic_version: 'vertex-2023-10-16', model: 'claude', max_tokens: 10, messages })).status, 400);
    assert.equal((await send({ anthropic_version: 'vertex-2023-10-16', max_tokens: 10, messages })).status, 200);
  });

  test('Azure checks api-key, then api-version', async () => {
    const path = '/openai/deployments/gpt-4o/chat/completions';
    const body = JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] });
    const wrongKey = await fetch(`${sim.url}${path}?api-version=2024-10-21`, { method: 'POST', headers: { 'api-key': 'nope' }, body });
    assert.equal(wrongKey.status, 401);
    const bearer = await fetch(`${sim.url}${path}?api-version=2024-10-21`, { method: 'POST', headers: { authorization: 'Bearer azure-key' }, body });
    assert.equal(bearer.status, 401);
    const noVersion = await fetch(`${sim.url}${path}`, { method: 'POST', headers: { 'api-key': 'azure-key' }, body });
    assert.equal(noVersion.status, 404);
    const badVersion = await fetch(`${sim.url}${path}?api-version=2019-01-01`, { method: 'POST', headers: { 'api-key': 'azure-key' }, body });
    assert.equal(badVersion.status, 400);
    const ok = await fetch(`${sim.url}${path}?api-version=2024-10-21`, { method: 'POST', headers: { 'api-key': 'azure-key' }, body });
    assert.equal(ok.status, 200);
    assert.equal(((await ok.json()) as { model: string }).model, 'gpt-4o');
  });
});
