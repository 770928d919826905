import net from 'node:net';

/**
 * A loopback port nothing listens on, chosen by the system (port 0): the server suite runs its files in parallel
 * workers, and on Node 20 and Node 24 at once (npm test --with-node24), so no test may name a fixed port or scan a
 * fixed range (two workers would find the same port free). `taken` keeps the ports one test asks for distinct.
 */
export async function freePort(taken: ReadonlySet<number> = new Set()): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const probe = net.createServer();
      probe.once('error', reject);
      probe.listen({ host: '127.0.0.1', port: 0, exclusive: true }, () => {
        const { port: chosen } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(chosen));
      });
    });
    if (!taken.has(port)) return port;
  }
}
