error: main.jh: E_PARSE prompt cannot contain command substitution ($( ... )); use variable expansion only
