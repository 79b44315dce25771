/**
 * A multipart upload (`multipart/form-data`) as the gateway holds it: the text fields in memory
 * (bounded, small) and each file spooled outside memory, readable again from its start for every
 * upstream attempt — so an audio file or an image to edit is never held whole in memory, and a
 * failed-over request can send it again.
 */
export interface MultipartUpload {
  /** Text fields in the order the client sent them (a name may repeat, e.g. `timestamp_granularities[]`). */
  readonly fields: ReadonlyArray<readonly [string, string]>;
  readonly files: readonly UploadedFile[];
}

export interface UploadedFile {
  /** The form field it came in (`file`, `image`, `image[]`, `mask`). */
  readonly field: string;
  readonly filename: string;
  readonly contentType: string;
  /** Bytes, exact (the upstream body's length is computed from it). */
  readonly size: number;
  /** The file's first bytes (up to 4 KiB): enough for a codec to read a header (a WAV's duration). */
  readonly head: Uint8Array;
  /** Reads the file from its start; each call is a fresh read. */
  open(): AsyncIterable<Uint8Array>;
}

/** The last value of a text field, or undefined when the client did not send it. */
export function uploadField(upload: MultipartUpload, name: string): string | undefined {
  let value: string | undefined;
  for (const [field, text] of upload.fields) if (field === name) value = text;
  return value;
}

/** The files sent under `name` (or `name[]`, as the OpenAI SDK names repeated files). */
export function uploadFiles(upload: MultipartUpload, name: string): UploadedFile[] {
  return upload.files.filter((file) => file.field === name || file.field === `${name}[]`);
}
