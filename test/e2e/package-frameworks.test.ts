// The packed tarball beside the latest LangChain.js and the latest OpenAI Agents SDK (issue 29):
// `npm install <tarball> <framework>@latest` succeeds without --legacy-peer-deps (our peer ranges
// admit the current releases), and each adapter runs that framework's own loop, a tool call and its
// result included, with a fake model that records what it receives: PII masked in the prompt and
// in the tool result, the framework's own history untouched. Needs build/ (`npm test` builds first);
// skipped, with a warning, when the npm registry is unreachable.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { TIMEOUT, ok, packTarball, registryUnreachable, runAsync } from './npm-child.js';

const REPO = path.resolve(fileURLToPath(import.meta.url), '../../..');
const OFFLINE = registryUnreachable(tmpdir());
if (OFFLINE) console.warn(`e2e: ${OFFLINE}: the framework install tests are skipped.`);

const EMAIL = 'jane.roe@example.com';
const PHONE = '+1 415 555 0134';
const QUESTION = `Where is order 7? Mail me at ${EMAIL}`;
const MASKED_QUESTION = 'Where is order 7? Mail me at [EMAIL_1]';
const RESULT = `order 7: shipped; courier phone ${PHONE}`;
const MASKED_RESULT = 'order 7: shipped; courier phone [PHONE_1]';

/**
 * createAgent with our middleware and LangChain's fakeModel: the model calls `lookup`, then answers.
 * Prints each request the model received as [type, text] pairs.
 */
const LANGCHAIN = [
  "import { AIMessage, HumanMessage, createAgent, fakeModel, tool } from 'langchain';",
  "import { createContextStabilizer } from 'context-stability';",
  "import { contextStabilityMiddleware } from 'context-stability/langchain';",
  'const seen = [];',
  'const record = (messages) => seen.push(messages.map((m) => [m.type, m.text]));',
  'const model = fakeModel()',
  "  .respond((m) => { record(m); return new AIMessage({ content: '', tool_calls: [{ id: 'call_1', name: 'lookup', args: { order: 7 }, type: 'tool_call' }] }); })",
  "  .respond((m) => { record(m); return new AIMessage('Order 7 has shipped.'); });",
  `const lookup = tool(({ order }) => \`order \${order}: shipped; courier phone ${PHONE}\`, {`,
  "  name: 'lookup', description: 'Look an order up.',",
  "  schema: { type: 'object', properties: { order: { type: 'number' } }, required: ['order'] } });",
  'const stabilizer = createContextStabilizer({ policy: { budget: 500 }, onWarning: () => {} });',
  "const agent = createAgent({ model, tools: [lookup], systemPrompt: 'You help.', middleware: [contextStabilityMiddleware(stabilizer)] });",
  `const result = await agent.invoke({ messages: [new HumanMessage(${JSON.stringify(QUESTION)})] });`,
  'console.log(JSON.stringify({ history: result.messages.map((m) => m.text), seen }));',
].join('\n');

/**
 * A Runner with our input filter and a Model of our own (the SDK's interface): it calls `lookup`,
 * then answers. Prints each request as its instructions and its items in short.
 */
