error: main.jh: E_PARSE duplicate name "build" — rules, workflows, and functions share a single namespace (already declared as rule)
