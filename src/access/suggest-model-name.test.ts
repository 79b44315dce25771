import assert from 'node:assert/strict';
import { test } from 'node:test';
import { suggestModelName } from './suggest-model-name.ts';

const AVAILABLE = ['gpt-4o-mini', 'claude-sonnet-4-5', 'meta-llama/llama-3-8b'];

test('each hint is whole sentences: a capital first, a full stop or question mark last', () => {
  assert.equal(suggestModelName('gpt-4o-mini ', AVAILABLE), 'Did you mean "gpt-4o-mini"? The name has a trailing space.');
  assert.equal(suggestModelName('GPT-4o-mini', AVAILABLE), 'Did you mean "gpt-4o-mini"? Model names are case-sensitive.');
  assert.equal(suggestModelName('gpt-4o-minu', AVAILABLE), 'Did you mean "gpt-4o-mini"?');
});

test('a vendor prefix (the OpenRouter and LiteLLM habit) is named as the difference', () => {
  assert.equal(suggestModelName('openai/gpt-4o-mini', AVAILABLE), 'Did you mean "gpt-4o-mini"? This gateway names the model without the "openai/" prefix.');
  assert.equal(
    suggestModelName('anthropic/Claude-Sonnet-4-5', AVAILABLE),
    'Did you mean "claude-sonnet-4-5"? This gateway names the model without the "anthropic/" prefix.',
  );
  // A gateway that names models `org/model` itself: a near miss is still a typo, not a prefix.
  assert.equal(suggestModelName('meta-llama/llama-3-8c', AVAILABLE), 'Did you mean "meta-llama/llama-3-8b"?');
  assert.equal(suggestModelName('openai/nothing-like-it', AVAILABLE), undefined);
});
