/** What the issuer's panel API (GET /reader/api/status) says of one PC/SC reader. */
export type ReaderSeen = 'present' | 'empty' | 'mute' | 'not listed' | 'service down' | 'no answer';

interface PcscStatus {
  code: number;
  data: { driver: string; readers: { name: string; card: 'present' | 'empty' | 'mute' }[]; problem: string | null };
}

/** The issuer's panel status, in `language`; null while the issuer does not answer. */
export async function panelStatus(port: number, language = 'en-US'): Promise<PcscStatus['data'] | null> {
  try {
    const reply = await fetch(`http://127.0.0.1:${port}/reader/api/status`, { headers: { language }, signal: AbortSignal.timeout(5000) });
    const body = (await reply.json()) as PcscStatus;
    return body.code === 0 ? body.data : null;
  } catch {
    return null;
  }
}

export async function readerSeen(port: number, readerName: string): Promise<ReaderSeen> {
  const status = await panelStatus(port);
  if (!status) return 'no answer';
  if (status.problem !== null) return 'service down';
  return status.readers.find((reader) => reader.name === readerName)?.card ?? 'not listed';
}

/** Waits until `condition` holds (checked every 100 ms), failing after `seconds` with what it waited for. */
export async function until(what: string | (() => string), condition: () => boolean | Promise<boolean>, seconds = 20): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`gave up after ${seconds} s waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
