import { z } from 'zod/mini';
import { SignInResultSchema } from './sign-in';
import {
  Base64UrlSchema,
  CredentialDescriptorSchema,
  InstantSchema,
  TransportSchema,
} from './security-parts';

/** Passkeys (WebAuthn): enrolment, assertions and the list (see security.ts). */

export const PasskeyCreationOptionsSchema = z.lazy(() =>
  z.looseObject({
    rp: z.object({ id: z.exactOptional(z.string()), name: z.string() }),
    user: z.object({ id: Base64UrlSchema, name: z.string(), displayName: z.string() }),
    challenge: Base64UrlSchema,
    pubKeyCredParams: z.array(z.object({ alg: z.int(), type: z.literal('public-key') })),
    timeout: z.exactOptional(z.int()),
    excludeCredentials: z.exactOptional(z.array(CredentialDescriptorSchema)),
    authenticatorSelection: z.exactOptional(
      z.object({
        residentKey: z.exactOptional(z.enum(['discouraged', 'preferred', 'required'])),
        requireResidentKey: z.exactOptional(z.boolean()),
        userVerification: z.exactOptional(z.enum(['discouraged', 'preferred', 'required'])),
      }),
    ),
    attestation: z.exactOptional(z.enum(['direct', 'enterprise', 'indirect', 'none'])),
  }),
);
export type PasskeyCreationOptions = z.infer<typeof PasskeyCreationOptionsSchema>;

const ClientExtensionResultsSchema = z.lazy(() => z.looseObject({}));

export const RegistrationCredentialSchema = z.lazy(() =>
  z.object({
    id: Base64UrlSchema.check(z.minLength(1), z.maxLength(1400)),
    rawId: Base64UrlSchema.check(z.minLength(1), z.maxLength(1400)),
    type: z.literal('public-key'),
    response: z.object({
      clientDataJSON: Base64UrlSchema.check(z.maxLength(8192)),
      attestationObject: Base64UrlSchema.check(z.maxLength(65_536)),
      authenticatorData: z.exactOptional(Base64UrlSchema.check(z.maxLength(65_536))),
      transports: z.exactOptional(z.array(TransportSchema).check(z.maxLength(8))),
      publicKeyAlgorithm: z.exactOptional(z.int()),
      publicKey: z.exactOptional(Base64UrlSchema.check(z.maxLength(8192))),
    }),
    authenticatorAttachment: z.exactOptional(z.enum(['cross-platform', 'platform'])),
    clientExtensionResults: ClientExtensionResultsSchema,
  }),
);
export type RegistrationCredential = z.infer<typeof RegistrationCredentialSchema>;

export const AuthenticationCredentialSchema = z.lazy(() =>
  z.object({
    id: Base64UrlSchema.check(z.minLength(1), z.maxLength(1400)),
    rawId: Base64UrlSchema.check(z.minLength(1), z.maxLength(1400)),
    type: z.literal('public-key'),
    response: z.object({
      clientDataJSON: Base64UrlSchema.check(z.maxLength(8192)),
      authenticatorData: Base64UrlSchema.check(z.maxLength(65_536)),
      signature: Base64UrlSchema.check(z.maxLength(8192)),
      userHandle: z.exactOptional(Base64UrlSchema.check(z.maxLength(1400))),
    }),
    authenticatorAttachment: z.exactOptional(z.enum(['cross-platform', 'platform'])),
    clientExtensionResults: ClientExtensionResultsSchema,
  }),
);
export type AuthenticationCredential = z.infer<typeof AuthenticationCredentialSchema>;

export const PasskeyNameSchema = z.string().check(z.trim(), z.minLength(1), z.maxLength(64));

/** POST /bff/auth/passkeys/register/verify */
export const PasskeyRegisterRequestSchema = z.lazy(() =>
  z.object({
    name: PasskeyNameSchema,
    credential: RegistrationCredentialSchema,
  }),
);
export type PasskeyRegisterRequest = z.infer<typeof PasskeyRegisterRequestSchema>;

/** POST /bff/auth/passkeys/login/verify and /bff/auth/step-up/verify */
export const PasskeyAssertionRequestSchema = z.lazy(() =>
  z.object({
    credential: AuthenticationCredentialSchema,
  }),
);
export type PasskeyAssertionRequest = z.infer<typeof PasskeyAssertionRequestSchema>;

export const PasskeySchema = z.lazy(() =>
  z.object({
    /** An opaque handle of the BFF, not the credential id. */
    id: z.string(),
    name: z.string(),
    createdAt: InstantSchema,
    lastUsedAt: z.nullable(InstantSchema),
    isBackedUp: z.boolean(),
  }),
);
export type Passkey = z.infer<typeof PasskeySchema>;

/** GET /bff/auth/passkeys (and an admin's GET /bff/operators/{username}/passkeys). */
export const PasskeyListSchema = z.lazy(() =>
  z.object({
    items: z.array(PasskeySchema),
    /** Whether this deployment requires a passkey (the last one cannot be removed then). */
    requirePasskeys: z.boolean(),
  }),
);
export type PasskeyList = z.infer<typeof PasskeyListSchema>;

/** POST /bff/auth/passkeys/register/verify answers the passkey and where signing in stands. */
export const PasskeyEnrolledSchema = z.lazy(() =>
  z.object({
    passkey: PasskeySchema,
    signIn: SignInResultSchema,
  }),
);
export type PasskeyEnrolled = z.infer<typeof PasskeyEnrolledSchema>;
