// The part of openapi-to-postmanv2 (which ships no types) that scripts/postman-collection.ts uses.
declare module 'openapi-to-postmanv2' {
  interface ConversionResult {
    result: boolean;
    reason?: string;
    output: { type: string; data: unknown }[];
  }
  const Converter: {
    convert(
      input: { type: 'string'; data: string },
      options: Record<string, unknown>,
      callback: (error: Error | null, result: ConversionResult) => void,
    ): void;
  };
  export default Converter;
}
