/**
 * OpenAI's `encoding_format: "base64"`: the vector as little-endian float32 bytes, base64.
 * The official SDKs ask for it by default (a quarter of the JSON size) and decode it themselves.
 */
export function encodeFloat32Base64(vector: readonly number[]): string {
  const bytes = new Uint8Array(vector.length * 4);
  const view = new DataView(bytes.buffer);
  vector.forEach((value, index) => view.setFloat32(index * 4, value, true));
  return Buffer.from(bytes).toString('base64');
}

export function decodeFloat32Base64(text: string): number[] {
  const bytes = Buffer.from(text, 'base64');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const vector: number[] = new Array(Math.floor(bytes.byteLength / 4));
  for (let index = 0; index < vector.length; index += 1) vector[index] = view.getFloat32(index * 4, true);
  return vector;
}
