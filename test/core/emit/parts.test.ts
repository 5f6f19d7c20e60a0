// parts.ts: what each part the readers keep becomes in each request (kept, converted, left out),
// with the note the ledger gets; and the three emitters writing and counting through it.
import { describe, expect, it } from 'vitest';
import { toAnthropicWithOrigins } from '../../../src/core/emit/anthropic.js';
import { emitApis, emitNotes } from '../../../src/core/emit/notes.js';
import { toOpenAIWithOrigins } from '../../../src/core/emit/openai.js';
import { isResponsesItem, partFor, PartLog, type EmitApi, type Slot } from '../../../src/core/emit/parts.js';
import { providerIssues } from '../../../src/core/emit/provider-rules.js';
import { toResponsesWithOrigins } from '../../../src/core/emit/responses.js';
import { stabilizeTranscript } from '../../../src/core/stabilize/stabilize.js';
import type { StabilizeResult } from '../../../src/core/stabilize/types.js';
import type { ContentPart } from '../../../src/core/types.js';
import { asst, calls, call, result, t, user } from '../../support/artifacts.js';
import { entry, policy, wordTokenizer } from '../stabilize/helpers.js';
import { ci, tc } from './helpers.js';

type P = ContentPart;

const PNG = 'iVBORw0KGgoAAAANSUhEUg==';
const PDF = 'JVBERi0xLjQK';

/** What partFor gives, in one line: `kept`, `converted <to>: <part>` or `left: <why>`. */
function fate(api: EmitApi, slot: Slot, p: P): unknown {
  const f = partFor(api, slot, p);
  if (f.fate === 'kept') return f.part === p ? 'kept' : ['kept as', f.part];
  if (f.fate === 'converted') return [f.to, f.part];
  return `left: ${f.why}`;
}

/** The ledger note partFor's fate gives for one part of one item. */
function note(api: EmitApi, slot: Slot, p: P): string | undefined {
  const log = new PartLog(api);
  log.part('x', 0, p, slot);
  return log.notes().get('x')?.[0];
}

// The shapes the readers keep, one per format that writes it.
const parts = {
  chatImage: { type: 'image_url', image_url: { url: 'https://img.example/a.png', detail: 'low' } },
  chatDataImage: { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
  chatSvg: { type: 'image_url', image_url: { url: 'data:image/svg+xml;base64,PHN2Zz4=' } },
  langchainImageString: { type: 'image_url', image_url: 'https://img.example/lc.png' },
  anthropicImage: { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
  anthropicUrlImage: { type: 'image', source: { type: 'url', url: 'https://img.example/b.png' } },
  anthropicFileImage: { type: 'image', source: { type: 'file', file_id: 'file_011' } },
  anthropicPdf: { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF } },
  anthropicTitledPdf: {
    type: 'document',
    title: 'report.pdf',
    source: { type: 'base64', media_type: 'application/pdf', data: PDF },
  },
  anthropicText: { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'the terms' } },
  responsesImage: { type: 'input_image', image_url: 'https://img.example/c.png', detail: 'high' },
  responsesFileImage: { type: 'input_image', file_id: 'file-img', detail: 'auto' },
  responsesFile: { type: 'input_file', file_id: 'file-7Qm2', filename: 'itinerary.pdf' },
  responsesCsv: { type: 'input_file', filename: 'a.csv', file_data: 'data:text/csv;base64,YSxi' },
  responsesPdfUrl: { type: 'input_file', file_url: 'https://docs.example/terms.pdf' },
  chatFile: { type: 'file', file: { file_id: 'file-abc', filename: 'a.pdf' } },
  chatPdfData: { type: 'file', file: { filename: 'b.pdf', file_data: `data:application/pdf;base64,${PDF}` } },
  chatAudio: { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
  vercelImage: { type: 'image', image: 'https://ci.example/shot.png', mediaType: 'image/png' },
  vercelBareImage: { type: 'image', image: PNG },
  vercelImageFile: { type: 'file', data: PNG, mediaType: 'image/png' },
  vercelMarkdown: { type: 'file', data: 'IyBCdWcK', mediaType: 'text/markdown', filename: 'bug.md' },
  vercelPdf: { type: 'file', data: PDF, mediaType: 'application/pdf', filename: 'spec.pdf' },
  vercelWav: { type: 'file', data: 'UklGRg==', mediaType: 'audio/wav' },
  langchainV1Image: { type: 'image', base64: PNG, mime_type: 'image/png' },
  langchainV0Image: { type: 'image', source_type: 'url', url: 'https://img.example/v0.png' },
  langchainV1File: { type: 'file', file_id: 'file-lc' },
  langchainBarePdf: { type: 'file', base64: PDF },
  langchainOgg: { type: 'audio', base64: 'T2dnUw==', mime_type: 'audio/ogg' },
  langchainTextPlain: { type: 'text-plain', text: 'plain notes', mime_type: 'text/plain' },
  geminiImage: { type: 'inlineData', inlineData: { mimeType: 'image/png', data: PNG } },
  geminiPdf: { type: 'inlineData', inlineData: { mimeType: 'application/pdf', data: PDF } },
  geminiGcsImage: { type: 'fileData', fileData: { mimeType: 'image/jpeg', fileUri: 'gs://bucket/a.jpg' } },
  geminiFilesApi: {
    type: 'fileData',
    fileData: {
      mimeType: 'text/plain',
      fileUri: 'https://generativelanguage.googleapis.com/v1beta/files/crash-log-7',
    },
  },
  refusal: { type: 'refusal', refusal: "I can't do that." },
  blankRefusal: { type: 'refusal', refusal: ' ' },
  thinking: { type: 'thinking', thinking: 'hmm', signature: 'sig' },
  serverTool: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} },
  searchResult: { type: 'search_result', source: 'https://a', title: 't', content: [] },
  responsesReasoning: { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAA' },
  codexSearch: { type: 'web_search_call', status: 'completed', action: { type: 'search' } },
  vercelReasoning: { type: 'reasoning', text: 'think', providerOptions: {} },
  langchainReasoning: { type: 'reasoning', reasoning: 'think' },
  vercelRedacted: { type: 'redacted-reasoning', data: 'x' },
  vercelServerCall: { type: 'tool-call', toolCallId: 's1', toolName: 'web_search', providerExecuted: true },
  geminiThought: { type: 'thought', text: 'think', thought: true },
  geminiSignature: { type: 'thoughtSignature', thoughtSignature: 'c2ln' },
  geminiCode: { type: 'executableCode', executableCode: { language: 'PYTHON', code: 'print(1)' } },
  screenshot: {
    type: 'computer_call_output',
    call_id: 'cu',
    output: { type: 'computer_screenshot', image_url: `data:image/png;base64,${PNG}` },
  },
  video: { type: 'video', url: 'https://v.example/a.mp4' },
} satisfies Record<string, P>;

