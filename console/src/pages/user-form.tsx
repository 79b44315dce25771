import { useState } from 'preact/hooks';
import { ErrorNotice } from '../components/error-notice.tsx';
import { FormActions } from '../components/form-actions.tsx';
import { moneyInput } from '../lib/account-format.ts';
import { type AdminUserView as User } from '../../../src/domain/account-admin-api.ts';
import type { AdminApi } from '../lib/accounts-admin.ts';
import { inputValue } from '../lib/input-value.ts';
import { useSubmit } from '../lib/use-submit.ts';
import { t } from '../i18n/i18n.ts';

/** A new account: a unique name, optional email and password (for the portal), a starting wallet. */
export function UserForm(props: { api: AdminApi; onCreated: (user: User) => void; onCancel: () => void }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [balance, setBalance] = useState('');
  const submission = useSubmit();
  const submit = async (event: Event) => {
    event.preventDefault();
    const amount = moneyInput(balance);
    if (amount !== undefined && (!Number.isFinite(amount) || amount < 0)) return submission.setError(t('userForm.badWallet'));
    if (password !== '' && password.length < 8) return submission.setError(t('userForm.shortPassword'));
    await submission.run(async () => {
      const user = await props.api.createUser({
        name: name.trim(),
        ...(email.trim() ? { email: email.trim() } : {}),
        ...(password ? { password } : {}),
        ...(amount !== undefined ? { balance: amount } : {}),
      });
      props.onCreated(user);
    });
  };
  return (
    <form class="form" onSubmit={submit}>
      <label>
        {t('userForm.name')}
        <input name="name" value={name} onInput={(event) => setName(inputValue(event))} required autoComplete="off" />
        <span class="hint">{t('userForm.nameHint')}</span>
      </label>
      <label>
        {t('userForm.email')}
        <input name="email" type="email" value={email} onInput={(event) => setEmail(inputValue(event))} autoComplete="off" />
      </label>
      <label>
        {t('userForm.password')}
        <input name="password" type="password" value={password} onInput={(event) => setPassword(inputValue(event))} autoComplete="new-password" />
        <span class="hint">{t('userForm.passwordHint')}</span>
      </label>
      <label>
        {t('userForm.wallet')}
        <input name="balance" type="number" min="0" step="0.01" value={balance} onInput={(event) => setBalance(inputValue(event))} />
        <span class="hint">{t('userForm.walletHint')}</span>
      </label>
      {submission.error && <ErrorNotice>{submission.error}</ErrorNotice>}
      <FormActions busy={submission.busy} submitLabel={t('userForm.create')} onCancel={props.onCancel} />
    </form>
  );
}
