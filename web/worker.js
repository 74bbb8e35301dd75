// The engine off the page's thread: a search or a deep perft never freezes the page.
import { load } from './rulebook.js';

const engine = fetch('rulebook.wasm')
  .then((r) => r.arrayBuffer())
  .then((bytes) => load(bytes));

self.onmessage = async ({ data: { id, request } }) => {
  const e = await engine;
  let answer;
  try {
    answer = e.call(request);
  } catch (err) {
    answer = { error: `the engine failed: ${err}` };
  }
  self.postMessage({ id, answer });
};
