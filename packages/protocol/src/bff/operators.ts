import { z } from 'zod/mini';
import { RoleSchema } from './security';
import { InstantSchema } from './security-parts';

/** Sessions and operator management (see security.ts). */

// --- sessions ---

export const SessionInfoSchema = z.lazy(() =>
  z.object({
    /** An opaque handle; never the cookie or anything derived from it. */
    id: z.string(),
    username: z.string(),
    /** "Chrome on Linux", from the user agent. */
    device: z.string(),
    userAgent: z.string(),
    ip: z.string(),
    createdAt: InstantSchema,
    lastSeenAt: InstantSchema,
    isCurrent: z.boolean(),
  }),
);
export type SessionInfo = z.infer<typeof SessionInfoSchema>;

/** GET /bff/auth/sessions[?username=] (another operator's: admin). */
export const SessionListSchema = z.lazy(() => z.object({ items: z.array(SessionInfoSchema) }));
export type SessionList = z.infer<typeof SessionListSchema>;

/** DELETE /bff/auth/sessions (every other session of mine). */
export const EndedSessionsSchema = z.lazy(() => z.object({ ended: z.int().check(z.gte(0)) }));

// --- operators ---

export const UsernameSchema = z
  .string()
  .check(
    z.regex(
      /^[a-z0-9][a-z0-9._-]{1,63}$/,
      'must be 2-64 lowercase letters, digits, ".", "_" or "-"',
    ),
  );

export const OperatorSummarySchema = z.lazy(() =>
  z.object({
    username: z.string(),
    role: RoleSchema,
    isDisabled: z.boolean(),
    mustChangePassword: z.boolean(),
    passkeys: z.int().check(z.gte(0)),
    createdAt: InstantSchema,
    lastSignInAt: z.nullable(InstantSchema),
  }),
);
export type OperatorSummary = z.infer<typeof OperatorSummarySchema>;

/** GET /bff/operators */
export const OperatorListSchema = z.lazy(() => z.object({ items: z.array(OperatorSummarySchema) }));
export type OperatorList = z.infer<typeof OperatorListSchema>;

/** POST /bff/operators */
export const CreateOperatorRequestSchema = z.lazy(() =>
  z.object({ username: UsernameSchema, role: RoleSchema }),
);
export type CreateOperatorRequest = z.infer<typeof CreateOperatorRequestSchema>;

/** POST /bff/operators and POST /bff/operators/{username}/reset-password: shown once. */
export const OneTimePasswordSchema = z.lazy(() =>
  z.object({
    operator: OperatorSummarySchema,
    oneTimePassword: z.string(),
  }),
);
export type OneTimePassword = z.infer<typeof OneTimePasswordSchema>;

/** PATCH /bff/operators/{username} */
export const UpdateOperatorRequestSchema = z.lazy(() =>
  z.object({ role: z.exactOptional(RoleSchema), disabled: z.exactOptional(z.boolean()) }).check(
    z.refine((body) => body.role !== undefined || body.disabled !== undefined, {
      message: 'role or disabled is required',
    }),
  ),
);
export type UpdateOperatorRequest = z.infer<typeof UpdateOperatorRequestSchema>;
