// Rows in PostgreSQL's binary COPY format, for bulk loads through DatabaseHandle.copyFrom: no
// text escaping on our side and no text parsing of numbers and timestamps on the server's.
// Format: https://www.postgresql.org/docs/current/sql-copy.html#id-1.9.3.55.9.4

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
// timestamptz is stored as microseconds since 2000-01-01 UTC.
const PG_EPOCH_MS = Date.UTC(2000, 0, 1);
const TWO_32 = 2 ** 32;

export class BinaryCopyWriter {
  private buffer: Buffer;
  private offset = 0;

  constructor(expectedBytes = 64 * 1024) {
    this.buffer = Buffer.allocUnsafe(Math.max(expectedBytes, 64));
    SIGNATURE.copy(this.buffer, 0);
    this.offset = SIGNATURE.length;
    // Flags and header-extension length.
    this.buffer.writeInt32BE(0, this.offset);
    this.buffer.writeInt32BE(0, this.offset + 4);
    this.offset += 8;
  }

  private reserve(bytes: number): void {
    if (this.offset + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.offset + bytes));
    this.buffer.copy(grown, 0, 0, this.offset);
    this.buffer = grown;
  }

  /** Starts a row of `fields` values. */
  row(fields: number): this {
    this.reserve(2);
    this.buffer.writeInt16BE(fields, this.offset);
    this.offset += 2;
    return this;
  }

  null(): this {
    this.reserve(4);
    this.buffer.writeInt32BE(-1, this.offset);
    this.offset += 4;
    return this;
  }

  int2(value: number): this {
    this.reserve(6);
    this.buffer.writeInt32BE(2, this.offset);
    this.buffer.writeInt16BE(value, this.offset + 4);
    this.offset += 6;
    return this;
  }

  int4(value: number | null): this {
    if (value === null) return this.null();
    this.reserve(8);
    this.buffer.writeInt32BE(4, this.offset);
    this.buffer.writeInt32BE(value, this.offset + 4);
    this.offset += 8;
    return this;
  }

  /** A bigint from a safe integer (any id). */
  int8(value: number | null): this {
    if (value === null) return this.null();
    this.reserve(12);
    const high = Math.floor(value / TWO_32);
    this.buffer.writeInt32BE(8, this.offset);
    this.buffer.writeInt32BE(high, this.offset + 4);
    this.buffer.writeUInt32BE(value - high * TWO_32, this.offset + 8);
    this.offset += 12;
    return this;
  }

  /** A timestamptz from epoch milliseconds. */
  timestamptz(epochMs: number): this {
    this.reserve(12);
    const micros = (epochMs - PG_EPOCH_MS) * 1000;
    const high = Math.floor(micros / TWO_32);
    this.buffer.writeInt32BE(8, this.offset);
    this.buffer.writeInt32BE(high, this.offset + 4);
    this.buffer.writeUInt32BE(micros - high * TWO_32, this.offset + 8);
    this.offset += 12;
    return this;
  }

  /** text, varchar or json (their binary form is the UTF-8 text). */
  text(value: string | null): this {
    if (value === null) return this.null();
    // UTF-8 takes at most 3 bytes per UTF-16 code unit.
    this.reserve(4 + value.length * 3);
    const written = this.buffer.write(value, this.offset + 4, 'utf8');
    this.buffer.writeInt32BE(written, this.offset);
    this.offset += 4 + written;
    return this;
  }

  /** The whole COPY data, trailer included; the writer is not used after this. */
  finish(): Buffer {
    this.reserve(2);
    this.buffer.writeInt16BE(-1, this.offset);
    this.offset += 2;
    return this.buffer.subarray(0, this.offset);
  }
}
