error: main.jh: E_SCHEMA unsupported type in returns schema: "integer" (only string, number, boolean allowed)
