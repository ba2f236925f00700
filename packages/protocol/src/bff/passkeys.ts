import { z } from 'zod';
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
    rp: z.object({ id: z.string().exactOptional(), name: z.string() }),
    user: z.object({ id: Base64UrlSchema, name: z.string(), displayName: z.string() }),
    challenge: Base64UrlSchema,
    pubKeyCredParams: z.array(z.object({ alg: z.number().int(), type: z.literal('public-key') })),
    timeout: z.number().int().exactOptional(),
    excludeCredentials: z.array(CredentialDescriptorSchema).exactOptional(),
    authenticatorSelection: z
      .object({
        residentKey: z.enum(['discouraged', 'preferred', 'required']).exactOptional(),
        requireResidentKey: z.boolean().exactOptional(),
        userVerification: z.enum(['discouraged', 'preferred', 'required']).exactOptional(),
      })
      .exactOptional(),
    attestation: z.enum(['direct', 'enterprise', 'indirect', 'none']).exactOptional(),
  }),
);
export type PasskeyCreationOptions = z.infer<typeof PasskeyCreationOptionsSchema>;

const ClientExtensionResultsSchema = z.lazy(() => z.looseObject({}));

export const RegistrationCredentialSchema = z.lazy(() =>
  z.object({
    id: Base64UrlSchema.min(1).max(1400),
    rawId: Base64UrlSchema.min(1).max(1400),
    type: z.literal('public-key'),
    response: z.object({
      clientDataJSON: Base64UrlSchema.max(8192),
      attestationObject: Base64UrlSchema.max(65_536),
      authenticatorData: Base64UrlSchema.max(65_536).exactOptional(),
      transports: z.array(TransportSchema).max(8).exactOptional(),
      publicKeyAlgorithm: z.number().int().exactOptional(),
      publicKey: Base64UrlSchema.max(8192).exactOptional(),
    }),
    authenticatorAttachment: z.enum(['cross-platform', 'platform']).exactOptional(),
    clientExtensionResults: ClientExtensionResultsSchema,
  }),
);
export type RegistrationCredential = z.infer<typeof RegistrationCredentialSchema>;

export const AuthenticationCredentialSchema = z.lazy(() =>
  z.object({
    id: Base64UrlSchema.min(1).max(1400),
    rawId: Base64UrlSchema.min(1).max(1400),
    type: z.literal('public-key'),
    response: z.object({
      clientDataJSON: Base64UrlSchema.max(8192),
      authenticatorData: Base64UrlSchema.max(65_536),
      signature: Base64UrlSchema.max(8192),
      userHandle: Base64UrlSchema.max(1400).exactOptional(),
    }),
    authenticatorAttachment: z.enum(['cross-platform', 'platform']).exactOptional(),
    clientExtensionResults: ClientExtensionResultsSchema,
  }),
);
export type AuthenticationCredential = z.infer<typeof AuthenticationCredentialSchema>;

export const PasskeyNameSchema = z.string().trim().min(1).max(64);

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
    lastUsedAt: InstantSchema.nullable(),
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
