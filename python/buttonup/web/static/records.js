// Saving a match as its record (a text file in the record format of docs/notation.md)
// and loading one back: the engine writes and reads the record; the page only moves the
// text between the engine and a file.

import { $ } from "./dom.js";

// `current()` gives the engine's latest Match (or null); `loaded(match)` starts the
// page on an imported one; `fail(error)` shows a refusal.
export function setUpRecords(engine, current, loaded, fail) {
  $("download").addEventListener("click", async () => {
    const match = current();
    if (!match) return;
    try {
      const text = await engine.record(match.id);
      const link = document.createElement("a");
      link.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
      link.download = `buttonup-match-${new Date().toISOString().slice(0, 10)}.txt`;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    } catch (error) {
      fail(error);
    }
  });
  $("upload").addEventListener("change", async () => {
    const file = $("upload").files[0];
    if (!file) return;
    try {
      const text = await file.text();
      const human = document.querySelector("input[name=colour]:checked").value;
      const match = await engine.importRecord(text, { human, level: Number($("level").value) });
      loaded(match);
    } catch (error) {
      fail(error);
    } finally {
      $("upload").value = "";
    }
  });
}
