// An item's prices: replaced as a whole; PriceTypeId (or its synonym CurrencyId) must exist,
// one price per type, and a discount never above the normal price.
import type { RawSql } from '../../../db/connection/database.ts';
import { invalidField } from '../../../domain/domain-error.ts';
import type { Price, PriceInput } from './item-schemas.ts';

export const PRICES_OF_ITEM = `
  select p.id as "PriceId", p.item_id as "ItemId", p.normal_price::float8 as "NormalPrice",
         p.discount_price::float8 as "DiscountPrice", p.price_type_id as "PriceTypeId", t.symbol as "PriceTypeSymbol"
    from item_prices p join price_types t on t.tenant_id = p.tenant_id and t.id = p.price_type_id
   where p.tenant_id = $1 and p.item_id = $2 order by p.price_type_id`;

export async function replacePrices(
  sql: RawSql,
  tenantId: number,
  itemId: number,
  inputs: PriceInput[],
): Promise<void> {
  const typeIds: number[] = [];
  for (const [index, input] of inputs.entries()) {
    const field = `Prices.${index}`;
    if (
      input.PriceTypeId !== undefined &&
      input.CurrencyId !== undefined &&
      input.PriceTypeId !== input.CurrencyId
    ) {
      throw invalidField(
        `${field}.CurrencyId`,
        'CurrencyId is a synonym of PriceTypeId; they differ',
      );
    }
    const typeId = input.PriceTypeId ?? input.CurrencyId;
    if (typeId === undefined) throw invalidField(`${field}.PriceTypeId`, 'is required');
    if (input.ItemId != null && input.ItemId !== itemId)
      throw invalidField(`${field}.ItemId`, `must be ${itemId}, the item's id`);
    if (input.DiscountPrice != null && input.DiscountPrice > input.NormalPrice) {
      throw invalidField(`${field}.DiscountPrice`, 'must not be above NormalPrice');
    }
    if (typeIds.includes(typeId))
      throw invalidField(
        `${field}.PriceTypeId`,
        `price type ${typeId} is given twice; one price per type`,
      );
    typeIds.push(typeId);
  }
  if (typeIds.length > 0) {
    const found = await sql.query<{ id: number }>(
      'select id from price_types where tenant_id = $1 and id = any($2::bigint[])',
      [tenantId, typeIds],
    );
    const known = new Set(found.map((r) => r.id));
    const unknown = typeIds.findIndex((id) => !known.has(id));
    if (unknown >= 0)
      throw invalidField(
        `Prices.${unknown}.PriceTypeId`,
        `price type ${typeIds[unknown]} does not exist`,
      );
  }
  await sql.query('delete from item_prices where tenant_id = $1 and item_id = $2', [
    tenantId,
    itemId,
  ]);
  if (inputs.length > 0) {
    await sql.query(
      `insert into item_prices (tenant_id, item_id, price_type_id, normal_price, discount_price)
       select $1, $2, t, n, d from unnest($3::bigint[], $4::numeric[], $5::numeric[]) as x(t, n, d)`,
      [
        tenantId,
        itemId,
        typeIds,
        inputs.map((p) => p.NormalPrice),
        inputs.map((p) => p.DiscountPrice ?? null),
      ],
    );
  }
}

export function pricesOf(sql: RawSql, tenantId: number, itemId: number): Promise<Price[]> {
  return sql.query<Price>(PRICES_OF_ITEM, [tenantId, itemId]);
}
