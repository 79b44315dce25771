import { useState } from 'preact/hooks';
import { AsyncView } from '../components/async-view.tsx';
import { CheckList } from '../components/check-list.tsx';
import { CopyButton } from '../components/copy-button.tsx';
import { ErrorNotice } from '../components/error-notice.tsx';
import { CLIENT_KINDS, type ClientKind } from '../../../src/domain/client-kinds.ts';
import { clientSetup } from '../../../src/domain/client-setup.ts';
import { errorMessage } from '../lib/error-message.ts';
import { maskKey } from '../lib/mask-key.ts';
import { runModelCheck, type CheckStep } from '../lib/model-check.ts';
import type { Session } from '../lib/session.ts';
import { useResource } from '../lib/use-resource.ts';
import { initialTarget, loadTargetContext, secretFor, TargetPicker, type Target, type TargetContext } from './target-picker.tsx';
import { t } from '../i18n/i18n.ts';

/** Copy-ready set-up for every client kind in the specification's base-address table. */
export function ConnectPage(props: { session: Session }) {
  const context = useResource(() => loadTargetContext(props.session), [props.session]);
  return (
    <section>
      <h1>{t('connect.title')}</h1>
      <AsyncView resource={context} what={t('connect.what')}>
        {(loaded) => <ConnectView context={loaded} />}
      </AsyncView>
    </section>
  );
}

function ConnectView({ context }: { context: TargetContext }) {
  const [target, setTarget] = useState<Target>(() => initialTarget(context));
  const root = location.origin;
  const altPrefix = context.role === 'key' ? context.view.altPrefix : context.role === 'account' ? context.account.altPrefix : 'antigravity';
  const secret = secretFor(context, target);
  const model = target.model || '<MODEL>';
  return (
    <>
      <p class="muted">
        {t('connect.intro')}
        {secret ? t('connect.copyFull') : t('connect.pasteKey')}
      </p>
      <TargetPicker context={context} target={target} onChange={setTarget} showKind={false} />
      {context.role === 'key' && context.view.problem && <ErrorNotice>{t('myKey.refused', { problem: context.view.problem })}</ErrorNotice>}
      <div class="client-list">
        {CLIENT_KINDS.map((kind) => (
          <ClientCard key={kind} kind={kind} root={root} secret={secret} model={model} altPrefix={altPrefix} context={context} target={target} />
        ))}
      </div>
    </>
  );
}

function ClientCard(props: { kind: ClientKind; root: string; secret: string | undefined; model: string; altPrefix: string; context: TargetContext; target: Target }) {
  const where = { root: props.root, model: props.model, altPrefix: props.altPrefix };
  const shown = clientSetup(props.kind, { ...where, key: props.secret ? maskKey(props.secret) : '<API_KEY>' });
  const copied = clientSetup(props.kind, { ...where, key: props.secret ?? '<API_KEY>' });
  const [check, setCheck] = useState<{ steps: CheckStep[]; source: string } | 'running' | string | null>(null);
  const test = async () => {
    setCheck('running');
    try {
      setCheck(
        await runModelCheck({
          kind: props.kind,
          model: props.target.model,
          root: props.root,
          altPrefix: props.altPrefix,
          ...(props.secret ? { key: props.secret } : {}),
          ...(props.context.role === 'operator' ? { admin: props.context.admin, keyId: props.target.keyId } : {}),
          ...(props.context.role === 'account' ? { account: { csrf: props.context.csrf, keyId: props.target.keyId } } : {}),
        }),
      );
    } catch (error) {
      setCheck(t('modelCheck.couldNotRun', { message: errorMessage(error) }));
    }
  };
  return (
    <article class="card client" data-client={props.kind} aria-labelledby={`client-${props.kind}`}>
      <h2 id={`client-${props.kind}`}>{shown.label}</h2>
      <p>
        {t('connect.address')} <code data-address>{shown.address}</code> <CopyButton text={shown.address} label={t('connect.copyAddress')} />
      </p>
      <p class="muted small-text">{shown.addressNote}</p>
      {shown.blocks.map(([title, text], index) => (
        <CopyBlockMasked key={title} title={title} shown={text} copied={copied.blocks[index]![1]} />
      ))}
      {shown.notes.map((note) => (
        <p class="small-text" key={note}>
          {note}
        </p>
      ))}
      <button type="button" class="small" onClick={test} disabled={check === 'running' || !props.target.model}>
        {check === 'running' ? t('modelCheck.checking') : t('connect.testThis')}
      </button>
      {typeof check === 'string' && check !== 'running' && <ErrorNotice>{check}</ErrorNotice>}
      {check && typeof check === 'object' && <CheckList steps={check.steps} source={check.source} />}
    </article>
  );
}

/** Shows the masked text, copies the real one. */
function CopyBlockMasked(props: { title: string; shown: string; copied: string }) {
  return (
    <div class="copy-block">
      <div class="copy-head">
        <span>{props.title}</span>
        <CopyButton text={props.copied} label={t('common.copyThing', { thing: props.title })} />
      </div>
      <pre tabIndex={0}>
        <code>{props.shown}</code>
      </pre>
    </div>
  );
}
