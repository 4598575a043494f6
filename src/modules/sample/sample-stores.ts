// The sample's ten stores, in real cities with their coordinates, each with two in-store devices
// (a catalog kiosk and a staff tablet) and a logical device registered to each of them.

export interface SampleStore {
  key: string;
  name: string;
  address: string;
  hours: string;
  longitude: number;
  latitude: number;
}

const WEEKDAYS = 'Mon–Sat 09:00–20:00, Sun closed';
const LONG_WEEK = 'Mon–Sat 09:00–21:00, Sun 11:00–18:00';

export const SAMPLE_STORES: readonly SampleStore[] = [
  {
    key: 'berlin',
    name: 'Berlin Mitte',
    address: 'Rosenthaler Str. 40, 10178 Berlin',
    hours: WEEKDAYS,
    longitude: 13.4017,
    latitude: 52.5266,
  },
  {
    key: 'hamburg',
    name: 'Hamburg Altona',
    address: 'Ottenser Hauptstr. 10, 22765 Hamburg',
    hours: WEEKDAYS,
    longitude: 9.9331,
    latitude: 53.5524,
  },
  {
    key: 'munich',
    name: 'München Schwabing',
    address: 'Leopoldstr. 82, 80802 München',
    hours: WEEKDAYS,
    longitude: 11.5843,
    latitude: 48.1616,
  },
  {
    key: 'amsterdam',
    name: 'Amsterdam Jordaan',
    address: 'Westerstraat 120, 1015 MN Amsterdam',
    hours: LONG_WEEK,
    longitude: 4.8819,
    latitude: 52.3791,
  },
  {
    key: 'copenhagen',
    name: 'København Nørrebro',
    address: 'Jægersborggade 20, 2200 København',
    hours: LONG_WEEK,
    longitude: 12.5446,
    latitude: 55.6938,
  },
  {
    key: 'stockholm',
    name: 'Stockholm Södermalm',
    address: 'Götgatan 48, 118 26 Stockholm',
    hours: LONG_WEEK,
    longitude: 18.0719,
    latitude: 59.3151,
  },
  {
    key: 'vienna',
    name: 'Wien Neubau',
    address: 'Neubaugasse 25, 1070 Wien',
    hours: WEEKDAYS,
    longitude: 16.3496,
    latitude: 48.2004,
  },
  {
    key: 'zurich',
    name: 'Zürich Kreis 5',
    address: 'Limmatstrasse 152, 8005 Zürich',
    hours: WEEKDAYS,
    longitude: 8.5296,
    latitude: 47.3856,
  },
  {
    key: 'london',
    name: 'London Shoreditch',
    address: '24 Redchurch Street, London E2 7DP',
    hours: LONG_WEEK,
    longitude: -0.0759,
    latitude: 51.5237,
  },
  {
    key: 'paris',
    name: 'Paris Le Marais',
    address: '38 Rue de Bretagne, 75003 Paris',
    hours: LONG_WEEK,
    longitude: 2.3622,
    latitude: 48.8633,
  },
];

/** The kinds of device in every store: the device type and the device ids' ending. */
export const SAMPLE_DEVICE_KINDS = [
  { key: 'kiosk', type: 'Catalog kiosk', description: 'Catalog kiosk by the entrance' },
  { key: 'tablet', type: 'Staff tablet', description: 'Staff tablet at the counter' },
] as const;

/** A store's physical device id, and its logical device's. */
export const sampleDeviceId = (store: SampleStore, kind: string) => `sample-${store.key}-${kind}`;
export const sampleLogicalDeviceId = (store: SampleStore, kind: string) =>
  `sample-${store.key}-${kind}-app`;
