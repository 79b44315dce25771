/**
 * A WAV's duration: the bytes after the `data` chunk's start over the `fmt ` chunk's byte rate,
 * both found in the file's first bytes. The file's real size is used rather than the `data`
 * chunk's declared one, which a client writes (streaming WAVs declare 0xFFFFFFFF; a crafted one
 * could declare one second over an hour of audio). Undefined when the bytes are not a RIFF/WAVE
 * header (another format, or a header longer than what was given).
 */
export function wavSeconds(head: Uint8Array, fileSize: number): number | undefined {
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const tag = (at: number) => String.fromCharCode(...head.subarray(at, at + 4));
  if (head.length < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') return undefined;
  let at = 12;
  let byteRate: number | undefined;
  while (at + 8 <= head.length) {
    const size = view.getUint32(at + 4, true);
    if (tag(at) === 'fmt ' && at + 20 <= head.length) byteRate = view.getUint32(at + 16, true);
    if (tag(at) === 'data') return byteRate === undefined || byteRate === 0 ? undefined : Math.max(0, fileSize - at - 8) / byteRate;
    at += 8 + size + (size % 2);
  }
  return undefined;
}
