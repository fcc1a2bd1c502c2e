"""Text to projection: parse, words and their values, the walk, invocations, paths, requests.
Pure."""