describe('partFor: Chat Completions', () => {
  it("keeps the API's own parts as they are, where their role may send them", () => {
    for (const p of [parts.chatImage, parts.chatAudio, parts.chatFile, parts.chatPdfData])
      expect(fate('openai', 'user', p)).toBe('kept');
    expect(fate('openai', 'assistant', parts.refusal)).toBe('kept');
  });

  it('converts every format’s images to image_url parts (data URLs for base64)', () => {
    const url = (u: string, detail?: string): unknown => [
      'image_url part',
      { type: 'image_url', image_url: { url: u, ...(detail ? { detail } : {}) } },
    ];
    expect(fate('openai', 'user', parts.anthropicImage)).toEqual(url(`data:image/png;base64,${PNG}`));
    expect(fate('openai', 'user', parts.anthropicUrlImage)).toEqual(url('https://img.example/b.png'));
    expect(fate('openai', 'user', parts.responsesImage)).toEqual(url('https://img.example/c.png', 'high'));
    expect(fate('openai', 'user', parts.vercelImage)).toEqual(url('https://ci.example/shot.png'));
    // A bare base64 image without a media type: its first bytes say png.
    expect(fate('openai', 'user', parts.vercelBareImage)).toEqual(url(`data:image/png;base64,${PNG}`));
    expect(fate('openai', 'user', parts.vercelImageFile)).toEqual(url(`data:image/png;base64,${PNG}`));
    expect(fate('openai', 'user', parts.langchainImageString)).toEqual(url('https://img.example/lc.png'));
    expect(fate('openai', 'user', parts.langchainV1Image)).toEqual(url(`data:image/png;base64,${PNG}`));
    expect(fate('openai', 'user', parts.langchainV0Image)).toEqual(url('https://img.example/v0.png'));
    expect(fate('openai', 'user', parts.geminiImage)).toEqual(url(`data:image/png;base64,${PNG}`));
    expect(note('openai', 'user', parts.anthropicImage)).toBe(
      'openai: converted 1 image part to an image_url part',
    );
  });

  it('leaves out images it cannot reach, and images anywhere but from the user', () => {
    expect(note('openai', 'user', parts.anthropicFileImage)).toBe(
      'openai: left out 1 image part (a file id Chat Completions cannot reference)',
    );
    expect(fate('openai', 'user', parts.responsesFileImage)).toBe(
      'left: a file id Chat Completions cannot reference',
    );
    expect(fate('openai', 'user', parts.geminiGcsImage)).toBe('left: a URI Chat Completions cannot fetch');
    expect(note('openai', 'assistant', parts.anthropicImage)).toBe(
      'openai: left out 1 image part (Chat Completions takes images only from the user)',
    );
    expect(fate('openai', 'tool', parts.chatImage)).toBe(
      'left: Chat Completions takes images only from the user',
    );
    expect(fate('openai', 'system', parts.chatImage)).toBe(
      'left: Chat Completions takes images only from the user',
    );
  });

  it('takes PDFs as file parts and plain-text documents as text; other files are left out', () => {
    expect(fate('openai', 'user', parts.anthropicPdf)).toEqual([
      'file part',
      { type: 'file', file: { filename: 'document.pdf', file_data: `data:application/pdf;base64,${PDF}` } },
    ]);
    expect(fate('openai', 'user', parts.anthropicTitledPdf)).toEqual([
      'file part',
      { type: 'file', file: { filename: 'report.pdf', file_data: `data:application/pdf;base64,${PDF}` } },
    ]);
    expect(fate('openai', 'user', parts.vercelPdf)).toEqual([
      'file part',
      { type: 'file', file: { filename: 'spec.pdf', file_data: `data:application/pdf;base64,${PDF}` } },
    ]);
    // A PDF without a media type: its first bytes say so.
    expect(fate('openai', 'user', parts.langchainBarePdf)).toEqual([
      'file part',
      { type: 'file', file: { filename: 'document.pdf', file_data: `data:application/pdf;base64,${PDF}` } },
    ]);
    expect(fate('openai', 'user', parts.geminiPdf)).toEqual([
      'file part',
      { type: 'file', file: { filename: 'document.pdf', file_data: `data:application/pdf;base64,${PDF}` } },
    ]);
    expect(fate('openai', 'user', parts.responsesFile)).toEqual([
      'file part',
      { type: 'file', file: { file_id: 'file-7Qm2', filename: 'itinerary.pdf' } },
    ]);
    expect(fate('openai', 'user', parts.anthropicText)).toEqual([
      'text part',
      { type: 'text', text: 'the terms' },
    ]);
    expect(fate('openai', 'user', parts.langchainTextPlain)).toEqual([
      'text part',
      { type: 'text', text: 'plain notes' },
    ]);
    expect(note('openai', 'user', parts.anthropicPdf)).toBe(
      'openai: converted 1 document part to a file part',
    );
    expect(note('openai', 'user', parts.vercelMarkdown)).toBe(
      'openai: left out 1 file part (Chat Completions takes PDF files only)',
    );
    expect(fate('openai', 'user', parts.responsesCsv)).toBe('left: Chat Completions takes PDF files only');
    expect(fate('openai', 'user', parts.responsesPdfUrl)).toBe('left: Chat Completions takes no file URLs');
    expect(fate('openai', 'user', parts.langchainV1File)).toBe(
      'left: a file id Chat Completions cannot reference',
    );
    expect(fate('openai', 'user', parts.geminiFilesApi)).toBe('left: a URI Chat Completions cannot fetch');
  });

  it('takes wav and mp3 audio from the user', () => {
    expect(fate('openai', 'user', parts.vercelWav)).toEqual([
      'input_audio part',
      { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
    ]);
    expect(fate('openai', 'user', parts.langchainOgg)).toBe(
      'left: Chat Completions takes wav and mp3 audio only',
    );
    expect(fate('openai', 'assistant', parts.chatAudio)).toBe(
      'left: Chat Completions takes audio only from the user',
    );
  });

  it('takes refusals from the assistant only', () => {
    expect(note('openai', 'user', parts.refusal)).toBe(
      'openai: left out 1 refusal part (Chat Completions takes refusals only from the assistant)',
    );
  });

  it("leaves out other APIs' thinking and items, provider-specific parts and unknown parts", () => {
    expect(note('openai', 'assistant', parts.thinking)).toBe(
      'openai: left out 1 thinking part (only the Messages API takes thinking blocks)',
    );
    expect(fate('openai', 'assistant', parts.serverTool)).toBe(
      'left: only the Messages API takes server_tool_use blocks',
    );
    expect(fate('openai', 'user', parts.searchResult)).toBe(
      'left: only the Messages API takes search_result blocks',
    );
    expect(note('openai', 'assistant', parts.responsesReasoning)).toBe(
      'openai: left out 1 reasoning part (only the Responses API takes reasoning items)',
    );
    expect(fate('openai', 'assistant', parts.codexSearch)).toBe(
      'left: only the Responses API takes web_search_call items',
    );
    expect(note('openai', 'assistant', parts.vercelReasoning)).toBe(
      'openai: left out 1 reasoning part (reasoning the SDK recorded for one provider: no request takes it back)',
    );
    expect(fate('openai', 'assistant', parts.langchainReasoning)).toBe(
      'left: reasoning the SDK recorded for one provider: no request takes it back',
    );
    expect(fate('openai', 'assistant', parts.vercelRedacted)).toBe(
      'left: reasoning the SDK recorded for one provider: no request takes it back',
    );
    expect(fate('openai', 'assistant', parts.vercelServerCall)).toBe(
      'left: a tool the provider ran itself: only that provider can replay it',
    );
    expect(note('openai', 'assistant', parts.geminiThought)).toBe(
      "openai: left out 1 thought part (Gemini's thinking: only Gemini takes it back)",
    );
    expect(fate('openai', 'assistant', parts.geminiSignature)).toBe(
      'left: a Gemini thought signature: only Gemini takes it back',
    );
    expect(fate('openai', 'assistant', parts.geminiCode)).toBe(
      'left: code Gemini ran itself: only Gemini takes it back',
    );
    expect(note('openai', 'user', parts.video)).toBe(
      'openai: left out 1 video part (Chat Completions takes no such part here)',
    );
  });
});

describe('partFor: Anthropic Messages', () => {
  it("keeps the API's own blocks where a turn may hold them", () => {
    for (const p of [parts.anthropicImage, parts.anthropicPdf, parts.anthropicText, parts.anthropicFileImage])
      expect(fate('anthropic', 'user', p)).toBe('kept');
    expect(fate('anthropic', 'tool', parts.anthropicImage)).toBe('kept');
    expect(fate('anthropic', 'user', parts.searchResult)).toBe('kept');
    for (const p of [parts.thinking, parts.serverTool])
      expect(fate('anthropic', 'assistant', p)).toBe('kept');
  });

  it('converts every format’s images to image blocks: data URLs to base64 sources, URLs to url sources', () => {
    const base64 = [
      'image block',
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
    ];
    const url = (u: string): unknown => ['image block', { type: 'image', source: { type: 'url', url: u } }];
    expect(fate('anthropic', 'user', parts.chatDataImage)).toEqual(base64);
    expect(fate('anthropic', 'user', parts.chatImage)).toEqual(url('https://img.example/a.png'));
    expect(fate('anthropic', 'user', parts.langchainImageString)).toEqual(url('https://img.example/lc.png'));
    expect(fate('anthropic', 'user', parts.responsesImage)).toEqual(url('https://img.example/c.png'));
    expect(fate('anthropic', 'user', parts.vercelImage)).toEqual(url('https://ci.example/shot.png'));
    expect(fate('anthropic', 'user', parts.vercelBareImage)).toEqual(base64);
    expect(fate('anthropic', 'user', parts.vercelImageFile)).toEqual(base64);
    expect(fate('anthropic', 'user', parts.langchainV1Image)).toEqual(base64);
    expect(fate('anthropic', 'user', parts.geminiImage)).toEqual(base64);
    // In a tool result too: a Responses computer screenshot.
    expect(fate('anthropic', 'tool', parts.screenshot)).toEqual(base64);
    expect(note('anthropic', 'user', parts.chatImage)).toBe(
      'anthropic: converted 1 image_url part to an image block',
    );
  });

  it('leaves out images it cannot take or reach, and images outside user turns and tool results', () => {
    expect(note('anthropic', 'user', parts.chatSvg)).toBe(
      'anthropic: left out 1 image_url part (the Messages API takes jpeg, png, gif and webp images only)',
    );
    expect(note('anthropic', 'user', parts.responsesFileImage)).toBe(
      'anthropic: left out 1 input_image part (a file id the Messages API cannot reference)',
    );
    expect(fate('anthropic', 'user', parts.geminiGcsImage)).toBe('left: a URI the Messages API cannot fetch');
    expect(note('anthropic', 'assistant', parts.anthropicImage)).toBe(
      'anthropic: left out 1 image part (the Messages API takes images only in user turns and tool results)',
    );
  });

  it('takes PDFs and plain text as documents; other files are left out', () => {
    const pdf = (title?: string): unknown => [
      'document block',
      {
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: PDF },
        ...(title ? { title } : {}),
      },
    ];
    expect(fate('anthropic', 'user', parts.chatPdfData)).toEqual(pdf('b.pdf'));
    expect(fate('anthropic', 'user', parts.vercelPdf)).toEqual(pdf('spec.pdf'));
    expect(fate('anthropic', 'user', parts.geminiPdf)).toEqual(pdf());
    expect(fate('anthropic', 'user', parts.responsesPdfUrl)).toEqual([
      'document block',
      { type: 'document', source: { type: 'url', url: 'https://docs.example/terms.pdf' } },
    ]);
    expect(fate('anthropic', 'user', parts.langchainTextPlain)).toEqual([
      'document block',
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'plain notes' } },
    ]);
    expect(note('anthropic', 'user', parts.chatPdfData)).toBe(
      'anthropic: converted 1 file part to a document block',
    );
    expect(note('anthropic', 'user', parts.vercelMarkdown)).toBe(
      'anthropic: left out 1 file part (the Messages API takes PDF and plain-text documents only)',
    );
    expect(fate('anthropic', 'user', parts.responsesCsv)).toBe(
      'left: the Messages API takes PDF and plain-text documents only',
    );
    // OpenAI file ids are not the Messages API's.
    expect(note('anthropic', 'user', parts.chatFile)).toBe(
      'anthropic: left out 1 file part (a file id the Messages API cannot reference)',
    );
    expect(fate('anthropic', 'user', parts.responsesFile)).toBe(
      'left: a file id the Messages API cannot reference',
    );
  });

  it('takes no audio', () => {
    expect(note('anthropic', 'user', parts.chatAudio)).toBe(
      'anthropic: left out 1 input_audio part (the Messages API takes no audio)',
    );
    expect(fate('anthropic', 'user', parts.vercelWav)).toBe('left: the Messages API takes no audio');
  });

  it('writes a refusal as text, and leaves out a blank one', () => {
    expect(fate('anthropic', 'assistant', parts.refusal)).toEqual([
      'text block',
      { type: 'text', text: "I can't do that." },
    ]);
    expect(note('anthropic', 'assistant', parts.refusal)).toBe(
      'anthropic: converted 1 refusal part to a text block',
    );
    expect(fate('anthropic', 'assistant', parts.blankRefusal)).toBe(
      'left: an empty refusal: the Messages API takes no blank text',
    );
  });

  it('leaves out Responses items, provider-specific parts, blocks in the wrong turn and unknown parts', () => {
    expect(note('anthropic', 'assistant', parts.responsesReasoning)).toBe(
      'anthropic: left out 1 reasoning part (only the Responses API takes reasoning items)',
    );
    expect(note('anthropic', 'assistant', parts.codexSearch)).toBe(
      'anthropic: left out 1 web_search_call part (only the Responses API takes web_search_call items)',
    );
    for (const p of [parts.vercelReasoning, parts.vercelRedacted, parts.langchainReasoning])
      expect(fate('anthropic', 'assistant', p)).toBe(
        'left: reasoning the SDK recorded for one provider: no request takes it back',
      );
    expect(fate('anthropic', 'assistant', parts.vercelServerCall)).toBe(
      'left: a tool the provider ran itself: only that provider can replay it',
    );
    expect(fate('anthropic', 'assistant', parts.geminiThought)).toBe(
      "left: Gemini's thinking: only Gemini takes it back",
    );
    expect(fate('anthropic', 'assistant', parts.geminiSignature)).toBe(
      'left: a Gemini thought signature: only Gemini takes it back',
    );
    expect(note('anthropic', 'user', parts.thinking)).toBe(
      'anthropic: left out 1 thinking part (the Messages API takes no thinking part here)',
    );
    expect(fate('anthropic', 'user', { type: 'tool_use', id: 't', name: 'f', input: {} })).toBe(
      'left: the Messages API takes no such part here',
    );
    expect(note('anthropic', 'user', parts.video)).toBe(
      'anthropic: left out 1 video part (the Messages API takes no such part here)',
    );
  });
});

