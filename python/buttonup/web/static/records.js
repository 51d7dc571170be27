// Saving a match as its record (a text file in the record format of docs/notation.md)
// and loading one back: the engine writes and reads the record; the page only moves the
// text between the engine and a file.

import { $ } from "./dom.js";

// Hands `text` to the browser as a file to save, named `name`.
export function saveText(text, name) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

// `current()` gives the engine's latest Match (or null); `loaded(match)` starts the
// page on an imported one; `fail(error)` shows a refusal.
export function setUpRecords(engine, current, loaded, fail) {
  $("download").addEventListener("click", async () => {
    const match = current();
    if (!match) return;
    try {
      saveText(await engine.record(match.id), `buttonup-match-${new Date().toISOString().slice(0, 10)}.txt`);
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
      const players = $("opponent") && $("opponent").value === "two" ? 2 : 1;
      const match = await engine.importRecord(text, { human, level: Number($("level").value), players });
      loaded(match);
    } catch (error) {
      fail(error);
    } finally {
      $("upload").value = "";
    }
  });
}
