import { useState } from 'preact/hooks';
import { CheckList } from '../components/check-list.tsx';
import { ErrorNotice } from '../components/error-notice.tsx';
import { loadAccountKeys } from '../lib/account-api.ts';
import { type PortalAccountView as AccountView } from '../../../src/domain/account-portal-api.ts';
import { errorMessage } from '../lib/error-message.ts';
import { inputValue } from '../lib/input-value.ts';
import { runModelCheck, type CheckStep } from '../lib/model-check.ts';
import type { Session } from '../lib/session.ts';
import { useResource } from '../lib/use-resource.ts';
import { t } from '../i18n/i18n.ts';

/** "Why is my model refused?": the gateway's model check for one of the account's keys. */
export function ModelCheckCard(props: { session: Extract<Session, { role: 'account' }>; view: AccountView }) {
  const keys = useResource(() => loadAccountKeys(props.session), [props.session.csrf]);
  const [keyId, setKeyId] = useState('');
  const [model, setModel] = useState('');
  const [result, setResult] = useState<{ steps: CheckStep[]; source: string } | 'running' | string | null>(null);
  const list = keys.data?.filter((key) => key.enabled) ?? [];
  const chosen = list.find((key) => key.id === keyId) ?? list[0];
  const models = chosen?.models ?? [];

  const run = async (event: Event) => {
    event.preventDefault();
    if (!chosen) return;
    setResult('running');
    try {
      setResult(await runModelCheck({ kind: 'openai-sdk', model: model || models[0] || '', root: location.origin, altPrefix: props.view.altPrefix, account: { csrf: props.session.csrf, keyId: chosen.id } }));
    } catch (error) {
      setResult(t('modelCheck.couldNotRun', { message: errorMessage(error) }));
    }
  };

  return (
    <form class="card" onSubmit={run} aria-label={t('modelCheck.formLabel')}>
      <h2>{t('modelCheck.heading')}</h2>
      {keys.error ? (
        <ErrorNotice>{t('modelCheck.couldNotLoadKeys', { message: keys.error.message })}</ErrorNotice>
      ) : list.length === 0 ? (
        <p class="muted">{t('modelCheck.createKeyFirst')}</p>
      ) : (
        <>
          <div class="filters">
            <label>
              {t('modelCheck.key')}
              <select name="check-key" value={chosen?.id ?? ''} onChange={(event) => setKeyId(inputValue(event))}>
                {list.map((key) => (
                  <option key={key.id} value={key.id}>
                    {key.name} ({key.group})
                  </option>
                ))}
              </select>
            </label>
            <label>
              {t('modelCheck.model')}
              <input name="check-model" list="account-models" value={model} placeholder={models[0] ?? ''} onInput={(event) => setModel(inputValue(event))} />
              <datalist id="account-models">
                {models.map((name) => (
                  <option key={name} value={name} />
                ))}
              </datalist>
            </label>
          </div>
          <button type="submit" class="primary" disabled={result === 'running'}>
            {result === 'running' ? t('modelCheck.checking') : t('modelCheck.check')}
          </button>
        </>
      )}
      {typeof result === 'string' && result !== 'running' && <ErrorNotice>{result}</ErrorNotice>}
      {result && typeof result === 'object' && <CheckList steps={result.steps} source={result.source} />}
    </form>
  );
}
