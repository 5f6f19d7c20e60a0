// One child process of the adapter-cost section (bench/adapter-cost/imports.ts starts it with plain
// `node`, cwd at the repository): the import of the BUILT package (build/, through package.json
// "exports": this file lies inside the package, so `context-stability` resolves to itself), then the
// first stabilize call of a new session. Prints one JSON line.
//   node bench/adapter-cost/child.mjs --adapter ADAPTER [--preload] [--history FILE.json]
//   ADAPTER: stabilizer | request-body | ai-sdk | langchain | openai-agents | none | tokenizer
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { adapter: { type: 'string' }, preload: { type: 'boolean' }, history: { type: 'string' } },
});
const adapter = values.adapter ?? 'none';

/** The framework an app using the adapter has loaded already. */
const FRAMEWORK = { 'ai-sdk': 'ai', langchain: 'langchain', 'openai-agents': '@openai/agents-core' };
const SUBPATH = {
  'request-body': 'context-stability/request-body',
  'ai-sdk': 'context-stability/ai-sdk',
  langchain: 'context-stability/langchain',
  'openai-agents': 'context-stability/openai-agents',
};
const POLICY = { budget: 8000 };

const ms = (t) => performance.now() - t;
/** Process CPU time (user + system, all threads) since `c`, in ms: less moved by a busy machine. */
const cpuMs = (c) => {
  const u = process.cpuUsage(c);
  return (u.user + u.system) / 1000;
};
const out = { adapter, preload: values.preload === true };

if (adapter === 'tokenizer') {
  // The floor of a first call: the o200k table, imported as src/tokens/load.ts imports it.
  const [t, c] = [performance.now(), process.cpuUsage()];
  await import('gpt-tokenizer/encoding/o200k_base');
  out.importMs = ms(t);
  out.importCpuMs = cpuMs(c);
} else if (adapter !== 'none') {
  if (values.preload && FRAMEWORK[adapter]) {
    const t = performance.now();
    await import(FRAMEWORK[adapter]);
    out.frameworkMs = ms(t);
  }
  const c = process.cpuUsage();
  let t = performance.now();
  const core = await import('context-stability');
  out.coreMs = ms(t);
  t = performance.now();
  const mod = SUBPATH[adapter] ? await import(SUBPATH[adapter]) : core;
  out.subpathMs = ms(t);
  out.importMs = out.coreMs + out.subpathMs;
  out.importCpuMs = cpuMs(c);

  const history = JSON.parse(readFileSync(values.history, 'utf8'));
  const call = await firstCall(core, mod, history);
  const c2 = process.cpuUsage();
  t = performance.now();
  const sent = await call();
  out.firstCallMs = ms(t);
  out.firstCallCpuMs = cpuMs(c2);
  out.sent = sent;
}
process.stdout.write(`${JSON.stringify(out)}\n`);

/** The first call through the adapter (stabilizer made inside it); framework objects made before. */
async function firstCall(core, mod, history) {
  const make = () =>
    core.createContextStabilizer({ policy: POLICY, onEscalated: 'continue', onWarning: () => {} });
  const session = 'first';
  switch (adapter) {
    case 'stabilizer':
      return async () => {
        const out = await make().stabilize(history, 'openai', { session, format: 'openai' });
        return out.payload.messages.length;
      };
    case 'request-body':
      return async () => {
        const body = { model: 'gpt-4.1', temperature: 0, ...history };
        return (await mod.stabilizeOpenAIRequest(make(), body, { session })).messages.length;
      };
    case 'ai-sdk':
      return async () => {
        const mw = mod.contextStabilityMiddleware(make(), { session });
        const params = { prompt: history.prompt, maxOutputTokens: 1024 };
        return (await mw.transformParams({ type: 'generate', params, model: undefined })).prompt.length;
      };
    case 'langchain': {
      const lc = await import('langchain');
      const classes = {
        system: lc.SystemMessage,
        human: lc.HumanMessage,
        ai: lc.AIMessage,
        tool: lc.ToolMessage,
      };
      const [system, ...messages] = history.specs.map((s) => new classes[s.cls](s.fields));
      return async () =>
        (await mod.stabilizeLangChainMessages(make(), messages, { session, systemMessage: system })).messages
          .length;
    }
    case 'openai-agents':
      return async () => {
        const filter = mod.contextStabilityInputFilter(make(), { session });
        const modelData = { input: history.input, instructions: history.instructions };
        return (await filter({ modelData, agent: { name: 'coder' }, context: undefined })).input.length;
      };
    default:
      throw new Error(`unknown adapter ${adapter}`);
  }
}
