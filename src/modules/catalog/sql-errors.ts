// PostgreSQL error classes the catalog turns into 400/409 when a concurrent write slips past
// the service's own checks (both drivers expose the SQLSTATE as `code`).
const codeOf = (error: unknown) => (error as { code?: unknown } | null)?.code;

export const isUniqueViolation = (error: unknown) => codeOf(error) === '23505';
export const isForeignKeyViolation = (error: unknown) => codeOf(error) === '23503';
