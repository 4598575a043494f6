// The stores on a map of the world (world.ts: Natural Earth's countries shipped with the console,
// no tiles, works offline). Pan and zoom with the mouse (drag, wheel), a finger (drag, pinch),
// the buttons + and −, or the keyboard on the focused map (arrows, + and −, 0 for every store).
// Each store is a button named after it and its devices; stores that would be drawn on top of
// each other are one cluster button with their count, which zooms in on them (or lists them when
// they stand at one place). With `pick`, a click on the map (or Enter on the focused map, for its
// centre) gives a position: the store form's latitude and longitude.
import {
  useEffect,
  useId,
  useImperativeHandle,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type PointerEvent,
  type Ref,
} from 'react';
import {
  CLUSTER_RADIUS,
  PLANE,
  centreOn,
  clampView,
  clusterPoints,
  fitView,
  fromPlane,
  separableAt,
  toPlane,
  zoomAt,
  zoomLimits,
  type Cluster,
  type LonLat,
  type Point,
  type Size,
  type View,
} from './map-geometry.ts';
import { loadWorld, type WorldShapes } from './world.ts';
import './store-map.css';

export interface MapStore {
  id: number;
  name: string;
  lon: number;
  lat: number;
  devices: number;
}

export interface StoreMapHandle {
  /** Brings a position into view (centred when it is outside), keeping the zoom. */
  show(at: LonLat): void;
}

interface StoreMapProps {
  stores: MapStore[];
  /** The stores are loaded: the first view fits them. */
  loaded: boolean;
  selectedId?: number | undefined;
  onSelect: (id: number) => void;
  /** Picking a position: what for ("the new store"), the current one, and where it goes. */
  pick?: { what: string; at: LonLat | undefined; onPick: (at: LonLat) => void } | undefined;
  ref?: Ref<StoreMapHandle>;
}

/** Zoom steps of the buttons and keys, and of the wheel per 100 px of scrolling. */
const ZOOM_STEP = 2;
const WHEEL_STEP = 1.25;
/** Arrow keys move the map by this many pixels. */
const PAN_STEP = 80;
/** A pointer that moves less than this between press and release clicked. */
const CLICK_SLOP = 5;
/** The first view and "Show all stores" zoom in no further than the world this wide (a country, its coasts and borders in view). */
const FIT_WORLD_PIXELS = 2 ** 15;
/** Room around the stores when the map shows them all (a marker's label fits). */
const FIT_PAD = 48;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Rounded to 5 decimals (about a metre), as the form shows it. */
const rounded = (value: number) => Math.round(value * 1e5) / 1e5;

function storeLabel(store: MapStore): string {
  return `${store.name}: ${plural(store.devices, 'device')}`;
}

function namesOf(stores: MapStore[]): string {
  const names = stores.slice(0, 3).map((s) => s.name);
  const more = stores.length - names.length;
  return more > 0 ? `${names.join(', ')} and ${more} more` : names.join(', ');
}

