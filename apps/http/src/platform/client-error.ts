import type { Duplex } from 'node:stream';

const REASON: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/**
 * Node's HTTP parser refuses some requests before any route sees them (a URL or headers over 16 KB,
 * a malformed request line or header); its own answer has no body. This writes the API's one error
 * shape instead, then closes the connection, as Node does.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  // As Node's own handler: nothing is written into a response already under way on this socket.
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = JSON.stringify({
    statusCode: status,
    message: status === 431 ? 'The URL or headers exceed 16 KB' : status === 408 ? 'The request took too long to arrive' : 'Malformed HTTP request',
    error: REASON[status],
    code: status === 431 ? 'HEADERS_TOO_LARGE' : status === 408 ? 'REQUEST_TIMEOUT' : 'MALFORMED_REQUEST',
    timestamp: new Date().toISOString(),
    path: '',
  });
  socket.end(`HTTP/1.1 ${status} ${REASON[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}
