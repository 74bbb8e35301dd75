// The engine off the page's thread: a search or a deep perft never freezes the page. The page
// sends the compiled module first, so that a new worker (after Stop) needs no network.
import { load } from './rulebook.js';

let engine = null;
self.onmessage = async ({ data }) => {
  if (data.module) {
    engine = load(data.module);
    return;
  }
  const { id, request } = data;
  let answer;
  try {
    answer = (await engine).call(request);
  } catch (err) {
    answer = { error: `the engine failed: ${err}` };
  }
  self.postMessage({ id, answer });
};
