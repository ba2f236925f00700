import { expect } from 'vitest';
import type { Sql } from '../store/sql';

/** Records the plan the engine chooses for each statement `pick` selects, then runs it. */
export function explaining(sql: Sql, pick: (text: string) => boolean, plans: string[]): Sql {
  const prefix = sql.dialect === 'sqlite' ? 'EXPLAIN QUERY PLAN ' : 'EXPLAIN ';
  const over = (target: Sql): Sql => {
    const explain = async (text: string, params?: Parameters<Sql['all']>[1]) => {
      if (!pick(text)) return;
      const plan = await target.all(prefix + text, params);
      plans.push(plan.map((step) => String(step.detail ?? step['QUERY PLAN'])).join('\n'));
    };
    return {
      ...target,
      all: async (text, params) => {
        await explain(text, params);
        return target.all(text, params);
      },
      run: async (text, params) => {
        await explain(text, params);
        return target.run(text, params);
      },
      get: async (text, params) => {
        await explain(text, params);
        return target.get(text, params);
      },
      transaction: (fn) => target.transaction((tx) => fn(over(tx))),
    };
  };
  return over(sql);
}

/** The plan answers an OR of equalities with one index search per term, never reading `table`. */
export function expectIndexedOr(plan: string, dialect: Sql['dialect'], table: string): void {
  if (dialect === 'sqlite') {
    expect(plan).toContain('MULTI-INDEX OR');
    expect(plan).not.toContain(`SCAN ${table}`);
  } else {
    expect(plan).toContain('BitmapOr');
    expect(plan).not.toContain(`Seq Scan on ${table}`);
  }
}

/** The plan reads `table` in `index`'s order: no sort of every row to return the first few. */
export function expectReadInIndexOrder(
  plan: string,
  dialect: Sql['dialect'],
  table: string,
  index: string,
): void {
  if (dialect === 'sqlite') {
    expect(plan).toContain(`SCAN ${table} USING INDEX ${index}`);
    expect(plan).not.toContain('TEMP B-TREE');
  } else {
    expect(plan).toMatch(new RegExp(`Index Scan using ${index}`));
    expect(plan).not.toMatch(/Sort/);
  }
}
