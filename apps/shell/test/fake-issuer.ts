import { TextEncoder as NodeTextEncoder } from 'node:util';
import { vi } from 'vitest';
import { cardIssuerPaths, shellVersion } from '@campus/contracts';
import { forgetPairing, setIssuerFetch } from '../src/lib/cards/card-issuer.ts';

/** What the fake card issuer answers on a path: an envelope, or an Error for "does not answer". */
export type IssuerAnswer = { code: number; msg?: string; data?: unknown } | Error;

export interface IssuerCall {
  path: string;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

export const devicePublicKey = '04' + 'ab'.repeat(64);

/** The server's key challenge in the fake server (renderCardScreen), and the fake issuer's SignKeyChallenge answer. */
export const keyChallenge = 'C'.repeat(43);
export const signedKeyChallenge = { challenge: keyChallenge, hostName: 'operator-pc', signature: 'cd'.repeat(64) };

/**
 * A fake local card issuer behind the issuer client's fetch. Each path answers its queued answers in turn and
 * then keeps answering the last one; pairing succeeds unless told otherwise; any other path answers success.
 */
export function fakeIssuer() {
  const calls: IssuerCall[] = [];
  const queues = new Map<string, IssuerAnswer[]>();
  const on = (path: string, ...answers: IssuerAnswer[]) => queues.set(path, answers);
  on(cardIssuerPaths.addIdentity, { code: 0, data: { deviceId: 'D1', devicePublicKey, readerName: 'virtual', issuerVersion: shellVersion } });
  on(cardIssuerPaths.switchIdentity, { code: 0, data: { deviceId: 'D1' } });
  on(cardIssuerPaths.signKeyChallenge, { code: 0, data: signedKeyChallenge });
  forgetPairing();
  setIssuerFetch(async (input, init) => {
    const path = new URL(String(input)).pathname;
    calls.push({ path, body: JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>, headers: init?.headers as Record<string, string> });
    const queue = queues.get(path) ?? [{ code: 0, data: null }];
    const answer = queue.length > 1 ? queue.shift()! : queue[0]!;
    if (answer instanceof Error) throw answer;
    return new Response(JSON.stringify({ msg: 'ok', data: null, ...answer }), { headers: { 'content-type': 'application/json' } });
  });
  /** The card calls seen, without the pairing calls and the key challenge's signing (asserted where it matters). */
  const deviceCalls: readonly string[] = [cardIssuerPaths.addIdentity, cardIssuerPaths.switchIdentity, cardIssuerPaths.signKeyChallenge];
  const cardCalls = () => calls.filter((call) => !deviceCalls.includes(call.path));
  return { calls, cardCalls, on };
}

/**
 * jsdom's TextEncoder hands out Uint8Arrays of another realm, which sm-crypto-v2 (SM3 of passwords) rejects;
 * browsers have one realm. This encoder answers arrays of the test's own realm. Undo with vi.unstubAllGlobals().
 */
export function useOneRealmTextEncoder(): void {
  const node = new NodeTextEncoder();
  vi.stubGlobal(
    'TextEncoder',
    class {
      readonly encoding = 'utf-8';
      encode(text = ''): Uint8Array {
        return new Uint8Array(node.encode(text));
      }
    },
  );
}
