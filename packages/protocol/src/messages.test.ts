import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { loadEnglishMessages } from './messages';

describe('loadEnglishMessages', () => {
  it("gives zod/mini's own issues classic's English text", () => {
    const schema = z.object({ amount: z.string() });
    // This file imports no classic zod, so mini starts without a locale.
    expect(schema.safeParse({ amount: 5 }).error?.issues[0]?.message).toBe('Invalid input');
    loadEnglishMessages();
    expect(schema.safeParse({ amount: 5 }).error?.issues[0]?.message).toBe(
      'Invalid input: expected string, received number',
    );
  });
});
