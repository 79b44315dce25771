/** `node dist/main.js --help`: how to run the gateway; configuration is the environment. */
export const USAGE = `Usage: node dist/main.js [--help] [--version]     (npm start does the same after compiling)

Runs the Switchyard gateway. Configuration comes from the environment:

  PORT, HOST                 where to listen (8080, 127.0.0.1)
  DATABASE_URL               sqlite:<path> (default sqlite:./data/switchyard.db) or postgres://…
  REDIS_URL                  shared state for several workers or instances
  WORKERS                    processes; default 1, or every core with NODE_ENV=production and REDIS_URL
  GATEWAY_ADMIN_TOKEN        the admin API token (default: generated and shown until first used)
  GATEWAY_SECRET             encrypts upstream secrets (default ./data/gateway.secret with SQLite)
  GATEWAY_CONFIG             a YAML file of groups, channels, keys and prices applied at start
  METRICS_TOKEN              a read-only Bearer token for GET /metrics (the admin token also works)
  LOG_LEVEL                  fatal, error, warn, info (default), debug, trace, silent
  STRICT_PRICING             refuse unpriced models
  RESERVE_OUTPUT_TOKENS      output held for an uncapped request to an unknown model (32768)
  MAX_UPSTREAM_EVENT_BYTES, MAX_UPSTREAM_REPLY_BYTES
                             bounds on one upstream event / plain reply (16 MiB) and one reply (256 MiB)
  UPSTREAM_FIRST_BYTE_TIMEOUT_MS, STREAM_IDLE_TIMEOUT_MS, UPSTREAM_CONNECT_TIMEOUT_MS, …
                             see README.md (Configuration) for every variable

Exit codes: 0 stopped cleanly; 1 the environment refused (port in use, database unreachable);
2 the configuration is wrong (a bad variable, config file or command-line option).

Admin CLI: npx switchyard help.  Diagnose a client set-up: npx switchyard-diagnose --help.
`;
