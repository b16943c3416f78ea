// Types of the emscripten glue built by the `wasm` preset (wasm/CMakeLists.txt copies
// papan-engine.mjs and papan-engine.wasm here; they are build outputs, not in git).
export interface EmscriptenInit {
  /** the .wasm bytes (node: the tests read the file); browsers fetch it through locateFile */
  wasmBinary?: Uint8Array;
  locateFile?: (path: string, prefix: string) => string;
  /** one analysis line as JSON text, called during papan_analyse */
  onInfo?: (json: string) => void;
  print?: (text: string) => void;
  printErr?: (text: string) => void;
}

export interface EmscriptenModule {
  cwrap(name: string, returnType: 'string' | 'number' | null, argTypes: ('string' | 'number')[]): (...args: (string | number)[]) => unknown;
  onInfo?: (json: string) => void;
}

declare function createPapanModule(init?: EmscriptenInit): Promise<EmscriptenModule>;
export default createPapanModule;
