import { createHash } from 'node:crypto';

export interface MintedToken {
  token: string;
  /** Epoch ms after which the token is renewed (its expiry less a margin). */
  renewAt: number;
}

/**
 * OAuth access tokens minted from channel secrets (Vertex service accounts, Azure Entra ID
 * apps), cached until shortly before they expire. Entries are keyed by a hash of the secret,
 * so the secret is never held as a map key; concurrent requests for the same secret share one
 * mint; the oldest entry is dropped past `maxEntries`.
 */
export class AccessTokenCache {
  readonly #tokens = new Map<string, MintedToken>();
  /** The token each secret's current one replaced: a request sent just before a renewal may still see it quoted back. */
  readonly #previous = new Map<string, string>();
  readonly #minting = new Map<string, Promise<MintedToken>>();

  constructor(private readonly maxEntries: number) {}

  async get(secret: string, now: () => number, mint: () => Promise<MintedToken>): Promise<string> {
    const cacheKey = createHash('sha256').update(secret).digest('hex');
    const cached = this.#tokens.get(cacheKey);
    if (cached && now() < cached.renewAt) return cached.token;
    let pending = this.#minting.get(cacheKey);
    if (!pending) {
      pending = mint().finally(() => this.#minting.delete(cacheKey));
      this.#minting.set(cacheKey, pending);
    }
    const minted = await pending;
    const replaced = this.#tokens.get(cacheKey);
    if (replaced !== undefined && replaced.token !== minted.token) this.#previous.set(cacheKey, replaced.token);
    this.#tokens.delete(cacheKey);
    if (this.#tokens.size >= this.maxEntries) {
      const oldest = this.#tokens.keys().next().value as string;
      this.#tokens.delete(oldest);
      this.#previous.delete(oldest);
    }
    this.#tokens.set(cacheKey, minted);
    return minted.token;
  }

  /**
   * The tokens minted from a secret that may still be in flight (the current one and the one it
   * replaced): they are credentials too, so upstream error texts are redacted of them.
   */
  tokensOf(secret: string): string[] {
    const cacheKey = createHash('sha256').update(secret).digest('hex');
    const current = this.#tokens.get(cacheKey)?.token;
    const previous = this.#previous.get(cacheKey);
    return [current, previous].filter((token): token is string => token !== undefined);
  }

  /** Forgets every cached token (tests; a rotated secret). */
  clear(): void {
    this.#tokens.clear();
    this.#previous.clear();
  }
}
