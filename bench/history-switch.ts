// The change history's recording switched off and on again for a side-by-side measurement: off,
// record_changes is a function that does nothing (the triggers still call it); on, its own
// definition, read from the database before the first switch, is put back.
/** Runs one statement; answers its rows. */
type Query = (text: string) => Promise<unknown[]>;

const RECORD_CHANGES = 'record_changes(text,text,text,integer[],text[],text[])';

/** Answers `setHistory(on)`; the database must have its definition in place when called. */
export async function historySwitch(query: Query): Promise<(on: boolean) => Promise<void>> {
  const [row] = (await query(
    `select pg_get_functiondef('${RECORD_CHANGES}'::regprocedure) as definition`,
  )) as [{ definition: string }];
  const definition = row.definition;
  return async (on) => {
    await query(
      on
        ? definition
        : `create or replace function record_changes(p_resource text, p_op text, p_action text,
             p_tenants integer[], p_ids text[], p_data text[]) returns void
           language plpgsql as $$ begin end $$`,
    );
  };
}
