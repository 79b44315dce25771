import type { Catalogue } from './en.ts';
import { zhCNCommon } from './zh-CN-common.ts';
import { zhCNPortal } from './zh-CN-portal.ts';
import { zhCNAdmin } from './zh-CN-admin.ts';
import { zhCNBusiness } from './zh-CN-business.ts';
import { zhCNRecords } from './zh-CN-records.ts';
import { zhCNPayments } from './zh-CN-payments.ts';
import { zhCNSecurity } from './zh-CN-security.ts';
import { zhCNMoney } from './zh-CN-money.ts';
import { zhCNCheck } from './zh-CN-check.ts';

/**
 * 简体中文目录：与 en.ts 键完全相同。术语沿用运营者惯用译法：渠道 channel、分组 group、
 * 密钥 key、额度 quota、钱包 wallet、订阅 subscription、兑换码 redemption code、用量 usage、
 * 订单 order、充值 top up、退款 refund、毛利 margin、邀请 invite、返利 rebate。
 * 中文没有单复数之分，`_one` 与 `_other` 写同一句。
 */
export const zhCN: Catalogue = { ...zhCNCommon, ...zhCNPortal, ...zhCNAdmin, ...zhCNBusiness, ...zhCNRecords, ...zhCNPayments, ...zhCNMoney, ...zhCNCheck, ...zhCNSecurity };
