// Writes the golden matrix's inputs: client-request.json, upstream-response.{json,sse,eventstream} and
// case.json for every pair and case. Expected outputs (upstream-request.json, client-response.*)
// come from `UPDATE_GOLDEN=1 node --import tsx --test test/golden/run-golden.test.ts`, to be read
// and reviewed, never trusted blindly. Run: `node --import tsx test/golden/build-cases.ts`.
// Bedrock's stream recordings are binary event-stream frames: read them with show-event-stream.ts.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { UpstreamProtocolId } from '../../src/protocols/protocol-codec.ts';
import { buildAnthropicMessagesReply } from './cases/anthropic-messages-reply.ts';
import { buildBedrockConverseReply } from './cases/bedrock-converse-reply.ts';
import { buildClientRequest } from './cases/build-client-request.ts';
import { buildGeminiReply } from './cases/gemini-generate-content-reply.ts';
import { GOLDEN_CASES } from './cases/golden-cases.ts';
import { buildOpenaiChatReply } from './cases/openai-chat-reply.ts';
import { buildOpenaiResponsesReply } from './cases/openai-responses-reply.ts';
import { RECORDED_ENCODING, type RecordedFormat, type ReplyBuilder } from './cases/recorded-reply.ts';
import { caseFolder, GOLDEN_PAIRS, UPSTREAMS, type CaseFile } from './golden-pairs.ts';

const REPLY_BUILDERS: Record<UpstreamProtocolId, ReplyBuilder> = {
  'openai-chat': buildOpenaiChatReply,
  'openai-responses': buildOpenaiResponsesReply,
  'anthropic-messages': buildAnthropicMessagesReply,
  'gemini-generate-content': buildGeminiReply,
  'bedrock-converse': buildBedrockConverseReply,
};
const FORMATS: RecordedFormat[] = ['json', 'sse', 'eventstream'];

const root = dirname(fileURLToPath(import.meta.url));
let written = 0;
for (const pair of GOLDEN_PAIRS) {
  const upstream = UPSTREAMS[pair.upstream];
  for (const goldenCase of GOLDEN_CASES) {
    for (const mode of goldenCase.modes) {
      const directory = join(root, pair.folder, caseFolder(goldenCase, mode));
      mkdirSync(directory, { recursive: true });
      const stream = mode === 'stream';
      const request = buildClientRequest(pair.client, goldenCase, upstream.publicModel, stream);
      writeFileSync(join(directory, 'client-request.json'), `${JSON.stringify(request, null, 2)}\n`);
      const reply = REPLY_BUILDERS[pair.upstream](goldenCase, mode, upstream.upstreamModel);
      for (const extension of FORMATS) rmSync(join(directory, `upstream-response.${extension}`), { force: true });
      writeFileSync(join(directory, `upstream-response.${reply.format}`), reply.body, RECORDED_ENCODING[reply.format]);

      const casePath = join(directory, 'case.json');
      const previous: CaseFile | undefined = existsSync(casePath) ? JSON.parse(readFileSync(casePath, 'utf8')) : undefined;
      const caseFile: CaseFile = { stream, ...(reply.status === 200 ? {} : { status: reply.status }) };
      if (previous?.expectWarnings) caseFile.expectWarnings = previous.expectWarnings;
      writeFileSync(casePath, `${JSON.stringify(caseFile, null, 2)}\n`);
      written += 1;
    }
  }
}
console.log(`wrote ${written} golden cases under ${root}`);
