"""Stage 4, the site: ``build_site`` plans the languages, runs one worker per language, writes each
language's Sphinx sources and renders them, and swaps the finished site into the output folder;
``cache`` keeps what an unchanged language needs, ``progress`` shows the build as it runs."""
