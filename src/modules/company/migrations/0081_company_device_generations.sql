-- A physical device deleted and made again under the same id is another device: identity tokens
-- issued to the first must not work for the second. Each physical device row gets a generation
-- from a sequence when it is made (never reused); identity tokens carry it (`dvg`) next to `dev`
-- and are valid only while the device with that id still has that generation.
create sequence physical_device_generations;
alter table physical_devices
  add column generation bigint not null default nextval('physical_device_generations');
