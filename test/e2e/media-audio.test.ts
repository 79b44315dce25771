import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI, { toFile } from 'openai';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';

/**
 * Image edits and audio from the official OpenAI SDK through the same keys, groups and bills as
 * text, to OpenAI-compatible and Azure channels in the strict simulator (which checks the multipart
 * framing the gateway re-frames): priced per image token, per character of speech, per second or
 * audio token of transcription, to the micro-USD.
 */
const AZURE_KEY = 'azure-resource-key-0123456789abcdef';

/** A real 16 kHz mono 16-bit PCM WAV of `seconds` seconds (a 440 Hz tone). */
function makeWav(seconds: number): Buffer {
  const rate = 16_000;
  const samples = rate * seconds;
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write('RIFF', 0);
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write('WAVEfmt ', 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36);
  wav.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i += 1) wav.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 8000), 44 + i * 2);
  return wav;
}

const PNG = (seed: string) => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(2048, seed)]);

describe('image edits and audio through the OpenAI SDK', () => {
  let harness: Harness;
  let keyId: string;
  let openai: OpenAI;
  let dir: string;

  before(async () => {
    harness = await startHarness({}, { clouds: { azure: { apiKey: AZURE_KEY } } });
    const sim = harness.simulator.url;
    await harness.addChannel({
      provider: 'openai',
      models: ['edit-tokens', 'tts', 'stt', 'stt-tokens', 'translate'],
      modelMap: { 'edit-tokens': 'gpt-image-1', tts: 'tts-1', stt: 'whisper-1', 'stt-tokens': 'gpt-4o-transcribe', translate: 'whisper-1' },
    });
    await harness.addChannel({
      provider: 'azure',
      baseUrl: sim,
      apiKey: AZURE_KEY,
      models: ['edit-azure', 'stt-azure', 'tts-azure'],
      modelMap: { 'edit-azure': 'dall-e-2', 'stt-azure': 'whisper-1', 'tts-azure': 'tts-1' },
    });
    // gpt-image-1: $5/M text input, $10/M image input, $40/M image output.
    await harness.admin('POST', '/prices', { model: 'edit-tokens', input: 5, output: 0, imageInput: 10, imageOutput: 40 });
    await harness.admin('POST', '/prices', { model: 'edit-azure', input: 0, output: 0, perImage: { '512x512': { standard: 0.018 } } });
    // tts-1: $15 per million characters. whisper-1: $0.006 per minute = $0.0001 per second.
    for (const model of ['tts', 'tts-azure']) await harness.admin('POST', '/prices', { model, input: 0, output: 0, perMillionCharacters: 15 });
    for (const model of ['stt', 'stt-azure', 'translate']) await harness.admin('POST', '/prices', { model, input: 0, output: 0, perSecond: 0.0001 });
    // gpt-4o-transcribe: $2.50/M text input, $10/M text output, $6/M audio input.
    await harness.admin('POST', '/prices', { model: 'stt-tokens', input: 2.5, output: 10, audioInput: 6 });
    let key: string;
    ({ key, id: keyId } = await harness.addKey({ balance: 10 }));
    openai = new OpenAI({ baseURL: `${harness.url}/v1`, apiKey: key, maxRetries: 0 });
    dir = await mkdtemp(join(tmpdir(), 'switchyard-media-test-'));
  });
  after(async () => {
    await harness.close();
    await rm(dir, { recursive: true, force: true });
  });

  const lastLog = async () => (await harness.admin('GET', `/logs?key=${keyId}&limit=1`)).data[0];
  const lastUpstream = () => harness.simulator.lastRequest()!;

  test('images.edit with an image and a mask: the files reach the upstream byte for byte, billed by image tokens', async () => {
    const image = PNG('a');
    const mask = PNG('m');
    const prompt = 'add a red door';
    const reply = await openai.images.edit({
      model: 'edit-tokens',
      image: await toFile(image, 'house.png', { type: 'image/png' }),
      mask: await toFile(mask, 'mask.png', { type: 'image/png' }),
      prompt,
      size: '1024x1024',
      quality: 'low',
    });
    assert.equal(reply.data?.length, 1);
    const upstream = lastUpstream();
    assert.equal(upstream.path, '/v1/images/edits');
    const form = upstream.body as { fields: Record<string, string[]>; files: { name: string; data: Buffer }[] };
    assert.deepEqual(form.fields.model, ['gpt-image-1']);
    const names = form.files.map((file) => `${file.name}:${file.data.length}`).join(', ');
    assert.ok(form.files.find((file) => file.name === 'image' || file.name === 'image[]')?.data.equals(image), names);
    assert.ok(form.files.find((file) => file.name === 'mask')?.data.equals(mask), names);
    const imageTokens = 256 + Math.ceil(image.length / 1024);
    const textTokens = Math.ceil(prompt.length / 4);
    assert.equal(reply.usage?.input_tokens_details.image_tokens, imageTokens);
    const row = await lastLog();
    assert.equal(row.status, 200);
    // Text input at $5/M, image input at $10/M, 272 image output tokens at $40/M (micro-USD: tokens × USD/M).
    assert.equal(row.costMicros, textTokens * 5 + imageTokens * 10 + 272 * 40);
  });

  test('images.edit to Azure (per deployment, per image by size), b64_json', async () => {
    const reply = await openai.images.edit({
      model: 'edit-azure',
      image: await toFile(PNG('z'), 'cat.png', { type: 'image/png' }),
      prompt: 'a hat',
      size: '512x512',
      n: 2,
      response_format: 'b64_json',
    });
    assert.equal(reply.data?.length, 2);
    assert.match(lastUpstream().path, /^\/openai\/deployments\/dall-e-2\/images\/edits$/);
    assert.equal((await lastLog()).costMicros, 2 * 18_000);
  });

  test('an edit the upstream refuses (a mask that is not a PNG) comes back as its 400, unbilled', async () => {
    const refused = await openai.images
      .edit({ model: 'edit-tokens', image: await toFile(PNG('a'), 'a.png'), mask: await toFile(Buffer.from('GIF89a...'), 'mask.gif'), prompt: 'x' })
      .catch((error: unknown) => error);
    assert.ok(refused instanceof OpenAI.BadRequestError, String(refused));
    assert.match(refused.message, /mask/);
    assert.equal((await lastLog()).costMicros, 0);
  });

  for (const model of ['tts', 'tts-azure']) {
    test(`${model}: audio.speech.create streamed to a file, billed per character`, async () => {
      const input = 'The quick brown fox jumps over the lazy dog.';
      const response = await openai.audio.speech.create({ model, voice: 'alloy', input });
      assert.equal(response.headers.get('content-type'), 'audio/mpeg');
      const path = join(dir, `${model}.mp3`);
      const chunks: Buffer[] = [];
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) chunks.push(Buffer.from(chunk));
      await writeFile(path, Buffer.concat(chunks));
      assert.equal((await readFile(path)).length, 4 * 32);
      assert.ok(chunks.length >= 2, 'the audio arrives in more than one chunk');
      const row = await lastLog();
      assert.equal(row.status, 200);
      assert.equal(row.costMicros, Math.round(input.length * 15));
    });
  }

  for (const model of ['stt', 'stt-azure']) {
    test(`${model}: audio.transcriptions.create with a WAV the test made, billed per second`, async () => {
      const wav = makeWav(3);
      const reply = await openai.audio.transcriptions.create({ model, file: await toFile(wav, 'tone.wav', { type: 'audio/wav' }) });
      assert.match(reply.text, /Transcribed 3\.00 seconds of tone\.wav/);
      const form = lastUpstream().body as { files: { data: Buffer }[] };
      assert.ok(form.files[0]!.data.equals(wav));
      assert.equal((await lastLog()).costMicros, 3 * 100);
    });
  }

  test("a transcript as plain text is billed by the WAV's own duration", async () => {
    const text = await openai.audio.transcriptions.create({ model: 'stt', file: await toFile(makeWav(2), 'two.wav'), response_format: 'text' });
    assert.match(String(text), /Transcribed 2\.00 seconds/);
    assert.equal((await lastLog()).costMicros, 2 * 100);
  });

  test('gpt-4o transcription is billed by its audio tokens and text tokens', async () => {
    const reply = await openai.audio.transcriptions.create({ model: 'stt-tokens', file: await toFile(makeWav(4), 'four.wav') });
    const usage = reply.usage as { input_token_details: { audio_tokens: number }; output_tokens: number };
    assert.equal(usage.input_token_details.audio_tokens, 40);
    assert.equal((await lastLog()).costMicros, Math.round(40 * 6 + usage.output_tokens * 10));
  });

  test('audio.translations.create', async () => {
    const reply = await openai.audio.translations.create({ model: 'translate', file: await toFile(makeWav(1), 'one.wav') });
    assert.match(reply.text, /Translated 1\.00 seconds/);
    assert.equal(lastUpstream().path, '/v1/audio/translations');
    assert.equal((await lastLog()).costMicros, 100);
  });

  test("an upload over 25 MiB is answered 413 in OpenAI's shape after the body is drained, not a reset", async () => {
    const before = harness.simulator.requests.length;
    const big = Buffer.alloc(25 * 1_048_576 + 1024);
    const refused = await openai.audio.transcriptions.create({ model: 'stt', file: await toFile(big, 'big.wav') }).catch((error: unknown) => error);
    assert.ok(refused instanceof OpenAI.APIError, String(refused));
    assert.equal(refused.status, 413);
    assert.match(refused.message, /larger than the 26214400-byte limit/);
    assert.equal(harness.simulator.requests.length, before);
  });

  test('refusals before the upstream: no file, no model, not multipart', async () => {
    const noModel = await fetch(`${harness.url}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${(await harness.addKey({ balance: 1 })).key}` },
      body: (() => {
        const form = new FormData();
        form.append('file', new Blob([makeWav(1)]), 'a.wav');
        return form;
      })(),
    });
    assert.equal(noModel.status, 400);
    assert.equal(((await noModel.json()) as { error: { param: string } }).error.param, 'model');
    const json = await openai.post('/audio/transcriptions', { body: { model: 'stt' } }).catch((error: unknown) => error);
    assert.ok(json instanceof OpenAI.BadRequestError);
    assert.match(json.message, /multipart\/form-data/);
  });
});
