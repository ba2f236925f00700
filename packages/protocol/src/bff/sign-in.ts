import { z } from 'zod/mini';
import { MeSchema, RoleSchema, UPSTREAM_KINDS } from './security';

/** Signing in: the steps after the password, and the password itself (see security.ts). */

/**
 * What the password alone does not finish: a one-time password to replace, a passkey to
 * present, or (passkeys required) a first passkey to enroll. Until then the session can do
 * nothing else.
 */
export const SIGN_IN_STEPS = ['change-password', 'passkey', 'enroll-passkey'] as const;
export const SignInStepSchema = z.enum(SIGN_IN_STEPS);
export type SignInStep = z.infer<typeof SignInStepSchema>;

export const PendingSignInSchema = z.lazy(() =>
  z.object({
    signInStep: SignInStepSchema,
    operator: z.object({ username: z.string(), role: RoleSchema }),
    csrfToken: z.string().check(z.minLength(1)),
    upstream: z.object({ kind: z.enum(UPSTREAM_KINDS) }),
  }),
);
export type PendingSignIn = z.infer<typeof PendingSignInSchema>;

/** POST /bff/auth/login, POST /bff/auth/password and the sign-in passkey routes. */
export const SignInResultSchema = z.lazy(() => z.union([PendingSignInSchema, MeSchema]));
export type SignInResult = z.infer<typeof SignInResultSchema>;

export const LoginRequestSchema = z.lazy(() =>
  z.object({
    username: z.string().check(z.minLength(1), z.maxLength(128)),
    password: z.string().check(z.minLength(1), z.maxLength(1024)),
  }),
);

/** At least 12 characters; strength is judged by the BFF (PASSWORD_TOO_WEAK). */
export const NEW_PASSWORD_MIN_LENGTH = 12;
export const NewPasswordSchema = z
  .string()
  .check(z.minLength(NEW_PASSWORD_MIN_LENGTH), z.maxLength(1024));

/** POST /bff/auth/password: the signed-in operator (or one replacing a one-time password). */
export const ChangePasswordRequestSchema = z.lazy(() =>
  z.object({
    currentPassword: z.string().check(z.minLength(1), z.maxLength(1024)),
    newPassword: NewPasswordSchema,
  }),
);
