import { Type } from 'typebox';
import { InvalidRequest } from './envelope.ts';

/** Latest instant a JavaScript Date can hold (epoch ms). */
const maxTime = 8_640_000_000_000_000;

/** An optional epoch-ms bound of a search (inclusive). */
export const timeBound = (description: string) => Type.Optional(Type.Integer({ minimum: 0, maximum: maxTime, description }));

/** The optional startTime / endTime pair of a search body. */
export const timeRangeFields = {
  startTime: timeBound('Epoch ms, inclusive'),
  endTime: timeBound('Epoch ms, inclusive; not before startTime'),
};

/** HTTP 400 naming endTime when it lies before startTime (a schema cannot compare two fields). */
export function assertTimeRange(range: { startTime?: number; endTime?: number }): void {
  const { startTime, endTime } = range;
  if (startTime !== undefined && endTime !== undefined && endTime < startTime) {
    throw new InvalidRequest('body/endTime must be >= startTime');
  }
}
