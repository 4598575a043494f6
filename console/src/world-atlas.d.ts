// world-atlas ships its TopoJSON as .json files without types; world.ts says what they hold.
declare module 'world-atlas/countries-110m.json' {
  const topology: unknown;
  export default topology;
}
