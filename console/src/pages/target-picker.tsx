import { loadAdminData, type AdminData } from '../lib/admin-data.ts';
import { CLIENT_KINDS, clientLabel, type ClientKind } from '../../../src/domain/client-kinds.ts';
import { inputValue } from '../lib/input-value.ts';
import { loadKeyHolderView, type KeyHolderView } from '../lib/key-holder.ts';
import { buildModelMatrix, modelsOfGroup } from '../lib/model-matrix.ts';
import { loadAccount, loadAccountKeys } from '../lib/account-api.ts';
import { type PortalKey as AccountKey, type PortalAccountView as AccountView } from '../../../src/domain/account-portal-api.ts';
import type { Session } from '../lib/session.ts';
import { t } from '../i18n/i18n.ts';

/** What the connect page and the model check are about: which key, which model, which client. */
export interface Target {
  keyId: string;
  /** A key secret the operator pasted for live tests; held in memory only. */
  pastedKey: string;
  model: string;
  kind: ClientKind;
}

export type TargetContext =
  | { role: 'operator'; admin: AdminData }
  | { role: 'key'; view: KeyHolderView; key: string }
  | { role: 'account'; account: AccountView; keys: AccountKey[]; csrf: string };

export async function loadTargetContext(session: Session): Promise<TargetContext> {
  if (session.role === 'operator') return { role: 'operator', admin: await loadAdminData(session.token) };
  if (session.role === 'account') {
    const [account, keys] = await Promise.all([loadAccount(session), loadAccountKeys(session)]);
    return { role: 'account', account, keys: keys.filter((key) => key.enabled), csrf: session.csrf };
  }
  return { role: 'key', view: await loadKeyHolderView(session.key), key: session.key };
}

export function modelsFor(context: TargetContext, keyId: string): string[] {
  if (context.role === 'key') return context.view.models;
  if (context.role === 'account') {
    return context.keys.find((entry) => entry.id === keyId)?.models ?? [];
  }
  const record = context.admin.keys.find((key) => key.id === keyId);
  if (!record) return [];
  const matrix = buildModelMatrix(context.admin.groups, context.admin.channels, context.admin.prices);
  return modelsOfGroup(matrix, record.group).filter((model) => !record.allowedModels || record.allowedModels.includes(model));
}

/** The secret to use for live checks and in copied text, if the person has one. */
export function secretFor(context: TargetContext, target: Target): string | undefined {
  if (context.role === 'key') return context.key;
  return target.pastedKey.trim() || undefined;
}

export function TargetPicker(props: { context: TargetContext; target: Target; onChange: (target: Target) => void; showKind?: boolean; freeModel?: boolean }) {
  const { context, target } = props;
  const models = modelsFor(context, target.keyId);
  const set = (patch: Partial<Target>) => props.onChange({ ...target, ...patch });
  return (
    <div class="filters">
      {context.role === 'account' && (
        <>
          <label>
            {t('picker.yourKey')}
            <select name="key" value={target.keyId} onChange={(event) => set({ keyId: inputValue(event), model: modelsFor(context, inputValue(event))[0] ?? '' })}>
              <option value="">{context.keys.length ? t('picker.chooseKey') : t('picker.noKeys')}</option>
              {context.keys.map((key) => (
                <option value={key.id} key={key.id}>
                  {key.name} ({key.group}, {key.keyHint})
                </option>
              ))}
            </select>
          </label>
          <label>
            {t('picker.secretSnippets')}
            <input name="pastedKey" type="password" autoComplete="off" value={target.pastedKey} onInput={(event) => set({ pastedKey: inputValue(event) })} />
          </label>
        </>
      )}
      {context.role === 'operator' && (
        <>
          <label>
            {t('picker.key')}
            <select name="key" value={target.keyId} onChange={(event) => set({ keyId: inputValue(event), model: '' })}>
              <option value="">{t('picker.chooseKey')}</option>
              {context.admin.keys.map((key) => (
                <option value={key.id} key={key.id}>
                  {key.name} ({key.group}, {key.keyHint})
                </option>
              ))}
            </select>
          </label>
          <label>
            {t('picker.secretLive')}
            <input
              name="pastedKey"
              type="password"
              autoComplete="off"
              value={target.pastedKey}
              onInput={(event) => set({ pastedKey: inputValue(event) })}
            />
          </label>
        </>
      )}
      <label>
        {t('picker.model')}
        {props.freeModel ? (
          <>
            <input name="model" list="model-options" value={target.model} onInput={(event) => set({ model: inputValue(event) })} />
            <datalist id="model-options">
              {models.map((model) => (
                <option value={model} key={model} />
              ))}
            </datalist>
          </>
        ) : (
          <select name="model" value={target.model} onChange={(event) => set({ model: inputValue(event) })}>
            <option value="">{models.length ? t('picker.chooseModel') : t('picker.noModels')}</option>
            {models.map((model) => (
              <option value={model} key={model}>
                {model}
              </option>
            ))}
          </select>
        )}
      </label>
      {props.showKind !== false && (
        <label>
          {t('picker.client')}
          <select name="kind" value={target.kind} onChange={(event) => set({ kind: inputValue(event) as ClientKind })}>
            {CLIENT_KINDS.map((kind) => (
              <option value={kind} key={kind}>
                {clientLabel(kind)}
              </option>
            ))}
          </select>
        </label>
      )}
    </div>
  );
}

export function initialTarget(context: TargetContext | undefined): Target {
  const keyId = context?.role === 'operator' ? (context.admin.keys[0]?.id ?? '') : context?.role === 'account' ? (context.keys[0]?.id ?? '') : '';
  const models = context ? modelsFor(context, keyId) : [];
  return { keyId, pastedKey: '', model: models[0] ?? '', kind: 'openai-sdk' };
}
