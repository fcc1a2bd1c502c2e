"""The languages commands carry, read as code: an argv by its command's spec, SQL, sed programs,
inline interpreter code, bash's own argv, URLs and HTTP request items. Below projection, above
knowledge (whose tables they read); pure functions of text."""
