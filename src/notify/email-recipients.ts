import type { NotificationChannel } from '../domain/notification.ts';
import type { AdminRepository } from '../store/store.ts';

/**
 * Where an e-mail channel's message goes: its own addresses plus every enabled admin holding one
 * of its roles, read from the admins table at send time (a finance admin added after the channel
 * hears the next refund; a disabled one no longer does). Duplicates are dropped, case-insensitively.
 */
export async function emailRecipients(channel: NotificationChannel, admins: Pick<AdminRepository, 'list'> | undefined): Promise<string[]> {
  const addresses = (channel.to ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  if (channel.roles.length > 0) {
    if (!admins) throw new Error('operator roles cannot be looked up here');
    const roles = new Set<string>(channel.roles);
    for (const admin of await admins.list()) if (admin.enabled && roles.has(admin.role) && admin.email) addresses.push(admin.email);
  }
  const seen = new Set<string>();
  return addresses.filter((address) => {
    const key = address.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