export function StoreMap({ stores, loaded, selectedId, onSelect, pick, ref }: StoreMapProps) {
  const frame = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState<Size>({ width: 0, height: 0 });
  const [view, setView] = useState<View | null>(null);
  const [world, setWorld] = useState<WorldShapes | null>(null);
  const [worldFailed, setWorldFailed] = useState(false);
  /** The stores of a cluster that zooming cannot split, listed under the map. */
  const [listed, setListed] = useState<number[] | null>(null);
  const listHeading = useRef<HTMLHeadingElement>(null);
  const markers = useRef(new Map<number, HTMLButtonElement>());
  /** A store whose marker takes the focus once drawn (after a cluster zoomed in). */
  const focusStore = useRef<number | null>(null);
  const gesture = useRef<{
    pointers: Map<number, Point>;
    start?: { at: Point; view: View; moved: boolean };
    pinch?: { distance: number; middle: Point; view: View };
    dragged: boolean;
  }>({ pointers: new Map(), dragged: false });
  const helpId = useId();

  const points = useMemo(
    () => stores.map((s) => ({ ...toPlane({ lon: s.lon, lat: s.lat }), key: s.id })),
    [stores],
  );
  const byId = useMemo(() => new Map(stores.map((s) => [s.id, s])), [stores]);

  useEffect(() => {
    let current = true;
    loadWorld().then(
      (shapes) => current && setWorld(shapes),
      () => current && setWorldFailed(true),
    );
    return () => {
      current = false;
    };
  }, []);

  // The map's size follows its frame (CSS gives it); the centre stays where it was.
  const sizeNow = useRef(size);
  useLayoutEffect(() => {
    const element = frame.current;
    if (!element) return;
    const measure = () => {
      const previous = sizeNow.current;
      const next = { width: element.clientWidth, height: element.clientHeight };
      // A frame not laid out (hidden, detached) keeps the last view.
      if (next.width === 0 || next.height === 0) return;
      if (previous.width === next.width && previous.height === next.height) return;
      sizeNow.current = next;
      setSize(next);
      setView((old) => {
        if (!old || previous.width === 0) return old;
        const centre = {
          x: (previous.width / 2 - old.x) / old.k,
          y: (previous.height / 2 - old.y) / old.k,
        };
        return centreOn(centre, old.k * (next.width / previous.width), next);
      });
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const fitMax = (s: Size) => Math.max(zoomLimits(s).min, FIT_WORLD_PIXELS / PLANE);
  const showAll = () => setView(fitView(points, size, FIT_PAD, fitMax(size)));

  // The first view shows every store.
  useEffect(() => {
    if (view === null && loaded && size.width > 0)
      setView(fitView(points, size, FIT_PAD, fitMax(size)));
  }, [view, loaded, size, points]);

  const screenOf = (p: Point, v: View): Point => ({ x: p.x * v.k + v.x, y: p.y * v.k + v.y });
  const planeOf = (s: Point, v: View): Point => ({ x: (s.x - v.x) / v.k, y: (s.y - v.y) / v.k });

  const ready = view !== null && size.width > 0;
  const clusters = useMemo(
    () => (view ? clusterPoints(points, view.k) : []),
    // Clusters change with the zoom only: panning moves them all alike.
    [points, view?.k],
  );
  const visible = ready
    ? clusters
        .map((cluster) => ({ cluster, at: screenOf(cluster.at, view) }))
        .filter(
          ({ at }) =>
            at.x >= -CLUSTER_RADIUS / 2 &&
            at.x <= size.width + CLUSTER_RADIUS / 2 &&
            at.y >= -CLUSTER_RADIUS / 2 &&
            at.y <= size.height + CLUSTER_RADIUS / 2,
        )
        // Reading order: top to bottom, then left to right.
        .sort((a, b) => Math.round(a.at.y - b.at.y) || a.at.x - b.at.x)
    : [];
  const inView = visible.reduce((sum, { cluster }) => sum + cluster.members.length, 0);

  // After a cluster zoomed in, the focus goes to the marker that now holds its first store.
  useEffect(() => {
    const wanted = focusStore.current;
    if (wanted === null) return;
    const found = visible.find(({ cluster }) =>
      cluster.members.some((i) => points[i]!.key === wanted),
    );
    if (!found) return;
    focusStore.current = null;
    markers.current.get(found.cluster.key)?.focus();
  });

  useEffect(() => {
    if (listed) listHeading.current?.focus();
  }, [listed]);

  // The parent brings a position into view (a store being edited, a store just created).
  useImperativeHandle(
    ref,
    () => ({
      show(at) {
        setView((old) => {
          if (!old || size.width === 0) return old;
          const s = screenOf(toPlane(at), old);
          const margin = CLUSTER_RADIUS;
          const inside =
            s.x >= margin &&
            s.x <= size.width - margin &&
            s.y >= margin &&
            s.y <= size.height - margin;
          return inside ? old : centreOn(toPlane(at), old.k, size);
        });
      },
    }),
    [size],
  );

  const zoomBy = (factor: number, at?: Point) =>
    setView((old) =>
      old ? zoomAt(old, factor, at?.x ?? size.width / 2, at?.y ?? size.height / 2, size) : old,
    );
  const panBy = (dx: number, dy: number) =>
    setView((old) => (old ? clampView({ ...old, x: old.x + dx, y: old.y + dy }, size) : old));

  // The wheel zooms around the pointer (a listener of its own: React's wheel handler cannot
  // stop the page from scrolling).
  const wheelState = useRef({ size, zoomBy });
  wheelState.current = { size, zoomBy };
  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      const box = element.getBoundingClientRect();
      const pixels = event.deltaY * (event.deltaMode === 1 ? 40 : event.deltaMode === 2 ? 400 : 1);
      wheelState.current.zoomBy(WHEEL_STEP ** (-pixels / 100), {
        x: event.clientX - box.left,
        y: event.clientY - box.top,
      });
    };
    element.addEventListener('wheel', onWheel, { passive: false });
    return () => element.removeEventListener('wheel', onWheel);
  }, []);

  const pointOf = (event: { clientX: number; clientY: number }): Point => {
    const box = frame.current!.getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top };
  };

  const place = (at: Point) => {
    if (!pick || !view) return;
    const onPlane = planeOf(at, view);
    // Beyond the map's top and bottom edges (±85° of latitude) there is nothing to pick.
    if (onPlane.y < 0 || onPlane.y > PLANE) return;
    const position = fromPlane(onPlane);
    pick.onPick({ lon: rounded(position.lon), lat: rounded(position.lat) });
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (!view || (event.pointerType === 'mouse' && event.button !== 0)) return;
    const g = gesture.current;
    g.pointers.set(event.pointerId, pointOf(event));
    g.dragged = false;
    if (g.pointers.size === 1) {
      g.start = { at: pointOf(event), view, moved: false };
      g.pinch = undefined;
    } else if (g.pointers.size === 2) {
      const [a, b] = [...g.pointers.values()] as [Point, Point];
      g.pinch = {
        distance: Math.hypot(a.x - b.x, a.y - b.y) || 1,
        middle: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 },
        view,
      };
      g.start = undefined;
      g.dragged = true;
    }
  };

  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const g = gesture.current;
    if (!g.pointers.has(event.pointerId)) return;
    const here = pointOf(event);
    g.pointers.set(event.pointerId, here);
    if (g.pinch && g.pointers.size >= 2) {
      const [a, b] = [...g.pointers.values()] as [Point, Point];
      const distance = Math.hypot(a.x - b.x, a.y - b.y) || 1;
      const middle = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
      const { view: from } = g.pinch;
      const zoomed = zoomAt(
        from,
        distance / g.pinch.distance,
        g.pinch.middle.x,
        g.pinch.middle.y,
        size,
      );
      setView(
        clampView(
          {
            ...zoomed,
            x: zoomed.x + middle.x - g.pinch.middle.x,
            y: zoomed.y + middle.y - g.pinch.middle.y,
          },
          size,
        ),
      );
      return;
    }
    const start = g.start;
    if (!start) return;
    const dx = here.x - start.at.x;
    const dy = here.y - start.at.y;
    if (!start.moved && Math.hypot(dx, dy) < CLICK_SLOP) return;
    if (!start.moved) {
      start.moved = true;
      g.dragged = true;
      frame.current?.setPointerCapture(event.pointerId);
    }
    setView(clampView({ ...start.view, x: start.view.x + dx, y: start.view.y + dy }, size));
  };

  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    const g = gesture.current;
    if (!g.pointers.delete(event.pointerId)) return;
    const start = g.start;
    if (g.pointers.size === 0) {
      g.start = undefined;
      g.pinch = undefined;
      // The click that follows a drag's release is not an activation; later ones are.
      setTimeout(() => {
        g.dragged = false;
      }, 0);
    }
    if (event.type !== 'pointerup' || !start || start.moved) return;
    // A click on the map itself (not on a marker or a button) places the picked position.
    if (!(event.target as HTMLElement).closest('button')) place(pointOf(event));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!view) return;
    const target = event.target as HTMLElement;
    const onMap = target === event.currentTarget;
    const keys: Record<string, () => void> = {
      ArrowLeft: () => panBy(PAN_STEP, 0),
      ArrowRight: () => panBy(-PAN_STEP, 0),
      ArrowUp: () => panBy(0, PAN_STEP),
      ArrowDown: () => panBy(0, -PAN_STEP),
      '+': () => zoomBy(ZOOM_STEP),
      '=': () => zoomBy(ZOOM_STEP),
      '-': () => zoomBy(1 / ZOOM_STEP),
      _: () => zoomBy(1 / ZOOM_STEP),
      '0': showAll,
      ...(onMap && pick ? { Enter: () => place({ x: size.width / 2, y: size.height / 2 }) } : {}),
    };
    const action = keys[event.key];
    if (!action || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    // Keys pressed on a marker move the map: the focus goes to the map, as the marker may
    // leave the view or join a cluster.
    if (!onMap) frame.current?.focus();
    action();
  };

  const activate = (cluster: Cluster) => {
    if (gesture.current.dragged) return;
    const members = cluster.members.map((i) => points[i]!);
    if (members.length === 1) {
      onSelect(members[0]!.key);
      return;
    }
    if (!view) return;
    const { max } = zoomLimits(size);
    if (!separableAt(members, max)) {
      setListed(members.map((m) => m.key));
      return;
    }
    const fitted = fitView(members, size, CLUSTER_RADIUS * 1.5);
    const k = Math.min(max, Math.max(fitted.k, view.k * ZOOM_STEP));
    const xs = members.map((m) => m.x);
    const ys = members.map((m) => m.y);
    const middle = {
      x: (Math.min(...xs) + Math.max(...xs)) / 2,
      y: (Math.min(...ys) + Math.max(...ys)) / 2,
    };
    focusStore.current = Math.min(...members.map((m) => m.key));
    setView(centreOn(middle, k, size));
  };

  const limits = zoomLimits(size);
  const atMax = !view || view.k >= limits.max * 0.999;
  const atMin = !view || view.k <= limits.min * 1.001;
  const pin = pick?.at && view ? screenOf(toPlane(pick.at), view) : undefined;
  const listedStores = (listed ?? []).map((id) => byId.get(id)).filter((s) => s !== undefined);

  return (
    <div className="store-map">
      {pick && (
        <p className="map-hint" id={`${helpId}-pick`}>
          Click the map to set the position of {pick.what}. With the keyboard: move the map with the
          arrow keys, then press Enter on it to use its centre (marked by a cross).
        </p>
      )}
      <div className="map-controls" role="group" aria-label="Map controls">
        <button
          type="button"
          aria-label="Zoom in"
          aria-disabled={atMax}
          onClick={() => !atMax && zoomBy(ZOOM_STEP)}
        >
          +
        </button>
        <button
          type="button"
          aria-label="Zoom out"
          aria-disabled={atMin}
          onClick={() => !atMin && zoomBy(1 / ZOOM_STEP)}
        >
          −
        </button>
        <button type="button" onClick={showAll}>
          Show all stores
        </button>
      </div>
      <div
        ref={frame}
        className={pick ? 'map-frame picking' : 'map-frame'}
        tabIndex={0}
        role="application"
        aria-roledescription="map"
        aria-label="Map of the stores"
        data-zoom={view ? Math.round((view.k / limits.min) * 100) / 100 : undefined}
        aria-describedby={pick ? `${helpId} ${helpId}-pick` : helpId}
        onKeyDown={onKeyDown}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
      >
        <svg aria-hidden="true" width={size.width} height={size.height}>
          <rect className="sea" width={size.width} height={size.height} />
          {view && world && (
            <g transform={`translate(${view.x} ${view.y}) scale(${view.k})`}>
              <path className="land" d={world.land} />
              <path className="borders" d={world.borders} />
            </g>
          )}
        </svg>
        <span className="crosshair" aria-hidden="true" />
        {pin && (
          <span
            className="pin"
            aria-hidden="true"
            style={{ transform: `translate(${pin.x}px, ${pin.y}px)` }}
          />
        )}
        {visible.map(({ cluster, at }) => {
          const members = cluster.members.map((i) => byId.get(points[i]!.key)!);
          const single = members.length === 1 ? members[0]! : undefined;
          const selected = selectedId !== undefined && members.some((m) => m.id === selectedId);
          const label = single
            ? storeLabel(single)
            : `${members.length} stores: ${namesOf(members)}. ${
                separableAt(
                  cluster.members.map((i) => points[i]!),
                  limits.max,
                )
                  ? 'Zoom in'
                  : 'List them'
              }`;
          const classes = [
            'marker',
            single ? (single.devices > 0 ? 'store with-devices' : 'store') : 'cluster',
            selected ? 'selected' : '',
          ];
          return (
            <button
              key={cluster.key}
              type="button"
              className={classes.join(' ').trim()}
              aria-label={label}
              data-store={single?.name}
              data-stores={members.map((m) => m.id).join(' ')}
              data-count={members.length}
              ref={(element) => {
                if (element) markers.current.set(cluster.key, element);
                else markers.current.delete(cluster.key);
              }}
              style={{ transform: `translate(${at.x}px, ${at.y}px)` }}
              onClick={() => activate(cluster)}
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
        })}
        {!world && !worldFailed && <span className="map-loading">Loading the map…</span>}
      </div>
      <p className="map-caption muted" id={helpId}>
        {ready ? `${plural(inView, 'store')} of ${stores.length} in view. ` : ''}
        Blue dot: a store; red with a number: its devices; dark circle: several stores (activate it
        to zoom in). Drag or use the arrow keys to move, the wheel, + or − to zoom, 0 to show all.
        {worldFailed && ' The world map could not be loaded; the stores are drawn without it.'}{' '}
        <span className="credit">Map data: Natural Earth.</span>
      </p>
      {listed && (
        <div className="map-list">
          <h3 tabIndex={-1} ref={listHeading}>
            {plural(listedStores.length, 'store')} at one place
          </h3>
          <ul>
            {listedStores.map((store) => (
              <li key={store.id}>
                <button type="button" className="link" onClick={() => onSelect(store.id)}>
                  {storeLabel(store)}
                </button>
              </li>
            ))}
          </ul>
          <button
            type="button"
            onClick={() => {
              const first = listed[0];
              setListed(null);
              if (first !== undefined) focusStore.current = first;
            }}
          >
            Close the list
          </button>
        </div>
      )}
    </div>
  );
}
