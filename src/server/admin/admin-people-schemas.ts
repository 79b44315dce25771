import { z } from 'zod';
import { ADMIN_ROLES } from '../../domain/admin.ts';
import { instant, password } from '../../schemas/field-rules.ts';

/** The bodies of the admin-people routes (issue 29), shared with the OpenAPI description. */
const role = z.enum(ADMIN_ROLES, { error: `must be one of ${ADMIN_ROLES.join(', ')}` });
// Names are matched case-insensitively at sign-in and may not look like an e-mail, so a login is never ambiguous.
const adminName = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[^@\s]+$/, 'must not contain "@" or spaces');
const email = z.email('must be an e-mail address').max(320);

export const adminSignInSchema = z.strictObject({
  login: z.string().min(1).max(320),
  password: z.string().min(1).max(1024),
  totp: z.string().max(64).optional(),
});
export const totpCodeSchema = z.strictObject({ code: z.string().trim().min(1).max(64) });
export const signInSettingsSchema = z.strictObject({ requireAdminTotp: z.boolean(), oidcOnly: z.boolean() }).partial();
export const adminCreateSchema = z.strictObject({ name: adminName, email, role, password });
export const adminPatchSchema = z.strictObject({ name: adminName, email, role, password, enabled: z.boolean() }).partial();
export const adminTokenCreateSchema = z.strictObject({ name: z.string().trim().min(1).max(100), role, expiresAt: instant });
