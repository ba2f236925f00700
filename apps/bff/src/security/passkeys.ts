import type * as WebAuthn from '@simplewebauthn/server';
import {
  PasskeyAssertionRequestSchema,
  PasskeyCreationOptionsSchema,
  PasskeyRegisterRequestSchema,
  PasskeyRequestOptionsSchema,
  type Passkey,
  type PasskeyCreationOptions,
  type PasskeyRequestOptions,
} from '@settlement/protocol';
import { HttpError } from '../errors';
import type { Services } from '../services/services';
import type { Session } from '../store/sessions';
import { auditSecurity } from './audit';
import {
  CHALLENGE_TTL_MS,
  type ChallengePurpose,
  type PasskeyStore,
  type StoredPasskey,
} from './passkey-store';

/**
 * The WebAuthn library, loaded on the first ceremony (the module loader keeps it after): it
 * and its ASN.1 and COSE dependencies were a fifth of the BFF's start (~350 ms of ~1.6 s on
 * 2 cores), for a few calls a day.
 */
function webauthnLibrary(): Promise<typeof WebAuthn> {
  return import('@simplewebauthn/server');
}

/** EdDSA, ES256, RS256: what authenticators offer today (no post-quantum surprise). */
const ALGORITHMS = [-8, -7, -257];

function toPasskey(stored: StoredPasskey): Passkey {
  return {
    id: stored.id,
    name: stored.name,
    createdAt: new Date(stored.createdAt).toISOString(),
    lastUsedAt: stored.lastUsedAt === null ? null : new Date(stored.lastUsedAt).toISOString(),
    isBackedUp: stored.isBackedUp,
  };
}

function invalidBody(): never {
  throw new HttpError('VALIDATION_ERROR', 'The passkey answer is not well formed.');
}

export type PasskeyService = ReturnType<typeof createPasskeyService>;

/**
 * WebAuthn through @simplewebauthn/server: options bind a challenge to the session (single use,
 * 2 minutes), user verification is required, the library checks origin, RP id, signature and
 * the signature counter. Enrollment, removal and every failed assertion are audited.
 */
