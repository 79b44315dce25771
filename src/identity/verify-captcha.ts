import type { CaptchaProvider, CaptchaSettings } from './sign-up-settings.ts';

/** The providers' siteverify endpoints (form POST of secret, response, remoteip; JSON `{success}` back). */
export const CAPTCHA_VERIFY_URLS: Record<CaptchaProvider, string> = {
  turnstile: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
  hcaptcha: 'https://api.hcaptcha.com/siteverify',
};

/**
 * Asks the captcha provider whether `token` is a solved, unused challenge for our secret. Any
 * failure to ask (network, a non-JSON answer, a timeout) counts as not solved: a sign-up is
 * never let through because the check could not be made.
 */
export async function verifyCaptcha(captcha: CaptchaSettings, token: string | undefined, remoteIp: string): Promise<boolean> {
  if (!token) return false;
  const body = new URLSearchParams({ secret: captcha.secret, response: token, remoteip: remoteIp });
  try {
    const response = await fetch(captcha.verifyUrl ?? CAPTCHA_VERIFY_URLS[captcha.provider], {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) return false;
    const answer = (await response.json()) as { success?: unknown };
    return answer.success === true;
  } catch {
    return false;
  }
}
