import { z } from 'zod/mini';

/** Schemas shared by the operator-security modules (not part of the package's API). */

/** An instant as ISO 8601 (the BFF's clock). */
export const InstantSchema = z.string();

// --- WebAuthn (the JSON forms of @simplewebauthn; only what the BFF sends and reads) ---

export const Base64UrlSchema = z.string().check(z.regex(/^[A-Za-z0-9_-]*$/, 'must be base64url'));
export const TRANSPORTS = [
  'ble',
  'cable',
  'hybrid',
  'internal',
  'nfc',
  'smart-card',
  'usb',
] as const;
export const TransportSchema = z.enum(TRANSPORTS);
export const CredentialDescriptorSchema = z.lazy(() =>
  z.object({
    id: Base64UrlSchema,
    type: z.literal('public-key'),
    transports: z.exactOptional(z.array(TransportSchema)),
  }),
);
