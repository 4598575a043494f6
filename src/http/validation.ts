// Schema validation at the edge. Query strings, path parameters and headers arrive as text and
// are coerced to the schema's types; JSON bodies are not: `"3"` is not an integer and `123` is
// not a name, and a null stays null.
import type { FastifyInstance } from 'fastify';
import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';

const common: Options = {
  removeAdditional: false,
  useDefaults: true,
  allErrors: true,
  strict: false,
};

function compiler(options: Options): Ajv {
  const ajv = new Ajv({ ...common, ...options });
  addFormats.default(ajv);
  return ajv;
}

export function registerValidation(app: FastifyInstance): void {
  const strict = compiler({ coerceTypes: false });
  const coercing = compiler({ coerceTypes: 'array' });
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' ? strict : coercing).compile(schema),
  );
}
