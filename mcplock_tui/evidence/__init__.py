"""The decision log: signed, hash-chained records (``records``) and their verification
(``verify``): what proves that every pinned definition was reviewed."""
