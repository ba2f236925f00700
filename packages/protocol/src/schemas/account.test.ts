import { describe, expect, it } from 'vitest';
import { CreateAccountRequestSchema } from './account';
import { METADATA_MAX_BYTES, jsonByteLength } from './common';

/** The limits of a new account live here once: the sandbox refuses by them, the console shows them. */
describe('CreateAccountRequestSchema', () => {
  const messages = (input: unknown) =>
    CreateAccountRequestSchema.safeParse(input).error?.issues.map((i) => [
      i.path.join('.'),
      i.message,
    ]);

  it('trims the name and accepts an externalId of 1 to 128 characters and metadata up to 16 KiB', () => {
    // {"blob":"…"} is 11 bytes around the text; each é is 2 bytes in UTF-8.
    const metadata = { blob: `${'é'.repeat(8186)}x` };
    expect(jsonByteLength(metadata)).toBe(METADATA_MAX_BYTES);
    expect(
      CreateAccountRequestSchema.parse({
        name: '  Merchant ',
        externalId: 'x'.repeat(128),
        metadata,
      }),
    ).toEqual({ name: 'Merchant', externalId: 'x'.repeat(128), metadata });
  });

  it('says what is wrong with each field in words for a person', () => {
    expect(messages({ name: '   ', externalId: '' })).toEqual([
      ['name', 'Enter a name.'],
      ['externalId', 'At least 1 character.'],
    ]);
    expect(messages({ name: 'x'.repeat(201), externalId: 'x'.repeat(129) })).toEqual([
      ['name', 'At most 200 characters.'],
      ['externalId', 'At most 128 characters.'],
    ]);
  });

  it('measures metadata as the UTF-8 bytes of its JSON text and refuses one byte over 16 KiB', () => {
    const metadata = { blob: `${'é'.repeat(8186)}xx` };
    expect(messages({ name: 'A', metadata })).toEqual([
      ['metadata', `Metadata is 16,385 bytes; the limit is 16,384 bytes (16 KiB).`],
    ]);
  });
});
