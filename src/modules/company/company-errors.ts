// The company module's error codes (contract §5.5).
import { DomainError, conflict, invalid } from '../../domain/domain-error.ts';
import type { ErrorCodes } from '../../domain/error-code-list.ts';

export const storeHasDevices = (id: number) =>
  conflict(
    'StoreHasPhysicalDevices',
    `Store ${id} still has physical devices; move or delete them first.`,
  );

export const unknownStore = (id: number) => invalid('UnknownStore', `Store ${id} does not exist.`);

export const unknownDeviceType = (id: number) =>
  invalid('UnknownDeviceType', `Device type ${id} does not exist.`);

export const deviceTypeInUse = (id: number) =>
  conflict('DeviceTypeInUse', `Device type ${id} is used by logical devices; change those first.`);

export const duplicatePhysicalDevice = (id: string) =>
  conflict('DuplicatePhysicalDeviceId', `A physical device with DeviceId "${id}" already exists.`);

export const duplicateLogicalDevice = (id: string) =>
  conflict('DuplicateDeviceId', `A logical device with DeviceId "${id}" already exists.`);

export const duplicateMetadataKey = (key: string) =>
  conflict(
    'DuplicateMetadataKey',
    `The logical device already has metadata with the key "${key}".`,
  );

export const repeatedMetadataKey = (key: string) =>
  invalid('RepeatedMetadataKey', `Metadata has the key "${key}" more than once.`, [
    { Field: 'Metadata', Message: `The key "${key}" appears more than once.` },
  ]);

export const expirationInPast = () =>
  invalid('ExpirationDateInPast', 'ExpirationDate must be in the future.', [
    { Field: 'ExpirationDate', Message: 'must be in the future' },
  ]);

export const metadataFilterIncomplete = () =>
  invalid('MetadataFilterIncomplete', 'metadataKey and metadataValue must be given together.', [
    { Field: 'metadataKey', Message: 'metadataKey and metadataValue go together' },
  ]);

export const invalidLocation = (text: string) =>
  invalid(
    'InvalidLocation',
    `"${text}" is not {longitude};{latitude} with decimal points, longitude -180..180 and latitude -90..90.`,
    [{ Field: 'location', Message: 'expected {longitude};{latitude}' }],
  );

export const noStoreInRange = (km: number) =>
  new DomainError('not-found', 'NoStoreInRange', `No store is within ${km} km of this location.`);

export const identityTokenRequired = () =>
  new DomainError(
    'forbidden',
    'IdentityTokenRequired',
    'This operation acts on the caller’s physical device: it needs an identity token (POST /oauth/token with physical_device_id).',
  );

export const deviceNotInStore = () =>
  new DomainError(
    'not-found',
    'PhysicalDeviceHasNoStore',
    'The caller’s physical device is not assigned to a store.',
  );

export const deviceGone = () =>
  new DomainError(
    'unauthenticated',
    'InvalidToken',
    'The physical device of this identity token no longer exists.',
    { invalidToken: true },
  );

/** The codes the company module answers besides the shared ones (src/http/error-codes.ts). */
export const companyErrorCodes = {
  DeviceTypeInUse: { status: 409, meaning: 'The device type is used by logical devices.' },
  DuplicateDeviceId: { status: 409, meaning: 'A logical device with this DeviceId exists.' },
  DuplicateMetadataKey: {
    status: 409,
    meaning: 'The logical device already has metadata with this key.',
  },
  DuplicatePhysicalDeviceId: {
    status: 409,
    meaning: 'A physical device with this DeviceId exists.',
  },
  ExpirationDateInPast: { status: 400, meaning: 'ExpirationDate is not in the future.' },
  IdentityTokenRequired: {
    status: 403,
    meaning: "The operation acts on the caller's physical device and needs an identity token.",
  },
  InvalidLocation: {
    status: 400,
    meaning: 'The location is not {longitude};{latitude} within range.',
  },
  MetadataFilterIncomplete: {
    status: 400,
    meaning: 'metadataKey and metadataValue are not given together.',
  },
  NoStoreInRange: { status: 404, meaning: 'No store is within the distance of the location.' },
  PhysicalDeviceHasNoStore: {
    status: 404,
    meaning: "The caller's physical device is assigned to no store.",
  },
  RepeatedMetadataKey: { status: 400, meaning: 'The body gives a metadata key more than once.' },
  StoreHasPhysicalDevices: { status: 409, meaning: 'The store still has physical devices.' },
  UnknownDeviceType: { status: 400, meaning: 'The device type named does not exist.' },
  UnknownStore: { status: 400, meaning: 'The store named does not exist.' },
} as const satisfies ErrorCodes;
