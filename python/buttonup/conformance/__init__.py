"""The conformance kit: checks any Button Up! implementation against buttonup.

An application beside ``cli/``, ``engine/`` and ``web/`` (the library never imports it).
``buttonup conformance -- COMMAND`` starts ``COMMAND``, speaks the kit's line protocol
with it (docs/conformance.md) and compares every answer with this project's Rust engine,
itself checked against the pure-Python reference. ``--ugi`` checks a UGI engine instead,
and ``--export DIR`` writes the same checks as a static corpus for other test suites.

The modules: ``command`` (the options and the run), ``oracle`` (the expected answers),
``process`` (the implementation's process, pipelined, with time-outs), ``checker``
(questions sent, answers judged, disagreements counted), ``properties`` (the positions
hypothesis draws), ``shrink`` (each kind's smallest example), ``ugi`` (the engine
check), ``corpus`` (the export), ``report`` (what is printed and written), and
``adapter`` (this project's own implementation of the protocol).
"""
