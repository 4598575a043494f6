// The error a bad environment variable stops the process with: one line naming the variable, its
// expectation and its value (a URL's password masked).
/** A URL's text with its password replaced, for messages (a config error must not leak it). */
export function withoutPassword(value: string): string {
  try {
    const url = new URL(value);
    if (url.password === '') return value;
    url.password = '***';
    return url.toString();
  } catch {
    // Not a URL the parser reads: hide whatever sits between the first ':' after '//' and an '@'.
    return value.replace(/(\/\/[^/@:]*:)[^/@]*@/, '$1***@');
  }
}

export class ConfigError extends Error {
  readonly variable: string;
  constructor(variable: string, expectation: string, value: string) {
    super(
      `Invalid configuration: ${variable} ${expectation} (got ${JSON.stringify(withoutPassword(value))})`,
    );
    this.name = 'ConfigError';
    this.variable = variable;
  }
}
