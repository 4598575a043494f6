// Prices as the retailer reads them. A price type carries a description and a symbol
// (PriceTypeSymbol, 1..16 characters): an ISO 4217 code the browser knows ("EUR", "usd") is
// formatted as that currency (its sign, its number of decimals: 2 for EUR, 0 for JPY); any other
// symbol ("$", "€", "pts") is put where the locale puts a currency sign, with 2 decimals.

/** The ISO 4217 code a price type's symbol names, or undefined when it is a sign or a word. */
export function currencyCode(symbol: string): string | undefined {
  const code = symbol.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(code)) return undefined;
  // Every well-formed code is accepted by Intl ("ABC" too); only the known ones are currencies.
  const known =
    typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('currency') : [];
  return known.includes(code) ? code : undefined;
}

/** How many decimals an amount of this price type has: the currency's, else 2. */
export function decimalsOf(symbol: string): number {
  const code = currencyCode(symbol);
  if (!code) return 2;
  return (
    new Intl.NumberFormat(undefined, { style: 'currency', currency: code }).resolvedOptions()
      .maximumFractionDigits ?? 2
  );
}

const formats = new Map<string, Intl.NumberFormat>();

function formatFor(symbol: string): Intl.NumberFormat {
  let format = formats.get(symbol);
  if (!format) {
    const code = currencyCode(symbol);
    format = code
      ? new Intl.NumberFormat(undefined, { style: 'currency', currency: code })
      : // XXX ("no currency") gives the locale's place of the sign, which the symbol then takes.
        new Intl.NumberFormat(undefined, {
          style: 'currency',
          currency: 'XXX',
          currencyDisplay: 'narrowSymbol',
          minimumFractionDigits: 2,
          maximumFractionDigits: 2,
        });
    formats.set(symbol, format);
  }
  return format;
}

/** An amount of a price type, e.g. "€129.90" (EUR), "¥1,300" (JPY), "$129.90" ($). */
export function formatPrice(amount: number, symbol: string): string {
  const format = formatFor(symbol);
  if (currencyCode(symbol)) return format.format(amount);
  const parts = format.formatToParts(amount);
  return parts
    .map((part, i) => {
      if (part.type !== 'currency') return part.value;
      // A word ("pts") right against the digits gets a no-break space between them.
      const spaced = symbol.length > 1;
      const before = spaced && i > 0 && parts[i - 1]!.type !== 'literal' ? '\u00a0' : '';
      const after =
        spaced && i < parts.length - 1 && parts[i + 1]!.type !== 'literal' ? '\u00a0' : '';
      return `${before}${symbol}${after}`;
    })
    .join('');
}

/** The largest amount the API stores (numeric(14, 4), capped below 1e10). */
export const MAX_PRICE = 9_999_999_999.99;

/** What is wrong with an amount typed into a price field, or its value. */
export type ParsedAmount = { value: number } | { error: string };

/**
 * Reads an amount as typed ("129.90", "129,90"; no thousands separators) and says in plain words
 * what is wrong with it: `label` names the field ("Price"), `decimals` the currency's digits.
 */
export function parseAmount(text: string, label: string, decimals: number): ParsedAmount {
  const typed = text.trim();
  const example = decimals === 0 ? '129' : `129.${'90'.padEnd(decimals, '0').slice(0, decimals)}`;
  if (typed === '') return { error: `${label} is required.` };
  const match = /^(-?)(\d+)(?:[.,](\d+))?$/.exec(typed);
  if (!match) return { error: `${label} must be a number, like ${example}.` };
  if (match[1] === '-' && Number(typed.replace(',', '.')) !== 0)
    return { error: `${label} cannot be negative.` };
  const fraction = match[3] ?? '';
  if (fraction.replace(/0+$/, '').length > decimals)
    return {
      error:
        decimals === 0
          ? `${label} must be a whole amount in this currency, like ${example}.`
          : `${label} can have at most ${decimals} decimal${decimals === 1 ? '' : 's'}, like ${example}.`,
    };
  const value = Math.abs(Number(`${match[2]}.${fraction || '0'}`));
  if (value > MAX_PRICE) return { error: `${label} must be at most 9,999,999,999.99.` };
  return { value };
}

/**
 * A price type as a list names it: "Euro (EUR)"; its description alone when it names the symbol
 * already ("Retail price (EUR)", not "Retail price (EUR) (EUR)").
 */
export function priceTypeLabel(type: { Description: string; PriceTypeSymbol: string }): string {
  const symbol = type.PriceTypeSymbol.trim();
  // The symbol as a word of its own ("EUR" in "Retail price (EUR)", not in "Euro").
  const escaped = symbol.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const named = new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, 'iu');
  return named.test(type.Description) ? type.Description : `${type.Description} (${symbol})`;
}
