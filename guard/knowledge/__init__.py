"""What commands, environment variables and tools do, as data, and the readers that apply it to an
argv."""
