import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { en } from '../../console/src/i18n/en.ts';
import { pickLanguage, matchLanguage } from '../../console/src/i18n/language.ts';
import { zhCN } from '../../console/src/i18n/zh-CN.ts';
import { hardCodedStrings, tsxFiles, usedKeys } from './hard-coded-strings.ts';

const CONSOLE_SOURCE = fileURLToPath(new URL('../../console/src/', import.meta.url));

/**
 * Pages not yet moved onto the catalogue (paths below console/src/). Every page on main is
 * converted, so it is empty; a page merged before its conversion may be listed here for a while.
 * The test fails when a listed file has become clean, so the list only ever shrinks.
 */
const NOT_YET_CONVERTED = new Set<string>([]);

type Tree = { [key: string]: string | Tree };
function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const flat = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === 'string') flat.set(`${prefix}${key}`, value);
    else for (const [inner, text] of flatten(value, `${prefix}${key}.`)) flat.set(inner, text);
  }
  return flat;
}

const english = flatten(en);
const chinese = flatten(zhCN as Tree);

test('the English and Chinese catalogues have exactly the same keys, none empty', () => {
  assert.deepEqual(
    [...chinese.keys()].filter((key) => !english.has(key)),
    [],
    'keys only in zh-CN',
  );
  assert.deepEqual(
    [...english.keys()].filter((key) => !chinese.has(key)),
    [],
    'keys only in en',
  );
  for (const [key, text] of [...english, ...chinese]) assert.notEqual(text.trim(), '', `${key} is empty`);
});

test('every {{value}} an English message takes, its Chinese message takes too', () => {
  const values = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]).sort();
  for (const [key, text] of english) assert.deepEqual(values(chinese.get(key) ?? ''), values(text), key);
});

test('the Chinese catalogue is written in Chinese, not copied English', () => {
  const untranslated = [...chinese].filter(([key, text]) => text === english.get(key) && /[A-Za-z]{3,}/.test(text.replace(/\{\{\w+\}\}/g, '')));
  assert.deepEqual(untranslated, []);
});

test('every key a page passes to t() is in the catalogue (a plural key by its _one/_other forms)', () => {
  const missing = usedKeys(tsxFiles(CONSOLE_SOURCE))
    .filter(({ key }) => !english.has(key) && !(english.has(`${key}_one`) && english.has(`${key}_other`)))
    .map(({ file, key }) => `${file.slice(CONSOLE_SOURCE.length)}: ${key}`);
  assert.deepEqual(missing, []);
});

test('no console page or component shows a hard-coded word (everything goes through t())', () => {
  const findings = tsxFiles(CONSOLE_SOURCE).flatMap((file) => hardCodedStrings(file, CONSOLE_SOURCE));
  const outside = findings.filter((finding) => !NOT_YET_CONVERTED.has(finding.file));
  assert.deepEqual(
    outside.map((finding) => `${finding.file}:${finding.line} ${JSON.stringify(finding.text)}`),
    [],
  );
  for (const file of NOT_YET_CONVERTED) {
    assert.ok(
      findings.some((finding) => finding.file === file),
      `${file} is clean now: take it off NOT_YET_CONVERTED`,
    );
  }
});

test('the scan sees the kinds of hard-coded words it is there to catch', () => {
  // A fixture beside this test: text, attributes and literals in children, and the allowed forms.
  const fixture = fileURLToPath(new URL('./i18n-scan-fixture.tsx.txt', import.meta.url));
  const texts = hardCodedStrings(fixture, fileURLToPath(new URL('./', import.meta.url))).map((finding) => finding.text);
  assert.deepEqual(texts, ['Plain words', 'Search keys', 'Saving…', 'Ready', 'Used by keys']);
});

test('language choice: ?lang first, then the saved choice, then the browser’s languages, then English', () => {
  assert.equal(pickLanguage({ query: 'zh-CN', saved: 'en', accepted: ['en-US'] }), 'zh-CN');
  assert.equal(pickLanguage({ query: 'en', saved: 'zh-CN', accepted: ['zh-CN'] }), 'en');
  assert.equal(pickLanguage({ query: null, saved: 'zh-CN', accepted: ['en-US'] }), 'zh-CN');
  assert.equal(pickLanguage({ query: 'klingon', saved: null, accepted: ['fr-FR', 'zh-Hans-CN', 'en'] }), 'zh-CN');
  assert.equal(pickLanguage({ query: null, saved: null, accepted: ['fr-FR', 'de'] }), 'en');
  assert.equal(matchLanguage('zh-TW'), null, 'Traditional Chinese readers are not handed Simplified by guess');
  assert.equal(matchLanguage('ZH-cn'), 'zh-CN');
});
