/**
 * A strict `multipart/form-data` reader for the simulator, refusing what a real API's framework
 * refuses: a content type without a boundary, a body that does not open with the boundary, a part
 * without `Content-Disposition: form-data; name="…"`, a missing closing delimiter, and a
 * Content-Length that does not match the bytes received (RFC 7578 framing).
 */
export interface FormFile {
  name: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

export interface MultipartForm {
  fields: Record<string, string[]>;
  files: FormFile[];
}

export type ParsedForm = { form: MultipartForm } | { error: string };

export function parseMultipartForm(headers: Record<string, string>, body: Buffer): ParsedForm {
  const type = headers['content-type'] ?? '';
  const boundary = /^multipart\/form-data\s*;.*?boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(type);
  if (boundary === null) return { error: `Invalid Content-Type header (${type}): expected multipart/form-data with a boundary.` };
  const length = headers['content-length'];
  if (length !== undefined && Number(length) !== body.length) return { error: `Content-Length ${length} does not match the ${body.length} bytes received.` };
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  if (!body.subarray(0, delimiter.length).equals(delimiter)) return { error: 'The multipart body does not start with its boundary.' };
  const form: MultipartForm = { fields: {}, files: [] };
  let at = delimiter.length;
  for (;;) {
    if (body.subarray(at, at + 2).toString() === '--') return { form };
    if (body.subarray(at, at + 2).toString() !== '\r\n') return { error: 'A multipart boundary is not followed by CRLF.' };
    const headEnd = body.indexOf('\r\n\r\n', at + 2);
    if (headEnd < 0) return { error: 'A multipart part has no end of headers.' };
    const partHeaders = body
      .subarray(at + 2, headEnd)
      .toString('utf8')
      .split('\r\n');
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), headEnd + 4);
    if (next < 0) return { error: 'The multipart body has no closing boundary.' };
    const data = body.subarray(headEnd + 4, next);
    const disposition = partHeaders.find((line) => /^content-disposition:/i.test(line)) ?? '';
    const name = /;\s*name="([^"]*)"/i.exec(disposition)?.[1];
    if (!/^content-disposition:\s*form-data/i.test(disposition) || name === undefined)
      return { error: 'A multipart part lacks Content-Disposition: form-data with a name.' };
    const filename = /;\s*filename="([^"]*)"/i.exec(disposition)?.[1];
    if (filename === undefined) (form.fields[name] ??= []).push(data.toString('utf8'));
    else {
      const contentType = partHeaders.find((line) => /^content-type:/i.test(line))?.replace(/^content-type:\s*/i, '') ?? 'application/octet-stream';
      form.files.push({ name, filename, contentType, data: Buffer.from(data) });
    }
    at = next + 2 + delimiter.length;
  }
}

/** The last value of a text field. */
export function formField(form: MultipartForm, name: string): string | undefined {
  return form.fields[name]?.at(-1);
}