describe('partFor: Responses', () => {
  it("keeps the API's own parts, and tells its items from an SDK's reasoning", () => {
    for (const p of [parts.responsesImage, parts.responsesFile, parts.responsesCsv, parts.responsesPdfUrl])
      expect(fate('responses', 'user', p)).toBe('kept');
    expect(fate('responses', 'tool', parts.responsesImage)).toBe('kept');
    expect(fate('responses', 'assistant', parts.refusal)).toBe('kept');
    expect(isResponsesItem(parts.responsesReasoning)).toBe(true);
    expect(isResponsesItem(parts.codexSearch)).toBe(true);
    expect(isResponsesItem(parts.vercelReasoning)).toBe(false);
    expect(isResponsesItem(parts.langchainReasoning)).toBe(false);
  });

  it('converts images to input_image parts and files to input_file parts', () => {
    const image = (u: string, detail = 'auto'): unknown => [
      'input_image part',
      { type: 'input_image', image_url: u, detail },
    ];
    expect(fate('responses', 'user', parts.chatImage)).toEqual(image('https://img.example/a.png', 'low'));
    expect(fate('responses', 'user', parts.anthropicImage)).toEqual(image(`data:image/png;base64,${PNG}`));
    expect(fate('responses', 'user', parts.vercelImage)).toEqual(image('https://ci.example/shot.png'));
    expect(fate('responses', 'user', parts.geminiImage)).toEqual(image(`data:image/png;base64,${PNG}`));
    expect(fate('responses', 'user', parts.anthropicPdf)).toEqual([
      'input_file part',
      { type: 'input_file', filename: 'document.pdf', file_data: `data:application/pdf;base64,${PDF}` },
    ]);
    expect(fate('responses', 'user', parts.vercelMarkdown)).toEqual([
      'input_file part',
      { type: 'input_file', filename: 'bug.md', file_data: 'data:text/markdown;base64,IyBCdWcK' },
    ]);
    expect(fate('responses', 'user', parts.chatFile)).toEqual([
      'input_file part',
      { type: 'input_file', file_id: 'file-abc', filename: 'a.pdf' },
    ]);
    expect(fate('responses', 'user', parts.anthropicText)).toEqual([
      'input_text part',
      { type: 'input_text', text: 'the terms' },
    ]);
    expect(note('responses', 'user', parts.chatImage)).toBe(
      'responses: converted 1 image_url part to an input_image part',
    );
  });

  it('leaves out what it cannot reach or take: other providers’ file ids and URIs, audio, misplaced parts', () => {
    expect(note('responses', 'user', parts.anthropicFileImage)).toBe(
      'responses: left out 1 image part (a file id the Responses API cannot reference)',
    );
    expect(note('responses', 'user', parts.geminiFilesApi)).toBe(
      'responses: left out 1 fileData part (a URI the Responses API cannot fetch)',
    );
    expect(note('responses', 'user', parts.chatAudio)).toBe(
      'responses: left out 1 input_audio part (the Responses API takes no audio)',
    );
    expect(fate('responses', 'assistant', parts.chatImage)).toBe(
      'left: the Responses API takes images only in input messages and tool outputs',
    );
    expect(fate('responses', 'user', parts.refusal)).toBe(
      'left: the Responses API takes refusals only from the assistant',
    );
    expect(note('responses', 'assistant', parts.thinking)).toBe(
      'responses: left out 1 thinking part (only the Messages API takes thinking blocks)',
    );
    expect(fate('responses', 'assistant', parts.vercelReasoning)).toBe(
      'left: reasoning the SDK recorded for one provider: no request takes it back',
    );
    expect(fate('responses', 'assistant', parts.geminiThought)).toBe(
      "left: Gemini's thinking: only Gemini takes it back",
    );
  });
});

