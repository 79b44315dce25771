import { useState } from 'preact/hooks';
import { AsyncView } from '../components/async-view.tsx';
import { UnpricedWarning } from '../components/unpriced-warning.tsx';
import { CopyButton } from '../components/copy-button.tsx';
import { Drawer } from '../components/drawer.tsx';
import { PageHead } from '../components/page-head.tsx';
import { loadAdminData } from '../lib/admin-data.ts';
import { call } from '../lib/api.ts';
import { errorMessage } from '../lib/error-message.ts';
import { dateTime, list, usd } from '../lib/format.ts';
import { bearerOf, type Session } from '../lib/session.ts';
import type { ApiKeyRecord } from '../lib/types.ts';
import { useResource } from '../lib/use-resource.ts';
import { KeyForm } from './key-form.tsx';
import { KeyUsage } from './key-usage.tsx';
import { t } from '../i18n/i18n.ts';

/** What pays a key without a balance of its own (the answer's `paysFrom`): never "unlimited" for an account's key. */
const PAYS_FROM: Record<ApiKeyRecord['paysFrom'], string> = {
  key_balance: 'keys.paysKey',
  wallet: 'keys.paysWallet',
  subscription: 'keys.paysSubscription',
  unlimited: 'keys.paysUnlimited',
};

type Panel = { mode: 'create' } | { mode: 'edit'; key: ApiKeyRecord } | { mode: 'usage'; key: ApiKeyRecord } | null;

