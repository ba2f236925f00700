import * as wsModule from 'ws';

type FrameOptions = {
  fin: boolean;
  rsv1: boolean;
  opcode: number;
  mask: boolean;
  readOnly: boolean;
};
// `ws` exports its frame encoder (`Sender.frame`) but its types do not declare it.
const { Sender } = wsModule as unknown as {
  Sender: { frame(data: Buffer, options: FrameOptions): Buffer[] };
};
const TEXT_OPCODE = 1;

/**
 * One unmasked, uncompressed WebSocket TEXT frame (header and payload), made once per message
 * and written as the same bytes to every browser's socket: `ws.send` would frame it again per
 * socket (a header and a Buffer per socket per event, ~3% of the relay's CPU at 100 sockets).
 * The bench's fastest fan-out reference frames with it too, so both pay the same for framing.
 */
export function textFrame(payload: string | Buffer): Buffer {
  return Buffer.concat(
    Sender.frame(typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload, {
      fin: true,
      rsv1: false,
      opcode: TEXT_OPCODE,
      mask: false,
      readOnly: false,
    }),
  );
}
