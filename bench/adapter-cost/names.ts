// The rows of the adapter-cost section: no imports, so that bench/run.ts can print the table
// without loading the adapters or the generator.

/** The adapters timed from import to warm call; `stabilizer` is the ContextStabilizer itself. */
export const ADAPTERS = ['stabilizer', 'request-body', 'ai-sdk', 'langchain', 'openai-agents'] as const;
export type AdapterName = (typeof ADAPTERS)[number];

/**
 * The AI SDK middleware given a new copy of the prompt at every call: generateText and streamText
 * build the provider prompt anew at each step (convertToLanguageModelPrompt). A warm row only.
 */
export const AI_SDK_REBUILT = 'ai-sdk-rebuilt';

/** The warm rows: every adapter, then the AI SDK with a rebuilt prompt. */
export const WARM_ROWS = [...ADAPTERS, AI_SDK_REBUILT] as const;
export type WarmName = (typeof WARM_ROWS)[number];
