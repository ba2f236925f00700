import { z } from 'zod/mini';

/**
 * The BFF's browser event stream (`GET /bff/events`): the frames it sends and the close codes it
 * uses. The upstream interface defines neither; the BFF and the console both read them from here.
 */

/** Query parameter a browser resumes with: the id of the last event it processed. */
export const RELAY_RESUME_PARAM = 'after';

/**
 * Query parameter of a browser without a resume position: how many milliseconds ago it began
 * reading what it shows (a duration, so the browser's clock never has to agree with ours).
 * When events arrived in that window the relay sends a `resync` (`events-before-open`); it
 * always does for a window longer than the events it keeps (EVENT_RETENTION_DAYS).
 */
export const RELAY_WITHIN_PARAM = 'within';

export const RELAY_CLOSE = {
  /** The session was ended (logout, revocation, expiry): do not reconnect, the operator is out. */
  sessionEnded: { code: 4001, reason: 'session ended' },
  /** The socket could not keep up (or a replay was too long): reconnect at once with `after`. */
  resume: { code: 4008, reason: 'resume' },
} as const;

export const RelayedEventSchema = z.lazy(() =>
  z.looseObject({
    id: z.string().check(z.minLength(1)),
    type: z.string().check(z.minLength(1)),
    occurredAt: z.string(),
    correlationId: z.optional(z.nullable(z.string())),
    orgId: z.optional(z.string()),
    data: z._default(z.record(z.string(), z.unknown()), {}),
    sequence: z.optional(z.nullable(z.number())),
  }),
);
export type RelayedEvent = z.infer<typeof RelayedEventSchema>;

export const UPSTREAM_STATES = ['connected', 'reconnecting', 'offline'] as const;
export type UpstreamState = (typeof UPSTREAM_STATES)[number];

/**
 * How often the relay sends every socket a `heartbeat` frame. A page cannot see WebSocket pings,
 * so without it a link gone silent (a hung server, a connection left half open by a laptop's
 * sleep or a network change) looks like a quiet stream, and the console would go on saying
 * "Live".
 */
export const RELAY_HEARTBEAT_MS = 10_000;

/** Silence after which a browser gives its socket up and reconnects: two heartbeats missed. */
export const RELAY_SILENCE_LIMIT_MS = 25_000;

/** Why a browser must reload what it shows from REST instead of relying on a replay. */
export const RESYNC_REASONS = ['resume-point-unknown', 'events-before-open'] as const;

export const RelayFrameSchema = z.lazy(() =>
  z.discriminatedUnion('kind', [
    /** One normalized upstream event and the BFF REST paths whose data it changed. */
    z.looseObject({
      kind: z.literal('event'),
      event: RelayedEventSchema,
      invalidates: z._default(z.array(z.string()), []),
    }),
    /** The state of the BFF's own link to the upstream event stream. */
    z.looseObject({ kind: z.literal('upstream'), state: z.enum(UPSTREAM_STATES) }),
    /** Nothing else was sent for RELAY_HEARTBEAT_MS: the link is alive. */
    z.looseObject({ kind: z.literal('heartbeat') }),
    /** Replay is impossible from the requested point: everything shown must be refetched. */
    z.looseObject({ kind: z.literal('resync'), reason: z.enum(RESYNC_REASONS) }),
    /**
     * A change made in the BFF itself (withdrawal requests, policy, address book, operators), so
     * other consoles refresh without reload. `topic` names it; `invalidates` lists BFF REST paths.
     */
    z.looseObject({
      kind: z.literal('change'),
      topic: z.string().check(z.minLength(1)),
      invalidates: z._default(z.array(z.string()), []),
    }),
  ]),
);
export type RelayFrame = z.infer<typeof RelayFrameSchema>;
