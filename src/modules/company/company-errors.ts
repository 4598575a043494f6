// The company module's error codes (contract §5.5).
import { DomainError, conflict, invalid } from '../../domain/domain-error.ts';

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
