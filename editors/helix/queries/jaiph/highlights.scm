; Jaiph bodies are shell: reuse the bash queries with the bash grammar
; (languages.toml sets grammar = "bash").
; inherits: bash
