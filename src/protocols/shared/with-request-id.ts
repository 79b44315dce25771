/** An error message with the request id quoted for support, as every client protocol's error shape carries it — unless there is none to quote. */
export function withRequestId(message: string, requestId: string | undefined): string {
  return requestId === undefined ? message : `${message} (request id: ${requestId})`;
}