export function createPasskeyService(services: Services, store: PasskeyStore) {
  const { webauthn } = services.config;

  async function registrationOptions(session: Session): Promise<PasskeyCreationOptions> {
    const { generateRegistrationOptions } = await webauthnLibrary();
    const existing = await store.ofOperator(session.operatorId);
    const options = await generateRegistrationOptions({
      rpName: webauthn.rpName,
      rpID: webauthn.rpId,
      userName: session.username,
      userID: Buffer.from(await services.operators.webauthnUserId(session.operatorId), 'base64url'),
      userDisplayName: session.username,
      timeout: CHALLENGE_TTL_MS,
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
      supportedAlgorithmIDs: ALGORITHMS,
    });
    await store.issueChallenge(session.idHash, 'register', options.challenge);
    return PasskeyCreationOptionsSchema.parse(options);
  }

  async function register(session: Session, body: unknown): Promise<Passkey> {
    const parsed = PasskeyRegisterRequestSchema.safeParse(body);
    if (!parsed.success) invalidBody();
    const challenge = await store.takeChallenge(session.idHash, 'register');
    const fail = async (why: string): Promise<never> => {
      await auditSecurity(services, {
        operator: session.username,
        action: 'passkey.register',
        outcome: 'failure',
        detail: why,
      });
      throw new HttpError('VALIDATION_ERROR', `The passkey was not enrolled: ${why}`);
    };
    if (challenge === null) return fail('the challenge expired or was already used; try again.');
    const { verifyRegistrationResponse } = await webauthnLibrary();
    let verification;
    try {
      verification = await verifyRegistrationResponse({
        response: parsed.data.credential,
        expectedChallenge: challenge,
        expectedOrigin: webauthn.origins,
        expectedRPID: webauthn.rpId,
        requireUserVerification: true,
        supportedAlgorithmIDs: ALGORITHMS,
      });
    } catch (error) {
      return fail(error instanceof Error ? error.message : 'it could not be verified.');
    }
    if (!verification.verified) return fail('it could not be verified.');
    const { credential, credentialBackedUp } = verification.registrationInfo;
    if (await store.byCredentialId(credential.id)) return fail('this passkey is already enrolled.');
    const stored = await store.add({
      operatorId: session.operatorId,
      credentialId: credential.id,
      publicKey: credential.publicKey,
      counter: credential.counter,
      transports: (parsed.data.credential.response.transports ?? []).slice(0, 8),
      name: parsed.data.name,
      isBackedUp: credentialBackedUp,
    });
    await auditSecurity(services, {
      operator: session.username,
      action: 'passkey.register',
      outcome: 'success',
      resourceId: stored.id,
      detail: stored.name,
    });
    return toPasskey(stored);
  }

  async function assertionOptions(
    session: Session,
    purpose: Exclude<ChallengePurpose, 'register'>,
  ): Promise<PasskeyRequestOptions> {
    const passkeys = await store.ofOperator(session.operatorId);
    if (passkeys.length === 0) {
      throw new HttpError('VALIDATION_ERROR', 'This operator has no passkey yet.');
    }
    const { generateAuthenticationOptions } = await webauthnLibrary();
    const options = await generateAuthenticationOptions({
      rpID: webauthn.rpId,
      allowCredentials: passkeys.map((p) => ({ id: p.credentialId, transports: p.transports })),
      userVerification: 'required',
      timeout: CHALLENGE_TTL_MS,
    });
    await store.issueChallenge(session.idHash, purpose, options.challenge);
    return PasskeyRequestOptionsSchema.parse(options);
  }

  /**
   * Verifies a user-verified assertion of one of the session operator's own passkeys against
   * the session's outstanding challenge (consumed either way). Throws `failure` on any problem.
   */
  async function assert(
    session: Session,
    purpose: Exclude<ChallengePurpose, 'register'>,
    body: unknown,
    failure: () => HttpError | Promise<HttpError>,
  ): Promise<StoredPasskey> {
    const parsed = PasskeyAssertionRequestSchema.safeParse(body);
    if (!parsed.success) invalidBody();
    const challenge = await store.takeChallenge(session.idHash, purpose);
    const passkey = await store.byCredentialId(parsed.data.credential.id);
    const fail = async (why: string): Promise<never> => {
      await auditSecurity(services, {
        operator: session.username,
        action: 'passkey.assertion',
        outcome: 'failure',
        resourceId: passkey?.id ?? null,
        detail: `${purpose}: ${why}`,
      });
      throw await failure();
    };
    if (challenge === null) return fail('no outstanding challenge (expired or already used)');
    if (!passkey || passkey.operatorId !== session.operatorId) {
      return fail('not a passkey of this operator');
    }
    const { verifyAuthenticationResponse } = await webauthnLibrary();
    let verification;
    try {
      verification = await verifyAuthenticationResponse({
        response: parsed.data.credential,
        expectedChallenge: challenge,
        expectedOrigin: webauthn.origins,
        expectedRPID: webauthn.rpId,
        credential: {
          id: passkey.credentialId,
          publicKey: passkey.publicKey,
          counter: passkey.counter,
          transports: passkey.transports,
        },
        requireUserVerification: true,
      });
    } catch (error) {
      return fail(error instanceof Error ? error.message : 'verification failed');
    }
    if (!verification.verified || !verification.authenticationInfo.userVerified) {
      return fail('not verified');
    }
    const info = verification.authenticationInfo;
    await store.recordUse(passkey.id, info.newCounter, info.credentialBackedUp);
    await auditSecurity(services, {
      operator: session.username,
      action: 'passkey.assertion',
      outcome: 'success',
      resourceId: passkey.id,
      detail: purpose,
    });
    return passkey;
  }

  return {
    registrationOptions,
    register,
    assertionOptions,
    assert,
    list: async (operatorId: number): Promise<Passkey[]> =>
      (await store.ofOperator(operatorId)).map(toPasskey),
    count: async (operatorId: number): Promise<number> =>
      (await store.ofOperator(operatorId)).length,
    /**
     * Removes one passkey of `owner`. `keepLast`: passkeys are required and this is the
     * owner's own request, so the last one stays.
     */
    async remove(
      actor: string,
      owner: { id: number; username: string },
      passkeyId: string,
      options: { keepLast: boolean },
    ): Promise<void> {
      const passkeys = await store.ofOperator(owner.id);
      const target = passkeys.find((p) => p.id === passkeyId);
      if (!target) throw new HttpError('RESOURCE_NOT_FOUND', 'No such passkey.');
      if (options.keepLast && passkeys.length <= 1) {
        throw new HttpError('LAST_PASSKEY_PROTECTED');
      }
      await store.remove(passkeyId, owner.id);
      await auditSecurity(services, {
        operator: actor,
        action: 'passkey.remove',
        outcome: 'success',
        resourceId: passkeyId,
        detail: `${owner.username}: ${target.name}`,
      });
    },
  };
}
