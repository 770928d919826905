/**
 * Resolves in a new task of the event loop. Work chained on promises runs as one task however long the chain,
 * so the page cannot paint or answer a tap until all of it is done; awaiting this between two large steps lets
 * the browser in between. A message, not a timer: timers of a hidden tab wait up to a second.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
