import { loadTokenizer } from '../src/tokens/load.js';
const t = await loadTokenizer('o200k_base');
const g = (globalThis as any).gc as () => void;
const mb = (l: string) => { const m = process.memoryUsage(); console.log(l, 'heap', (m.heapUsed/1e6).toFixed(0), 'rss', (m.rss/1e6).toFixed(0), 'ext', (m.external/1e6).toFixed(0), 'ab', (m.arrayBuffers/1e6).toFixed(0)); };
g(); mb('start');
const pad = 'x'.repeat(470);
let s = 0;
for (let i = 0; i < 100000; i++) { s += t.count(pad + i); if (i % 25000 === 0) mb('i' + i); }
mb('end'); g(); mb('gc');
