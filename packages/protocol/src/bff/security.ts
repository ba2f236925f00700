import { z } from 'zod/mini';
import { CredentialDescriptorSchema, Base64UrlSchema, InstantSchema } from './security-parts';

export { TRANSPORTS } from './security-parts';

/**
 * Operator security (BFF only): who is signed in and step-up, which the console's first task
 * and every request need. DESIGN.md "Second wave" fixes the routes; the BFF types its answers
 * and the console parses them with these schemas.
 *
 * The rest is in modules of their own (sign-in, passkeys, sessions and operators): a bundler
 * never splits a module, so everything here is built when the console starts (zod schemas are
 * built as their module is evaluated); kept apart, the other schemas are built by the pages
 * that use them.
 */

/** The one role list, from least to most privilege: each role may do all the earlier ones may. */
export const ROLES = ['support', 'treasury', 'admin'] as const;
export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;

/** Whether `actual` may do what `required` may (its place in ROLES is the same or later). */
export function hasRole(actual: Role, required: Role): boolean {
  return ROLES.indexOf(actual) >= ROLES.indexOf(required);
}

export const UPSTREAM_KINDS = ['sandbox', 'remote'] as const;

/** GET /bff/auth/me, and POST /bff/auth/login once signing in is complete. */
export const MeSchema = z.lazy(() =>
  z.looseObject({
    operator: z.looseObject({ username: z.string(), role: RoleSchema }),
    csrfToken: z.string().check(z.minLength(1)),
    upstream: z.looseObject({ kind: z.enum(UPSTREAM_KINDS) }),
    organization: z.optional(z.looseObject({ id: z.string() })),
  }),
);
export type Me = z.infer<typeof MeSchema>;

export const PasskeyRequestOptionsSchema = z.lazy(() =>
  z.looseObject({
    challenge: Base64UrlSchema,
    timeout: z.exactOptional(z.int()),
    rpId: z.exactOptional(z.string()),
    allowCredentials: z.exactOptional(z.array(CredentialDescriptorSchema)),
    userVerification: z.exactOptional(z.enum(['discouraged', 'preferred', 'required'])),
  }),
);
export type PasskeyRequestOptions = z.infer<typeof PasskeyRequestOptionsSchema>;

/** POST /bff/auth/step-up/verify: a fresh step-up lasts until this instant. */
export const StepUpSchema = z.lazy(() => z.object({ freshUntil: InstantSchema }));
export type StepUp = z.infer<typeof StepUpSchema>;

/** How long a user-verified assertion counts as a fresh step-up. */
export const STEP_UP_FRESH_MS = 5 * 60_000;
