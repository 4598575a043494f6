// One marker of the stores' map: a store (a button named after it and its devices, its name
// written beside its dot) or a cluster of stores drawn too close to tell apart (their count);
// and the list of the stores a cluster holds that no zoom can split (one address).
import type { RefObject } from 'react';
import type { Point } from './map-geometry.ts';
import type { MapStore } from './StoreMap.tsx';

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function storeLabel(store: MapStore): string {
  return `${store.name}: ${plural(store.devices, 'device')}`;
}

function namesOf(stores: MapStore[]): string {
  const names = stores.slice(0, 3).map((s) => s.name);
  const more = stores.length - names.length;
  return more > 0 ? `${names.join(', ')} and ${more} more` : names.join(', ');
}

export function MapMarker(props: {
  members: MapStore[];
  at: Point;
  /** Zooming in can split the cluster (else activating it lists its stores). */
  separable: boolean;
  selected: boolean;
  markerRef: (element: HTMLButtonElement | null) => void;
  onActivate: () => void;
}) {
  const { members, at, separable, selected } = props;
  const single = members.length === 1 ? members[0]! : undefined;
  const label = single
    ? storeLabel(single)
    : `${members.length} stores: ${namesOf(members)}. ${separable ? 'Zoom in' : 'List them'}`;
  const classes = [
    'marker',
    single ? (single.devices > 0 ? 'store with-devices' : 'store') : 'cluster',
    selected ? 'selected' : '',
  ];
  return (
    <button
      type="button"
      className={classes.join(' ').trim()}
      aria-label={label}
      data-store={single?.name}
      data-stores={members.map((m) => m.id).join(' ')}
      data-count={members.length}
      ref={props.markerRef}
      style={{ transform: `translate(${at.x}px, ${at.y}px)` }}
      onClick={props.onActivate}
    >
      {/* The visible text, "Hamburg 2", is within the name "Hamburg: 2 devices". */}
      {single && (
        <span className="name" aria-hidden="true">
          {single.name}
        </span>
      )}{' '}
      <span className="dot" aria-hidden="true">
        {single ? (single.devices > 0 ? single.devices : '') : members.length}
      </span>
    </button>
  );
}

/** The stores of a cluster that zooming cannot split, listed under the map. */
export function PlaceList(props: {
  stores: MapStore[];
  headingRef: RefObject<HTMLHeadingElement | null>;
  onSelect: (id: number) => void;
  onClose: () => void;
}) {
  return (
    <div className="map-list">
      <h3 tabIndex={-1} ref={props.headingRef}>
        {plural(props.stores.length, 'store')} at one place
      </h3>
      <ul>
        {props.stores.map((store) => (
          <li key={store.id}>
            <button type="button" className="link" onClick={() => props.onSelect(store.id)}>
              {storeLabel(store)}
            </button>
          </li>
        ))}
      </ul>
      <button type="button" onClick={props.onClose}>
        Close the list
      </button>
    </div>
  );
}
