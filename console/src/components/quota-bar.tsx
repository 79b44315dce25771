import { dateTime, usd } from '../lib/format.ts';
import { t } from '../i18n/i18n.ts';

/** One quota window: used of quota as a bar, in words too (colour is never the only signal). */
export function QuotaBar(props: { label: string; used: number; quota: number | null; resetsAt?: string | null | undefined }) {
  const { used, quota } = props;
  const share = quota === null || quota <= 0 ? 0 : Math.min(used / quota, 1);
  const tone = quota === null ? 'ok' : used >= quota ? 'over' : share >= 0.8 ? 'near' : 'ok';
  const left = quota === null ? null : Math.max(quota - used, 0);
  return (
    <div class={`quota quota-${tone}`} data-window={props.label}>
      <div class="quota-head">
        <span>{props.label}</span>
        <span class="num" data-quota-text>
          {t('quota.usedOf', { used: usd(used), quota: quota === null ? t('quota.noLimit') : usd(quota) })}
          {left !== null && t('quota.left', { left: usd(left) })}
        </span>
      </div>
      {quota !== null && (
        <div
          class="quota-track"
          role="progressbar"
          aria-label={t('quota.aria', { label: props.label, used: usd(used), quota: usd(quota) })}
          aria-valuemin={0}
          aria-valuemax={quota}
          aria-valuenow={Math.min(used, quota)}
        >
          <div class="quota-fill" style={{ width: `${(share * 100).toFixed(1)}%` }} />
        </div>
      )}
      {props.resetsAt && <div class="small-text muted">{t('quota.resets', { time: dateTime(props.resetsAt) })}</div>}
      {tone === 'over' && <div class="small-text quota-warning">{props.resetsAt ? t('quota.usedUpUntilReset') : t('quota.usedUp')}</div>}
    </div>
  );
}
