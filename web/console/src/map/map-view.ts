import { direct, distanceM } from '@stormhook/geometry';
import { Map as MapLibreMap, Marker, setWorkerUrl, type GeoJSONSource, type LngLatBoundsLike, type MapMouseEvent, type StyleSpecification } from 'maplibre-gl';
import { boundsOf, collection, type FeatureCollection } from './geojson.js';
import type { WeatherState } from './weather-state.js';

/** Turkey and Northern Cyprus: the product's geography, and the view the map opens on. */
const HOME_BOUNDS: LngLatBoundsLike = [
  [25.6, 35.0],
  [44.9, 42.2],
];

/** Rain colours by intensity class (interface.md 2.7), light to extreme. */
export const RAIN_COLOURS: Record<string, string> = {
  DRIZZLE: '#8fd3ff',
  LIGHT: '#3fa9f5',
  MODERATE: '#1f6fe0',
  HEAVY: '#f7d038',
  VERY_HEAVY: '#f28b1c',
  EXTREME: '#e53935',
};

const SOURCES = ['provinces', 'areas', 'registrations', 'rain', 'storm-cells', 'storm-paths', 'lightning', 'draft'] as const;
type SourceId = (typeof SOURCES)[number];

/**
 * No tile server: the style has no tiles, glyphs or sprites, only GeoJSON sources (the boundaries
 * the API serves, the weather, the account's alarms). Without glyphs there are no text labels: names
 * are in the side panel and the hover line.
 */
function style(): StyleSpecification {
  const rainColour: unknown[] = ['match', ['get', 'intensity']];
  for (const [name, colour] of Object.entries(RAIN_COLOURS)) rainColour.push(name, colour);
  rainColour.push('#3fa9f5');
  return {
    version: 8,
    sources: Object.fromEntries(SOURCES.map((id) => [id, { type: 'geojson', data: collection([]) }])) as StyleSpecification['sources'],
    layers: [
      { id: 'background', type: 'background', paint: { 'background-color': '#0b1622' } },
      { id: 'provinces-fill', type: 'fill', source: 'provinces', paint: { 'fill-color': '#1a2a38', 'fill-opacity': 1 } },
      { id: 'provinces-line', type: 'line', source: 'provinces', paint: { 'line-color': '#3b5266', 'line-width': 0.8 } },
      { id: 'areas-fill', type: 'fill', source: 'areas', paint: { 'fill-color': '#4fb3ff', 'fill-opacity': 0.12 } },
      { id: 'areas-line', type: 'line', source: 'areas', paint: { 'line-color': '#8fd0ff', 'line-width': 1.5, 'line-dasharray': [2, 1] } },
      {
        id: 'rain-fill',
        type: 'fill',
        source: 'rain',
        paint: { 'fill-color': rainColour as never, 'fill-opacity': 0.55 },
      },
      {
        id: 'storm-threat',
        type: 'fill',
        source: 'storm-cells',
        filter: ['==', ['get', 'part'], 'threat'],
        paint: { 'fill-color': '#ff9d3b', 'fill-opacity': 0.18 },
      },
      {
        id: 'storm-horizon',
        type: 'line',
        source: 'storm-cells',
        filter: ['==', ['get', 'part'], 'horizon'],
        paint: { 'line-color': '#ff5fd2', 'line-width': 1.2, 'line-dasharray': [1, 1] },
      },
      {
        id: 'storm-cell',
        type: 'fill',
        source: 'storm-cells',
        filter: ['==', ['get', 'part'], 'cell'],
        paint: {
          'fill-color': ['match', ['get', 'severity'], 'HIGH', '#ff2d55', 'MEDIUM', '#ff6a00', '#ffb000'],
          'fill-opacity': 0.7,
        },
      },
      {
        id: 'storm-cell-line',
        type: 'line',
        source: 'storm-cells',
        filter: ['==', ['get', 'part'], 'cell'],
        paint: { 'line-color': '#ffffff', 'line-width': 1 },
      },
      {
        id: 'storm-path',
        type: 'line',
        source: 'storm-paths',
        filter: ['==', ['get', 'part'], 'path'],
        paint: { 'line-color': '#ff5fd2', 'line-width': 2.5, 'line-dasharray': [2, 1] },
      },
      {
        id: 'storm-head',
        type: 'circle',
        source: 'storm-paths',
        filter: ['==', ['get', 'part'], 'head'],
        paint: { 'circle-radius': 4, 'circle-color': '#ff5fd2', 'circle-stroke-color': '#ffffff', 'circle-stroke-width': 1 },
      },
      {
        id: 'registrations-fill',
        type: 'fill',
        source: 'registrations',
        paint: { 'fill-color': '#4cd08a', 'fill-opacity': 0.16 },
      },
      { id: 'registrations-line', type: 'line', source: 'registrations', paint: { 'line-color': '#4cd08a', 'line-width': 2.2 } },
      {
        id: 'lightning-bins',
        type: 'circle',
        source: 'lightning',
        filter: ['==', ['get', 'kind'], 'bin'],
        paint: {
          'circle-radius': ['interpolate', ['linear'], ['get', 'count'], 1, 3, 20, 5, 200, 8],
          'circle-color': '#ffe14d',
          // Fading with age: bright in the current minute, nearly gone at ten.
          'circle-opacity': ['interpolate', ['linear'], ['get', 'ageMin'], 0, 0.9, 10, 0.08],
        },
      },
      {
        id: 'lightning-flashes',
        type: 'circle',
        source: 'lightning',
        filter: ['==', ['get', 'kind'], 'flash'],
        paint: {
          'circle-radius': 4,
          'circle-stroke-width': 1,
          'circle-stroke-color': '#ffe14d',
          'circle-color': ['case', ['get', 'cg'], '#ffffff', '#fff3a0'],
          'circle-opacity': ['interpolate', ['linear'], ['get', 'ageS'], 0, 1, 5, 0.5],
        },
      },
      { id: 'draft-fill', type: 'fill', source: 'draft', paint: { 'fill-color': '#ffffff', 'fill-opacity': 0.12 } },
      { id: 'draft-line', type: 'line', source: 'draft', paint: { 'line-color': '#ffffff', 'line-width': 2 } },
    ],
  };
}

