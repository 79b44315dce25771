import { enCommon } from './en-common.ts';
import { enPortal } from './en-portal.ts';
import { enAdmin } from './en-admin.ts';
import { enBusiness } from './en-business.ts';
import { enRecords } from './en-records.ts';
import { enPayments } from './en-payments.ts';
import { enSecurity } from './en-security.ts';
import { enMoney } from './en-money.ts';
import { enCheck } from './en-check.ts';

/**
 * The English catalogue: every word the console and portal show. Keys are grouped by page or
 * component; zh-CN.ts has exactly the same keys (the type and test/console/i18n-catalogue.test.ts
 * check both). Plurals use i18next's `_one`/`_other` suffixes; `{{name}}` takes a value.
 */
export const en = { ...enCommon, ...enPortal, ...enAdmin, ...enBusiness, ...enRecords, ...enPayments, ...enMoney, ...enCheck, ...enSecurity };

/** Every catalogue has this shape: the same keys, each a string. */
export type Catalogue = typeof en;
