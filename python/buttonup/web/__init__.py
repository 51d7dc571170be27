"""``buttonup serve``: the game and the analysis board in the browser, and a JSON API
for other front ends (docs/http.md). Needs the ``web`` extra:
``pip install '.[web]'``."""
