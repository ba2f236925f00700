import { z } from 'zod';

export const ROLES = ['support', 'treasury', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const SessionSchema = z.looseObject({
  operator: z.looseObject({ username: z.string(), role: z.enum(ROLES) }),
  csrfToken: z.string().min(1),
  upstream: z.looseObject({ kind: z.enum(['sandbox', 'remote']) }),
  organization: z.looseObject({ id: z.string() }).optional(),
});
export type Session = z.infer<typeof SessionSchema>;
