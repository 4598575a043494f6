// Wire shapes of the company module (contract §5.5; objects as in the v4 reference §8).
import { Type, type Static, type TSchema } from 'typebox';
import { PagedResult } from '../../http/paging.ts';
import { ReadOnly } from '../../http/read-only.ts';

// Ids are bigint in the database, JSON integers up to 2^53 - 1 on the wire.
const MAX_ID = Number.MAX_SAFE_INTEGER;
export const Id = (description?: string) =>
  Type.Integer({ minimum: 1, maximum: MAX_ID, ...(description ? { description } : {}) });
export const IdParams = Type.Object({ id: Id() });
const ShortText = (description?: string) =>
  Type.String({ minLength: 1, maxLength: 256, ...(description ? { description } : {}) });
const LongText = () => Type.String({ maxLength: 4000 });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
/** Device ids are chosen by the client: 1..256 characters, no slash. */
export const DeviceId = (description?: string) =>
  Type.String({
    minLength: 1,
    maxLength: 256,
    pattern: '^[^/]+$',
    ...(description ? { description } : {}),
  });

// Stores -----------------------------------------------------------------------------------------
export const Location = Type.Object(
  {
    Longitude: Type.Number({ minimum: -180, maximum: 180 }),
    Latitude: Type.Number({ minimum: -90, maximum: 90 }),
  },
  { additionalProperties: false, title: 'Location' },
);
export const StoreBody = Type.Object(
  {
    Id: Type.Optional(Id('Ignored on create; must match the path on update.')),
    Name: ShortText(),
    Description: Type.Optional(Nullable(LongText())),
    Address: Type.Optional(Nullable(LongText())),
    Location,
  },
  {
    additionalProperties: false,
    title: 'StoreRequest',
    examples: [
      {
        Name: 'Berlin Mitte',
        Description: 'Flagship store',
        Address: 'Rosenthaler Str. 1, 10119 Berlin',
        Location: { Longitude: 13.4017, Latitude: 52.5266 },
      },
    ],
  },
);
export type StoreBody = Static<typeof StoreBody>;
export const Store = Type.Object(
  {
    Id: Type.Integer(),
    Name: Type.String(),
    Description: Nullable(Type.String()),
    Address: Nullable(Type.String()),
    Location: Type.Object({ Longitude: Type.Number(), Latitude: Type.Number() }),
  },
  {
    title: 'Store',
    examples: [
      {
        Id: 1,
        Name: 'Berlin Mitte',
        Description: 'Flagship store',
        Address: 'Rosenthaler Str. 1, 10119 Berlin',
        Location: { Longitude: 13.4017, Latitude: 52.5266 },
      },
    ],
  },
);
export type Store = Static<typeof Store>;
export const StoreList = PagedResult(Store, 'StoreList');

// Device types -----------------------------------------------------------------------------------
export const DeviceTypeBody = Type.Object(
  {
    Id: Type.Optional(Id('Ignored on create; must match the path on update.')),
    Description: ShortText(),
  },
  { additionalProperties: false, title: 'DeviceTypeRequest' },
);
export type DeviceTypeBody = Static<typeof DeviceTypeBody>;
export const DeviceType = Type.Object(
  { Id: Type.Integer(), Description: Type.String() },
  { title: 'DeviceType' },
);
export type DeviceType = Static<typeof DeviceType>;
export const DeviceTypeList = PagedResult(DeviceType, 'DeviceTypeList');

// Physical devices -------------------------------------------------------------------------------
export const PhysicalDeviceBody = Type.Object(
  {
    DeviceId: DeviceId('Chosen by the client on create; must match the path on update.'),
    Description: Type.Optional(Nullable(LongText())),
    StoreId: Type.Optional(Nullable(Id('The store the device is in; null or absent: none.'))),
    StoreName: ReadOnly(Nullable(Type.String())),
  },
  { additionalProperties: false, title: 'PhysicalDeviceRequest' },
);
export type PhysicalDeviceBody = Static<typeof PhysicalDeviceBody>;
export const PhysicalDevice = Type.Object(
  {
    DeviceId: Type.String(),
    Description: Nullable(Type.String()),
    StoreId: Nullable(Type.Integer()),
    StoreName: Nullable(Type.String()),
  },
  { title: 'PhysicalDevice' },
);
export type PhysicalDevice = Static<typeof PhysicalDevice>;
export const PhysicalDeviceList = PagedResult(PhysicalDevice, 'PhysicalDeviceList');
export const PhysicalDeviceParams = Type.Object({ physicalDeviceId: DeviceId() });

// Logical devices --------------------------------------------------------------------------------
export const MetadataPair = Type.Object(
  { Key: ShortText(), Value: LongText() },
  { additionalProperties: false, title: 'LogicalDeviceMetadata' },
);
export type MetadataPair = Static<typeof MetadataPair>;
export const MetadataList = Type.Array(MetadataPair, { maxItems: 1000 });

const logicalDeviceFields = {
  Description: ShortText(),
  DeviceTypeId: Type.Optional(Nullable(Id())),
  DeviceTypeDescription: ReadOnly(Nullable(Type.String())),
  ExpirationDate: Type.Optional(
    Nullable(
      Type.String({
        format: 'date-time',
        description: 'When given, in the future; expired devices are not listed.',
      }),
    ),
  ),
  Metadata: Type.Optional(MetadataList),
};
export const LogicalDeviceBody = Type.Object(
  { DeviceId: DeviceId(), ...logicalDeviceFields },
  { additionalProperties: false, title: 'LogicalDeviceRequest' },
);
export type LogicalDeviceBody = Static<typeof LogicalDeviceBody>;
export const LogicalDevicePatch = Type.Object(
  {
    DeviceId: Type.Optional(DeviceId('Must match the path when given.')),
    Description: Type.Optional(logicalDeviceFields.Description),
    DeviceTypeId: logicalDeviceFields.DeviceTypeId,
    DeviceTypeDescription: logicalDeviceFields.DeviceTypeDescription,
    ExpirationDate: logicalDeviceFields.ExpirationDate,
    Metadata: Type.Optional(MetadataList),
  },
  { additionalProperties: false, title: 'LogicalDevicePatch' },
);
export type LogicalDevicePatch = Static<typeof LogicalDevicePatch>;
export const LogicalDevice = Type.Object(
  {
    DeviceId: Type.String(),
    Description: Type.String(),
    DeviceTypeId: Nullable(Type.Integer()),
    DeviceTypeDescription: Nullable(Type.String()),
    ExpirationDate: Nullable(Type.String({ format: 'date-time' })),
    Metadata: Type.Optional(Type.Array(MetadataPair, { description: 'Left out unless asked.' })),
  },
  { title: 'LogicalDevice' },
);
export type LogicalDevice = Static<typeof LogicalDevice>;
export const LogicalDeviceList = PagedResult(LogicalDevice, 'LogicalDeviceList');
export const LogicalDeviceParams = Type.Object({
  physicalDeviceId: DeviceId(),
  deviceId: DeviceId(),
});
export const DeviceIdParams = Type.Object({ deviceId: DeviceId() });
export const MetadataKeyParams = Type.Object({
  physicalDeviceId: DeviceId(),
  deviceId: DeviceId(),
  key: ShortText(),
});

/** Filters of the device-facing lists. */
export const LogicalDeviceFilter = Type.Object({
  deviceTypeId: Type.Optional(Id()),
  metadataKey: Type.Optional(ShortText()),
  metadataValue: Type.Optional(LongText()),
  includeMetadata: Type.Boolean({ default: false }),
});
export type LogicalDeviceFilter = Static<typeof LogicalDeviceFilter>;
