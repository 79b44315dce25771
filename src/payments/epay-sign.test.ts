import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { epaySign, epaySignatureValid, minorToMoney, moneyToMinor } from './epay-sign.ts';

test('the Epay signature: sorted non-empty parameters without sign and sign_type, the key appended, MD5 hex', () => {
  const params = { pid: '1001', type: 'alipay', out_trade_no: 'ord_1', money: '72.00', name: 'Top-up', empty: '', sign: 'x', sign_type: 'MD5' };
  const expected = createHash('md5').update('money=72.00&name=Top-up&out_trade_no=ord_1&pid=1001&type=alipayKEY').digest('hex');
  assert.equal(epaySign(params, 'KEY'), expected);
  assert.equal(epaySignatureValid({ ...params, sign: expected }, 'KEY'), true);
  assert.equal(epaySignatureValid({ ...params, sign: expected.toUpperCase() }, 'KEY'), true);
  assert.equal(epaySignatureValid({ ...params, sign: expected }, 'OTHER'), false);
  assert.equal(epaySignatureValid({ ...params, money: '0.01', sign: expected }, 'KEY'), false);
  assert.equal(epaySignatureValid({ ...params, sign: '' }, 'KEY'), false);
});

test('money in yuan and minor units convert exactly both ways; malformed amounts are undefined', () => {
  assert.equal(minorToMoney(7200), '72.00');
  assert.equal(minorToMoney(5), '0.05');
  assert.equal(moneyToMinor('72.00'), 7200);
  assert.equal(moneyToMinor('0.1'), 10);
  assert.equal(moneyToMinor('3'), 300);
  for (const bad of ['', '1.234', '-1.00', '1e3', 'abc', undefined]) assert.equal(moneyToMinor(bad), undefined, String(bad));
});
