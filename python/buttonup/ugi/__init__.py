"""The UGI protocol for other programs: ``buttonup engine``, the core's UGI engine on
standard input and output (:mod:`buttonup.ugi.command`), and a referee that plays two
engine processes against each other (``python -m buttonup.ugi.referee``)."""
