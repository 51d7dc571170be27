// The colour theme: automatic (the system's), light or dark, kept in localStorage.

const THEMES = ["auto", "light", "dark"];
const KEY = "buttonup-theme";

function apply(button, theme) {
  if (theme === "auto") delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
  button.textContent = `Theme: ${theme}`;
  button.setAttribute("aria-label", `Colour theme: ${theme === "auto" ? "automatic" : theme}. Change it`);
}

export function setUpTheme(button) {
  let theme = "auto";
  try {
    theme = THEMES.includes(localStorage.getItem(KEY)) ? localStorage.getItem(KEY) : "auto";
  } catch (error) {
    // storage refused (a private window): the automatic theme
  }
  apply(button, theme);
  button.addEventListener("click", () => {
    theme = THEMES[(THEMES.indexOf(theme) + 1) % THEMES.length];
    try {
      localStorage.setItem(KEY, theme);
    } catch (error) {
      // not kept
    }
    apply(button, theme);
  });
}