describe('PartLog', () => {
  it('counts each part of an item once, groups like changes and names them in order', () => {
    const log = new PartLog('anthropic');
    log.part('u', 0, parts.chatImage, 'user');
    log.part('u', 1, parts.chatAudio, 'user');
    log.part('u', 2, parts.chatDataImage, 'user');
    // The same item written again (a result answering two calls) is not counted twice.
    log.part('u', 2, parts.chatDataImage, 'user');
    log.part('u', 3, parts.anthropicImage, 'user');
    log.note('u', 'tool call id a sent as a_2 (tool_use ids must be unique in a request)');
    expect([...log.notes()]).toEqual([
      [
        'u',
        [
          'anthropic: converted 2 image_url parts to image blocks',
          'anthropic: left out 1 input_audio part (the Messages API takes no audio)',
          'anthropic: tool call id a sent as a_2 (tool_use ids must be unique in a request)',
        ],
      ],
    ]);
  });
});

describe('the emitters write and count through parts.ts', () => {
  const context = [
    ci('u', 'user', [{ type: 'text', text: 'Why does this fail?' }, parts.vercelImage, parts.chatAudio]),
    ci('a', 'assistant', [parts.geminiThought, { type: 'text', text: 'A stale cache.' }, parts.refusal]),
  ];

  it('Chat Completions', () => {
    const { messages, notes } = toOpenAIWithOrigins(context);
    expect(messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Why does this fail?' },
          { type: 'image_url', image_url: { url: 'https://ci.example/shot.png' } },
          parts.chatAudio,
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'A stale cache.' }, parts.refusal] },
    ]);
    expect([...notes]).toEqual([
      ['u', ['openai: converted 1 image part to an image_url part']],
      ['a', ["openai: left out 1 thought part (Gemini's thinking: only Gemini takes it back)"]],
    ]);
  });

  it('Anthropic Messages', () => {
    const { request, notes } = toAnthropicWithOrigins(context);
    expect(request.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Why does this fail?' },
          { type: 'image', source: { type: 'url', url: 'https://ci.example/shot.png' } },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'A stale cache.' },
          { type: 'text', text: "I can't do that." },
        ],
      },
    ]);
    expect([...notes]).toEqual([
      [
        'u',
        [
          'anthropic: converted 1 image part to an image block',
          'anthropic: left out 1 input_audio part (the Messages API takes no audio)',
        ],
      ],
      [
        'a',
        [
          "anthropic: left out 1 thought part (Gemini's thinking: only Gemini takes it back)",
          'anthropic: converted 1 refusal part to a text block',
        ],
      ],
    ]);
  });

  it('Responses', () => {
    const { request, notes } = toResponsesWithOrigins(context);
    expect(request.input).toEqual([
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'Why does this fail?' },
          { type: 'input_image', image_url: 'https://ci.example/shot.png', detail: 'auto' },
        ],
      },
      {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'A stale cache.', annotations: [] }, parts.refusal],
      },
    ]);
    expect([...notes]).toEqual([
      [
        'u',
        [
          'responses: converted 1 image part to an input_image part',
          'responses: left out 1 input_audio part (the Responses API takes no audio)',
        ],
      ],
      ['a', ["responses: left out 1 thought part (Gemini's thinking: only Gemini takes it back)"]],
    ]);
  });

  it('tool results: text only for Chat Completions, images kept in an Anthropic tool_result', () => {
    const ctx = [
      ci('a', 'assistant', '', { tool_calls: [tc('c1', 'screenshot', '{}')] }),
      ci('r', 'tool', [{ type: 'text', text: 'here' }, parts.chatDataImage], { call_id: 'c1' }),
    ];
    const openai = toOpenAIWithOrigins(ctx);
    expect(openai.messages[1]).toEqual({ role: 'tool', tool_call_id: 'c1', content: 'here' });
    expect(openai.notes.get('r')).toEqual([
      'openai: left out 1 image_url part (Chat Completions takes images only from the user)',
    ]);
    const anthropic = toAnthropicWithOrigins(ctx);
    // messages[0] is the placeholder user turn put before the leading assistant turn.
    expect(anthropic.request.messages[2]?.content[0]).toEqual({
      type: 'tool_result',
      tool_use_id: 'c1',
      content: [
        { type: 'text', text: 'here' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
      ],
    });
  });
});

