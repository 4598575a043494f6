// Fields of a resource's answer that its request bodies take back: the names of related rows,
// counts, dates, secrets shown once. A client that fetches a resource and sends it back (with or
// without a change) must not be refused for them, so the request schema declares them, and the
// services never read them. Declared one by one, so that any other field is still refused (no
// mass assignment, contract §4). Their description says they are read-only; they are not marked
// `readOnly`: OpenAPI says such a property SHOULD NOT be sent, so validating proxies (Prism)
// refused the round trip the server promises, and generators left them out of request types.
import { Type, type TSchema } from 'typebox';

export const READ_ONLY =
  'Read-only: accepted so that a fetched resource can be sent back, and ignored (whatever its value).';

/** An optional request field that is accepted when it has the answer's type, and ignored. */
export const ReadOnly = <T extends TSchema>(schema: T, description = READ_ONLY) =>
  Type.Optional(Type.With(schema, { description }));
