import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

/**
 * Browser-like sockets for the relay group: each counts the bench events it receives and
 * records, per delivery, the time since the fake upstream sent that event (found by the id
 * prefix in the raw frame, without parsing the JSON, so the receivers stay cheap).
 */

export type Receivers = {
  delivered(): number;
  /** Added latency samples in ms (one per delivery). */
  latencies(): Float64Array;
  lastReceivedAt(): number;
  closedCodes(): number[];
  close(): void;
};

/** Performs the WebSocket upgrade on a raw TCP socket; resolves with the bytes after the head. */
function upgrade(
  url: string,
  headers: Record<string, string>,
): Promise<{ socket: Socket; rest: Buffer }> {
  const target = new URL(url);
  const socket: Socket = connect(Number(target.port), target.hostname);
  socket.setNoDelay(true);
  const lines = [
    `GET ${target.pathname}${target.search} HTTP/1.1`,
    `Host: ${target.host}`,
    'Upgrade: websocket',
    'Connection: Upgrade',
    `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
    'Sec-WebSocket-Version: 13',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  return new Promise((resolve, reject) => {
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) return;
      socket.off('data', onData);
      socket.off('error', reject);
      const status = head.subarray(0, 12).toString('latin1');
      if (status !== 'HTTP/1.1 101') {
        socket.destroy();
        reject(new Error(`upgrade refused: ${head.subarray(0, 200).toString('latin1')}`));
        return;
      }
      resolve({ socket, rest: head.subarray(end + 4) });
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  });
}

/** A masked client control frame (pong) with an empty payload. */
function pongFrame(payload: Buffer): Buffer {
  const mask = randomBytes(4);
  const masked = Buffer.from(payload);
  for (let i = 0; i < masked.length; i += 1) masked[i] = (masked[i] ?? 0) ^ (mask[i % 4] ?? 0);
  return Buffer.concat([Buffer.from([0x8a, 0x80 | masked.length]), mask, masked]);
}

/**
 * Opens `count` WebSocket clients with a minimal frame reader (text frames scanned for the
 * event id, pings answered, a close frame's code recorded): far cheaper per message than a
 * full client, so the bench process measures the server rather than itself.
 */
export async function openReceivers(input: {
  url: string;
  count: number;
  headers: Record<string, string>;
  idPrefix: string;
  sentAt: Float64Array;
  maxSamples: number;
}): Promise<Receivers> {
  const marker = Buffer.from(input.idPrefix);
  const samples = new Float64Array(input.maxSamples);
  let n = 0;
  let delivered = 0;
  let last = 0;
  const codes: number[] = [];
  const sockets: Socket[] = [];

  const onText = (frame: Buffer, now: number) => {
    const at = frame.indexOf(marker);
    if (at === -1) return;
    let seq = 0;
    for (let i = at + marker.length; i < frame.length; i += 1) {
      const c = frame[i] ?? 0;
      if (c < 48 || c > 57) break;
      seq = seq * 10 + (c - 48);
    }
    delivered += 1;
    last = now;
    if (n < samples.length) {
      samples[n] = now - (input.sentAt[seq] ?? now);
      n += 1;
    }
  };

  const openOne = async () => {
    const { socket, rest } = await upgrade(input.url, input.headers);
    sockets.push(socket);
    let pending = rest;
    const drain = () => {
      const now = performance.now();
      let offset = 0;
      for (;;) {
        if (pending.length - offset < 2) break;
        const b0 = pending[offset] ?? 0;
        const b1 = pending[offset + 1] ?? 0;
        let length = b1 & 0x7f;
        let headerLength = 2;
        if (length === 126) {
          if (pending.length - offset < 4) break;
          length = pending.readUInt16BE(offset + 2);
          headerLength = 4;
        } else if (length === 127) {
          if (pending.length - offset < 10) break;
          length = Number(pending.readBigUInt64BE(offset + 2));
          headerLength = 10;
        }
        if (pending.length - offset < headerLength + length) break;
        const payload = pending.subarray(offset + headerLength, offset + headerLength + length);
        const opcode = b0 & 0x0f;
        if (opcode === 0x1 || opcode === 0x0) onText(payload, now);
        else if (opcode === 0x9) socket.write(pongFrame(payload));
        else if (opcode === 0x8) codes.push(payload.length >= 2 ? payload.readUInt16BE(0) : 1005);
        offset += headerLength + length;
      }
      pending = offset === pending.length ? Buffer.alloc(0) : pending.subarray(offset);
    };
    socket.on('data', (chunk: Buffer) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      drain();
    });
    socket.on('error', () => undefined);
    drain();
  };
  // Opened in batches so the upgrade burst stays realistic for a server.
  for (let i = 0; i < input.count; i += 50) {
    await Promise.all(Array.from({ length: Math.min(50, input.count - i) }, openOne));
  }
  return {
    delivered: () => delivered,
    latencies: () => samples.subarray(0, n),
    lastReceivedAt: () => last,
    closedCodes: () => codes,
    close() {
      for (const socket of sockets) socket.destroy();
    },
  };
}

export type StalledSocket = {
  /** Bytes the peer managed to hand us before we stopped reading. */
  bytesBeforeStall(): number;
  /** Resumes reading and reports whether the server had closed the socket (and its code). */
  finish(): Promise<{ isClosedByServer: boolean; closeCode: number | null }>;
};

/**
 * A WebSocket client that completes the upgrade, then stops reading its TCP socket entirely:
 * a browser tab that hangs. The server's send buffer for it fills up.
 */
export async function openStalledSocket(
  url: string,
  headers: Record<string, string>,
): Promise<StalledSocket> {
  const { socket, rest } = await upgrade(url, headers);
  socket.pause();
  let isEnded = false;
  for (const event of ['end', 'close', 'error']) {
    socket.on(event, () => {
      isEnded = true;
    });
  }
  return {
    bytesBeforeStall: () => rest.length,
    async finish() {
      // Read what is left; a server close frame is 0x88 with a 2-byte code.
      const tail: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => {
        tail.push(chunk);
      });
      socket.resume();
      await new Promise((r) => setTimeout(r, 1_500));
      const bytes = Buffer.concat(tail);
      let closeCode: number | null = null;
      for (let i = 0; i + 3 < bytes.length; i += 1) {
        if (bytes[i] === 0x88 && (bytes[i + 1] ?? 0) >= 2 && (bytes[i + 1] ?? 0) < 126) {
          closeCode = bytes.readUInt16BE(i + 2);
        }
      }
      const isClosedByServer = isEnded || closeCode !== null;
      socket.destroy();
      return { isClosedByServer, closeCode };
    },
  };
}