export function KeysPage(props: { session: Session }) {
  const token = bearerOf(props.session);
  const data = useResource(() => loadAdminData(token), [token]);
  const [panel, setPanel] = useState<Panel>(null);
  // Held only until dismissed; the gateway never returns it again and the console never stores it.
  const [secret, setSecret] = useState<{ value: string; name: string } | null>(null);
  const [message, setMessage] = useState<string | null>(null);

  const act = async (key: ApiKeyRecord, action: 'toggle' | 'delete') => {
    const path = `/api/admin/keys/${encodeURIComponent(key.id)}`;
    try {
      if (action === 'delete') {
        if (!confirm(t('keys.confirmRevoke', { name: key.name }))) return;
        await call(path, { method: 'DELETE', bearer: token });
        setMessage(t('keys.revoked', { name: key.name }));
      } else {
        await call(path, { method: 'PATCH', body: { enabled: !key.enabled }, bearer: token });
        setMessage(t(key.enabled ? 'keys.disabled' : 'keys.enabled', { name: key.name }));
      }
      data.reload();
    } catch (error) {
      setMessage(t('keys.couldNotChange', { name: key.name, message: errorMessage(error) }));
    }
  };

  return (
    <section>
      <PageHead title={t('keys.title')} onRefresh={data.reload}>
        <button type="button" class="primary" onClick={() => setPanel({ mode: 'create' })}>
          {t('keys.create')}
        </button>
      </PageHead>
      {secret && (
        <div class="notice secret" role="alert" data-secret-panel>
          <p>
            <strong>{t('keys.created', { name: secret.name })}</strong> {t('keys.copyNow')}
          </p>
          <div class="secret-line">
            <code data-secret>{secret.value}</code>
            <CopyButton text={secret.value} label={t('keys.copyKey')} />
          </div>
          <button type="button" class="small" onClick={() => setSecret(null)}>
            {t('keys.hide')}
          </button>
        </div>
      )}
      {message && (
        <p class="notice" role="status">
          {message}
        </p>
      )}
      <AsyncView resource={data} what={t('keys.what')}>
        {(admin) => (
          <>
            <UnpricedWarning admin={admin} />
            {admin.keys.length === 0 ? (
              <p class="notice">{t('keys.none')}</p>
            ) : (
              <div class="table-wrap">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">{t('keys.key')}</th>
                      <th scope="col">{t('keys.group')}</th>
                      <th scope="col">{t('keys.owner')}</th>
                      <th scope="col">{t('keys.state')}</th>
                      <th scope="col">{t('keys.expires')}</th>
                      <th scope="col" class="num">{t('keys.pays')}</th>
                      <th scope="col">{t('keys.limits')}</th>
                      <th scope="col">{t('keys.allowed')}</th>
                      <th scope="col">{t('keys.actions')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {admin.keys.map((key) => (
                      <tr key={key.id} data-key={key.name}>
                        <td>
                          <strong>{key.name}</strong>
                          <div class="small-text muted">
                            <code>{key.keyHint}</code>
                          </div>
                        </td>
                        <td>{key.group}</td>
                        <td>{key.owner ? key.owner.name : <span class="muted">{t('keys.operator')}</span>}</td>
                        <td>
                          <span class={`badge ${keyState(key) === 'active' ? 'ok' : 'down'}`}>{t(KEY_STATE_LABEL[keyState(key)])}</span>
                        </td>
                        <td class="small-text">{key.expiresAt ? dateTime(key.expiresAt) : t('keys.never')}</td>
                        <td class="num">
                          {key.balance !== null ? usd(key.balance) : t(PAYS_FROM[key.paysFrom])} / {usd(key.spent)}
                        </td>
                        <td class="small-text">{limitsText(key)}</td>
                        <td class="small-text">
                          {list(key.allowedModels, t('keys.allModels'))} · {list(key.allowedIps, t('keys.anyIp'))}
                        </td>
                        <td>
                          <div class="actions">
                            <button type="button" class="small" onClick={() => setPanel({ mode: 'usage', key })}>
                              {t('keys.usage')}
                            </button>
                            <button type="button" class="small" onClick={() => setPanel({ mode: 'edit', key })}>
                              {t('keys.edit')}
                            </button>
                            <button type="button" class="small" onClick={() => act(key, 'toggle')}>
                              {key.enabled ? t('keys.disable') : t('keys.enable')}
                            </button>
                            <button type="button" class="small danger" onClick={() => act(key, 'delete')}>
                              {t('keys.revoke')}
                            </button>
                          </div>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            {panel && panel.mode !== 'usage' && (
              <Drawer title={panel.mode === 'create' ? t('keys.createTitle') : t('keys.editTitle', { name: panel.key.name })} onClose={() => setPanel(null)}>
                <KeyForm
                  token={token}
                  groups={admin.groups}
                  {...(panel.mode === 'edit' ? { apiKey: panel.key } : {})}
                  onCancel={() => setPanel(null)}
                  onSaved={() => {
                    setMessage(t('keys.saved'));
                    setPanel(null);
                    data.reload();
                  }}
                  onCreated={(value, name) => {
                    setSecret({ value, name });
                    setMessage(null);
                    setPanel(null);
                    data.reload();
                  }}
                />
              </Drawer>
            )}
            {panel?.mode === 'usage' && (
              <Drawer title={t('keys.usageTitle', { name: panel.key.name })} onClose={() => setPanel(null)}>
                <KeyUsage token={token} apiKey={panel.key} />
              </Drawer>
            )}
          </>
        )}
      </AsyncView>
    </section>
  );
}

type KeyState = 'disabled' | 'expired' | 'no balance' | 'active';
const KEY_STATE_LABEL: Record<KeyState, string> = { disabled: 'keys.stateDisabled', expired: 'keys.stateExpired', 'no balance': 'keys.stateNoBalance', active: 'keys.stateActive' };

function keyState(key: ApiKeyRecord): KeyState {
  if (!key.enabled) return 'disabled';
  if (key.expiresAt && Date.parse(key.expiresAt) <= Date.now()) return 'expired';
  if (key.balance !== null && key.balance <= 0) return 'no balance';
  return 'active';
}

function limitsText(key: ApiKeyRecord): string {
  const { limits } = key;
  const parts = [
    limits.requestsPerMinute !== undefined && t('keys.rpm', { count: limits.requestsPerMinute }),
    limits.tokensPerMinute !== undefined && t('keys.tpm', { count: limits.tokensPerMinute }),
    limits.concurrentRequests !== undefined && t('keys.concurrent', { count: limits.concurrentRequests }),
    limits.dailySpend !== undefined && t('keys.perDay', { amount: usd(limits.dailySpend) }),
    limits.weeklySpend !== undefined && t('keys.perWeek', { amount: usd(limits.weeklySpend) }),
    limits.monthlySpend !== undefined && t('keys.perMonth', { amount: usd(limits.monthlySpend) }),
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(t('common.listSeparator')) : t('keys.noLimits');
}
