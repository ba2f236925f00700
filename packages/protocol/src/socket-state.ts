/**
 * The states of one reconnecting WebSocket, for every such socket we run (the client's upstream
 * event stream, the console's socket to the BFF): named as the WebSocket API names its
 * readyState (CONNECTING, OPEN, CLOSED), plus the backoff wait between attempts. `closed` is
 * final: the owner closed it, or the other side said never to come back.
 */
export const SOCKET_STATES = ['connecting', 'open', 'reconnecting', 'closed'] as const;
export type SocketState = (typeof SOCKET_STATES)[number];
