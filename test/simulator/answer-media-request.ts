import type { ServerResponse } from 'node:http';
import type { JsonReply } from './json-reply.ts';
import { writeImageStream } from './images-dialect.ts';
import { formField, type MultipartForm } from './multipart-form.ts';
import { answerImageEdit, answerModeration, answerRerank, answerSpeech, answerTranscription, type MediaOperation } from './media-dialect.ts';

/**
 * One media request: a multipart body whose framing failed is refused as the real API refuses it
 * (400); otherwise the operation's dialect answers. Returns undefined when it wrote the reply
 * itself (streamed speech, a transcript as text).
 */
export async function answerMediaRequest(
  operation: MediaOperation,
  model: string,
  body: unknown,
  response: ServerResponse,
  headers: Record<string, string>,
): Promise<JsonReply | undefined> {
  const framing = (body as { multipartError?: string } | null)?.multipartError;
  if (framing !== undefined) return { status: 400, body: { error: { message: framing, type: 'invalid_request_error', param: null, code: null } }, headers: {} };
  switch (operation) {
    case 'images/edits': {
      const answer = answerImageEdit(model, body);
      if (answer.status !== 200 || formField(body as MultipartForm, 'stream') !== 'true') return answer;
      await writeImageStream(response, answer, 'image_edit', Number(formField(body as MultipartForm, 'partial_images') ?? 0), headers);
      return undefined;
    }
    case 'audio/speech':
      return answerSpeech(body, response, headers);
    case 'audio/transcriptions':
    case 'audio/translations': {
      const answer = answerTranscription(operation, body);
      if (!('text' in answer)) return answer;
      response.writeHead(answer.status, { ...headers, 'content-type': answer.contentType });
      response.end(answer.text);
      return undefined;
    }
    case 'moderations':
      return answerModeration(body);
    case 'rerank':
    case 'cohere-rerank':
      return answerRerank(operation, body);
  }
}
