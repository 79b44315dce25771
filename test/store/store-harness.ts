import type { Store } from '../../src/store/store.ts';

/** What the conformance suite needs from a database backend. */
export interface StoreHarness {
  readonly dialect: 'sqlite' | 'postgres';
  /** The current test database's URL, for tests that read it beside the store. */
  readonly databaseUrl: string;
  /** Opens a store on the current test database; call again (after close) to reopen it. */
  open(options?: { secretKey?: Buffer; now?: () => number }): Promise<Store>;
  /** Runs SQL straight against the database, bypassing the store. */
  rawQuery(sqlText: string): Promise<Array<Record<string, unknown>>>;
  /** Switches to a fresh, empty database for the next test. */
  reset(): Promise<void>;
  dispose(): Promise<void>;
}

export const TEST_SECRET = Buffer.from('test-gateway-secret-0123456789abcdef', 'utf8');
