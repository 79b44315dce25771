import type { Announcement } from '../domain/announcement.ts';

/** Who is reading: an account (by id) and the groups its keys or subscriptions are in. */
export interface AnnouncementReader {
  userId: string | null;
  groups: ReadonlySet<string>;
}

/** The notices meant for this reader: everyone's, their groups', their account's. */
export function announcementsFor(announcements: readonly Announcement[], reader: AnnouncementReader): Announcement[] {
  return announcements.filter((announcement) => {
    if (announcement.audience === 'all') return true;
    if (announcement.audience.startsWith('group:')) return reader.groups.has(announcement.audience.slice('group:'.length));
    if (announcement.audience.startsWith('account:')) return reader.userId !== null && announcement.audience.slice('account:'.length) === reader.userId;
    return false;
  });
}

export function announcementView(announcement: Announcement) {
  return {
    id: announcement.id,
    title: announcement.title,
    body: announcement.body,
    audience: announcement.audience,
    endsAt: announcement.endsAt === null ? null : new Date(announcement.endsAt).toISOString(),
    createdAt: new Date(announcement.createdAt).toISOString(),
  };
}
