import type { ServerResponse } from 'node:http';

/** Waits `ms`, or less if the client goes away first; tells which happened (true = still open). */
export function waitUnlessClosed(response: ServerResponse, ms: number): Promise<boolean> {
  if (response.destroyed) return Promise.resolve(false);
  if (ms <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const onClose = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      response.off('close', onClose);
      resolve(!response.destroyed);
    }, ms);
    response.once('close', onClose);
  });
}

/** Resolves once `data` has been handed to the socket, so a following destroy cannot drop it. */
export function writeFlushed(response: ServerResponse, data: string, encoding: BufferEncoding = 'utf8'): Promise<void> {
  if (data === '') return Promise.resolve();
  return new Promise((resolve) => {
    response.write(data, encoding, () => resolve());
  });
}
