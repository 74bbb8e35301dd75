// The engine in a page (or in Node): load rulebook.wasm once (its bytes, or the module compiled
// from them), then `call` it with a request object and get the answer object. See
// web/engine/src/lib.rs for the requests.

export async function load(wasm) {
  const now = () => (globalThis.performance ? performance.now() : Date.now());
  const made = await WebAssembly.instantiate(wasm, { env: { rulebook_now_ms: now } });
  // Bytes give a module and its instance, a module only the instance.
  const instance = made.instance ?? made;
  const { memory, rb_alloc, rb_free, rb_call } = instance.exports;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  return {
    call(request) {
      const text = encoder.encode(JSON.stringify(request));
      const at = rb_alloc(text.length);
      new Uint8Array(memory.buffer, at, text.length).set(text);
      const answer = rb_call(at, text.length);
      const length = new DataView(memory.buffer).getUint32(answer, true);
      const json = decoder.decode(new Uint8Array(memory.buffer, answer + 4, length));
      rb_free(answer, 4 + length);
      return JSON.parse(json);
    },
  };
}
