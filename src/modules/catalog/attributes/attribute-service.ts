// Dynamic attribute types, their values, and replacing an item's attributes.
import type { DatabaseHandle, RawSql } from '../../../db/connection/database.ts';
import { pagedList } from '../../../db/queries/paged-list.ts';
import { lockForWrite, versioned, type Versioned } from '../../../db/queries/row-version.ts';
import { deleteVersioned, fetchVersioned } from '../../../db/queries/versioned-rows.ts';
import { assertBodyIdMatches } from '../../../domain/body-id.ts';
import { translatingConstraints } from '../../../db/queries/constraint-translation.ts';
import { invalidField } from '../../../domain/domain-error.ts';
import type { VersionCheck } from '../../../domain/version-check.ts';
import type { Page, Paging } from '../../../domain/paging.ts';
import { catalogErrors } from '../catalog-errors.ts';
import type {
  AttributeType,
  AttributeTypeBody,
  AttributeTypePatch,
  DynamicAttribute,
  DynamicAttributeInput,
} from './attribute-schemas.ts';

const COLUMNS = 'id as "Id", description as "Description"';
const TABLE = {
  name: 'dynamic_attribute_types',
  columns: COLUMNS,
  missing: catalogErrors.attributeTypeNotFound,
};

// Finds a value of a type, or adds it. Two requests adding the same new value at once: the
// second insert waits for the first and then does nothing, and its own statement cannot see the
// row the first committed (its snapshot is older), so the value is read again by a new statement.
const FIND_OR_ADD_VALUE = `with inserted as (
    insert into dynamic_attribute_values (tenant_id, type_id, value) values ($1, $2, $3)
    on conflict (tenant_id, type_id, value) do nothing returning id)
  select id from inserted
  union all
  select id from dynamic_attribute_values where tenant_id = $1 and type_id = $2 and value = $3
  limit 1`;
const FIND_VALUE =
  'select id from dynamic_attribute_values where tenant_id = $1 and type_id = $2 and value = $3';

export class AttributeService {
  private readonly db: DatabaseHandle;
  constructor(db: DatabaseHandle) {
    this.db = db;
  }

  async create(tenantId: number, body: AttributeTypeBody): Promise<Versioned<AttributeType>> {
    const [row] = await translatingConstraints(
      () =>
        this.db.query<AttributeType & { version: number }>(
          `insert into dynamic_attribute_types (tenant_id, description) values ($1, $2) returning ${COLUMNS}, version`,
          [tenantId, body.Description],
        ),
      { unique: () => catalogErrors.duplicateAttributeType(body.Description) },
    );
    return versioned(row!);
  }

  get(tenantId: number, id: number): Promise<Versioned<AttributeType>> {
    return fetchVersioned(this.db, TABLE, tenantId, id);
  }

  list(tenantId: number, paging: Paging): Promise<Page<AttributeType>> {
    return pagedList(this.db, 'dynamic_attribute_types', COLUMNS, tenantId, paging);
  }

  /** PUT and PATCH alike: the only field is the description (PATCH may leave it out). */
  async update(
    tenantId: number,
    id: number,
    body: AttributeTypePatch,
    checkVersion: VersionCheck,
  ): Promise<Versioned<AttributeType>> {
    assertBodyIdMatches(body.Id, id);
    const description = body.Description;
    return translatingConstraints(
      () =>
        this.db.rawTransaction(async (sql) => {
          await lockForWrite(sql, 'dynamic_attribute_types', tenantId, id, checkVersion, () =>
            catalogErrors.attributeTypeNotFound(id),
          );
          const [row] = await sql.query<AttributeType & { version: number }>(
            description === undefined
              ? `select ${COLUMNS}, version from dynamic_attribute_types where tenant_id = $1 and id = $2`
              : `update dynamic_attribute_types set description = $3, version = version + 1
                  where tenant_id = $1 and id = $2 returning ${COLUMNS}, version`,
            description === undefined ? [tenantId, id] : [tenantId, id, description],
          );
          return versioned(row!);
        }),
      { unique: () => catalogErrors.duplicateAttributeType(description ?? '') },
    );
  }

  async delete(tenantId: number, id: number, checkVersion: VersionCheck): Promise<void> {
    await translatingConstraints(
      () => deleteVersioned(this.db, TABLE, tenantId, id, checkVersion),
      { stillReferenced: () => catalogErrors.attributeTypeInUse(id) },
    );
  }

  /** The values of a type that items use, with their TypeValueId. */
  async valuesInUse(tenantId: number, typeId: number): Promise<DynamicAttribute[]> {
    await this.get(tenantId, typeId);
    return this.db.query<DynamicAttribute>(
      `select v.type_id as "TypeId", v.id as "TypeValueId", v.value as "Value", t.description as "TypeName"
         from dynamic_attribute_values v
         join dynamic_attribute_types t on t.tenant_id = v.tenant_id and t.id = v.type_id
        where v.tenant_id = $1 and v.type_id = $2
          and exists (select 1 from item_attributes a where a.tenant_id = $1 and a.value_id = v.id)
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
        throw invalidField(
          `${field}.TypeId`,
          `type ${input.TypeId} is given twice; an item has one value per type`,
        );
      seen.add(input.TypeId);
      const [type] = await sql.query(
        'select 1 from dynamic_attribute_types where tenant_id = $1 and id = $2',
        [tenantId, input.TypeId],
      );
      if (!type)
        throw catalogErrors.unknownReference(
          `${field}.TypeId`,
          `dynamic attribute type ${input.TypeId}`,
        );
      if (input.TypeValueId != null) {
        const [value] = await sql.query(
          'select 1 from dynamic_attribute_values where tenant_id = $1 and id = $2 and type_id = $3',
          [tenantId, input.TypeValueId, input.TypeId],
        );
        if (!value)
          throw invalidField(
            `${field}.TypeValueId`,
            `value ${input.TypeValueId} is not a value of type ${input.TypeId}`,
          );
        resolved.push({ typeId: input.TypeId, valueId: input.TypeValueId });
      } else if (input.Value != null) {
        const params = [tenantId, input.TypeId, input.Value];
        const [found] = await sql.query<{ id: number }>(FIND_OR_ADD_VALUE, params);
        const value = found ?? (await sql.query<{ id: number }>(FIND_VALUE, params))[0];
        resolved.push({ typeId: input.TypeId, valueId: value!.id });
      } else {
        throw invalidField(`${field}.Value`, 'give Value or TypeValueId');
      }
    }
    await sql.query('delete from item_attributes where tenant_id = $1 and item_id = $2', [
      tenantId,
      itemId,
    ]);
    if (resolved.length > 0) {
      await sql.query(
        `insert into item_attributes (tenant_id, item_id, type_id, value_id)
         select $1, $2, t, v from unnest($3::bigint[], $4::bigint[]) as x(t, v)`,
        [tenantId, itemId, resolved.map((r) => r.typeId), resolved.map((r) => r.valueId)],
      );
    }
  }
}
