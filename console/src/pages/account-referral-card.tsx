import { dateTime, usd } from '../lib/format.ts';
import { t } from '../i18n/i18n.ts';

export interface Referral {
  code: string;
  link: string;
  ratePercent: number;
  holdDays: number;
  pendingUsd: number;
  creditedUsd: number;
  invites: number;
  withdrawableUsd: number;
  withdrawals: { enabled: boolean; minUsd: number };
  rebates: Array<{ orderId: string; amountUsd: number; status: string; releaseAt: string }>;
}

/** One rebate's state in words: a held rebate says when it is released. */
function rebateState(rebate: Referral['rebates'][number]): string {
  if (rebate.status === 'pending') return t('topUp.rebateHeld', { date: dateTime(rebate.releaseAt) });
  if (rebate.status === 'credited') return t('topUp.rebateReleased');
  if (rebate.status === 'clawed_back') return t('topUp.rebateClawedBack');
  if (rebate.status === 'refused') return t('topUp.rebateRefused');
  return rebate.status;
}

/** The invite link with its totals and each rebate (held until its release date, then released to the wallet). */
export function AccountReferralCard(props: { referral: Referral }) {
  const { referral } = props;
  return (
    <div class="card" data-referral>
      <h2>{t('topUp.invite')}</h2>
      <p>
        {t('topUp.yourLink')} <code>{referral.link}</code>
        {t('topUp.earn', { rate: referral.ratePercent, days: referral.holdDays })}
      </p>
      <p>
        {t('topUp.invited', { invites: referral.invites, pending: usd(referral.pendingUsd) })} {t('topUp.credited')}{' '}
        <span data-rebate-credited>{usd(referral.creditedUsd)}</span>
      </p>
      {referral.rebates.length > 0 && (
        <ul class="sub-list" data-rebates>
          {referral.rebates.map((rebate) => (
            <li key={rebate.orderId} data-rebate={rebate.status}>
              <span data-amount>{usd(rebate.amountUsd)}</span> · {rebateState(rebate)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
