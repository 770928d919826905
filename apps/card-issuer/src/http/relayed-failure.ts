import type { Envelope } from '@campus/contracts';

/** A failure the server answered to a relayed card sign-in: sent on to the browser as it came. */
export class RelayedFailure extends Error {
  constructor(readonly envelope: Envelope) {
    super(envelope.msg);
    this.name = 'RelayedFailure';
  }
}
