import { useState } from 'preact/hooks';
import { AsyncView } from '../components/async-view.tsx';
import { CheckList } from '../components/check-list.tsx';
import { ErrorNotice } from '../components/error-notice.tsx';
import { errorMessage } from '../lib/error-message.ts';
import { runModelCheck, stepTitles, type CheckStep } from '../lib/model-check.ts';
import type { Session } from '../lib/session.ts';
import { useResource } from '../lib/use-resource.ts';
import { initialTarget, loadTargetContext, secretFor, TargetPicker, type Target, type TargetContext } from './target-picker.tsx';
import { t } from '../i18n/i18n.ts';

/** The specification's model check, run live for a key, a model name as typed, and a client. */
export function ModelCheckPage(props: { session: Session }) {
  const context = useResource(() => loadTargetContext(props.session), [props.session]);
  return (
    <section>
      <h1>{t('checkPage.title')}</h1>
      <p class="muted">{t('checkPage.intro')}</p>
      <AsyncView resource={context} what={t('connect.what')}>
        {(loaded) => <CheckView context={loaded} />}
      </AsyncView>
    </section>
  );
}

function CheckView({ context }: { context: TargetContext }) {
  const [target, setTarget] = useState<Target>(() => initialTarget(context));
  const [result, setResult] = useState<{ steps: CheckStep[]; source: string } | 'running' | string | null>(null);
  const run = async (event: Event) => {
    event.preventDefault();
    setResult('running');
    const key = secretFor(context, target);
    try {
      setResult(
        await runModelCheck({
          kind: target.kind,
          model: target.model,
          root: location.origin,
          altPrefix: context.role === 'key' ? context.view.altPrefix : context.role === 'account' ? context.account.altPrefix : 'antigravity',
          ...(key ? { key } : {}),
          ...(context.role === 'operator' ? { admin: context.admin, keyId: target.keyId } : {}),
          ...(context.role === 'account' ? { account: { csrf: context.csrf, keyId: target.keyId } } : {}),
        }),
      );
    } catch (error) {
      setResult(t('modelCheck.couldNotRun', { message: errorMessage(error) }));
    }
  };
  return (
    <form onSubmit={run}>
      <TargetPicker context={context} target={target} onChange={setTarget} freeModel />
      <button type="submit" class="primary" disabled={result === 'running' || target.model === ''}>
        {result === 'running' ? t('modelCheck.checking') : t('checkPage.run')}
      </button>
      {typeof result === 'string' && result !== 'running' && <ErrorNotice>{result}</ErrorNotice>}
      {result && typeof result === 'object' ? (
        <CheckList steps={result.steps} source={result.source} />
      ) : (
        <ol class="muted">
          {stepTitles().map((title) => (
            <li key={title}>{title.replace(/^\d+\.\s*/, '')}</li>
          ))}
        </ol>
      )}
    </form>
  );
}
