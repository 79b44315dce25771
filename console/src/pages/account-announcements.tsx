import { accountCall } from '../lib/account-api.ts';
import { dateTime } from '../lib/format.ts';
import type { Announcement } from '../lib/notify-types.ts';
import type { Session } from '../lib/session.ts';
import { useResource } from '../lib/use-resource.ts';
import { t } from '../i18n/i18n.ts';

/** The operator's notices for this account, on the portal home; nothing at all when there are none. */
export function AccountAnnouncements(props: { session: Extract<Session, { role: 'account' }> }) {
  const notices = useResource(async () => (await accountCall<{ data: Announcement[] }>(props.session, '/announcements')).data, [props.session.csrf]);
  if (!notices.data || notices.data.length === 0) return null;
  return (
    <div class="announcements" aria-label={t('notices.label')}>
      {notices.data.map((notice) => (
        <div class="notice" key={notice.id} data-announcement={notice.title}>
          <strong>{notice.title}</strong> <span class="small-text muted">{dateTime(notice.createdAt)}</span>
          <p>{notice.body}</p>
        </div>
      ))}
    </div>
  );
}
