// The stores on a map of the world (world.ts: Natural Earth's countries shipped with the console,
// no tiles, works offline), the countries named. Pan and zoom with the mouse (drag, wheel), a
// finger (drag, pinch; map-gestures.ts), the buttons + and −, or the keyboard on the focused map
// (arrows, + and −, 0 for every store). Each store is a button named after it and its devices,
// its name written beside it; stores that would be drawn on top of each other are one cluster
// button with their count, which zooms in on them (or lists them when they stand at one place).
// The view fits every store at first, and again when the stores change while the person has not
// moved the map by hand. With `pick`, a click on the map (or Enter on the focused map, for its
// centre) gives a position: the store form's latitude and longitude; a click at a coarse zoom
// also zooms in around it, so that the next click can place it precisely.
import {
  useEffect,
  useId,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
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
  zoomLimits,
  type Cluster,
  type LonLat,
  type Point,
  type Size,
  type View,
} from './map-geometry.ts';
import { MapLabels } from './MapLabels.tsx';
import { MapMarker, PlaceList, plural } from './MapMarker.tsx';
import { useFrameSize, useMapGestures } from './map-gestures.ts';
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
  /** The person points with a finger: the words say tap and pinch. */
  touch?: boolean;
  ref?: Ref<StoreMapHandle>;
}

/** Zoom step of the buttons and keys. */
const ZOOM_STEP = 2;
/** Arrow keys move the map by this many pixels. */
const PAN_STEP = 80;
/**
 * A click picks a position to about the width of a pixel: coarser than the world this wide
 * (about 600 m a pixel), a click also zooms in around the point, by PICK_ZOOM.
 */
const PRECISE_WORLD_PIXELS = 2 ** 16;
const PICK_ZOOM = 4;
/** The first view and "Show all stores" zoom in no further than the world this wide (a country, its coasts and borders in view). */
const FIT_WORLD_PIXELS = 2 ** 15;
/** Room around the stores when the map shows them all (a marker's label fits). */
const FIT_PAD = 48;

/** Rounded to 5 decimals (about a metre), as the form shows it. */
const rounded = (value: number) => Math.round(value * 1e5) / 1e5;

export function StoreMap(props: StoreMapProps) {
  const { stores, loaded, selectedId, onSelect, pick, touch = false, ref } = props;
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
  /** The view is the fit of every store (not moved by hand since): it follows them. */
  const fitted = useRef(true);
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

  useFrameSize(frame, setSize, setView);

  const fitMax = (s: Size) => Math.max(zoomLimits(s).min, FIT_WORLD_PIXELS / PLANE);
  const showAll = () => {
    fitted.current = true;
    setView(fitView(points, size, FIT_PAD, fitMax(size)));
  };

  // The first view shows every store; so does the view after the stores changed (one added,
  // moved, deleted), unless the person moved the map by hand meanwhile.
  useEffect(() => {
    if (!loaded || size.width === 0 || (view !== null && !fitted.current)) return;
    setView(fitView(points, size, FIT_PAD, fitMax(size)));
  }, [loaded, size.width === 0, points]);
  const moved = () => {
    fitted.current = false;
  };

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

  const place = (at: Point) => {
    if (!pick || !view) return;
    const onPlane = planeOf(at, view);
    // Beyond the map's top and bottom edges (±85° of latitude) there is nothing to pick.
    if (onPlane.y < 0 || onPlane.y > PLANE) return;
    const position = fromPlane(onPlane);
    pick.onPick({ lon: rounded(position.lon), lat: rounded(position.lat) });
    // A pixel is kilometres wide here: zoom in around the point, for the next click (the map's
    // own help, not a move by hand: the view still follows the stores once one is saved).
    if (view.k * PLANE < PRECISE_WORLD_PIXELS) {
      zoomBy(Math.min(PICK_ZOOM, PRECISE_WORLD_PIXELS / (view.k * PLANE)), at);
    }
  };
  const { handlers, zoomBy, dragged } = useMapGestures({
    frame,
    view,
    size,
    setView,
    onMoved: moved,
    onClick: place,
  });
  const panBy = (dx: number, dy: number) => {
    moved();
    setView((old) => (old ? clampView({ ...old, x: old.x + dx, y: old.y + dy }, size) : old));
  };
  const zoomByHand = (factor: number) => {
    moved();
    zoomBy(factor);
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
      '+': () => zoomByHand(ZOOM_STEP),
      '=': () => zoomByHand(ZOOM_STEP),
      '-': () => zoomByHand(1 / ZOOM_STEP),
      _: () => zoomByHand(1 / ZOOM_STEP),
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
    if (dragged()) return;
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
    moved();
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
          {touch
            ? `Tap the map to set the position of ${pick.what}; each tap far out also zooms in, so that the next one is precise.`
            : `Click the map to set the position of ${pick.what}; each click far out also zooms in, so that the next one is precise. With the keyboard: move the map with the arrow keys, then press Enter on it to use its centre (marked by a cross).`}
        </p>
      )}
      <div className="map-controls" role="group" aria-label="Map controls">
        <button
          type="button"
          aria-label="Zoom in"
          aria-disabled={atMax}
          onClick={() => !atMax && zoomByHand(ZOOM_STEP)}
        >
          +
        </button>
        <button
          type="button"
          aria-label="Zoom out"
          aria-disabled={atMin}
          onClick={() => !atMin && zoomByHand(1 / ZOOM_STEP)}
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
        {...handlers}
      >
        <svg aria-hidden="true" width={size.width} height={size.height}>
          <rect className="sea" width={size.width} height={size.height} />
          {view && world && (
            <g className="world" transform={`translate(${view.x} ${view.y}) scale(${view.k})`}>
              <path className="land" d={world.land} />
              <path className="borders" d={world.borders} />
            </g>
          )}
          {view && world && <MapLabels labels={world.labels} view={view} size={size} />}
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
          const separable = separableAt(
            cluster.members.map((i) => points[i]!),
            limits.max,
          );
          return (
            <MapMarker
              key={cluster.key}
              members={members}
              at={at}
              separable={separable}
              selected={selectedId !== undefined && members.some((m) => m.id === selectedId)}
              markerRef={(element) => {
                if (element) markers.current.set(cluster.key, element);
                else markers.current.delete(cluster.key);
              }}
              onActivate={() => activate(cluster)}
            />
          );
        })}
        {!world && !worldFailed && <span className="map-loading">Loading the map…</span>}
      </div>
      <p className="map-caption muted" id={helpId}>
        {ready ? `${plural(inView, 'store')} of ${stores.length} in view. ` : ''}
        Blue dot: a store; red with a number: its devices; dark circle: several stores (
        {touch ? 'tap' : 'activate'} it to zoom in).{' '}
        {touch
          ? 'Drag with a finger to move, pinch or + and − to zoom.'
          : 'Drag or use the arrow keys to move, the wheel, + or − to zoom, 0 to show all.'}
        {worldFailed && ' The world map could not be loaded; the stores are drawn without it.'}{' '}
        <span className="credit">Map data: Natural Earth.</span>
      </p>
      {listed && (
        <PlaceList
          stores={listedStores}
          headingRef={listHeading}
          onSelect={onSelect}
          onClose={() => {
            const first = listed[0];
            setListed(null);
            if (first !== undefined) focusStore.current = first;
          }}
        />
      )}
    </div>
  );
}
