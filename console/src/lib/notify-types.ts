/** The alert and announcement records as the admin and account APIs answer them (issue 30). */
export interface AlertChannel {
  id: string;
  type: string;
  name: string;
  url: string | null;
  hasSecret: boolean;
  to: string | null;
  /** E-mail channels: the admin roles whose holders receive it too. */
  roles: string[];
  createdAt: string;
}

export interface AlertRule {
  id: string;
  event: string;
  threshold: number | null;
  windowSeconds: number | null;
  channels: string[];
  audience: 'operator' | 'account';
  enabled: boolean;
}

export interface AlertDelivery {
  id: string;
  channelId: string;
  event: string;
  status: 'pending' | 'sent' | 'dead';
  attempts: number;
  lastError: string | null;
  createdAt: string;
}

export interface AlertEvent {
  event: string;
  unit: string | null;
  defaultThreshold: number | null;
}

export interface Announcement {
  id: string;
  title: string;
  body: string;
  audience: string;
  endsAt: string | null;
  createdAt: string;
}

/** The admin roles an e-mail channel may address (the gateway's ADMIN_ROLES). */
export const ADMIN_ROLES = ['owner', 'admin', 'finance', 'support', 'auditor'] as const;

export const CHANNEL_TYPES = ['webhook', 'slack', 'feishu', 'dingtalk', 'wecom', 'telegram', 'email'] as const;
