// Dynamic attribute types, their values, and replacing an item's attributes.
import type { DatabaseHandle, RawSql } from '../../../db/database.ts';
import { conflict, notFound, validationFailed } from '../../../http/errors.ts';
import type { Page, Paging } from '../../../http/paging.ts';
import { assertBodyIdMatches } from '../../../http/body-id.ts';
import { pagedList } from '../../../db/paged-list.ts';
import { translatingConstraints } from '../../../http/constraint-errors.ts';
import type {
  AttributeType,
  AttributeTypeBody,
  AttributeTypePatch,
  DynamicAttribute,
  DynamicAttributeInput,
} from './attribute-schemas.ts';

const COLUMNS = 'id as "Id", description as "Description"';
const duplicate = (description: string) => () =>
  conflict('DuplicateAttributeType', `A dynamic attribute type "${description}" already exists.`);

export class AttributeService {
  private readonly db: DatabaseHandle;
  constructor(db: DatabaseHandle) {
    this.db = db;
  }

  async create(tenantId: number, body: AttributeTypeBody): Promise<AttributeType> {
    const [row] = await translatingConstraints(
      () =>
        this.db.query<AttributeType>(
          `insert into dynamic_attribute_types (tenant_id, description) values ($1, $2) returning ${COLUMNS}`,
          [tenantId, body.Description],
        ),
      { unique: duplicate(body.Description) },
    );
    return row!;
  }

  async get(tenantId: number, id: number): Promise<AttributeType> {
    const [row] = await this.db.query<AttributeType>(
      `select ${COLUMNS} from dynamic_attribute_types where tenant_id = $1 and id = $2`,
      [tenantId, id],
    );
    if (!row) throw notFound(`Dynamic attribute type ${id}`);
    return row;
  }

  list(tenantId: number, paging: Paging): Promise<Page<AttributeType>> {
    return pagedList(this.db, 'dynamic_attribute_types', COLUMNS, tenantId, paging);
  }

  async update(tenantId: number, id: number, body: AttributeTypePatch): Promise<AttributeType> {
    assertBodyIdMatches(body.Id, id);
    const description = body.Description;
    if (description === undefined) return this.get(tenantId, id);
    const [row] = await translatingConstraints(
      () =>
        this.db.query<AttributeType>(
          `update dynamic_attribute_types set description = $3, version = version + 1 where tenant_id = $1 and id = $2 returning ${COLUMNS}`,
          [tenantId, id, description],
        ),
      { unique: duplicate(description) },
    );
    if (!row) throw notFound(`Dynamic attribute type ${id}`);
    return row;
  }

  async delete(tenantId: number, id: number): Promise<void> {
    const deleted = await translatingConstraints(
      () =>
        this.db.query(
          'delete from dynamic_attribute_types where tenant_id = $1 and id = $2 returning id',
          [tenantId, id],
        ),
      {
        stillReferenced: () =>
          conflict('AttributeTypeInUse', `Dynamic attribute type ${id} is used by items.`),
      },
    );
    if (deleted.length === 0) throw notFound(`Dynamic attribute type ${id}`);
  }

  /** The values of a type that items use, with their TypeValueId. */
  async valuesInUse(tenantId: number, typeId: number): Promise<DynamicAttribute[]> {
    await this.get(tenantId, typeId);
    return this.db.query<DynamicAttribute>(
      `select v.type_id as "TypeId", v.id as "TypeValueId", v.value as "Value", t.description as "TypeName"
         from dynamic_attribute_values v
         join dynamic_attribute_types t on t.tenant_id = v.tenant_id and t.id = v.type_id
        where v.tenant_id = $1 and v.type_id = $2
          and exists (select 1 from item_attributes a where a.tenant_id = v.tenant_id and a.value_id = v.id)
        order by v.id`,
      [tenantId, typeId],
    );
  }

  /** An item's attributes in their wire shape. */
  ofItem(sql: RawSql, tenantId: number, itemId: number): Promise<DynamicAttribute[]> {
    return sql.query<DynamicAttribute>(
      `select a.type_id as "TypeId", a.value_id as "TypeValueId", v.value as "Value", d.description as "TypeName"
         from item_attributes a
         join dynamic_attribute_values v on v.tenant_id = a.tenant_id and v.id = a.value_id
         join dynamic_attribute_types d on d.tenant_id = a.tenant_id and d.id = a.type_id
        where a.tenant_id = $1 and a.item_id = $2 order by a.type_id`,
      [tenantId, itemId],
    );
  }

  /**
   * Replaces an item's attributes inside the caller's transaction: one value per type; a value
   * given by text is found or created, one given by TypeValueId must belong to its type.
   */
  async replaceForItem(
    sql: RawSql,
    tenantId: number,
    itemId: number,
    inputs: DynamicAttributeInput[],
  ): Promise<void> {
    const seen = new Set<number>();
    const resolved: { typeId: number; valueId: number }[] = [];
    for (const [index, input] of inputs.entries()) {
      const field = `DynamicAttributes.${index}`;
      if (seen.has(input.TypeId))
        throw validationFailed(
          `${field}.TypeId`,
          `type ${input.TypeId} is given twice; an item has one value per type`,
        );
      seen.add(input.TypeId);
      const [type] = await sql.query(
        'select 1 from dynamic_attribute_types where tenant_id = $1 and id = $2',
        [tenantId, input.TypeId],
      );
      if (!type)
        throw validationFailed(
          `${field}.TypeId`,
          `dynamic attribute type ${input.TypeId} does not exist`,
        );
      if (input.TypeValueId != null) {
        const [value] = await sql.query(
          'select 1 from dynamic_attribute_values where tenant_id = $1 and id = $2 and type_id = $3',
          [tenantId, input.TypeValueId, input.TypeId],
        );
        if (!value)
          throw validationFailed(
            `${field}.TypeValueId`,
            `value ${input.TypeValueId} is not a value of type ${input.TypeId}`,
          );
        resolved.push({ typeId: input.TypeId, valueId: input.TypeValueId });
      } else if (input.Value != null) {
        const [value] = await sql.query<{ id: number }>(
          `with inserted as (
             insert into dynamic_attribute_values (tenant_id, type_id, value) values ($1, $2, $3)
             on conflict (tenant_id, type_id, value) do nothing returning id)
           select id from inserted
           union all
           select id from dynamic_attribute_values where tenant_id = $1 and type_id = $2 and value = $3
           limit 1`,
          [tenantId, input.TypeId, input.Value],
        );
        resolved.push({ typeId: input.TypeId, valueId: value!.id });
      } else {
        throw validationFailed(`${field}.Value`, 'give Value or TypeValueId');
      }
    }
    await sql.query('delete from item_attributes where tenant_id = $1 and item_id = $2', [
      tenantId,
      itemId,
    ]);
    if (resolved.length > 0) {
      await sql.query(
        `insert into item_attributes (tenant_id, item_id, type_id, value_id)
         select $1, $2, t, v from unnest($3::int[], $4::int[]) as x(t, v)`,
        [tenantId, itemId, resolved.map((r) => r.typeId), resolved.map((r) => r.valueId)],
      );
    }
  }
}