describe('thinking without its signature (web-session exports)', () => {
  const unsigned = { type: 'thinking', thinking: 'Look at the parser first.' };
  const UNSIGNED_NOTE =
    'anthropic: left out 1 thinking part (unsigned, as web-session exports write it: the Messages API takes no thinking without its signature, and ignores the thinking of earlier turns)';

  it('is left out of every turn but the last one of an open tool loop, with a note', () => {
    const context = [
      ci('u1', 'user', 'Fix the parser.'),
      ci('a1', 'assistant', [unsigned, { type: 'text', text: 'Reading it.' }], {
        tool_calls: [tc('c1', 'read', '{}')],
      }),
      ci('r1', 'tool', 'def parse(): ...', { call_id: 'c1' }),
      ci('a2', 'assistant', [unsigned], { tool_calls: [tc('c2', 'edit', '{}')] }),
      ci('r2', 'tool', 'edited', { call_id: 'c2' }),
    ];
    const { request, notes } = toAnthropicWithOrigins(context);
    expect(request.messages[1]?.content.map((b) => b.type)).toEqual(['text', 'tool_use']);
    expect(notes.get('a1')).toEqual([UNSIGNED_NOTE]);
    // The open loop's thinking stays, and the provider check says it cannot be sent.
    expect(request.messages[3]?.content.map((b) => b.type)).toEqual(['thinking', 'tool_use']);
    expect(notes.get('a2')).toBeUndefined();
    expect(providerIssues(context, 'anthropic').map((i) => [i.rule, i.ids])).toEqual([
      ['anthropic-block-shape', ['a2']],
    ]);
    // Once the loop is closed, it is left out there too, and the request can be sent.
    const closed = [...context, ci('a3', 'assistant', 'Done.'), ci('u2', 'user', 'Thanks.')];
    expect(toAnthropicWithOrigins(closed).notes.get('a2')).toEqual([UNSIGNED_NOTE]);
    expect(providerIssues(closed, 'anthropic')).toEqual([]);
  });

  it('leaves out a turn that held nothing else', () => {
    const { request } = toAnthropicWithOrigins([
      ci('u1', 'user', 'Hi.'),
      ci('a1', 'assistant', [unsigned]),
      ci('u2', 'user', 'Hello?'),
    ]);
    expect(request.messages.map((m) => m.role)).toEqual(['user', 'user']);
  });

  it('keeps signed thinking where it was', () => {
    const signed = { ...unsigned, signature: 'sig' };
    const { request, notes } = toAnthropicWithOrigins([
      ci('u1', 'user', 'Hi.'),
      ci('a1', 'assistant', [signed, { type: 'text', text: 'Hello.' }]),
      ci('u2', 'user', 'Bye.'),
    ]);
    expect(request.messages[1]?.content[0]).toEqual(signed);
    expect(notes.size).toBe(0);
  });
});

