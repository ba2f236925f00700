/**
 * A stand-in for the browser's WebSocket in component tests: it never connects on its own, so
 * the app's relay socket neither reconnects in a loop nor races the test; the test opens or
 * closes it (with a close code) when the scenario calls for it.
 */
export class FakeWebSocket {
  static instances: FakeWebSocket[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((message: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  isClosedByApp = false;

  constructor(readonly url: string) {
    FakeWebSocket.instances.push(this);
  }

  close(): void {
    this.isClosedByApp = true;
  }

  /** The server side: accept the connection. */
  acceptOpen(): void {
    this.onopen?.();
  }

  /**
   * The server side: the relay's heartbeat frame. A socket that hears nothing for
   * RELAY_SILENCE_LIMIT_MS is given up, so a test that keeps one open past that sends these.
   */
  heartbeat(): void {
    this.onmessage?.({ data: '{"kind":"heartbeat"}' });
  }

  /** The server side (or the network): the socket closes with `code`. */
  closeFromServer(code: number, reason = ''): void {
    this.onclose?.({ code, reason });
  }

  static latest(): FakeWebSocket {
    const socket = FakeWebSocket.instances.at(-1);
    if (!socket) throw new Error('no WebSocket was opened');
    return socket;
  }
}
