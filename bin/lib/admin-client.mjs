import { CliError } from './cli-error.mjs';

/**
 * Calls the gateway's admin API. Every failure becomes a CliError carrying the API's own
 * message (which names the field and the request id), or what went wrong on the way there.
 * @param {{ url: string, token: string | undefined }} options
 */
export function createAdminClient({ url, token }) {
  const root = url.replace(/\/+$/, '');
  /**
   * @param {string} method
   * @param {string} path under /api/admin
   * @param {unknown} [body]
   * @returns {Promise<any>}
   */
  async function request(method, path, body) {
    if (!token) {
      throw new CliError('GATEWAY_ADMIN_TOKEN is not set. Export the admin token the gateway printed on its first start (or the one you configured).');
    }
    let response;
    try {
      response = await fetch(`${root}/api/admin${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      const cause = /** @type {{ cause?: { code?: string, message?: string } }} */ (error).cause;
      const reason = cause?.code ?? cause?.message ?? /** @type {Error} */ (error).message;
      throw new CliError(`cannot reach the gateway at ${root} (${reason}); is it running? Set SWITCHYARD_URL to its address.`);
    }
    const text = await response.text();
    let parsed;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      throw new CliError(`${method} ${path}: the gateway answered ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`);
    }
    if (!response.ok) {
      const message = parsed?.error?.message ?? (typeof parsed?.message === 'string' ? parsed.message : text);
      throw new CliError(message || `${method} ${path}: the gateway answered ${response.status}`);
    }
    return parsed;
  }
  return { url: root, request };
}