describe('which emitter notes the ledger gets', () => {
  it('the request the context is written as: --emit, `same` resolved, the policy target, the format', () => {
    expect(emitApis('responses', 'same', 'responses')).toEqual(['responses']);
    expect(emitApis('codex', 'same', 'same')).toEqual(['responses']);
    expect(emitApis('codex', 'same')).toEqual(['responses']);
    expect(emitApis('openai', 'same', 'responses')).toEqual(['responses']);
    expect(emitApis('responses', 'same', 'anthropic')).toEqual(['anthropic']);
    expect(emitApis('responses', 'anthropic')).toEqual(['anthropic']);
    expect(emitApis('claude-web', 'same', 'same')).toEqual(['anthropic']);
    expect(emitApis('vercel-ai', 'same')).toEqual(['openai', 'anthropic']);
    expect(emitApis('native', 'same', 'native')).toEqual(['openai', 'anthropic']);
    expect(emitApis('native', 'openai', 'native')).toEqual(['openai']);
  });

  it('merges the notes of several requests in order', () => {
    const context = [ci('u', 'user', [{ type: 'text', text: 'see' }, parts.chatAudio])];
    expect(emitNotes(context, ['openai', 'anthropic', 'responses']).get('u')).toEqual([
      'anthropic: left out 1 input_audio part (the Messages API takes no audio)',
      'responses: left out 1 input_audio part (the Responses API takes no audio)',
    ]);
  });

  it('with --emit responses, the ledger has the Responses emitter’s notes', () => {
    const tr = t(
      user('u1', [{ type: 'text', text: 'What is in it?' }, parts.chatAudio]),
      asst('a1', [parts.thinking, { type: 'text', text: 'A song.' }]),
      calls('a2', [call('c1', 'play')]),
      result('r1', 'c1', 'played'),
      user('u2', 'Thanks.'),
    );
    // The audio part alone counts 1,000 tokens: a budget of 2,000 holds the whole history, so
    // nothing is cut (issue 27) and every artifact is in the context with its notes.
    const r = (emit: 'responses' | 'openai' | 'anthropic'): StabilizeResult =>
      stabilizeTranscript(tr, { policy: policy({ budget: 2000 }), tokenizer: wordTokenizer, emit });
    expect(r('responses').ledger.every((e) => e.action === 'kept')).toBe(true);
    expect(entry(r('responses'), 'u1').emit).toEqual([
      'responses: left out 1 input_audio part (the Responses API takes no audio)',
    ]);
    expect(entry(r('responses'), 'a1').emit).toEqual([
      'responses: left out 1 thinking part (only the Messages API takes thinking blocks)',
    ]);
    expect(entry(r('openai'), 'u1').emit).toBeUndefined();
    expect(entry(r('anthropic'), 'a1').emit).toBeUndefined();
  });
});
