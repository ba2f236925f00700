import { QueryClient } from '@tanstack/react-query';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiTestServer } from '../../../test/test-server';
import type { TestServer } from '../../../test/test-server';
import { cleanSupportQuery, supportSearchQuery } from './support-search';

let server: TestServer;
beforeAll(async () => {
  server = await startApiTestServer();
  server.route('GET', '/bff/support/search', (request) => ({
    body: { query: new URL(request.path, 'http://x').searchParams.get('q') },
  }));
});
afterAll(() => server.close());

describe('cleanSupportQuery', () => {
  it('drops spaces, line breaks and invisible characters around a pasted id, never inside it', () => {
    expect(cleanSupportQuery('  req_01HX  ')).toBe('req_01HX');
    expect(cleanSupportQuery('\treq_01HX\r\n')).toBe('req_01HX');
    // Zero-width space, word joiner, BOM, direction marks: what chat apps paste along.
    expect(cleanSupportQuery('\u200B\u2060req_01HX\uFEFF\u200E ')).toBe('req_01HX');
    expect(cleanSupportQuery('\u00A0tx 1\u00A0')).toBe('tx 1');
    expect(cleanSupportQuery(' \u200B ')).toBe('');
  });
});

describe('supportSearchQuery', () => {
  it('searches for the clean id, from the form or a padded link alike', async () => {
    const client = new QueryClient();
    const options = supportSearchQuery(' \u200Bcorr-42\u200B\n');
    expect(options.queryKey).toEqual(supportSearchQuery('corr-42').queryKey);
    const result = await client.query(options);
    expect(result.query).toBe('corr-42');
    expect(server.requests.at(-1)?.path).toBe('/bff/support/search?q=corr-42');
  });

  it('is disabled for a query that is only blanks', () => {
    expect(supportSearchQuery(' \u200B ').enabled).toBe(false);
  });
});