const AGENTS = [
  "import { Agent, Runner, Usage, setTracingDisabled, tool } from '@openai/agents';",
  "import { createContextStabilizer } from 'context-stability';",
  "import { contextStabilityInputFilter } from 'context-stability/openai-agents';",
  // The default trace exporter would post to the OpenAI API.
  'setTracingDisabled(true);',
  'const seen = [];',
  'const short = (i) => i.type === "message" ? [i.role, i.content] : i.type === "function_call" ? [i.type, i.callId, i.arguments] : [i.type, i.callId, i.output.text ?? i.output];',
  'const model = {',
  '  async getResponse(request) {',
  '    seen.push([request.systemInstructions, ...request.input.map(short)]);',
  "    const output = request.input.at(-1)?.type === 'function_call_result'",
  "      ? [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Order 7 has shipped.' }] }]",
  "      : [{ type: 'function_call', callId: 'call_1', name: 'lookup', arguments: '{\"order\":7}', status: 'completed' }];",
  '    return { usage: new Usage(), output, responseId: `resp_${seen.length}` };',
  '  },',
  "  getStreamedResponse() { throw new Error('the fake model does not stream'); },",
  '};',
  "const lookup = tool({ name: 'lookup', description: 'Look an order up.', strict: true,",
  "  parameters: { type: 'object', properties: { order: { type: 'number' } }, required: ['order'], additionalProperties: false },",
  `  execute: ({ order }) => \`order \${order}: shipped; courier phone ${PHONE}\` });`,
  'const stabilizer = createContextStabilizer({ policy: { budget: 500 }, onWarning: () => {} });',
  "const agent = new Agent({ name: 'helper', instructions: 'You help.', model, tools: [lookup] });",
  'const runner = new Runner({ callModelInputFilter: contextStabilityInputFilter(stabilizer) });',
  `const result = await runner.run(agent, ${JSON.stringify(QUESTION)});`,
  'console.log(JSON.stringify({ answer: result.finalOutput, history: result.history.map(short), seen }));',
].join('\n');

const FRAMEWORKS = [
  {
    name: 'langchain',
    install: ['langchain@latest', '@langchain/core@latest'],
    script: LANGCHAIN,
    expected: {
      history: [QUESTION, '', RESULT, 'Order 7 has shipped.'],
      seen: [
        [
          ['system', 'You help.'],
          ['human', MASKED_QUESTION],
        ],
        [
          ['system', 'You help.'],
          ['human', MASKED_QUESTION],
          ['ai', ''],
          ['tool', MASKED_RESULT],
        ],
      ],
    },
  },
  {
    name: '@openai/agents',
    install: ['@openai/agents@latest'],
    script: AGENTS,
    expected: {
      answer: 'Order 7 has shipped.',
      history: [
        ['user', QUESTION],
        ['function_call', 'call_1', '{"order":7}'],
        ['function_call_result', 'call_1', RESULT],
        ['assistant', [{ type: 'output_text', text: 'Order 7 has shipped.' }]],
      ],
      seen: [
        ['You help.', ['user', MASKED_QUESTION]],
        [
          'You help.',
          ['user', MASKED_QUESTION],
          ['function_call', 'call_1', '{"order":7}'],
          ['function_call_result', 'call_1', MASKED_RESULT],
        ],
      ],
    },
  },
] as const;

let work: string;
let tarball: string;

beforeAll(() => {
  if (OFFLINE) return;
  work = mkdtempSync(path.join(tmpdir(), 'cs-frameworks-'));
  tarball = packTarball(REPO, work).tarball;
}, TIMEOUT);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

function versionOf(project: string, name: string): string {
  const file = path.join(project, 'node_modules', name, 'package.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

describe.skipIf(OFFLINE)("the package beside each framework's latest release", () => {
  // Concurrent: the two installs wait mostly on the network and the disk.
  for (const { name, install, script, expected } of FRAMEWORKS)
    it.concurrent(
      `${name}: installs without flags, and the adapter stabilizes what the model receives`,
      async ({ expect }) => {
        const project = path.join(work, name.replace(/\W/g, '-'));
        mkdirSync(project);
        writeFileSync(
          path.join(project, 'package.json'),
          '{ "name": "c", "version": "1.0.0", "private": true, "type": "module" }\n',
        );
        const args = ['install', tarball, ...install, '--no-audit', '--no-fund', '--prefer-offline'];
        ok(await runAsync('npm', args, project), `npm install <tarball> ${install.join(' ')}`);
        const versions = install.map((spec) => {
          const pkg = spec.slice(0, spec.lastIndexOf('@'));
          return `${pkg}@${versionOf(project, pkg)}`;
        });
        writeFileSync(path.join(project, 'agent.mjs'), script);
        const out = ok(await runAsync(process.execPath, ['agent.mjs'], project), 'node agent.mjs');
        expect(JSON.parse(out), `with ${versions.join(', ')}`).toEqual(expected);
      },
      TIMEOUT,
    );
});
