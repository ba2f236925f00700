import { z } from 'zod';
import { HttpError } from '../errors';

/** zod issues as the envelope's `details`: `{field, issue}` per problem. */
function issueDetails(error: z.core.$ZodError): { field: string; issue: string }[] {
  return error.issues.map((issue) => ({
    field: issue.path.join('.') || '(body)',
    issue: issue.message,
  }));
}

/** Validates a parsed JSON body: 400 VALIDATION_ERROR naming every bad field. */
export function parseBody<T extends z.core.$ZodType>(schema: T, body: unknown): z.infer<T> {
  const parsed = z.safeParse(schema, body);
  if (!parsed.success) {
    throw new HttpError(
      'VALIDATION_ERROR',
      'The request body is not valid.',
      issueDetails(parsed.error),
    );
  }
  return parsed.data;
}
