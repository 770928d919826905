/** Every server answer (DESIGN §5). Success when `code % 10 === 0`. */
export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
  recordCount?: number;
}
