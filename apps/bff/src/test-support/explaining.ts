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
