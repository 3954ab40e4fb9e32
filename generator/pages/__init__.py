"""Stage 3, what a game page gets besides its text: where the piles lie (``layout``), the picture
of the opening deal (``setuppicture``), the solver's figures (``figures``), the examples' step
widgets (``widgets``) and the live board with its Pyodide runtime (``board``)."""
