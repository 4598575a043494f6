// Scripts cut into statements for Citus (src/db/schema/sql-script.ts): where PostgreSQL's parser ends
// each one, whatever semicolons dollar quotes, strings and comments hold.
import { describe, expect, it } from 'vitest';
import { scriptStatements } from '../../src/db/schema/sql-script.ts';

describe('scriptStatements', () => {
  it('cuts a script where each statement ends, not at every semicolon', async () => {
    const script = `-- A comment; with a semicolon — and a dash that is not ASCII
create function f() returns int language plpgsql as $$ begin return 1; end $$;
drop index if exists a; /* ; */ delete from t where x = ';' and y = 'é;';
select 1`;
    expect(await scriptStatements(script)).toEqual([
      expect.stringMatching(/create function f\(\) .* end \$\$$/s),
      'drop index if exists a',
      "/* ; */ delete from t where x = ';' and y = 'é;'",
      'select 1',
    ]);
  });

  it('answers no statement for a script of comments', async () => {
    expect(await scriptStatements('-- nothing; here\n/* nor ; here */')).toEqual([]);
  });

  it('refuses a script PostgreSQL cannot parse', async () => {
    await expect(scriptStatements('create tabel x ();')).rejects.toThrow(/syntax error/);
  });
});