/** The map: MapLibre over the console's GeoJSON sources, redrawn from the weather state a few times a second. */
export class MapView {
  readonly map: MapLibreMap;
  private readonly ready: Promise<void>;
  private drawn = { storms: -1, rain: -1, lightning: -1 };
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(container: HTMLElement, workerUrl: string) {
    setWorkerUrl(workerUrl);
    this.map = new MapLibreMap({
      container,
      style: style(),
      bounds: HOME_BOUNDS,
      attributionControl: { compact: true, customAttribution: '© OpenStreetMap contributors (ODbL); geoBoundaries; Who’s On First; Natural Earth' },
      dragRotate: false,
      pitchWithRotate: false,
      maxZoom: 14,
    });
    this.map.touchZoomRotate.disableRotation();
    this.ready = new Promise((resolve) => this.map.once('load', () => resolve()));
    // The attribution stays one click away (the "i"), not a banner over a phone's map.
    void this.ready.then(() => container.querySelector('.maplibregl-ctrl-attrib')?.classList.remove('maplibregl-compact-show'));
  }

  whenReady(): Promise<void> {
    return this.ready;
  }

  async set(source: SourceId, data: FeatureCollection): Promise<void> {
    await this.ready;
    (this.map.getSource(source) as GeoJSONSource | undefined)?.setData(data as Parameters<GeoJSONSource['setData']>[0]);
  }

  /**
   * Redraws the weather sources that changed, once a second: each redraw hands the source's GeoJSON
   * to MapLibre's worker, which re-tiles it, so a source is not redrawn per event (1,000 strikes/s).
   */
  follow(state: WeatherState): void {
    const draw = () => {
      const now = Date.now();
      state.prune(now);
      if (state.version.storms !== this.drawn.storms) {
        this.drawn.storms = state.version.storms;
        void this.set('storm-cells', state.stormCells());
        void this.set('storm-paths', state.stormPaths());
      }
      if (state.version.rain !== this.drawn.rain) {
        this.drawn.rain = state.version.rain;
        void this.set('rain', state.rainAreas());
      }
      if (state.version.lightning !== this.drawn.lightning) {
        this.drawn.lightning = state.version.lightning;
        void this.set('lightning', state.lightning(now));
      }
    };
    void this.ready.then(draw);
    this.timer = setInterval(draw, 1_000);
  }

  /**
   * Two draggable handles for a point alarm being made: its centre, and a handle on its edge whose
   * distance from the centre is the radius (metres). `onChange` gets every move; the returned
   * function removes the handles.
   */
  editCircle(
    center: { lng: number; lat: number },
    radiusM: number,
    onChange: (center: { lng: number; lat: number }, radiusM: number) => void,
  ): { setRadius(radiusM: number): void; remove(): void } {
    let c = center;
    let r = radiusM;
    const handle = (label: string, colour: string) => {
      const element = document.createElement('div');
      element.setAttribute('aria-label', label);
      element.title = label;
      element.style.cssText = `width:14px;height:14px;border-radius:50%;background:${colour};border:2px solid #0b1622;cursor:grab`;
      return new Marker({ element, draggable: true });
    };
    const edgeOf = () => direct(c.lng, c.lat, Math.PI / 2, r);
    const centreMarker = handle('Alarm centre: drag to move', '#ffffff').setLngLat([c.lng, c.lat]).addTo(this.map);
    const edgeMarker = handle('Alarm radius: drag to resize', '#4fb3ff').setLngLat(edgeOf()).addTo(this.map);
    centreMarker.on('drag', () => {
      const p = centreMarker.getLngLat();
      c = { lng: p.lng, lat: p.lat };
      edgeMarker.setLngLat(edgeOf());
      onChange(c, r);
    });
    edgeMarker.on('drag', () => {
      const p = edgeMarker.getLngLat();
      r = Math.round(Math.min(200_000, Math.max(100, distanceM([c.lng, c.lat], [p.lng, p.lat]))));
      onChange(c, r);
    });
    edgeMarker.on('dragend', () => edgeMarker.setLngLat(edgeOf()));
    return {
      setRadius: (value) => {
        r = value;
        edgeMarker.setLngLat(edgeOf());
      },
      remove: () => {
        centreMarker.remove();
        edgeMarker.remove();
      },
    };
  }

  onClick(handler: (lngLat: { lng: number; lat: number }) => void): void {
    this.map.on('click', (event: MapMouseEvent) => handler({ lng: event.lngLat.lng, lat: event.lngLat.lat }));
  }

  setCursor(cursor: string): void {
    this.map.getCanvas().style.cursor = cursor;
  }

  fitTo(data: FeatureCollection, maxZoom = 10): void {
    const bounds = boundsOf(data.features.map((f) => f.geometry));
    if (bounds) this.map.fitBounds(bounds, { padding: 40, maxZoom, duration: 600 });
  }

  /** The centre of the view and the radius that covers it, metres (for the cropped geometry operation). */
  view(): { center: { lng: number; lat: number }; zoom: number } {
    const c = this.map.getCenter();
    return { center: { lng: c.lng, lat: c.lat }, zoom: this.map.getZoom() };
  }

  resize(): void {
    this.map.resize();
  }

  destroy(): void {
    if (this.timer) clearInterval(this.timer);
    this.map.remove();
  }
}
