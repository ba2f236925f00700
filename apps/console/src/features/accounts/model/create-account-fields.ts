import { CreateAccountRequestSchema } from '@settlement/protocol';
import { z } from 'zod/mini';
import { MetadataTextSchema } from './metadata';

const { name, externalId } = CreateAccountRequestSchema.shape;

/**
 * The create-account form's text fields, read into the protocol's request: every limit (name,
 * externalId 1-128, metadata 16 KiB) and its message comes from CreateAccountRequestSchema.
 */
export const CreateAccountFieldsSchema = z.object({
  name,
  // A blank optional field is "not given", not a 0-character reference.
  externalId: z.pipe(
    z.pipe(
      z.string(),
      z.transform((text) => (text === '' ? undefined : text)),
    ),
    externalId,
  ),
  metadata: MetadataTextSchema,
});
export type CreateAccountFields = z.input<typeof CreateAccountFieldsSchema>;

export const EMPTY_ACCOUNT_FIELDS: CreateAccountFields = { name: '', externalId: '', metadata: '' };

/** The first message of each field the schema refuses (what the form shows next to it). */
export function problemsOf(
  fields: CreateAccountFields,
): Partial<Record<keyof CreateAccountFields, string>> {
  const parsed = CreateAccountFieldsSchema.safeParse(fields);
  const problems: Partial<Record<keyof CreateAccountFields, string>> = {};
  for (const issue of parsed.error?.issues ?? []) {
    const key = issue.path[0];
    if ((key === 'name' || key === 'externalId' || key === 'metadata') && !problems[key]) {
      problems[key] = issue.message;
    }
  }
  return problems;
}
