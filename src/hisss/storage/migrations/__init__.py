"""The database's schema history as Alembic revisions, one per schema version (see
:mod:`hisss.storage.schema`). A new version adds a file to ``versions/``; revisions are named by
the schema version they make (``0004`` makes schema 4)."""
