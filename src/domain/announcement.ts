/** An operator's notice (issue 30). `audience`: `all`, `group:<name>` or `account:<user id>`. */
export interface Announcement {
  id: string;
  title: string;
  body: string;
  audience: string;
  /** Epoch ms after which it is no longer shown; null: until removed. */
  endsAt: number | null;
  createdAt: number;
}
export type NewAnnouncement = Omit<Announcement, 'id' | 'createdAt'>;

/** One circuit opening or closing as recorded for the status page's incidents. */
export interface CircuitHistoryEntry {
  channelId: string;
  model: string | null;
  state: 'open' | 'closed';
  reason: string | null;
  at: number;
}
