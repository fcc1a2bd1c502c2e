"""Policy: the files a user writes, the shipped default, the managed layer, their settings."""
