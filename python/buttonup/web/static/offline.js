// Gives the page an engine in the browser (local_engine.js over the WebAssembly build in
// ./wasm/): loaded before app.js by the index.html that `buttonup export-site` writes.
import { LocalEngine } from "./local_engine.js";

globalThis.buttonupEngine = LocalEngine.load(new URL("./wasm/buttonup_wasm.js", import.meta.url).href);
