import { test } from 'node:test';
import assert from 'node:assert/strict';
import { acceptedRatio, nearestAspectRatio } from '../shared/aspect-ratio.ts';
import { decodeImagenReply, encodeImagenRequest, IMAGEN_ASPECT_RATIOS } from '../imagen-predict/index.ts';
import { asksForImages, decodeGeminiImageReply, decodeGeminiImageRequest, encodeGeminiImageRequest, GEMINI_IMAGE_ASPECT_RATIOS } from './index.ts';

test('a size becomes the nearest aspect ratio the wire takes; auto leaves it to the upstream', () => {
  assert.equal(nearestAspectRatio('1536x1024', GEMINI_IMAGE_ASPECT_RATIOS), '3:2');
  assert.equal(nearestAspectRatio('1792x1024', GEMINI_IMAGE_ASPECT_RATIOS), '16:9');
  assert.equal(nearestAspectRatio('1536x1024', IMAGEN_ASPECT_RATIOS), '4:3');
  assert.equal(nearestAspectRatio('1024x1792', IMAGEN_ASPECT_RATIOS), '9:16');
  assert.equal(nearestAspectRatio('auto', IMAGEN_ASPECT_RATIOS), undefined);
  assert.equal(nearestAspectRatio('0x10', IMAGEN_ASPECT_RATIOS), undefined);
  // A ratio Imagen lacks (Gemini's 21:9) is the nearest one it has.
  assert.equal(acceptedRatio('21:9', IMAGEN_ASPECT_RATIOS), '16:9');
  assert.equal(acceptedRatio('21:9', GEMINI_IMAGE_ASPECT_RATIOS), '21:9');
});

test('what Gemini and Imagen cannot carry is undefined: more than one Gemini image, more than four from Imagen', () => {
  const request = { model: 'm', prompt: 'p', n: 2, size: 'auto', quality: 'auto', stream: false, body: {} };
  assert.equal(encodeGeminiImageRequest(request), undefined);
  assert.deepEqual(encodeImagenRequest(request), { instances: [{ prompt: 'p' }], parameters: { sampleCount: 2 } });
  assert.equal(encodeImagenRequest({ ...request, n: 5 }), undefined);
});

test('a Gemini image reply: inlineData parts are images, thoughts skipped, candidates tokens are image tokens when no details', () => {
  const result = decodeGeminiImageReply(
    {
      candidates: [
        {
          content: {
            parts: [{ text: 'thinking', thought: true }, { text: 'Here.' }, { inline_data: { mime_type: 'image/jpeg', data: 'AAAA' } }],
          },
        },
      ],
      usageMetadata: { promptTokenCount: 7, candidatesTokenCount: 1290 },
    },
    5,
  );
  assert.deepEqual(result.images, [{ b64: 'AAAA', mimeType: 'image/jpeg' }]);
  assert.equal(result.text, 'Here.');
  assert.deepEqual(result.facts, { count: 1, size: undefined, quality: undefined, textInputTokens: 7, imageInputTokens: undefined, outputTokens: 1290 });
});

test("a Gemini client's image request, snake_case too: the last user turn's text, candidateCount, the aspect ratio kept", () => {
  const body = {
    contents: [
      { role: 'user', parts: [{ text: 'a cat' }] },
      { role: 'model', parts: [{ text: 'ok' }] },
      { role: 'user', parts: [{ text: 'now a dog' }] },
    ],
    generation_config: { response_modalities: ['image'], candidate_count: 2, image_config: { aspect_ratio: '9:16' } },
  };
  assert.equal(asksForImages(body), true);
  assert.equal(asksForImages({ contents: [], generationConfig: { responseModalities: ['TEXT'] } }), false);
  const decoded = decodeGeminiImageRequest(body, 'm');
  assert.equal(decoded.request.prompt, 'now a dog');
  assert.equal(decoded.request.n, 2);
  assert.equal(decoded.request.size, 'auto');
  assert.equal(decoded.request.aspectRatio, '9:16');
  assert.equal(decoded.hasImageInput, false);
  assert.equal(decoded.native, body);
  assert.throws(() => decodeGeminiImageRequest({ contents: [{ role: 'user', parts: [{ inlineData: { data: 'x' } }] }] }, 'm'), /needs text/);
});

test('Imagen: a prediction filtered by Responsible AI is not an image', () => {
  const result = decodeImagenReply({ predictions: [{ bytesBase64Encoded: 'QQ==', mimeType: 'image/png' }, { raiFilteredReason: 'blocked' }] }, 1);
  assert.equal(result.facts.count, 1);
  assert.deepEqual(result.images, [{ b64: 'QQ==', mimeType: 'image/png' }]);
});
