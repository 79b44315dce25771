import { randomBytes } from 'node:crypto';
import type { MultipartUpload, UploadedFile } from '../../core/multipart-upload.ts';

/** A multipart body to send upstream: its headers and its bytes, produced as they are sent. */
export interface MultipartBody {
  contentType: string;
  /** Exact: every part's size is known, so the upstream gets a Content-Length, not chunked framing. */
  contentLength: number;
  stream(): AsyncIterable<Uint8Array>;
}

/**
 * Re-frames an upload for one upstream attempt, with `overrides` replacing text fields of the same
 * name (the channel's `model`) and fields set to undefined left out. The files are read from
 * their spool as the upstream takes them, so nothing is held whole in memory; each call to
 * `stream()` starts again (an attempt that failed over sends the same bytes to the next channel).
 */
export function encodeMultipart(upload: MultipartUpload, overrides: Record<string, string | undefined> = {}): MultipartBody {
  const boundary = `----switchyard${randomBytes(12).toString('hex')}`;
  const fields = upload.fields.filter(([name]) => !(name in overrides));
  for (const [name, value] of Object.entries(overrides)) if (value !== undefined) fields.push([name, value]);
  const fieldParts = fields.map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"\r\n\r\n${value}\r\n`));
  const fileHeads = upload.files.map((file) => Buffer.from(fileHead(boundary, file)));
  const closing = Buffer.from(`--${boundary}--\r\n`);
  const contentLength =
    fieldParts.reduce((sum, part) => sum + part.length, 0) +
    upload.files.reduce((sum, file, index) => sum + fileHeads[index]!.length + file.size + 2, 0) +
    closing.length;
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    contentLength,
    async *stream() {
      for (const part of fieldParts) yield part;
      for (const [index, file] of upload.files.entries()) {
        yield fileHeads[index]!;
        for await (const chunk of file.open()) yield chunk;
        yield CRLF;
      }
      yield closing;
    },
  };
}

const CRLF = Buffer.from('\r\n');

function fileHead(boundary: string, file: UploadedFile): string {
  return `--${boundary}\r\nContent-Disposition: form-data; name="${quote(file.field)}"; filename="${quote(file.filename)}"\r\nContent-Type: ${file.contentType.replace(/[\r\n]/g, '')}\r\n\r\n`;
}

/** A name or file name inside a quoted header parameter (WHATWG's form-data encoding). */
function quote(value: string): string {
  return value.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22');
}
