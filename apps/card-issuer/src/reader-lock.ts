import { readerCodes } from '@campus/contracts';
import { ReaderError } from './readers/card-reader.ts';

/** One card operation at a time: a second caller is told at once that the reader is busy (990351), never queued. */
export class ReaderLock {
  private busy = false;

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.busy) throw new ReaderError(readerCodes.readerBusy);
    this.busy = true;
    try {
      return await work();
    } finally {
      this.busy = false;
    }
  }
}
