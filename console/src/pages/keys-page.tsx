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

/** What pays a key without a balance of its own (the answer's `paysFrom`): never "unlimited" for an account's key. */
const PAYS_FROM: Record<ApiKeyRecord['paysFrom'], string> = {
  key_balance: 'key balance',
  wallet: "owner's wallet",
  subscription: 'subscription',
  unlimited: 'unlimited',
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
        if (!confirm(`Revoke key "${key.name}" for good? Clients using it are refused at once.`)) return;
        await call(path, { method: 'DELETE', bearer: token });
        setMessage(`Key ${key.name} revoked.`);
      } else {
        await call(path, { method: 'PATCH', body: { enabled: !key.enabled }, bearer: token });
        setMessage(`Key ${key.name} ${key.enabled ? 'disabled' : 'enabled'}.`);
      }
      data.reload();
    } catch (error) {
      setMessage(`Could not change ${key.name}: ${errorMessage(error)}`);
    }
  };

  return (
    <section>
      <PageHead title="Keys" onRefresh={data.reload}>
        <button type="button" class="primary" onClick={() => setPanel({ mode: 'create' })}>
          Create key
        </button>
      </PageHead>
      {secret && (
        <div class="notice secret" role="alert" data-secret-panel>
          <p>
            <strong>Key “{secret.name}” created.</strong> Copy the secret now: it is shown this once and cannot be shown again.
          </p>
          <div class="secret-line">
            <code data-secret>{secret.value}</code>
            <CopyButton text={secret.value} label="Copy key" />
          </div>
          <button type="button" class="small" onClick={() => setSecret(null)}>
            I have copied it — hide
          </button>
        </div>
      )}
      {message && (
        <p class="notice" role="status">
          {message}
        </p>
      )}
      <AsyncView resource={data} what="keys">
        {(admin) => (
          <>
            <UnpricedWarning admin={admin} />
            {admin.keys.length === 0 ? (
              <p class="notice">No keys yet. Create one and hand it to a client.</p>
            ) : (
              <div class="table-wrap">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Key</th>
                      <th scope="col">Group</th>
                      <th scope="col">Owner</th>
                      <th scope="col">State</th>
                      <th scope="col">Expires</th>
                      <th scope="col" class="num">Pays from / spent</th>
                      <th scope="col">Limits</th>
                      <th scope="col">Allowed models / IPs</th>
                      <th scope="col">Actions</th>
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
                        <td>{key.owner ? key.owner.name : <span class="muted">operator</span>}</td>
                        <td>
                          <span class={`badge ${keyState(key) === 'active' ? 'ok' : 'down'}`}>{keyState(key)}</span>
                        </td>
                        <td class="small-text">{key.expiresAt ? dateTime(key.expiresAt) : 'never'}</td>
                        <td class="num">
                          {key.balance !== null ? usd(key.balance) : PAYS_FROM[key.paysFrom]} / {usd(key.spent)}
                        </td>
                        <td class="small-text">{limitsText(key)}</td>
                        <td class="small-text">
                          {list(key.allowedModels, 'all models')} · {list(key.allowedIps, 'any IP')}
                        </td>
                        <td>
                          <div class="actions">
                            <button type="button" class="small" onClick={() => setPanel({ mode: 'usage', key })}>
                              Usage
                            </button>
                            <button type="button" class="small" onClick={() => setPanel({ mode: 'edit', key })}>
                              Edit
                            </button>
                            <button type="button" class="small" onClick={() => act(key, 'toggle')}>
                              {key.enabled ? 'Disable' : 'Enable'}
                            </button>
                            <button type="button" class="small danger" onClick={() => act(key, 'delete')}>
                              Revoke
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
              <Drawer title={panel.mode === 'create' ? 'Create a key' : `Edit key ${panel.key.name}`} onClose={() => setPanel(null)}>
                <KeyForm
                  token={token}
                  groups={admin.groups}
                  {...(panel.mode === 'edit' ? { apiKey: panel.key } : {})}
                  onCancel={() => setPanel(null)}
                  onSaved={() => {
                    setMessage('Key saved.');
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
              <Drawer title={`Usage of key ${panel.key.name}`} onClose={() => setPanel(null)}>
                <KeyUsage token={token} apiKey={panel.key} />
              </Drawer>
            )}
          </>
        )}
      </AsyncView>
    </section>
  );
}

function keyState(key: ApiKeyRecord): string {
  if (!key.enabled) return 'disabled';
  if (key.expiresAt && Date.parse(key.expiresAt) <= Date.now()) return 'expired';
  if (key.balance !== null && key.balance <= 0) return 'no balance';
  return 'active';
}

function limitsText(key: ApiKeyRecord): string {
  const { limits } = key;
  const parts = [
    limits.requestsPerMinute !== undefined && `${limits.requestsPerMinute} req/min`,
    limits.tokensPerMinute !== undefined && `${limits.tokensPerMinute} tok/min`,
    limits.concurrentRequests !== undefined && `${limits.concurrentRequests} at once`,
    limits.dailySpend !== undefined && `${usd(limits.dailySpend)}/day`,
    limits.weeklySpend !== undefined && `${usd(limits.weeklySpend)}/week`,
    limits.monthlySpend !== undefined && `${usd(limits.monthlySpend)}/month`,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : 'none';
}
