import type { Generated } from 'kysely';

/**
 * Table shapes as Kysely sees them. Conventions shared by both dialects:
 * times are epoch ms in BIGINT, money is integer micro-USD in BIGINT, booleans are INTEGER 0/1,
 * lists and maps are JSON in TEXT. The PostgreSQL pool parses BIGINT to number (see open-database).
 */
export interface DatabaseSchema {
  groups: GroupsTable;
  channels: ChannelsTable;
  channel_groups: ChannelGroupsTable;
  api_keys: ApiKeysTable;
  model_prices: ModelPricesTable;
  usage_logs: UsageLogsTable;
  settings: SettingsTable;
}

export interface GroupsTable {
  name: string;
  description: string;
  price_multiplier: number;
  created_at: number;
}

export interface ChannelsTable {
  id: string;
  name: string;
  provider: string;
  base_url: string;
  /** SecretBox-sealed JSON array of upstream secrets. */
  api_keys_sealed: string;
  models: string;
  model_map: string;
  priority: number;
  weight: number;
  enabled: number;
  supports_responses: number;
  allowed_prefixes: string;
  api_version: string | null;
  region: string | null;
  project: string | null;
  created_at: number;
  updated_at: number;
}

/** Which groups a channel serves; `position` keeps the order the channel was given. */
export interface ChannelGroupsTable {
  channel_id: string;
  group_name: string;
  position: number;
}

export interface ApiKeysTable {
  id: string;
  name: string;
  group_name: string;
  key_hash: string;
  key_hint: string;
  expires_at: number | null;
  balance_micros: number | null;
  spent_micros: Generated<number>;
  allowed_models: string | null;
  allowed_ips: string | null;
  enabled: number;
  limits: string;
  created_at: number;
  updated_at: number;
}

export interface ModelPricesTable {
  model: string;
  input_per_million: number;
  output_per_million: number;
  cache_read_per_million: number | null;
  cache_write_per_million: number | null;
  updated_at: number;
}

export interface UsageLogsTable {
  request_id: string;
  time: number;
  key_id: string | null;
  key_name: string | null;
  group_name: string | null;
  model: string | null;
  upstream_model: string | null;
  channel_id: string | null;
  channel_name: string | null;
  client_protocol: string | null;
  upstream_protocol: string | null;
  surface: string | null;
  status: number;
  error_code: string | null;
  error_message: string | null;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  reasoning_tokens: number;
  cost_micros: number;
  latency_ms: number;
  ttft_ms: number | null;
  stream: number;
  warnings: string;
  attempts: string;
  client_ip: string | null;
}

export interface SettingsTable {
  name: string;
  value: string;
  updated_at: number;
}
