import type { AdminData } from '../lib/admin-data.ts';
import { followLink } from '../lib/router.ts';
import { unpricedModels } from '../lib/unpriced-models.ts';
import { t } from '../i18n/i18n.ts';

/**
 * Shown wherever balances and unpriced models meet: those requests are free and never draw a
 * balance down. Each model gets a "Set price" action (on the pricing page it fills the form).
 */
export function UnpricedWarning(props: { admin: AdminData; onPrice?: (model: string) => void }) {
  const models = unpricedModels(props.admin);
  if (models.length === 0) return null;
  return (
    <div class="notice warn" role="status" data-unpriced>
      <p>
        <strong>{t('unpriced.headline', { count: models.length })}</strong> {t('unpriced.explain', { count: models.length })}
      </p>
      <ul class="unpriced-list">
        {models.map((entry) => (
          <li key={entry.model}>
            <code>{entry.model}</code> <span class="muted small-text">{t('unpriced.groups', { groups: entry.groups.join(t('common.listSeparator')) })}</span>{' '}
            {props.onPrice ? (
              <button type="button" class="small" onClick={() => props.onPrice?.(entry.model)}>
                {t('unpriced.setPrice')}
              </button>
            ) : (
              <a href={`/console/pricing?model=${encodeURIComponent(entry.model)}`} onClick={(event) => followLink(event, `/pricing?model=${encodeURIComponent(entry.model)}`)}>
                {t('unpriced.setPrice')}
              </a>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
