"""MkDocs hooks (mkdocs.yml): the API reference must document every public name."""
