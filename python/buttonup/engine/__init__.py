"""Front ends for other programs: the UGI engine on standard input and output
(``buttonup engine``) and a referee that plays two engine processes against each other
(``python -m buttonup.engine.referee``)."""
