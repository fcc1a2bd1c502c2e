"""What commands, environment variables and tools do, as data: tables, records and small pure
lookups. The code that reads the languages they carry is guard/languages/."""
