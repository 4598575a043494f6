// The stores' map moved by hand: a drag with the mouse or a finger pans it, two fingers pinch,
// the wheel zooms around the pointer; a press released where it started (not a drag) is a
// click at that point. And the map's size, which follows its frame. The map's view is the
// caller's state; these hooks only change it.
import { useEffect, useLayoutEffect, useRef, type PointerEvent, type RefObject } from 'react';
import { centreOn, clampView, zoomAt, type Point, type Size, type View } from './map-geometry.ts';

/** A pointer that moves less than this between press and release clicked. */
const CLICK_SLOP = 5;
/** The wheel's zoom step per 100 px of scrolling. */
const WHEEL_STEP = 1.25;

export function useMapGestures(options: {
  frame: RefObject<HTMLDivElement | null>;
  view: View | null;
  size: Size;
  setView: (update: (old: View | null) => View | null) => void;
  /** The person moved or zoomed the map by hand. */
  onMoved: () => void;
  /** A click on the map itself (not on a marker or a button), at a point of the frame. */
  onClick: (at: Point) => void;
}) {
  const { frame, view, size, setView } = options;
  const gesture = useRef<{
    pointers: Map<number, Point>;
    start?: { at: Point; view: View; moved: boolean };
    pinch?: { distance: number; middle: Point; view: View };
    dragged: boolean;
  }>({ pointers: new Map(), dragged: false });
  const latest = useRef(options);
  latest.current = options;

  const zoomBy = (factor: number, at?: Point) =>
    setView((old) =>
      old ? zoomAt(old, factor, at?.x ?? size.width / 2, at?.y ?? size.height / 2, size) : old,
    );

  // The wheel zooms around the pointer (a listener of its own: React's wheel handler cannot
  // stop the page from scrolling).
  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      const box = element.getBoundingClientRect();
      const pixels = event.deltaY * (event.deltaMode === 1 ? 40 : event.deltaMode === 2 ? 400 : 1);
      const { size: now, setView: set } = latest.current;
      const at = { x: event.clientX - box.left, y: event.clientY - box.top };
      set((old) => (old ? zoomAt(old, WHEEL_STEP ** (-pixels / 100), at.x, at.y, now) : old));
      latest.current.onMoved();
    };
    element.addEventListener('wheel', onWheel, { passive: false });
    return () => element.removeEventListener('wheel', onWheel);
  }, [frame]);

  const pointOf = (event: { clientX: number; clientY: number }): Point => {
    const box = frame.current!.getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top };
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
      const { view: from, middle: was } = g.pinch;
      const zoomed = zoomAt(from, distance / g.pinch.distance, was.x, was.y, size);
      setView(() =>
        clampView(
          { ...zoomed, x: zoomed.x + middle.x - was.x, y: zoomed.y + middle.y - was.y },
          size,
        ),
      );
      options.onMoved();
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
    setView(() => clampView({ ...start.view, x: start.view.x + dx, y: start.view.y + dy }, size));
    options.onMoved();
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
    if (!(event.target as HTMLElement).closest('button')) options.onClick(pointOf(event));
  };

  return {
    handlers: {
      onPointerDown,
      onPointerMove,
      onPointerUp,
      onPointerCancel: onPointerUp,
    },
    zoomBy,
    /** Whether the pointer just dragged (a marker's click then is no activation). */
    dragged: () => gesture.current.dragged,
  };
}

/** The map's size follows its frame (CSS gives it); the centre stays where it was. */
export function useFrameSize(
  frame: RefObject<HTMLDivElement | null>,
  setSize: (size: Size) => void,
  setView: (update: (old: View | null) => View | null) => void,
) {
  const sizeNow = useRef<Size>({ width: 0, height: 0 });
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
  }, [frame]);
}
