import type { IncomingMessage } from 'node:http';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type busboy from 'busboy';
import { requireOnDemand } from '../core/require-on-demand.ts';
import { GatewayError, invalidRequest } from '../core/gateway-error.ts';
import type { MultipartUpload, UploadedFile } from '../core/multipart-upload.ts';

export interface UploadLimits {
  /** One file's bytes (OpenAI's audio limit is 25 MiB; image edits take up to 50 MB). */
  maxFileBytes: number;
  maxFiles: number;
  maxFields: number;
  /** One text field's bytes (a prompt). */
  maxFieldBytes: number;
  /**
   * After a refusal the body is still read (and discarded) so the client sees the answer rather
   * than a reset connection; past this many bytes in all, the connection is closed instead.
   */
  maxDrainBytes: number;
}

/** An upload on disk; `dispose` removes its files (call it once the request is over). */
export interface SpooledUpload extends MultipartUpload {
  dispose(): Promise<void>;
}

/**
 * Reads a `multipart/form-data` body with busboy: text fields into memory (bounded), each file
 * streamed to its own temporary file — never the whole body in memory. A file over its limit, too
 * many parts or a malformed body is refused only after the rest of the body has been read and
 * discarded, so the client (the `openai` SDK) receives the 413 or 400 rather than "Connection
 * error"; a body beyond `maxDrainBytes` has its connection closed instead.
 */
export async function readMultipartUpload(raw: IncomingMessage, limits: UploadLimits): Promise<SpooledUpload> {
  const contentType = raw.headers['content-type'] ?? '';
  if (!/^multipart\/form-data\s*;.*boundary=/i.test(contentType)) {
    await drain(raw, limits.maxDrainBytes);
    throw invalidRequest('This endpoint takes a multipart/form-data body (with a boundary), as the OpenAI SDK sends it.');
  }
  const directory = await mkdtemp(join(tmpdir(), 'switchyard-upload-'));
  const dispose = () => rm(directory, { recursive: true, force: true });
  try {
    const { fields, files } = await spool(raw, limits, directory);
    return { fields, files, dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}

async function spool(raw: IncomingMessage, limits: UploadLimits, directory: string): Promise<MultipartUpload> {
  const fields: Array<readonly [string, string]> = [];
  const files: UploadedFile[] = [];
  const writes: Promise<void>[] = [];
  let refusal: GatewayError | undefined;
  const refuse = (error: GatewayError) => {
    refusal ??= error;
  };
  // Loaded on the first upload (only the media routes take multipart bodies): idle RSS.
  const parser = (requireOnDemand('busboy') as typeof busboy)({
    headers: raw.headers,
    limits: {
      fileSize: limits.maxFileBytes,
      files: limits.maxFiles,
      fields: limits.maxFields,
      fieldSize: limits.maxFieldBytes,
      parts: limits.maxFiles + limits.maxFields,
    },
  });
  parser.on('file', (field, stream, info) => {
    if (refusal !== undefined) {
      stream.resume();
      return;
    }
    // Numbered as they arrive, so the files keep the client's order whichever write ends first.
    const index = writes.length;
    const path = join(directory, String(index));
    let size = 0;
    const head: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => {
      if (size < HEAD_BYTES) head.push(chunk.subarray(0, HEAD_BYTES - size));
      size += chunk.length;
    });
    stream.on('limit', () =>
      refuse(tooLarge(`The file "${info.filename ?? field}" is larger than the ${limits.maxFileBytes}-byte limit (${mib(limits.maxFileBytes)} MiB).`)),
    );
    writes.push(
      pipeline(stream, createWriteStream(path)).then(() => {
        if (refusal === undefined) files[index] = spooledFile(field, info, path, size, Buffer.concat(head));
      }),
    );
  });
  parser.on('field', (name, value, info) => {
    if (info.valueTruncated) refuse(tooLarge(`The field "${name}" is longer than the ${limits.maxFieldBytes}-byte limit.`));
    else fields.push([name, value]);
  });
  parser.on('filesLimit', () => refuse(tooLarge(`At most ${limits.maxFiles} files may be uploaded in one request.`)));
  parser.on('fieldsLimit', () => refuse(invalidRequest(`At most ${limits.maxFields} form fields may be sent in one request.`)));
  parser.on('partsLimit', () => refuse(invalidRequest(`At most ${limits.maxFiles + limits.maxFields} form parts may be sent in one request.`)));
  const parsed = new Promise<void>((resolve) => {
    parser.on('close', resolve);
    parser.on('error', (error: Error) => {
      refuse(invalidRequest(`The multipart body could not be read: ${error.message}.`));
      resolve();
    });
    // A connection closed mid-body (or past the drain ceiling) never lets busboy finish.
    raw.once('close', () => {
      if (raw.complete) return;
      refuse(invalidRequest('The connection closed before the multipart body ended.'));
      resolve();
    });
  });
  const bounded = countBytes(raw, limits.maxFileBytes + limits.maxDrainBytes);
  raw.pipe(parser);
  await parsed;
  await Promise.allSettled(writes);
  if (refusal !== undefined) {
    raw.unpipe(parser);
    await drain(raw, limits.maxDrainBytes);
    throw refusal;
  }
  await bounded.done;
  if (!raw.complete) throw invalidRequest('The multipart body ended before its closing boundary.');
  return { fields, files: files.filter((file) => file !== undefined) };
}

/** The bytes of each file kept in memory beside its spool, for codecs that read a header. */
const HEAD_BYTES = 4096;

function spooledFile(field: string, info: busboy.FileInfo, path: string, size: number, head: Uint8Array): UploadedFile {
  return {
    field,
    filename: info.filename ?? field,
    contentType: info.mimeType || 'application/octet-stream',
    size,
    head,
    open: () => createReadStream(path),
  };
}

/** Closes a connection that keeps sending past `bound` bytes (the drain's ceiling). */
function countBytes(raw: IncomingMessage, bound: number): { done: Promise<void> } {
  let total = 0;
  const onData = (chunk: Buffer) => {
    total += chunk.length;
    if (total > bound) raw.destroy();
  };
  raw.on('data', onData);
  const done = new Promise<void>((resolve) => {
    const finish = () => {
      raw.off('data', onData);
      resolve();
    };
    if (raw.readableEnded) finish();
    raw.once('end', finish);
    raw.once('close', finish);
  });
  return { done };
}

/** Reads and discards the rest of the body (up to `bound` more bytes, then closes the connection). */
async function drain(raw: IncomingMessage, bound: number): Promise<void> {
  if (raw.readableEnded || raw.destroyed) return;
  let drained = 0;
  await new Promise<void>((resolve) => {
    raw.on('data', (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > bound) raw.destroy();
    });
    raw.once('end', resolve);
    raw.once('close', resolve);
    raw.resume();
  });
}

function tooLarge(message: string): GatewayError {
  return new GatewayError('body_too_large', message);
}

function mib(bytes: number): string {
  return (bytes / 1_048_576).toFixed(bytes % 1_048_576 === 0 ? 0 : 1);
}
