"""Stage 1, reading the rule sources: DocBook files (``sources``), their translatable segments as
itstool cuts them (``segment``), the document model (``document``), the machine-readable rules
blocks (``rulesblock``), the examples that step through a game (``examples``) and the engine's
own models lent to pages without a rules block (``enginemodels``)."""
