// Named prepared statements on PGlite. Its query() sends Parse, Describe, Bind, Describe, Execute
// and Sync as six calls into the engine and parses and plans the statement every time; a
// statement prepared here once runs as one Bind/Execute/Sync batch on the plan PostgreSQL keeps
// for it (docs/design.md has the measurements).
import { parse, protocol, type PGlite } from '@electric-sql/pglite';

type BackendMessage = Awaited<ReturnType<PGlite['execProtocol']>>['messages'][number];

interface Statement {
  text: string;
  /** Type OIDs of the parameters, as PostgreSQL inferred them: they pick the serializers. */
  parameterTypes: number[];
  /** The statement's RowDescription, which a Bind/Execute batch does not repeat. */
  rowDescription: BackendMessage | undefined;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

// The end of every run: execute the bound portal to its last row, then Sync.
const EXECUTE_AND_SYNC = concat([protocol.serialize.execute({}), protocol.serialize.sync()]);

export class PgliteStatements {
  private readonly client: PGlite;
  private readonly statements = new Map<string, Statement>();

  constructor(client: PGlite) {
    this.client = client;
  }

  /** Runs a statement by name, preparing it on first use; the rows come out as query() gives them. */
  query<Row>(name: string, text: string, params: unknown[]): Promise<Row[]> {
    // Like query(): never inside another caller's transaction, never beside another query.
    return this.client._runExclusiveTransaction(() =>
      this.client._runExclusiveQuery(async () => {
        const statement = this.known(name, text) ?? (await this.prepare(name, text));
        const bind = protocol.serialize.bind({
          statement: name,
          values: this.serialize(statement.parameterTypes, params),
        });
        const { messages } = await this.client.execProtocol(concat([bind, EXECUTE_AND_SYNC]));
        const described = statement.rowDescription
          ? [statement.rowDescription, ...messages]
          : messages;
        return (parse.parseResults(described, this.client.parsers)[0]?.rows ?? []) as Row[];
      }),
    );
  }

  private known(name: string, text: string): Statement | undefined {
    const known = this.statements.get(name);
    if (known && known.text !== text)
      throw new Error(`Statement "${name}" is already prepared as other SQL.`);
    return known;
  }

  private async prepare(name: string, text: string): Promise<Statement> {
    const { messages } = await this.client.execProtocol(
      concat([
        protocol.serialize.parse({ name, text }),
        protocol.serialize.describe({ type: 'S', name }),
        protocol.serialize.sync(),
      ]),
      { syncToFs: false },
    );
    const statement: Statement = {
      text,
      parameterTypes: parse.parseDescribeStatementResults(messages),
      rowDescription: messages.find((m) => m.name === 'rowDescription'),
    };
    this.statements.set(name, statement);
    return statement;
  }

  private serialize(types: number[], params: unknown[]): (string | null)[] {
    return params.map((value, index) => {
      if (value === null || value === undefined) return null;
      const serializer = this.client.serializers[types[index]!];
      // As query() does: a type without a serializer is sent as the value's own text.
      return serializer ? serializer(value) : (value as { toString(): string }).toString();
    });
  }
}
